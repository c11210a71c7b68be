/* net/memory.c — the memory a run needs, estimated from the counts before
 * anything per node is allocated, and the refusal of a run that does not
 * fit a rank. Reads only the sized description (net_model_size). Called by
 * build.c (the refusal) and dot.c (--describe). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>

#include "warp_cfg.h"
#include "net/model.h"
#include "net/net_impl.h"

/* A workload LP's state and output when the workload is not built yet
 * (sizing): above what the shipped workloads use. */
#define NET_WORKLOAD_LP_GUESS 1024.0

/* The program, MPI and the allocator before the model: a run of a 32-node
 * network peaks at 19-24 MiB (Debian 13, MPICH 4.2, jemalloc 5.3). */
#define NET_PROCESS_BYTES (24.0 * 1048576.0)

/* Events one packet in flight keeps: its arrival at the next hop and the
 * credit its departure sends back. Measured 1.3-1.9 per packet on the
 * torus, fat-tree, Slim Fly and dragonfly below saturation. */
#define NET_EVENTS_PER_PACKET 2.0

/* The highest load the queueing factor 1 / (1 - load) is taken at: above
 * it the network saturates and the buffers bound the packets in flight. */
#define NET_LOAD_CAP 0.9

/* The busiest of several ranks holds more than its share of the states and
 * events (partitions balance routers, not packets): measured 1.05-1.15. */
#define NET_RANK_SKEW 1.15

/* Node pairs sampled for the mean hop count. */
#define NET_HOP_SAMPLES 512

/* The payload bytes of the run's event slots: a message's for the
 * analytic networks; up to the departure record where no output-queued
 * router writes one (packet networks of input-queued routers: 136 bytes,
 * with the engine's header four whole cache lines where 160 made five). */
size_t net_event_bytes(const net_model *n)
{
    if (n->net_ops->whole_messages)
        return NET_MSG_EVENT_BYTES;
    if (n->net_ops == &net_packet_network && n->params.input_queued)
        return offsetof(net_event, dep);
    return sizeof(net_event);
}

void net_workload_mem_default(net_workload_mem *m)
{
    *m = (net_workload_mem){.load = 0.5, .message_bytes = 0, .pending = 4, .heap_bytes = 0, .mean_hops = -1};
}

/* The mean of min_hops over pseudo-random node pairs (the same pairs every
 * time: --describe is deterministic); 0 without min_hops. */
static double mean_hops(const net_model *n)
{
    if (!n->topo_ops || !n->topo_ops->min_hops || n->nodes < 2)
        return 0;
    uint64_t x = 0x9e3779b97f4a7c15ull;
    double sum = 0;
    for (int i = 0; i < NET_HOP_SAMPLES; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t a = (x >> 11) % n->nodes;
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        uint64_t b = (x >> 11) % n->nodes;
        sum += n->topo_ops->min_hops(n->topo, a, b);
    }
    return sum / NET_HOP_SAMPLES;
}

/* Routers whose links are sampled for the mean link latency. */
#define NET_LINK_SAMPLES 64

/* The mean latency of router-to-router links (a dragonfly's global links
 * are longer than its local ones), from the ports of routers spread over
 * the network; [network] link_latency when there are none. */
static double mean_link_latency(const net_model *n)
{
    double sum = 0, count = 0;
    uint64_t step = n->routers > NET_LINK_SAMPLES ? n->routers / NET_LINK_SAMPLES : 1;
    for (uint64_t r = 0; r < n->routers; r += step) {
        int32_t radix = n->topo_ops->radix(n->topo, r);
        for (int32_t p = 0; p < radix; p++) {
            net_peer e = n->topo_ops->peer(n->topo, r, p);
            if (e.kind == NET_PEER_ROUTER) {
                sum += e.latency;
                count++;
            }
        }
    }
    return count ? sum / count : n->params.link_latency;
}

/* Events in flight per node at the workload's offered load, by Little's
 * law: arrivals per ns times the time each spends in the network, the
 * zero-load time stretched by 1 / (1 - load) for queueing. A packet network
 * counts packets (router hops at their serialisation, delay and latency);
 * the others count messages over the network's own least delay. */
