/* net/dot.c — --describe and --dump-topology: facts about the built
 * network without simulating it. Reads only the read-only description.
 * Called by the warpnet driver. */
#include <stdio.h>

#include "net/model.h"
#include "net/net_impl.h"

void net_describe(const net_model *n, int ranks, FILE *f)
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
    double base = m.state + m.replicated;
    fprintf(f, "memory_state_bytes: %.0f (%.1f MiB, %.0f bytes per node; LP states, outputs, tables)\n",
            base, base / 1048576.0, base / (double)n->nodes);
    fprintf(f, "memory_events_bytes: %.0f (%.1f MiB; %.1f events of %.0f bytes per node in flight at "
               "load %.2f, %.0f ns zero-load per %s)\n",
            m.flight, m.flight / 1048576.0, m.flight_per_node, m.event_bytes, m.load, m.zero_load_ns,
            n->routers ? "packet" : "message");
    if (m.heap > 0)
        fprintf(f, "memory_workload_bytes: %.0f (%.1f MiB; the workload's tables beside its LP states)\n",
                m.heap, m.heap / 1048576.0);
    fprintf(f, "memory_saturated_bytes: %.0f (%.1f MiB, %.0f bytes per node; every buffer full of events, "
               "a saturated network's ceiling)\n",
            m.saturated, m.saturated / 1048576.0, m.saturated / (double)n->nodes);
    double need = net_memory_expected_per_rank(&m, ranks);
    fprintf(f, "memory_per_rank_bytes: %.0f (%.2f GiB expected peak on each of %d rank(s), %.0f MiB of them "
               "the program and MPI: give a rank this much, --mem-per-rank or the job's memory per task)\n",
            need, need / 1073741824.0, ranks, m.process / 1048576.0);
    uint64_t have = warp_memory_per_rank(net_engine(n));
    if (have)
        fprintf(f, "memory_available_per_rank_bytes: %llu (%.1f GiB per rank here)\n",
                (unsigned long long)have, (double)have / 1073741824.0);
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
