/* fattree.h — the m-port n-tree (Lin, Chung and Huang), FatTreeSim's fat-tree,
 * as pure address arithmetic: sizes, wiring and up/down routing in O(1) memory
 * (a handful of integers), whatever the size of the tree.
 *
 * Size. m ports per switch (m even, k = m/2), n levels. Nodes: m * k^(n-1).
 * Switches: (2n-1) * k^(n-1): levels 0 .. n-2 hold 2 * k^(n-1) = m * k^(n-2)
 * each, the top level n-1 holds k^(n-1). The tree is m groups (pods), each a
 * k-ary (n-1)-tree, joined by the top level; with n = 3 it is exactly the
 * k-ary three-level data-centre fat-tree (k = m pods, m^3/4 hosts).
 *
 * Addresses. Levels count from the bottom: level 0 is the leaf (edge) level
 * the nodes attach to, level n-1 the top (core). Write k-ary numbers with
 * digit 0 least significant.
 *   node     (g, x)     group g in [0, m), x = n-1 digits x_{n-2} .. x_0;
 *                       node id = g * k^(n-1) + x.
 *   switch   (l, g, w)  for l <= n-2: group g in [0, m), w = n-2 digits.
 *                       Digits w_{n-3} .. w_l are the subtree prefix (they
 *                       equal the node digits x_{n-2} .. x_{l+1} of every node
 *                       below); digits w_{l-1} .. w_0 say which of the k^l
 *                       equivalent switches of that subtree this is.
 *                       switch id = l * m * k^(n-2) + g * k^(n-2) + w.
 *   switch   (n-1, t)   top: t = n-1 digits t_{n-2} .. t_0;
 *                       switch id = (n-1) * m * k^(n-2) + t.
 *
 * Ports. A switch below the top has down ports 0 .. k-1 then up ports
 * k .. m-1 (up port k+u is "up choice u"). A top switch has m down ports,
 * 0 .. m-1, one per group, and no up ports. A node has one port (port 0).
 *
 * Wiring (every link is one of these, seen from its lower end):
 *   node (g, x)  <->  leaf (0, g, x / k), down port x_0 = x mod k.
 *   (l, g, w) up port k+u  <->  (l+1, g, w with digit w_l := u) down port w_l,
 *                       for l <= n-3 (the replica digit w_l is replaced).
 *   (n-2, g, w) up port k+u  <->  top t = u * k^(n-2) + w, down port g.
 *   n = 1: the single switch (top, t = 0) has node g on down port g.
 *
 * Routing (up/down, minimal). A switch's subtree holds the nodes below it:
 * (l, g, w) holds (g, x) with x / k^(l+1) = w / k^l; a top switch holds all.
 * While the destination is outside the subtree, go up (the choice u of the
 * up port is free: ECMP hash or least occupancy); once inside, go down on the
 * port given by the destination's digit: port x_l at level l <= n-2, port g
 * at the top. A route therefore climbs to the nearest common ancestor level
 * and descends, never down then up. Hops count links, host links included:
 * with nodes at height 0 and level l at height l+1, a route whose nearest
 * common ancestor is at height h crosses 2h links and 2h-1 switches
 * (h = 1 for two nodes on one leaf, h = n across groups).
 */
#ifndef FATTREE_H
#define FATTREE_H

#include <stdint.h>

/* Largest supported port count and level count: ids stay far below 2^63. */
#define FATTREE_MAX_PORTS 1024
#define FATTREE_MAX_LEVELS 16

/* Division by a number fixed at setup: a shift and a mask when it is a power
 * of two (the usual port counts), so per-hop address arithmetic stays cheap. */
typedef struct fattree_divisor {
    uint64_t d;
    uint32_t shift; /* log2(d) when pow2 */
    uint32_t pow2;
} fattree_divisor;

/* The divisor for d (d = 0 is treated as 1). */
fattree_divisor fattree_divisor_of(uint64_t d);
static inline uint64_t fattree_quot(const fattree_divisor *q, uint64_t v)
{
    return q->pow2 ? v >> q->shift : v / q->d;
}
static inline uint64_t fattree_rem(const fattree_divisor *q, uint64_t v)
{
    return q->pow2 ? v & (q->d - 1) : v % q->d;
}

/* The shape of one tree; built once by fattree_init, read-only after. */
typedef struct fattree {
    uint32_t m;            /* ports per switch (even) */
    uint32_t k;            /* m / 2 */
    uint32_t n;            /* levels */
    uint64_t kpow[FATTREE_MAX_LEVELS + 1]; /* kpow[i] = k^i, i <= n */
    uint64_t nodes;        /* m * k^(n-1) */
    uint64_t switches;     /* (2n-1) * k^(n-1) */
    uint64_t per_level;    /* switches on each level below the top: m * k^(n-2) */
    uint64_t top;          /* switches on the top level: k^(n-1) */
    fattree_divisor kdiv[FATTREE_MAX_LEVELS + 1]; /* by k^i */
    fattree_divisor lvl;   /* by per_level */
} fattree;

