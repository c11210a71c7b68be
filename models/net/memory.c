/* net/memory.c — the memory a run needs, estimated from the counts before
 * anything per node is allocated, and the refusal of a run that does not
 * fit a rank. Reads only the sized description (net_model_size). Called by
 * build.c (the refusal) and dot.c (--describe). */
#include <math.h>
#include <stdio.h>

#include "warp_cfg.h"
#include "net/model.h"
#include "net/net_impl.h"

/* A workload LP's state and output when the workload is not built yet
 * (sizing): above what the shipped workloads use. */
#define NET_WORKLOAD_LP_GUESS 1024.0

void net_memory(const net_model *n, net_memory_estimate *m)
{
    /* LP states and output blocks, the description, placement, the
     * per-terminal result rows, and the events that can be in flight when
     * every input buffer is full (one event per buffered packet plus one
     * credit and one port event per port). */
    const warp_lp_type *term = n->net_ops->lp_type(n->net, 0);
    double wl = n->wl_type ? (double)(n->wl_type->state_size + n->wl_type->out_size)
                           : NET_WORKLOAD_LP_GUESS;
    double state = (double)n->nodes * (double)(term->state_size + term->out_size) +
                   (double)n->ranks * wl;
    double events = 4.0 * (double)n->nodes;
    for (uint64_t i = n->nodes + n->routers; i < n->nodes + n->lps; i++) {
        const warp_lp_type *t = n->net_ops->lp_type(n->net, i); /* the network's own LPs */
        state += (double)(t->state_size + t->out_size);
    }
    uint64_t ports = (uint64_t)n->routers * (uint64_t)(n->max_radix > 0 ? n->max_radix : 0);
    if (n->routers) {
        state += (double)n->routers * (double)(n->router_type.state_size + n->router_type.out_size);
        double pkts_per_vc = (double)(n->params.vc_buffer / n->params.packet_size);
        events += (double)ports * (n->vcs * pkts_per_vc + 2);
        /* Buffers that differ by port are counted one by one, where that
         * is quick; large networks keep the uniform figure. */
        if (n->topo_ops->vc_buffer && ports <= NET_DESCRIBE_EXACT_PORTS) {
            events -= (double)ports * n->vcs * pkts_per_vc;
            for (uint64_t r = 0; r < n->routers; r++)
                for (int32_t p = 0; p < n->topo_ops->radix(n->topo, r); p++)
                    events += (double)n->vcs *
                              (double)(net_input_buffer(n, r, p) / n->params.packet_size);
        }
    }
    double desc = (double)(n->topo_ops && n->topo_ops->mem_bytes ? n->topo_ops->mem_bytes(n->topo) : 0) +
                  (double)n->ranks * 8 + (double)n->nodes * 8;
    double rows = (double)n->nodes * NET_TERM_COLS * 8 + (double)ports * NET_PORT_COLS * 8;
    m->state = state;
    m->replicated = desc + rows;
    m->events = events * (sizeof(net_event) + 64.0); /* payload + engine header, roughly */
    /* The engine's own record per LP, beside its state (engine/internal.h's
     * warp_lp, rounded up). */
    m->lps = (double)(n->nodes + n->lps + n->ranks) * 128.0;
}

double net_memory_per_rank(const net_memory_estimate *m, int ranks)
{
    return m->replicated + (m->state + m->lps) / (ranks > 0 ? ranks : 1);
}

/* Stops, before anything per node is allocated, a run whose estimate does
 * not fit the memory of a rank, naming the ranks or memory that would. */
void net_memory_refuse_oversized(const net_model *n)
{
    const warp_ctx *w = n->engine;
    uint64_t have = warp_memory_per_rank(w);
    net_memory_estimate m;
    net_memory(n, &m);
    int ranks = warp_nranks(w);
    double need = net_memory_per_rank(&m, ranks);
    if (!have || need <= (double)have)
        return;
    /* In the unit each figure fills: "0.0 GiB" for a 1 KiB rank said nothing. */
    char fit[256], src[96], b_need[16], b_have[16], b_rep[16], b_least[16];
    warp_cfg_fmt_bytes(b_need, sizeof b_need, need);
    warp_cfg_fmt_bytes(b_have, sizeof b_have, (double)have);
    if (warp_option_given(w, "mem-per-rank"))
        snprintf(src, sizeof src, "--mem-per-rank");
    else
        snprintf(src, sizeof src, "available memory / %d rank(s) on the node; set --mem-per-rank",
                 warp_ranks_on_node(w));
    double spread = m.state + m.lps;
    if (m.replicated < 0.9 * (double)have) {
        double r = ceil(spread / (0.9 * (double)have - m.replicated));
        snprintf(fit, sizeof fit, "run on at least %.0f ranks with that memory each, or give each "
                 "of %d rank(s) %s (--mem-per-rank)", r, ranks, b_need);
    } else {
        snprintf(fit, sizeof fit, "no rank count fits: every rank holds %s of per-node "
                 "tables; give each rank at least %s (--mem-per-rank) or shrink the network",
                 warp_cfg_fmt_bytes(b_rep, sizeof b_rep, m.replicated),
                 warp_cfg_fmt_bytes(b_least, sizeof b_least, m.replicated + spread / ranks));
    }
    warp_fatal(WARP_EXIT_RESOURCE,
               "%s with %llu nodes and %llu routers needs about %s per rank on %d rank(s), "
               "but a rank has %s (%s): %s",
               n->name, (unsigned long long)n->nodes, (unsigned long long)n->routers, b_need,
               ranks, b_have, src, fit);
}
