/* dfp_route.h — Dragonfly+ routing as pure functions of (shape, the
 * packet's route state, current router, destination leaf, one random draw,
 * the deciding router's port occupancies). The topology calls
 * dfp_route_hop once per router a packet visits and stores the returned
 * state in the packet.
 *
 * Leaving group i towards group t: a leaf goes up to the owner spine of one
 * of group i's links to t, the link picked by the draw among all of them; a
 * spine that owns links to t takes one of its own (by the draw). Inside a
 * group a leaf goes up to any spine (by the draw) and a spine down to the
 * destination leaf; parallel leaf-spine links are picked by the draw too.
 *
 * minimal  up, global, down: 3 router hops between groups, 2 inside one.
 * valiant  at the source leaf an intermediate group I, uniform among the
 *          groups other than source and destination; minimal to I; the
 *          spine the packet lands on in I takes its own link to the
 *          destination group if it has one (up, global, global, down: 4
 *          hops), else goes down to a leaf of I (by the draw), which goes
 *          up to a spine with such a link (up, global, down, up, global,
 *          down: 6 hops). Traffic inside a group, and networks of two
 *          groups, route minimally.
 * ugal     at the source leaf, the minimal path against n_indirect Valiant
 *          candidates, each costed from the occupancy q of its first
 *          output port at the leaf: cost = q · H (H: the path's router
 *          hops) or q alone with hop_weight off. A candidate must be
 *          cheaper by more than the threshold; ties go to the minimal path.
 * par      progressive adaptive (CODES's prog-adaptive): ugal at the source
 *          leaf and, for a packet still minimal, once more at the source
 *          spine, between its global port to the destination group and
 *          n_indirect of its own global ports to other groups (which become
 *          the intermediate group). A diversion at the spine adds no hop.
 *
 * VCs (deadlock freedom), the rule of the Dragonfly+ paper: a packet
 * changes from VC class 0 to class 1 when it turns in its intermediate
 * group, i.e. at the first hop out of that group's routers that is not a
 * spine-to-leaf (down) hop: up from the intermediate leaf, or global from
 * the intermediate spine; all later hops stay in class 1. Within a class
 * every path follows up* (leaf to spine), then global, then down, at most
 * one of each, so ranking channels up < global < down orders every
 * dependency inside a class, and dependencies only go from class 0 to
 * class 1: the channel dependency graph is acyclic. Minimal routing never
 * turns and needs 1 class; valiant, ugal and par 2 (dfp_route_vcs). With
 * vcs = V above the need n, class c uses VCs c, c + n, ... < V; a message's
 * packets take lane flow mod lanes, so a VC never mixes classes.
 *
 * Random choices: each call takes one 64-bit draw and derives sub-draws
 * (rng/warp_draw.h): 0 the link (or spine) of the path taken, or of UGAL's
 * minimal path, 1 the Valiant group, 2 the parallel leaf-spine link, 3 the
 * leaf of a down hop in the intermediate group; UGAL candidate c takes its
 * group (or at a spine its global port) from 4 + 2c and its link from 5 + 2c.
 */
#ifndef DFP_ROUTE_H
#define DFP_ROUTE_H

#include <stdint.h>

#include "dragonfly/dfp_shape.h"

typedef enum dfp_routing {
    DFP_MINIMAL = 0,
    DFP_VALIANT = 1,
    DFP_UGAL = 2,
    DFP_PAR = 3,
} dfp_routing;

typedef struct dfp_route_cfg {
    dfp_routing alg;
    int n_indirect;   /* UGAL / PAR: Valiant candidates per decision (>= 1) */
    int hop_weight;   /* 1: cost = occupancy x hops; 0: occupancy alone */
    double threshold; /* bytes a non-minimal candidate must save */
    int vcs;          /* VCs per port, >= dfp_route_vcs(alg) */
} dfp_route_cfg;

/* The state a packet carries between routers (network layer: aux[0..1]). */
typedef struct dfp_pkt {
    uint32_t inter;  /* intermediate group + 1; 0: none */
    uint8_t reached; /* the packet has been in its intermediate group */
    uint8_t turned;  /* it has turned there: its hops are class 1 */
} dfp_pkt;

static inline void dfp_pkt_pack(dfp_pkt p, uint32_t aux[2])
{
    aux[0] = p.inter;
    aux[1] = (uint32_t)p.reached | (uint32_t)p.turned << 1;
}
static inline dfp_pkt dfp_pkt_unpack(const uint32_t aux[2])
{
    dfp_pkt p = {aux[0], (uint8_t)(aux[1] & 1), (uint8_t)(aux[1] >> 1 & 1)};
    return p;
}

/* Occupancy (bytes) of one of the deciding router's output ports. */
typedef struct dfp_occ {
    double (*port)(const void *ctx, int32_t port);
    const void *ctx;
} dfp_occ;

typedef struct dfp_hop {
    int32_t port; /* output port, or DFP_EJECT at the destination leaf */
    int32_t vc;   /* VC at the next router's input */
    dfp_pkt next; /* the state to store in the packet */
} dfp_hop;

#define DFP_EJECT (-1)

/* The next hop of a packet at router cur bound for leaf router dst. `hops`
 * is the router hops it has taken (0 at its source leaf), `flow` picks its
 * lane. occ may be NULL for minimal and valiant. */
dfp_hop dfp_route_hop(const dfp_shape *s, const dfp_route_cfg *cfg, dfp_pkt in, uint32_t hops,
                      uint32_t flow, uint64_t cur, uint64_t dst, uint64_t draw, const dfp_occ *occ);

/* VC classes a routing needs (1 minimal, 2 otherwise) and the longest path
 * it takes in router hops (3 minimal, 6 otherwise). */
int dfp_route_vcs(dfp_routing alg);
int dfp_route_max_hops(dfp_routing alg);

#endif
