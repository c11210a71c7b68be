/* fattree.h — extended generalised fat-trees, XGFT(h; m1..mh; w1..wh), as pure
 * address arithmetic: sizes, wiring and up/down routing in O(h) memory,
 * whatever the size of the tree. The m-port n-tree (Lin, Chung and Huang),
 * FatTreeSim's fat-tree, is XGFT(n; k,..,k,2k; 1,k,..,k) with k = m/2; k-ary
 * n-trees, leaf-spine networks and tapered trees are other choices of m, w.
 *
 * Levels. XGFT level 0 holds the nodes; switch level l (0 = leaf, h-1 = top)
 * is XGFT level L = l+1. A level-L switch has m_L children and w_{L+1}
 * parents (none at the top); a node has w_1 parents, one per plane: the
 * digit b_1 of a switch is its plane, and no link joins two planes, so w_1
 * = P makes P copies of the tree (rails), node port j in plane j.
 * M_L = m_1 .. m_L and W_L = w_1 .. w_L (products; M_0 = W_0 = 1).
 *
 * Labels. A node is (a_h .. a_1), a_i in [0, m_i); its id is the mixed-radix
 * number with a_h most significant: id = sum a_i M_{i-1}. A level-L switch is
 * (a_h .. a_{L+1}; b_L .. b_1), b_i in [0, w_i): the a digits name the subtree
 * below it (the nodes whose top h-L digits they are), the b digits tell apart
 * the W_L equivalent switches of that subtree. Index within the level =
 * A W_L + B (A the a digits, B the b digits, each mixed radix); switch id =
 * the switches of the lower levels + index. Level L holds (M_h / M_L) W_L
 * switches.
 *
 * Ports. Down ports 0 .. m_L - 1 (port a leads to the child with digit a_L =
 * a), then up ports m_L .. m_L + w_{L+1} - 1 (up port m_L + u leads to the
 * parent with b_{L+1} = u). Child (..a_L; b_{L-1}..) and parent (..; b_L,
 * b_{L-1}..) are joined where the child's up port is m_{L-1} + b_L and the
 * parent's down port is a_L.
 *
 * Folded top (fold r >= 1; r = 1 is plain XGFT). The top level merges r
 * switches: top (b_h, floor(b_{h-1} / r), b_{h-2} .. b_1), W_h / r of them,
 * each with r m_h down ports; the child with b_{h-1} = c r + j in group a_h
 * is on down port a_h r + j. So every top switch takes r links from each
 * group, through r different level-(h-1) switches: CODES's pruned fat-tree,
 * whose core switches use their ports when there are fewer groups than
 * ports. r divides w_{h-1}; a route down from the top has r ways into the
 * destination's group (chosen like an up port).
 *
 * Pruning. Only nodes 0 .. nodes-1 exist (nodes <= M_h); the down port of a
 * leaf towards a missing node is unconnected. Switches stay.
 *
 * Routing (up/down, minimal). A level-L switch holds the nodes whose id /
 * M_L equals its A (the top holds all). While the destination is outside,
 * go up; once inside, go down on port a_L of the destination (at a folded
 * top one of the r ports of its group). Hops count links, host links
 * included: a route whose nearest common ancestor is at XGFT level L crosses
 * 2L links and 2L-1 switches.
 */
#ifndef FATTREE_H
#define FATTREE_H

#include <stdint.h>

/* Largest supported port count and level count: ids stay far below 2^63. */
#define FATTREE_MAX_PORTS 1024
#define FATTREE_MAX_LEVELS 16
/* Most planes (NIC ports per node, w1). */
#define FATTREE_MAX_PLANES 16

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

/* The shape of one tree; built once by fattree_init*, read-only after.
 * Arrays are indexed by XGFT level L (1 .. h); index 0 and h+1 hold 1 and 0. */
