/* net/partition.c — which rank holds each router ([engine] partition):
 * block (index blocks, the packet network's placement so far) or topology
 * (the topology's partition hook, block without one); terminals and ranks
 * follow their router. Also the --describe --ranks=N quality lines. Every
 * function is a pure function of the read-only description, so every
 * process computes the same partition. Called by model.c, packet.c and
 * the driver. */
#include <math.h>
#include <stdlib.h>

#include "net/model.h"
#include "net/net_impl.h"

/* The load of each router for balancing (heap): its LPs (itself, its
 * terminals and their ranks) plus its expected events (as measure() below:
 * one per connected port, one per terminal and rank). */
static double *router_loads(const net_topology_ops *ops, const void *topo)
{
    uint64_t routers = ops->routers(topo);
    double *c = warp_xcalloc(routers ? routers : 1, sizeof *c);
    for (uint64_t r = 0; r < routers; r++) {
        int32_t k = ops->radix(topo, r);
        c[r] = 1;
        for (int32_t p = 0; p < k; p++) {
            net_peer_kind kind = ops->peer(topo, r, p).kind;
            c[r] += kind == NET_PEER_TERMINAL ? 5 : kind != NET_PEER_NONE;
        }
    }
    return c;
}

void net_partition_runs(const net_topology_ops *ops, const void *topo, const uint64_t *order,
                        uint64_t unit, uint32_t parts, uint32_t *part)
{
    uint64_t routers = ops->routers(topo);
    double *load = router_loads(ops, topo);
    /* cum[j]: load of the first j routers of the order. */
    double *cum = warp_xcalloc(routers + 1, sizeof *cum);
    for (uint64_t j = 0; j < routers; j++)
        cum[j + 1] = cum[j] + load[order ? order[j] : j];
    free(load);
    double share = cum[routers] / parts;
    uint64_t start = 0;
    for (uint32_t i = 0; i < parts; i++) {
        uint64_t end = routers;
        if (i + 1 < parts) {
            double target = share * (i + 1);
            uint64_t j = start + 1;
            while (j < routers && cum[j] < target)
                j++;
            if (j > start + 1 && target - cum[j - 1] < cum[j] - target)
                j--;
            uint64_t u = unit > 1 ? (j + unit / 2) / unit * unit : j;
            if (u > start && u < routers && fabs(cum[u] - target) <= 0.02 * share)
                j = u;
            /* Leave at least one router for each part still to come. */
            uint64_t last = routers - (parts - 1 - i);
            end = j < start + 1 ? start + 1 : j > last ? last : j;
        }
        for (uint64_t j = start; j < end; j++)
            part[order ? order[j] : j] = i;
        start = end;
    }
    free(cum);
}

uint32_t *net_partition(const net_model *n, warp_partition_kind kind, uint32_t parts)
{
    uint64_t routers = n->routers;
    uint32_t *part = warp_xcalloc(routers ? routers : 1, sizeof *part);
    if (parts > 1 && kind == WARP_PARTITION_TOPOLOGY && n->topo_ops->partition &&
        parts <= routers) {
        n->topo_ops->partition(n->topo, parts, part);
        return part;
    }
    for (uint64_t r = 0; r < routers; r++)
        part[r] = (uint32_t)(r * parts / routers);
    return part;
}

/* ---- --describe --ranks=N --------------------------------------------------- */

typedef struct quality {
    uint64_t cut;          /* router links between parts */
    double lp_imbalance;   /* max / mean LPs per part */
    double ev_imbalance;   /* max / mean expected events per part */
} quality;

/* Every link is taken as equally loaded: a router's expected events grow
 * with its connected ports, a terminal's and a rank's are one port's. */
static quality measure(const net_model *n, const uint32_t *part, uint32_t parts)
{
    quality q = {0, 0, 0};
    double *lps = warp_xcalloc(parts, sizeof *lps), *ev = warp_xcalloc(parts, sizeof *ev);
    for (uint64_t r = 0; r < n->routers; r++) {
        int32_t k = n->topo_ops->radix(n->topo, r);
        lps[part[r]] += 1;
        for (int32_t p = 0; p < k; p++) {
            net_peer e = n->topo_ops->peer(n->topo, r, p);
            if (e.kind == NET_PEER_NONE)
                continue;
            ev[part[r]] += 1;
            if (e.kind == NET_PEER_ROUTER && (e.id > r || (e.id == r && e.port > p)))
                q.cut += part[e.id] != part[r];
        }
    }
    for (uint64_t t = 0; t < n->nodes; t++) {
        uint32_t p = part[n->topo_ops->attach(n->topo, t).router];
        double with_rank = n->term_rank[t] >= 0 ? 2 : 1;
        lps[p] += with_rank;
        ev[p] += with_rank;
    }
    double lmax = 0, lsum = 0, emax = 0, esum = 0;
    for (uint32_t p = 0; p < parts; p++) {
        lmax = lps[p] > lmax ? lps[p] : lmax;
        emax = ev[p] > emax ? ev[p] : emax;
        lsum += lps[p];
        esum += ev[p];
    }
    q.lp_imbalance = lmax * parts / lsum;
    q.ev_imbalance = emax * parts / esum;
    free(lps);
    free(ev);
    return q;
}

void net_partition_check_ranks(const net_model *n, int64_t parts)
{
    if (!n->routers || n->net_ops != &net_packet_network)
        warp_fatal(WARP_EXIT_USAGE, "--ranks=%lld: partition quality needs a packet network on a "
                   "topology; %s places its LPs by its own rule", (long long)parts, n->name);
    if (parts < 1 || (uint64_t)parts > n->routers)
        warp_fatal(WARP_EXIT_USAGE, "--ranks=%lld: give 1 .. %llu ranks (one router each at "
                   "least; the network has %llu routers)", (long long)parts,
                   (unsigned long long)n->routers, (unsigned long long)n->routers);
}

void net_describe_partition(const net_model *n, warp_partition_kind kind, int64_t parts, FILE *f)
{
    net_partition_check_ranks(n, parts);
    uint64_t links = net_model_links(n);
    /* A link traversal costs the same events on a router or a terminal link;
     * only router links between parts carry remote events. */
    double traversals = (double)(links + n->nodes);
    uint32_t *blk = net_partition(n, WARP_PARTITION_BLOCK, (uint32_t)parts);
    quality b = measure(n, blk, (uint32_t)parts);
    free(blk);
    uint32_t *mine = net_partition(n, kind, (uint32_t)parts);
    quality q = measure(n, mine, (uint32_t)parts);
    free(mine);
    fprintf(f, "partition: %s on %lld ranks\n", warp_partition_name(kind), (long long)parts);
    fprintf(f, "links_cut: %llu of %llu (%.2f %%); block: %llu\n", (unsigned long long)q.cut,
            (unsigned long long)links, links ? 100.0 * (double)q.cut / (double)links : 0.0,
            (unsigned long long)b.cut);
    fprintf(f, "expected_remote_share: %.2f %% (block %.2f %%; every link equally loaded)\n",
            100.0 * (double)q.cut / traversals, 100.0 * (double)b.cut / traversals);
    fprintf(f, "lp_imbalance: %.3f (block %.3f; max / mean per rank)\n", q.lp_imbalance,
            b.lp_imbalance);
    fprintf(f, "event_imbalance: %.3f (block %.3f; expected events, max / mean)\n",
            q.ev_imbalance, b.ev_imbalance);
}
