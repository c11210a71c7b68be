/* net/spt.h — routing by shortest-path tables over any wiring: the hop
 * distance between every two routers (breadth-first search from each),
 * minimal next hops chosen per message among all equal ones (ECMP), and the
 * VC rule that makes any minimal routing deadlock-free: a hop's VC class is
 * the router hops the packet took before it, so classes rise strictly along
 * every path (classes needed: the diameter). Used by topologies that route
 * by table (models/graph) and by the failure layer (failures.c), which
 * switches any topology to it when links or routers have failed. */
#ifndef NET_SPT_H
#define NET_SPT_H

#include <stddef.h>
#include <stdint.h>

#include "net/topology.h"

/* Distance of two routers that are not connected. */
#define NET_SPT_FAR 255

/* The wiring the table is built over, in compressed rows: router r's
 * working router-to-router ports are entries off[r] .. off[r+1]-1, entry e
 * leading to router to[e] from port port[e] of r. Entries of one router are
 * in rising port order. The caller owns the arrays. */
typedef struct net_spt {
    uint64_t routers;
    const uint64_t *off;
    const uint64_t *to;
    const int32_t *port;
    uint8_t *dist;     /* routers x routers hop counts (owned), NET_SPT_FAR: unreachable */
    uint32_t diameter; /* the largest finite distance */
    uint64_t far_a, far_b; /* a pair that is not connected (when far_a != far_b) */
} net_spt;

/* Bytes the distance table of `routers` routers takes. */
double net_spt_table_bytes(uint64_t routers);
/* Fills s->dist, s->diameter and far_a/far_b (off, to, port, routers set);
 * distances past NET_SPT_FAR - 1 count as unreachable. */
void net_spt_build(net_spt *s);
void net_spt_free(net_spt *s);
/* Router hops from a to b (NET_SPT_FAR if not connected). */
static inline uint32_t net_spt_hops(const net_spt *s, uint64_t a, uint64_t b)
{
    return s->dist[a * s->routers + b];
}
/* The port of r on a shortest path to router dst (r != dst, connected):
 * among the minimal next hops, with adapt NULL the one a hash of (flow, r)
 * picks, so a message keeps one path and messages spread over all; with a
 * route()'s input the least occupied (adapt->occupancy), ties to the first
 * in the hash's order (minimal adaptive). */
int32_t net_spt_next(const net_spt *s, uint64_t r, uint64_t dst, uint32_t flow, const net_route_in *adapt);
/* The same choice among n given candidate ports (n >= 1): the hash's pick
 * (adapt NULL) or the least occupied, ties to the first from the hash's
 * pick on in list order. */
int32_t net_spt_choose(const int32_t *ports, int32_t n, uint64_t r, uint32_t flow, const net_route_in *adapt);
/* Writes up to max minimal next-hop ports of r towards dst; returns their count. */
int32_t net_spt_ports(const net_spt *s, uint64_t r, uint64_t dst, int32_t *ports, int32_t max);
/* The VC of class `cls` (hops taken) for a message, with `classes` classes
 * over `vcs` VCs: class c owns VCs c, c + classes, ... < vcs; lane flow mod lanes. */
int32_t net_spt_vc(int32_t classes, int32_t vcs, uint32_t cls, uint32_t flow);

#endif