typedef struct fattree {
    uint32_t n;            /* levels h */
    uint32_t m;            /* most ports of any switch */
    uint32_t k;            /* m-port n-tree only: m / 2 (0 for other shapes) */
    uint32_t fold;         /* r: top switches merged (1: none) */
    uint32_t down[FATTREE_MAX_LEVELS + 2]; /* m_L */
    uint32_t up[FATTREE_MAX_LEVELS + 2];   /* w_L; up[h+1] = 0 */
    uint64_t mprod[FATTREE_MAX_LEVELS + 1]; /* M_L */
    uint64_t wprod[FATTREE_MAX_LEVELS + 1]; /* W_L */
    uint64_t count[FATTREE_MAX_LEVELS + 1]; /* switches on level L */
    uint64_t first[FATTREE_MAX_LEVELS + 2]; /* id of level L's first switch; first[h+1] = switches */
    uint64_t nodes;        /* nodes that exist, <= M_h */
    uint64_t switches;     /* all levels */
    uint64_t per_level;    /* m-port n-tree only: switches on each level below the top */
    uint64_t top;          /* switches on the top level */
    fattree_divisor by_m[FATTREE_MAX_LEVELS + 2]; /* by m_L */
    fattree_divisor by_mprod[FATTREE_MAX_LEVELS + 1]; /* by M_L */
    fattree_divisor by_wprod[FATTREE_MAX_LEVELS + 1]; /* by W_L */
    fattree_divisor by_fold;
} fattree;

/* The XGFT numbers of one tree as a user gives them (fattree_init_xgft). */
typedef struct fattree_shape {
    uint32_t h;
    uint32_t down[FATTREE_MAX_LEVELS]; /* m_1 .. m_h */
    uint32_t up[FATTREE_MAX_LEVELS];   /* w_1 .. w_h */
    uint32_t fold;                     /* r (0 or 1: none) */
    uint64_t nodes;                    /* 0: all M_h */
} fattree_shape;

/* Where a link end is: a node or a switch, and its port there. */
typedef enum fattree_kind { FATTREE_NODE = 0, FATTREE_SWITCH = 1, FATTREE_NONE = 2 } fattree_kind;

typedef struct fattree_end {
    fattree_kind kind;
    uint64_t id;   /* node id or switch id */
    uint32_t port; /* port on that node (always 0) or switch */
} fattree_end;

