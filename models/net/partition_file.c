/* net/partition_file.c — placement files ([engine] partition = file:PATH):
 * writes and reads `ROUTER RANK` lines under a header naming the network
 * (topology, router and node counts, a hash of the router graph) and the
 * rank count. A file is accepted only for the network it was made for, so
 * a placement never lands on another graph unnoticed (the reading itself:
 * partition_parse.c). Called by partition.c (net_partition) and the driver
 * (--write-partition). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warp_hash.h"
#include "net/model.h"
#include "net/net_impl.h"
#include "net/partition_parse.h"

uint64_t net_partition_graph_hash(const net_model *n)
{
    const net_topology_ops *ops = n->topo_ops;
    uint64_t h = warp_fnv1a(WARP_FNV1A_INIT, &n->routers, sizeof n->routers);
    h = warp_fnv1a(h, &n->nodes, sizeof n->nodes);
    for (uint64_t r = 0; r < n->routers; r++) {
        int32_t k = ops->radix(n->topo, r);
        h = warp_fnv1a(h, &k, sizeof k);
        for (int32_t p = 0; p < k; p++) {
            net_peer e = ops->peer(n->topo, r, p);
            /* Only the wiring: bandwidths and latencies move no router. */
            uint64_t w[3] = {(uint64_t)e.kind, e.id, (uint64_t)(uint32_t)e.port};
            h = warp_fnv1a(h, w, sizeof w);
        }
    }
    for (uint64_t t = 0; t < n->nodes; t++) {
        net_attach a = ops->attach(n->topo, t);
        h = warp_fnv1a(h, &a.router, sizeof a.router);
    }
    return h;
}

int net_partition_write(const net_model *n, const uint32_t *part, uint32_t parts,
                        const char *path, const char *comment)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    fprintf(f, "# warpnet placement: ROUTER RANK per line; run with --partition=file:%s\n", path);
    if (comment && *comment)
        fprintf(f, "# %s\n", comment);
    fprintf(f, "%s\nnetwork %s routers %" PRIu64 " nodes %" PRIu64 " graph %016" PRIx64 "\n"
               "ranks %" PRIu32 "\n", NET_PARTITION_MAGIC, n->name, n->routers, n->nodes,
            net_partition_graph_hash(n), parts);
    for (uint64_t r = 0; r < n->routers; r++)
        fprintf(f, "%" PRIu64 " %" PRIu32 "\n", r, part[r]);
    return fclose(f) == 0 ? 0 : -1;
}

uint32_t *net_partition_read(const net_model *n, const char *path, uint32_t parts)
{
    net_partition_want want = {n->name, n->routers, n->nodes, net_partition_graph_hash(n)};
    return net_partition_parse(path, &want, parts);
}
