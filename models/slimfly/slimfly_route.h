/* slimfly_route.h — Slim Fly routing as pure functions of (graph, packet route
 * state, current router, destination router, one random draw, port occupancy).
 *
 * The network layer calls sf_route_hop once per router a packet visits and
 * stores the returned state in the packet; nothing else is remembered, so a
 * rollback only has to restore the packet's previous sf_pkt_route.
 *
 * Random choices. Each call takes one 64-bit draw from the caller's reversible
 * stream; the sub-draws a decision needs are derived from it by SplitMix64
 * (sub-draw k = mix(draw + (k+1)·0x9E3779B97F4A7C15)). A choice among n
 * options takes option floor(u·n / 2^32) of the sub-draw's high 32 bits u.
 *
 * Minimal: a direct link when adjacent; otherwise one of the common
 * neighbours, chosen uniformly by the draw (one in most cases; up to two for
 * routers in different subgraphs; several inside one column).
 * Valiant: at the source router an intermediate router, uniform among all
 * routers other than source and destination; minimal to it, then minimal to
 * the destination (at most 4 hops).
 * UGAL: at the source router, the minimal path and n_indirect Valiant
 * candidates are compared. Cost of the minimal path: occ(first port);
 * candidate i: (L_i / L_M) · c_sf · occ(first port of i), with L_M the minimal
 * hop count and L_i = dist(src, I_i) + dist(I_i, dst). The cheapest wins; ties
 * go to the minimal path, then to the earlier candidate. With threshold T > 0
 * a candidate must be cheaper than the minimal path by more than T (the bias
 * BookSim's UGAL applies so that brief, low-load occupancy does not send
 * packets the long way); T = 0 is the plain formula. What occ measures is
 * the caller's choice (the Slim Fly topology passes queued bytes plus bytes in
 * flight on the port, see slimfly_topo.c).
 * VCs: the packet's i-th router-to-router hop uses VC i; minimal routing needs
 * 2 VCs, Valiant and UGAL 4. */
#ifndef SLIMFLY_ROUTE_H
#define SLIMFLY_ROUTE_H

#include <stdint.h>

#include "slimfly/slimfly_mms.h"

typedef enum sf_routing {
    SF_ROUTE_MINIMAL = 0,
    SF_ROUTE_VALIANT = 1,
    SF_ROUTE_UGAL = 2,
} sf_routing;

typedef struct sf_route_cfg {
    sf_routing alg;
    int n_indirect; /* UGAL: Valiant candidates compared with the minimal path */
    double c_sf;    /* UGAL: weight of the non-minimal cost */
    double threshold; /* UGAL: margin (occupancy units) a candidate must win by */
} sf_route_cfg;

typedef enum sf_phase {
    SF_PHASE_SOURCE = 0, /* not routed yet: the source router decides */
    SF_PHASE_TO_INTER = 1, /* heading to `inter` */
    SF_PHASE_TO_DST = 2,
} sf_phase;

/* The routing state a packet carries (8 bytes). */
typedef struct sf_pkt_route {
    uint32_t inter; /* intermediate router while phase == SF_PHASE_TO_INTER */
    uint8_t phase;  /* sf_phase */
    uint8_t hops;   /* router-to-router hops taken so far */
    uint8_t pad[2];
} sf_pkt_route;

/* The start state of a packet entering the network. */
sf_pkt_route sf_route_start(void);

/* Occupancy of output port `port` of the router deciding (UGAL only). */
typedef double (*sf_occ_fn)(const void *ctx, int port);

typedef struct sf_hop {
    int port;          /* output port, or SF_EJECT at the destination router */
    int vc;            /* VC of the hop on that port (= hops before it) */
    sf_pkt_route next; /* the state to store in the packet */
} sf_hop;

#define SF_EJECT (-1)

/* The next hop of a packet at router cur bound for router dst. occ may be
 * NULL unless cfg->alg is UGAL and in.phase is SF_PHASE_SOURCE. */
sf_hop sf_route_hop(const sf_mms *g, const sf_route_cfg *cfg, sf_pkt_route in, uint32_t cur,
                    uint32_t dst, uint64_t draw, sf_occ_fn occ, const void *occ_ctx);

/* VCs a routing needs for deadlock freedom (its longest path in hops). */
int sf_route_vcs(sf_routing alg);

/* Number of first hops of minimal paths from cur to dst (cur != dst). */
int sf_min_count(const sf_mms *g, uint32_t cur, uint32_t dst);
/* The k-th of those first hops as an output port of cur (0 <= k < count). */
int sf_min_choice(const sf_mms *g, uint32_t cur, uint32_t dst, int k);
/* Those first hops, at most max of them, into ports; returns how many. */
int sf_min_ports(const sf_mms *g, uint32_t cur, uint32_t dst, int32_t *ports, int max);
/* The first hop of a minimal path from cur to dst picked by a 32-bit draw. */
int sf_min_port(const sf_mms *g, uint32_t cur, uint32_t dst, uint32_t draw);

/* A Valiant intermediate: uniform over routers other than src and dst. */
uint32_t sf_valiant_pick(const sf_mms *g, uint32_t src, uint32_t dst, uint32_t draw);

/* Sub-draw k of a hop's draw (see above), as 32 bits. */
uint32_t sf_subdraw(uint64_t draw, int k);

#endif