static double flight_per_node(const net_model *n, double *zero_load_ns)
{
    const net_workload_mem *w = &n->wl_mem;
    double load = w->load < 0 ? 0 : w->load > NET_LOAD_CAP ? NET_LOAD_CAP : w->load;
    double inj = n->inj_bandwidth > 0 ? n->inj_bandwidth : 1;
    double unit, t0;
    if (n->routers) {
        const net_params *p = &n->params;
        unit = (double)p->packet_size;
        double ser = unit / (p->link_bandwidth > 0 ? p->link_bandwidth : inj);
        double hops = w->mean_hops >= 0 ? w->mean_hops : mean_hops(n);
        /* Cut-through pays a packet's serialisation once, store-and-forward
         * at every router and at the NIC. */
        double sers = p->store_forward ? hops + 2 : 1;
        t0 = (hops + 1) * p->router_delay + hops * mean_link_latency(n) + 2 * p->terminal_latency +
             sers * ser;
    } else {
        unit = w->message_bytes > 0 ? w->message_bytes : (double)n->params.packet_size;
        double la = n->net_ops->lookahead ? n->net_ops->lookahead(n->net) : 0;
        t0 = la + unit / inj;
    }
    *zero_load_ns = t0;
    double rate = load * inj / (unit > 0 ? unit : 1); /* packets or messages per ns */
    return NET_EVENTS_PER_PACKET * rate * t0 / (1 - load);
}

void net_memory(const net_model *n, net_memory_estimate *m)
{
    /* LP states and output blocks, the description, placement, the
     * per-terminal result rows. */
    const warp_lp_type *term = n->net_ops->lp_type(n->net, 0);
    double wl = n->wl_type ? (double)(n->wl_type->state_size + n->wl_type->out_size)
                           : NET_WORKLOAD_LP_GUESS;
    double state = (double)n->nodes * (double)(term->state_size + term->out_size) +
                   (double)n->ranks * wl;
    /* A saturated network: one event per buffered packet plus one credit
     * and one port event per port, and each node's injection. */
    double full = 4.0 * (double)n->nodes;
    for (uint64_t i = n->nodes + n->routers; i < n->nodes + n->lps; i++) {
        const warp_lp_type *t = n->net_ops->lp_type(n->net, i); /* the network's own LPs */
        state += (double)(t->state_size + t->out_size);
    }
    uint64_t ports = (uint64_t)n->routers * (uint64_t)(n->max_radix > 0 ? n->max_radix : 0);
    if (n->routers) {
        state += (double)n->routers * (double)(n->router_type.state_size + n->router_type.out_size);
        double pkts_per_vc = (double)(n->params.vc_buffer / n->params.packet_size);
        full += (double)ports * (n->vcs * pkts_per_vc + 2);
        /* Buffers that differ by port are counted one by one, where that
         * is quick; large networks keep the uniform figure. */
        if (n->topo_ops->vc_buffer && ports <= NET_DESCRIBE_EXACT_PORTS) {
            full -= (double)ports * n->vcs * pkts_per_vc;
            for (uint64_t r = 0; r < n->routers; r++)
                for (int32_t p = 0; p < n->topo_ops->radix(n->topo, r); p++)
                    full += (double)n->vcs *
                            (double)(net_input_buffer(n, r, p) / n->params.packet_size);
        }
    }
    double desc = (double)(n->topo_ops && n->topo_ops->mem_bytes ? n->topo_ops->mem_bytes(n->topo) : 0) +
                  (double)n->ranks * 8 + (double)n->nodes * 8;
    double rows = (double)n->nodes * NET_TERM_COLS * 8 + (double)ports * NET_PORT_COLS * 8;
    m->state = state;
    m->replicated = desc + rows;
    m->process = NET_PROCESS_BYTES;
    m->event_bytes = (double)warp_event_footprint(net_event_bytes(n));
    m->saturated = full * m->event_bytes;
    /* Packets in flight cannot outnumber the buffers that hold them (in a
     * credit-bounded fabric); the workload's own pending events come on
     * top, each of them its message's packets where switches queue them. */
    double t0;
    double per_node = flight_per_node(n, &t0);
    double burst = n->wl_mem.pending;
    if (n->net_ops->queues_packets) {
        double pkt = (double)(n->params.packet_size ? n->params.packet_size : 1);
        burst *= n->wl_mem.message_bytes > pkt ? ceil(n->wl_mem.message_bytes / pkt) : 1;
    } else if (n->routers && per_node * (double)n->nodes > full) {
        per_node = full / (double)n->nodes;
    }
    per_node += burst;
    m->flight_per_node = per_node;
    m->load = n->wl_mem.load;
    m->zero_load_ns = t0;
    m->flight = per_node * (double)n->nodes * m->event_bytes;
    m->heap = n->wl_mem.heap_bytes;
    /* The engine's own record per LP, beside its state (engine/internal.h's
     * warp_lp, rounded up), and its pending-event queue's entry. */
    m->lps = (double)(n->nodes + n->lps + n->ranks) * 128.0;
}

double net_memory_per_rank(const net_memory_estimate *m, int ranks)
{
    return m->replicated + (m->state + m->lps) / (ranks > 0 ? ranks : 1);
}

double net_memory_expected_per_rank(const net_memory_estimate *m, int ranks)
{
    double skew = ranks > 1 ? NET_RANK_SKEW : 1.0;
    return m->process + m->replicated +
           skew * (m->state + m->lps + m->flight + m->heap) / (ranks > 0 ? ranks : 1);
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