/* How a free choice (an up port, a way down from a folded top) is made. */
typedef enum fattree_routing {
    FATTREE_ECMP = 0,     /* hash of (src, dst, flow key, level) */
    FATTREE_ADAPTIVE = 1, /* least occupied port, ties by the caller's draw */
    FATTREE_DMODK = 2,    /* D-mod-k: up port floor(dst / W_L) mod w_{L+1} */
    FATTREE_SMODK = 3,    /* S-mod-k: the same digit of the source */
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
/* Fills *ft for XGFT(h; m; w) folded by r with `nodes` nodes. Returns NULL,
 * or a static message naming the number that is wrong (a zero m or w, w_1
 * r not dividing w_{h-1}, more than FATTREE_MAX_PORTS ports,
 * more nodes than M_h, more than FATTREE_MAX_PLANES planes, a tree past
 * 2^50 nodes or switches). */
const char *fattree_init_xgft(fattree *ft, const fattree_shape *s);
/* The shape CODES builds for an m-port n-tree pruned to `nodes` nodes: the
 * groups (pods) needed, ceil(nodes / k^(n-1)), under a top level folded by
 * the largest divisor r of k with r * groups <= m (1 for n <= 2). */
fattree_shape fattree_pruned_shape(uint32_t m, uint32_t n, uint64_t nodes);

/* Level of switch sw (0 = leaf, n-1 = top). */
uint32_t fattree_switch_level(const fattree *ft, uint64_t sw);
/* Address of switch sw: level, group (its a_h; 0 at the top) and the rest
 * of its label (the other a digits and the b digits, mixed radix). */
void fattree_switch_address(const fattree *ft, uint64_t sw, uint32_t *level, uint64_t *group,
                            uint64_t *digits);
/* Number of ports switch sw has: down ports plus up ports. */
uint32_t fattree_switch_ports(const fattree *ft, uint64_t sw);
/* Number of down ports of switch sw: m_L (r m_h at a folded top). */
uint32_t fattree_down_ports(const fattree *ft, uint64_t sw);
/* Number of up ports of switch sw: w_{L+1} (0 at the top). */
uint32_t fattree_up_ports(const fattree *ft, uint64_t sw);

/* The leaf switch node attaches to (in plane 0), and its port there. */
fattree_end fattree_node_link(const fattree *ft, uint64_t node);
/* The same in plane `plane` (< w_1): the leaf of NIC port `plane`. */
fattree_end fattree_node_plane_link(const fattree *ft, uint64_t node, uint32_t plane);
/* The far end of the link on port `port` of switch sw (a node's port is its
 * plane); kind FATTREE_NONE for a leaf port whose node is pruned and for a
 * port past the switch's own. */
fattree_end fattree_switch_link(const fattree *ft, uint64_t sw, uint32_t port);

/* 1 if node lies in the subtree of switch sw, else 0. */
int fattree_in_subtree(const fattree *ft, uint64_t sw, uint64_t node);
/* XGFT level of the nearest common ancestor of nodes a and b, 1 .. n (a == b
 * gives 1: the route node -> leaf -> node). */
uint32_t fattree_nca_height(const fattree *ft, uint64_t a, uint64_t b);
/* Links a minimal route from a to b crosses: 2 * fattree_nca_height. */
uint32_t fattree_route_hops(const fattree *ft, uint64_t a, uint64_t b);

/* The first down port of sw towards dst, which must be in sw's subtree
 * (at a folded top the group's r ports follow it). */
uint32_t fattree_down_port(const fattree *ft, uint64_t sw, uint64_t dst);
/* ECMP choice in [0, ways) at switch sw for this flow (hash of the level). */
uint32_t fattree_ecmp_choice(const fattree *ft, uint64_t sw, const fattree_flow *f);
/* The least of occ[0 .. count-1]; among equal least values the (draw mod
 * ties)-th in port order, so a fixed draw (e.g. the ECMP hash) is
 * deterministic and a random draw spreads ties uniformly. */
uint32_t fattree_least_choice(uint32_t count, const uint64_t *occ, uint64_t draw);

/* If dst is below switch sw: stores the down port towards it in *port and
 * returns 1 (at a folded top: the first of its group's r ports); otherwise
 * returns 0 (the packet must go up). */
int fattree_descend(const fattree *ft, uint64_t sw, uint64_t dst, uint32_t *port);
/* How many ways the next hop of a packet at sw heading to dst has: the up
 * ports when it must climb, r when it descends from a folded top, else 1;
 * *first is the first of those ports (the others follow it) and *up says
 * whether they go up. */
uint32_t fattree_ways(const fattree *ft, uint64_t sw, uint64_t dst, uint32_t *first, int *up);

/* The output port of switch sw for a packet of flow f heading to f->dst.
 * For FATTREE_ADAPTIVE, occ holds the occupancy of the fattree_ways()
 * candidate ports (the up ports in order, or the group's r down ports) and
 * draw breaks ties; occ is ignored (may be NULL) otherwise. */
uint32_t fattree_route(const fattree *ft, uint64_t sw, const fattree_flow *f,
                       fattree_routing routing, const uint64_t *occ, uint64_t draw);
/* 1 if port is an up port of switch sw. */
int fattree_is_up_port(const fattree *ft, uint64_t sw, uint32_t port);

/* The 64-bit ECMP hash of (src, dst, key, level); exposed for tests and for
 * callers that want it as a deterministic tie-breaking draw. */
uint64_t fattree_flow_hash(const fattree_flow *f, uint32_t level);

/* Closed forms. Links between XGFT levels L-1 and L (L = 1: node links,
 * nodes times planes, counting existing nodes only when pruned). */
uint64_t fattree_links(const fattree *ft, uint32_t level);
#endif
