/* hyperx/hyperx_shape.h — a HyperX's sizes, numbering and wiring as address
 * arithmetic, and its routing (hyperx_route.c).
 *
 * Routers: coordinates c_0..c_{L-1}, c_d in [0, S_d); router id =
 * sum c_d * stride_d, stride_0 = 1 (dimension 0 varies fastest). In
 * dimension d a router is joined to each of the S_d - 1 routers that differ
 * from it only in c_d by K_d links (trunking). Ports of router c: dimension d
 * holds ports base_d .. base_d + (S_d - 1) K_d - 1, base_d = sum_{e<d}
 * (S_e - 1) K_e; the link k (0 <= k < K_d) to coordinate v != c_d is port
 * base_d + j K_d + k with j = v - [v > c_d] (the others in order, c_d
 * skipped). It arrives on link k of the same pair at the far end. After the
 * network ports come the T terminal ports; terminal t sits on router t / T,
 * port P + t mod T, P = sum_d (S_d - 1) K_d.
 *
 * Routing. dor: the lowest dimension whose coordinate differs is corrected
 * in one hop, the trunk chosen by a hash of the message's flow (a message
 * keeps its path): at most L hops, deadlock-free on one VC (dimension order,
 * one hop per dimension: channels are used in rising dimension).
 * dal (dimensionally adaptive, load balanced, after Ahn et al.): at each
 * router any unaligned dimension may be corrected next (adaptive order), on
 * its least occupied trunk; in a dimension not derouted yet with S_d >= 3 a
 * packet may instead take one hop to a random third coordinate (a deroute,
 * at most one per dimension). It derouts when q_nm (H + 1) + threshold <
 * q_min H (q: bytes queued and unreturned at the port, net_port_occupancy;
 * H: dimensions still unaligned), ties to the minimal hop. At most
 * sum_d (1 + [S_d >= 3]) hops over the dimensions of size >= 2.
 * VC rule of dal: a hop's VC class is the router hops the packet took
 * before it; classes strictly rise along every path, so the channel
 * dependency graph is acyclic; dal needs as many classes as its longest
 * path has hops (refused above NET_MAX_VCS). With vcs = V above the need n,
 * class c owns VCs c, c + n, ... < V and a message keeps lane flow mod
 * lanes. */
#ifndef HYPERX_SHAPE_H
#define HYPERX_SHAPE_H

#include <stdint.h>

#include "net/topology.h"

#define HYPERX_MAX_DIMS 16

typedef enum hx_routing { HX_DOR = 0, HX_DAL = 1 } hx_routing;

typedef struct hyperx {
    int n;                          /* L, dimensions */
    int64_t S[HYPERX_MAX_DIMS];     /* routers per dimension */
    int64_t K[HYPERX_MAX_DIMS];     /* links per router pair in a dimension */
    uint64_t stride[HYPERX_MAX_DIMS];
    int32_t base[HYPERX_MAX_DIMS];  /* first port of each dimension */
    int32_t net_ports;              /* P: router-router ports per router */
    int64_t T;                      /* terminals per router */
    uint64_t routers;
    hx_routing routing;
    int classes;                    /* VC classes the routing needs */
    int vcs;                        /* VCs per port, >= classes */
    double threshold;               /* dal: bytes a deroute must save */
    double bandwidth, latency;      /* router-router links */
    double term_bandwidth, term_latency;
} hyperx;

/* Coordinate of router r in dimension d. */
static inline int64_t hx_coord(const hyperx *h, uint64_t r, int d)
{
    return (int64_t)(r / h->stride[d] % (uint64_t)h->S[d]);
}

/* Port of router r (coordinate c in d) for link k to coordinate v != c in d. */
static inline int32_t hx_port(const hyperx *h, int d, int64_t c, int64_t v, int64_t k)
{
    return h->base[d] + (int32_t)((v - (v > c)) * h->K[d] + k);
}

/* Router hops between routers a and b: the dimensions they differ in. */
uint32_t hx_distance(const hyperx *h, uint64_t a, uint64_t b);
/* VC classes routing `alg` needs on this shape (dor 1, dal its longest path). */
int hx_route_classes(const hyperx *h, hx_routing alg);
/* The routing decision at in->router (see above); dst_router = in->dst / T. */
net_route_out hx_route(const hyperx *h, const net_route_in *in);

#endif