/* Where a link end is: a node or a switch, and its port there. */
typedef enum fattree_kind { FATTREE_NODE = 0, FATTREE_SWITCH = 1 } fattree_kind;

typedef struct fattree_end {
    fattree_kind kind;
    uint64_t id;   /* node id or switch id */
    uint32_t port; /* port on that node (always 0) or switch */
} fattree_end;

/* How the up port is chosen. */
typedef enum fattree_routing {
    FATTREE_ECMP = 0,     /* hash of (src, dst, flow key, level) */
    FATTREE_ADAPTIVE = 1, /* least occupied up port, ties by the caller's draw */
} fattree_routing;

/* What the ECMP hash sees of a packet: all packets with the same (src, dst,
 * key) take one path. The network layer passes its flow (message) id as key
 * for per-flow ECMP, or a per-packet id for per-packet spraying. */
typedef struct fattree_flow {
    uint64_t src;
    uint64_t dst;
    uint64_t key;
} fattree_flow;

/* Fills *ft for an m-port n-tree. Returns NULL on success, or a static
 * message saying what is wrong with (m, n) (odd or out-of-range m, n). */
const char *fattree_init(fattree *ft, uint32_t m, uint32_t n);

/* Level of switch sw (0 = leaf, n-1 = top). */
uint32_t fattree_switch_level(const fattree *ft, uint64_t sw);
/* Address of switch sw: level, group (0 at the top) and digits (w below the
 * top, t at the top). */
void fattree_switch_address(const fattree *ft, uint64_t sw, uint32_t *level, uint64_t *group,
                            uint64_t *digits);
/* Number of ports switch sw uses: m on every level (the top has m down). */
uint32_t fattree_switch_ports(const fattree *ft, uint64_t sw);
/* Number of down ports of switch sw: k below the top, m at the top. */
uint32_t fattree_down_ports(const fattree *ft, uint64_t sw);

/* The leaf switch node attaches to, and its port there. */
fattree_end fattree_node_link(const fattree *ft, uint64_t node);
/* The far end of the link on port `port` of switch sw (port < m). */
fattree_end fattree_switch_link(const fattree *ft, uint64_t sw, uint32_t port);

/* 1 if node lies in the subtree of switch sw, else 0. */
int fattree_in_subtree(const fattree *ft, uint64_t sw, uint64_t node);
/* Height of the nearest common ancestor of nodes a and b, 1 .. n (a == b
 * gives 1: the route node -> leaf -> node). */
uint32_t fattree_nca_height(const fattree *ft, uint64_t a, uint64_t b);
/* Links a minimal route from a to b crosses: 2 * fattree_nca_height. */
uint32_t fattree_route_hops(const fattree *ft, uint64_t a, uint64_t b);

/* The down port of sw towards dst, which must be in sw's subtree. */
uint32_t fattree_down_port(const fattree *ft, uint64_t sw, uint64_t dst);
/* ECMP up choice u in [0, k) at switch sw for this flow (port = k + u). */
uint32_t fattree_ecmp_choice(const fattree *ft, uint64_t sw, const fattree_flow *f);
/* Adaptive up choice u in [0, k): the least of occ[0 .. k-1] (occupancy of
 * up ports k .. m-1); among equal least values the (draw mod ties)-th in port
 * order, so a fixed draw (e.g. the ECMP hash) is deterministic and a random
 * draw spreads ties uniformly. */
uint32_t fattree_adaptive_choice(const fattree *ft, const uint64_t *occ, uint64_t draw);

/* If dst is below switch sw: stores the down port towards it in *port and
 * returns 1; otherwise returns 0 (the packet must go up). */
int fattree_descend(const fattree *ft, uint64_t sw, uint64_t dst, uint32_t *port);

/* The output port of switch sw for a packet of flow f heading to f->dst:
 * down if f->dst is below sw, else up by `routing`. For FATTREE_ADAPTIVE, occ
 * holds the occupancy of the k up ports and draw breaks ties; both are
 * ignored (occ may be NULL) for FATTREE_ECMP or when the packet goes down. */
uint32_t fattree_route(const fattree *ft, uint64_t sw, const fattree_flow *f,
                       fattree_routing routing, const uint64_t *occ, uint64_t draw);

/* 1 if port is an up port of switch sw. */
int fattree_is_up_port(const fattree *ft, uint64_t sw, uint32_t port);

/* The 64-bit ECMP hash of (src, dst, key, level); exposed for tests and for
 * callers that want it as a deterministic tie-breaking draw. */
uint64_t fattree_flow_hash(const fattree_flow *f, uint32_t level);

#endif
