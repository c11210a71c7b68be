/* dragonfly_route.h — dragonfly routing as pure functions of (shape, the packet's
 * route state, current router, destination router, one random draw, port
 * occupancies). The network layer calls dfly_route_hop once per router a
 * packet visits and stores the returned state in the packet.
 *
 * Leaving a group towards group t (the exit). A router with global links to
 * t takes one of its own (by the draw); otherwise it takes a local hop to
 * the owner of one of its group's links to t, picked by the draw among all
 * of them — in a Cascade group, among those whose owner is in its column
 * when it came in by a row hop (the row hop brought it to that column, so
 * the next hop is the column hop to the owner and the path never
 * wanders). Inside the destination group: the local path (one hop, or row
 * then column) to the destination router.
 *
 * minimal   exit to the destination group, local hop to the destination
 *           router: at most 3 hops (l g l).
 * valiant   at the source router an intermediate group I, uniform among the
 *           groups other than source and destination (Kim et al.'s
 *           "random intermediate group"); minimal to any router of I, then
 *           minimal to the destination: at most 5 hops (l g l g l). Traffic
 *           inside one group, and networks of 2 groups, route minimally.
 * ugal-l    at the source router, the minimal path against n_indirect
 *           Valiant candidates, each costed from the occupancy q of its first
 *           output port at this router (local information):
 *           cost = q · H (H = the path's router hops, H_nm to the
 *           intermediate group's landing router plus its minimal distance
 *           to the destination) or q alone with hop_weight off (CODES's
 *           "adaptive"). A candidate must be cheaper than the minimal path
 *           by more than the threshold; ties go to the minimal path.
 * ugal-g    the same with global information: q of a path is the
 *           occupancy of its first port plus, when that is a local hop,
 *           the occupancy of the global port it leads to at the owning
 *           router, as that router last reported it (occ->global).
 * par       progressive adaptive (Jiang, Kim, Dally 2009): ugal-l at the
 *           source router and, for a packet still on its minimal path after
 *           one local hop in the source group, once more at that router; a
 *           packet diverted there may take a second local hop in the source
 *           group: at most 6 hops (l l g l g l).
 *
 * VCs (deadlock freedom). A hop's VC class is
 *   global hop: the global hops taken before it (0 or 1);
 *   local hop:  in the source group (no global hop yet) 0, or for par 1
 *               from its second local hop there on; after G global hops G,
 *               plus 1 for par.
 * Along every path the (port kind, class) pairs rise in the order
 *   L0 < [L1 par] < G0 < L(1+par) < G1 < L(2+par),
 * never falling, and so that consecutive hops of one (kind, class) are
 * local hops inside one group. In a Cascade group (rows x columns, at most
 * two local hops) those go row first, then column, so inside a class every
 * local dependency leads from a row channel to a column channel: the
 * channel dependency graph is acyclic. A canonical group has one local hop
 * per visit (two in the source group under par, classes 0 and 1). Classes needed: minimal 2,
 * valiant / ugal-l / ugal-g 3, par 4 (dfly_route_vcs). With vcs = V above
 * that need n, class c uses VCs c, c + n, c + 2n, ... < V (its lanes); a
 * message's packets take lane flow mod lanes, so every VC keeps one class.
 *
 * Random choices. Each call takes one 64-bit draw and derives its choices
 * as sub-draws of it (rng/warp_draw.h): sub-draw 0 picks the exit of the path
 * taken (or of UGAL's minimal path), 1 the Valiant group; UGAL's candidate c
 * takes its group from sub-draw 2c+1 and its exit from 2c+2; sub-draw
 * DFLY_LINK_DRAW picks among parallel local links (Cascade row_links,
 * column_links; none in a canonical group, so no draw changes there).
 */
#ifndef DRAGONFLY_ROUTE_H
#define DRAGONFLY_ROUTE_H

#include <stdint.h>

#include "dragonfly/dragonfly_shape.h"

typedef enum dfly_routing {
    DFLY_MINIMAL = 0,
    DFLY_VALIANT = 1,
    DFLY_UGAL_L = 2,
    DFLY_UGAL_G = 3,
    DFLY_PAR = 4,
} dfly_routing;

