/* net/dot.c — --describe and --dump-topology: facts about the built
 * network without simulating it. Reads only the read-only description.
 * Called by the warpnet driver. */
#include <stdio.h>

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

void net_describe(const net_model *n, FILE *f)
{
    net_memory_estimate m;
    net_memory(n, &m);
    /* Large or unbuilt networks are described from the formulas alone:
     * links from the radix, no per-port loops. */
    double ports = (double)n->routers * n->max_radix;
    int exact = ports <= (double)NET_DESCRIBE_EXACT_PORTS && n->wl_type;
    fprintf(f, "topology: %s\n", net_model_topology_name(n));
    fprintf(f, "nodes: %llu\n", (unsigned long long)n->nodes);
    fprintf(f, "routers: %llu\n", (unsigned long long)n->routers);
    if (exact)
        fprintf(f, "links: %llu\n", (unsigned long long)net_model_links(n));
    else
        fprintf(f, "links: %.0f (at most: router ports not holding a node, halved; counted "
                   "exactly up to %llu ports)\n",
                ports > (double)n->nodes ? (ports - (double)n->nodes) / 2 : 0,
                (unsigned long long)NET_DESCRIBE_EXACT_PORTS);
    fprintf(f, "radix: %d\n", (int)n->max_radix);
    if (exact && n->topo_ops && n->topo_ops->describe)
        n->topo_ops->describe(n->topo, f);
    fprintf(f, "ranks: %llu\n", (unsigned long long)n->ranks);
    if (n->routers) {
        fprintf(f, "vcs: %d\n", (int)n->vcs);
        fprintf(f, "injection_bandwidth_GBps: %g\n", n->inj_bandwidth);
        if (exact)
            net_describe_links(n, f);
    }
    if (n->wl_type) /* the model is complete: its lookahead is set */
        fprintf(f, "lookahead_ns: %.6g (the least delay between groups: --synch=cons's window, the safe "
                   "bound's step; 0: none)\n", n->model.lookahead);
    double base = m.state + m.replicated, total = base + m.events;
    fprintf(f, "memory_state_bytes: %.0f (%.1f MiB, %.0f bytes per node; LP states, outputs, tables)\n",
            base, base / 1048576.0, base / (double)n->nodes);
    fprintf(f, "memory_bound_bytes: %.0f (%.1f MiB, %.0f bytes per node; every buffer full of events)\n",
            total, total / 1048576.0, total / (double)n->nodes);
    if (!exact) {
        const warp_ctx *w = net_engine(n);
        double need = net_memory_per_rank(&m, warp_nranks(w));
        fprintf(f, "memory_per_rank_bytes: %.0f (%.1f GiB on %d rank(s); %.1f GiB available per rank)\n",
                need, need / 1073741824.0, warp_nranks(w),
                (double)warp_memory_per_rank(w) / 1073741824.0);
    }
}

int net_dump_dot(const net_model *n, const char *path, const char **why)
{
    if (!n->routers) {
        *why = "analytic networks have no routers to draw";
        return -1;
    }
    if (n->routers > NET_DOT_MAX) {
        *why = "too many routers to draw (the limit is " "4096" ")";
        return -1;
    }
    FILE *f = fopen(path, "w");
    if (!f) {
        *why = "cannot open the file for writing";
        return -1;
    }
    const net_topology_ops *t = n->topo_ops;
    fprintf(f, "graph \"%s\" {\n  node [shape=box];\n", t->name);
    char label[128];
    for (uint64_t r = 0; r < n->routers; r++) {
        if (t->router_label)
            t->router_label(n->topo, r, label, sizeof label);
        else
            snprintf(label, sizeof label, "r%llu", (unsigned long long)r);
        fprintf(f, "  r%llu [label=\"%s\"];\n", (unsigned long long)r, label);
    }
    for (uint64_t r = 0; r < n->routers; r++) {
        int32_t k = t->radix(n->topo, r);
        for (int32_t p = 0; p < k; p++) {
            net_peer q = t->peer(n->topo, r, p);
            if (q.kind == NET_PEER_ROUTER && (q.id > r || (q.id == r && q.port > p)))
                fprintf(f, "  r%llu -- r%llu [taillabel=%d, headlabel=%d];\n",
                        (unsigned long long)r, (unsigned long long)q.id, (int)p, (int)q.port);
            else if (q.kind == NET_PEER_TERMINAL && n->nodes <= NET_DOT_MAX)
                fprintf(f, "  t%llu [shape=ellipse];\n  r%llu -- t%llu;\n",
                        (unsigned long long)q.id, (unsigned long long)r, (unsigned long long)q.id);
            else if (q.kind == NET_PEER_GATEWAY)
                fprintf(f, "  g%llu [shape=diamond, label=\"%s\"];\n  r%llu -- g%llu;\n",
                        (unsigned long long)q.id,
                        n->net_ops->lp_type(n->net, q.id)->name, (unsigned long long)r,
                        (unsigned long long)q.id);
        }
    }
    fprintf(f, "}\n");
    if (fclose(f) != 0) {
        *why = "write failed";
        return -1;
    }
    return 0;
}