typedef struct dfly_route_cfg {
    dfly_routing alg;
    int n_indirect;   /* UGAL / PAR: Valiant candidates per decision (>= 1) */
    int hop_weight;   /* 1: cost = occupancy x hops; 0: occupancy alone */
    double threshold; /* bytes a non-minimal candidate must save */
    int vcs;          /* VCs per port, >= dfly_route_vcs(alg) */
} dfly_route_cfg;

/* The state a packet carries between routers (network layer: aux[0..1]). */
typedef struct dfly_pkt {
    uint32_t inter;    /* intermediate group + 1; 0: none */
    uint8_t ghops;     /* global hops taken */
    uint8_t src_lhops; /* local hops taken in the source group */
    uint8_t reached;   /* the packet has been in its intermediate group */
    uint8_t row;       /* its last hop was a row hop of a Cascade group */
} dfly_pkt;

static inline void dfly_pkt_pack(dfly_pkt p, uint32_t aux[2])
{
    aux[0] = p.inter;
    aux[1] = (uint32_t)p.ghops | (uint32_t)p.src_lhops << 8 | (uint32_t)p.reached << 16 |
             (uint32_t)p.row << 24;
}
static inline dfly_pkt dfly_pkt_unpack(const uint32_t aux[2])
{
    dfly_pkt p = {aux[0], (uint8_t)aux[1], (uint8_t)(aux[1] >> 8), (uint8_t)(aux[1] >> 16),
                  (uint8_t)(aux[1] >> 24)};
    return p;
}

/* Occupancy (bytes) seen by the deciding router: `port` is one of its own
 * output ports; `global` (UGAL-G only) is global port j of its group. */
typedef struct dfly_occ {
    double (*port)(const void *ctx, int32_t port);
    double (*global)(const void *ctx, uint32_t j);
    const void *ctx;
} dfly_occ;

typedef struct dfly_hop {
    int32_t port;  /* output port, or DFLY_EJECT at the destination router */
    int32_t vc;    /* VC at the next router's input */
    dfly_pkt next; /* the state to store in the packet */
} dfly_hop;

#define DFLY_EJECT (-1)
/* The sub-draw that picks among parallel local links (above UGAL's 2·64+2). */
#define DFLY_LINK_DRAW 200

/* The next hop of a packet at router cur bound for router dst. `hops` is
 * the router-to-router hops it has taken (0 at its source router), `flow`
 * picks its lane. occ may be NULL for minimal and valiant. */
dfly_hop dfly_route_hop(const dfly_shape *s, const dfly_route_cfg *cfg, dfly_pkt in, uint32_t hops,
                        uint32_t flow, uint64_t cur, uint64_t dst, uint64_t draw,
                        const dfly_occ *occ);

/* VC classes a routing needs (see above). */
int dfly_route_vcs(dfly_routing alg);
/* Longest path in router hops a routing takes: with local paths of at most
 * D = dfly_local_diameter hops, minimal 2D + 1, valiant and the UGALs
 * 3D + 2, par 3D + 3 (3, 5 and 6 in a canonical group). */
int dfly_route_max_hops(const dfly_shape *s, dfly_routing alg);

/* The global port j (of cur's group) a packet at router cur takes out of its
 * group towards group t (!= cur's group), chosen by a 32-bit draw: one of
 * cur's own if it has any, else any of the group's (column: only those
 * whose owner is in cur's column, if there are any). */
uint32_t dfly_exit(const dfly_shape *s, uint64_t cur, uint32_t t, uint32_t draw);
uint32_t dfly_exit_in(const dfly_shape *s, uint64_t cur, uint32_t t, uint32_t draw, int column);
/* A Valiant intermediate group: uniform (by a 32-bit draw) among the g - 2
 * groups other than i and d (g >= 3). */
uint32_t dfly_valiant_group(const dfly_shape *s, uint32_t i, uint32_t d, uint32_t draw);
/* cur's output port towards global port j of its group: the global port if
 * cur owns j, else the first local port towards its owner (dfly_local_step,
 * parallel links picked by the draw). */
int32_t dfly_port_towards(const dfly_shape *s, uint64_t cur, uint32_t j, uint32_t draw);

#endif
