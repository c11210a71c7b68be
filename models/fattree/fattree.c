/* fattree.c — sizes, wiring and up/down routing of the m-port n-tree by
 * address arithmetic (the layout is documented in fattree.h).
 * Invariant: every function is pure in (tree, arguments); the tree itself is
 * a few integers, so any size costs O(1) memory. Called by the fat-tree
 * topology of the network layer (per hop) and by the tests. */
#include "fattree/fattree.h"

#include <assert.h>
#include <string.h>

/* A switch id split into its address: XGFT level L (1 .. h), the a digits A
 * (the subtree) and the b digits B (which of its equivalent switches). At a
 * folded top B is (b_h, floor(b_{h-1} / r), b_{h-2} .. b_1). */
typedef struct sw_addr {
    uint32_t L;
    uint64_t a;
    uint64_t b;
} sw_addr;

#define FATTREE_MAX_NODES (UINT64_C(1) << 50)

fattree_divisor fattree_divisor_of(uint64_t d)
{
    fattree_divisor q = {d ? d : 1, 0, 0};
    q.pow2 = (q.d & (q.d - 1)) == 0;
    while (q.pow2 && (UINT64_C(1) << q.shift) < q.d)
        q.shift++;
    return q;
}

const char *fattree_init(fattree *ft, uint32_t m, uint32_t n)
{
    if (m < 2 || m % 2 != 0)
        return "ports must be an even number >= 2";
    if (m > FATTREE_MAX_PORTS)
        return "ports must be at most 1024";
    if (n < 1 || n > FATTREE_MAX_LEVELS)
        return "levels must be in 1..16";
    fattree_shape s = fattree_pruned_shape(m, n, 0);
    const char *why = fattree_init_xgft(ft, &s);
    if (why)
        return why;
    ft->k = m / 2;
    ft->per_level = n >= 2 ? ft->count[1] : 0;
    return NULL;
}

fattree_shape fattree_pruned_shape(uint32_t m, uint32_t n, uint64_t nodes)
{
    fattree_shape s;
    memset(&s, 0, sizeof s);
    uint32_t k = m / 2;
    s.h = n;
    s.fold = 1;
    s.nodes = nodes;
    for (uint32_t L = 1; L <= n; L++) {
        s.down[L - 1] = L < n ? k : m;
        s.up[L - 1] = L == 1 ? 1 : k;
    }
    if (!nodes || n < 1 || !k)
        return s;
    uint64_t group = 1; /* nodes per group: k^(n-1) */
    for (uint32_t L = 1; L < n && group <= nodes; L++)
        group *= k;
    uint64_t groups = (nodes + group - 1) / group;
    if (groups >= m)
        return s;
    s.down[n - 1] = (uint32_t)groups;
    for (uint32_t r = n >= 3 ? k : 1; r >= 1; r--)
        if (k % r == 0 && r * groups <= m) {
            s.fold = r;
            break;
        }
    return s;
}

const char *fattree_init_xgft(fattree *ft, const fattree_shape *s)
{
    uint32_t h = s->h;
    if (h < 1 || h > FATTREE_MAX_LEVELS)
        return "levels must be in 1..16";
    memset(ft, 0, sizeof *ft);
    ft->n = h;
    ft->fold = s->fold ? s->fold : 1;
    ft->mprod[0] = ft->wprod[0] = 1;
    for (uint32_t L = 1; L <= h; L++) {
        ft->down[L] = s->down[L - 1];
        ft->up[L] = s->up[L - 1];
        if (ft->down[L] < 1 || ft->up[L] < 1)
            return "every down and up count must be at least 1";
        if (ft->down[L] > FATTREE_MAX_PORTS || ft->up[L] > FATTREE_MAX_PORTS)
            return "down and up counts must be at most 1024";
        if (ft->mprod[L - 1] > FATTREE_MAX_NODES / ft->down[L] ||
            ft->wprod[L - 1] > FATTREE_MAX_NODES / ft->up[L])
            return "tree too large: more than 2^50 nodes or switches per level";
        ft->mprod[L] = ft->mprod[L - 1] * ft->down[L];
        ft->wprod[L] = ft->wprod[L - 1] * ft->up[L];
    }
    if (ft->up[1] > FATTREE_MAX_PLANES)
        return "w1, the planes (NIC ports per node), must be at most 16";
    if (ft->fold > 1 && (h < 3 || ft->up[h - 1] % ft->fold != 0))
        return "top_fold must divide the next-to-last up count (w(h-1)), and needs 3 levels or more";
    ft->down[0] = ft->up[0] = 1;
    ft->up[h + 1] = 0;
    for (uint32_t L = 1; L <= h; L++) {
        uint64_t above = ft->mprod[h] / ft->mprod[L], c = above * ft->wprod[L];
        if (ft->wprod[L] && above > FATTREE_MAX_NODES / ft->wprod[L])
            return "tree too large: more than 2^50 switches per level";
        if (L == h)
            c /= ft->fold;
        ft->count[L] = c;
        ft->first[L] = ft->switches;
        ft->switches += c;
        uint32_t ports = ft->down[L] * (L == h ? ft->fold : 1) + ft->up[L + 1];
        if (ports > FATTREE_MAX_PORTS)
            return "a switch would have more than 1024 ports (lower down, up or top_fold)";
        if (ports > ft->m)
            ft->m = ports;
    }
    ft->first[h + 1] = ft->switches;
    ft->nodes = s->nodes ? s->nodes : ft->mprod[h];
    if (ft->nodes > ft->mprod[h])
        return "nodes exceeds the full tree (the product of the down counts)";
    ft->top = ft->count[h];
    for (uint32_t L = 0; L <= h + 1; L++)
        ft->by_m[L] = fattree_divisor_of(ft->down[L]);
    for (uint32_t L = 0; L <= h; L++) {
        ft->by_mprod[L] = fattree_divisor_of(ft->mprod[L]);
        ft->by_wprod[L] = fattree_divisor_of(ft->wprod[L]);
    }
    ft->by_fold = fattree_divisor_of(ft->fold);
    return NULL;
}

static sw_addr sw_split(const fattree *ft, uint64_t sw)
{
    assert(sw < ft->switches && "fattree: switch id within the tree");
    sw_addr a;
    a.L = 1;
    while (sw >= ft->first[a.L + 1])
        a.L++;
    uint64_t i = sw - ft->first[a.L];
    if (a.L == ft->n) {
        a.a = 0;
        a.b = i;
    } else {
        a.a = fattree_quot(&ft->by_wprod[a.L], i);
        a.b = fattree_rem(&ft->by_wprod[a.L], i);
    }
    return a;
}

static uint64_t sw_join(const fattree *ft, uint32_t L, uint64_t a, uint64_t b)
{
    return ft->first[L] + a * (L == ft->n ? 0 : ft->wprod[L]) + b;
}

/* Label B of the top switch above the level-(h-1) switch with digits b (its
 * B_{h-1}) on up choice u, and the down port a_h r + j there. */
static uint64_t top_b(const fattree *ft, uint64_t b, uint64_t u)
{
    uint32_t h = ft->n;
    if (ft->fold == 1)
        return u * ft->wprod[h - 1] + b;
    uint64_t hi = fattree_quot(&ft->by_wprod[h - 2], b), lo = fattree_rem(&ft->by_wprod[h - 2], b);
    return u * (ft->wprod[h - 1] / ft->fold) + fattree_quot(&ft->by_fold, hi) * ft->wprod[h - 2] + lo;
}

static fattree_end end_of(fattree_kind kind, uint64_t id, uint64_t port)
{
    fattree_end e = {kind, id, (uint32_t)port};
    return e;
}

uint32_t fattree_switch_level(const fattree *ft, uint64_t sw)
{
    return sw_split(ft, sw).L - 1;
}

void fattree_switch_address(const fattree *ft, uint64_t sw, uint32_t *level, uint64_t *group,
                            uint64_t *digits)
{
    sw_addr a = sw_split(ft, sw);
    *level = a.L - 1;
    if (a.L == ft->n) {
        *group = 0;
        *digits = a.b;
        return;
    }
    uint64_t span = ft->mprod[ft->n - 1] / ft->mprod[a.L]; /* the other a digits */
    *group = a.a / span;
    *digits = a.a % span * ft->wprod[a.L] + a.b;
}

static uint32_t addr_down_ports(const fattree *ft, sw_addr a)
{
    return ft->down[a.L] * (a.L == ft->n ? ft->fold : 1);
}

uint32_t fattree_switch_ports(const fattree *ft, uint64_t sw)
{
    sw_addr a = sw_split(ft, sw);
    return addr_down_ports(ft, a) + ft->up[a.L + 1];
}

uint32_t fattree_down_ports(const fattree *ft, uint64_t sw)
{
    return addr_down_ports(ft, sw_split(ft, sw));
}

uint32_t fattree_up_ports(const fattree *ft, uint64_t sw)
{
    return ft->up[sw_split(ft, sw).L + 1];
}

int fattree_is_up_port(const fattree *ft, uint64_t sw, uint32_t port)
{
    return port >= addr_down_ports(ft, sw_split(ft, sw));
}

fattree_end fattree_node_link(const fattree *ft, uint64_t node)
{
    return fattree_node_plane_link(ft, node, 0);
}

fattree_end fattree_node_plane_link(const fattree *ft, uint64_t node, uint32_t plane)
{
    assert(node < ft->nodes && plane < ft->up[1] && "fattree: node and plane within the tree");
    return end_of(FATTREE_SWITCH, sw_join(ft, 1, fattree_quot(&ft->by_m[1], node), plane),
                  fattree_rem(&ft->by_m[1], node));
}

fattree_end fattree_switch_link(const fattree *ft, uint64_t sw, uint32_t port)
{
    sw_addr a = sw_split(ft, sw);
    uint32_t L = a.L, h = ft->n, downs = addr_down_ports(ft, a);
    if (port >= downs + ft->up[L + 1]) /* past this switch's ports (the network's radix is the largest) */
        return end_of(FATTREE_NONE, 0, 0);
    if (port < downs) {
        if (L == 1) {
            uint64_t node = a.a * ft->down[1] + port;
            /* the leaf's b_1 is its plane: the node's NIC port */
            return node < ft->nodes ? end_of(FATTREE_NODE, node, a.b) : end_of(FATTREE_NONE, 0, 0);
        }
        uint64_t child_a, child_b, u;
        if (L == h && ft->fold > 1) { /* port a_h r + j: child b_{h-1} = c r + j */
            uint64_t g = fattree_quot(&ft->by_fold, port), j = fattree_rem(&ft->by_fold, port);
            uint64_t per = ft->wprod[h - 1] / ft->fold; /* B values of one u */
            u = a.b / per;
            uint64_t rest = a.b % per, c = rest / ft->wprod[h - 2], lo = rest % ft->wprod[h - 2];
            child_a = g;
            child_b = (c * ft->fold + j) * ft->wprod[h - 2] + lo;
        } else {
            child_a = a.a * ft->down[L] + port;
            u = fattree_quot(&ft->by_wprod[L - 1], a.b);
            child_b = fattree_rem(&ft->by_wprod[L - 1], a.b);
        }
        return end_of(FATTREE_SWITCH, sw_join(ft, L - 1, child_a, child_b), ft->down[L - 1] + u);
    }
    uint64_t u = port - downs; /* the parent's b_{L+1} */
    uint64_t g = fattree_rem(&ft->by_m[L + 1], a.a); /* our a_{L+1}: the parent's down port */
    if (L + 1 == h) {
        uint64_t j = ft->fold > 1 ? fattree_rem(&ft->by_fold, fattree_quot(&ft->by_wprod[h - 2], a.b)) : 0;
        return end_of(FATTREE_SWITCH, sw_join(ft, h, 0, top_b(ft, a.b, u)), g * ft->fold + j);
    }
    return end_of(FATTREE_SWITCH,
                  sw_join(ft, L + 1, fattree_quot(&ft->by_m[L + 1], a.a), u * ft->wprod[L] + a.b), g);
}

static int addr_holds(const fattree *ft, sw_addr a, uint64_t node)
{
    return a.L == ft->n || fattree_quot(&ft->by_mprod[a.L], node) == a.a;
}

/* Digit a_L of a node: its down port at level L (times r at a folded top). */
static uint32_t addr_down_port(const fattree *ft, sw_addr a, uint64_t dst)
{
    uint64_t d = fattree_rem(&ft->by_m[a.L], fattree_quot(&ft->by_mprod[a.L - 1], dst));
    return (uint32_t)(a.L == ft->n ? d * ft->fold : d);
}

int fattree_in_subtree(const fattree *ft, uint64_t sw, uint64_t node)
{
    assert(node < ft->nodes && "fattree: node id within the tree");
    return addr_holds(ft, sw_split(ft, sw), node);
}

uint32_t fattree_nca_height(const fattree *ft, uint64_t a, uint64_t b)
{
    assert(a < ft->nodes && b < ft->nodes && "fattree: node ids within the tree");
    for (uint32_t L = 1; L < ft->n; L++)
        if (fattree_quot(&ft->by_mprod[L], a) == fattree_quot(&ft->by_mprod[L], b))
            return L;
    return ft->n;
}

uint32_t fattree_route_hops(const fattree *ft, uint64_t a, uint64_t b)
{
    return 2 * fattree_nca_height(ft, a, b);
}

uint32_t fattree_down_port(const fattree *ft, uint64_t sw, uint64_t dst)
{
    sw_addr a = sw_split(ft, sw);
    assert(addr_holds(ft, a, dst) && "fattree: descend only towards a node below");
    return addr_down_port(ft, a, dst);
}

/* SplitMix64's finaliser: a bijection whose output bits all depend on every
 * input bit, so chained it gives an even hash of several words. */
static uint64_t mix64(uint64_t z)
{
    z ^= z >> 30;
    z *= UINT64_C(0xbf58476d1ce4e5b9);
    z ^= z >> 27;
    z *= UINT64_C(0x94d049bb133111eb);
    z ^= z >> 31;
    return z;
}

uint64_t fattree_flow_hash(const fattree_flow *f, uint32_t level)
{
    uint64_t h = mix64(f->src + UINT64_C(0x9e3779b97f4a7c15));
    h = mix64(h ^ f->dst);
    h = mix64(h ^ f->key);
    return mix64(h ^ level);
}

/* floor(h * k / 2^64): an unbiased-enough map of a 64-bit hash onto [0, k). */
static uint32_t scale(uint64_t h, uint32_t k)
{
    return (uint32_t)(((unsigned __int128)h * k) >> 64);
}

/* The D-mod-k digit of node v at XGFT level L: floor(v / W_L) mod w_{L+1}. */
static uint32_t mod_k(const fattree *ft, uint64_t v, uint32_t L)
{
    return (uint32_t)(fattree_quot(&ft->by_wprod[L], v) % ft->up[L + 1]);
}

/* Where a packet at a's switch heading to dst has a choice: the first of the
 * candidate ports, their count, and whether they go up. */
static uint32_t addr_ways(const fattree *ft, sw_addr a, uint64_t dst, uint32_t *first, int *up)
{
    *up = !addr_holds(ft, a, dst);
    if (*up) {
        *first = addr_down_ports(ft, a);
        return ft->up[a.L + 1];
    }
    *first = addr_down_port(ft, a, dst);
    return a.L == ft->n ? ft->fold : 1;
}

uint32_t fattree_ways(const fattree *ft, uint64_t sw, uint64_t dst, uint32_t *first, int *up)
{
    return addr_ways(ft, sw_split(ft, sw), dst, first, up);
}

uint32_t fattree_ecmp_choice(const fattree *ft, uint64_t sw, const fattree_flow *f)
{
    sw_addr a = sw_split(ft, sw);
    uint32_t first;
    int up;
    return scale(fattree_flow_hash(f, a.L - 1), addr_ways(ft, a, f->dst, &first, &up));
}

uint32_t fattree_least_choice(uint32_t count, const uint64_t *occ, uint64_t draw)
{
    uint64_t best = occ[0], ties = 0;
    for (uint32_t u = 0; u < count; u++) {
        if (occ[u] < best) {
            best = occ[u];
            ties = 0;
        }
        ties += occ[u] == best;
    }
    uint64_t pick = draw % ties;
    for (uint32_t u = 0; u < count; u++)
        if (occ[u] == best && pick-- == 0)
            return u;
    assert(0 && "fattree: the least occupancy occurs among the candidates");
    return 0;
}

int fattree_descend(const fattree *ft, uint64_t sw, uint64_t dst, uint32_t *port)
{
    sw_addr a = sw_split(ft, sw);
    if (!addr_holds(ft, a, dst))
        return 0;
    *port = addr_down_port(ft, a, dst);
    return 1;
}

uint32_t fattree_route(const fattree *ft, uint64_t sw, const fattree_flow *f,
                       fattree_routing routing, const uint64_t *occ, uint64_t draw)
{
    sw_addr a = sw_split(ft, sw);
    uint32_t first;
    int up;
    uint32_t ways = addr_ways(ft, a, f->dst, &first, &up);
    if (ways == 1)
        return first;
    uint32_t u;
    switch (routing) {
    case FATTREE_ADAPTIVE:
        u = fattree_least_choice(ways, occ, draw);
        break;
    case FATTREE_DMODK:
    case FATTREE_SMODK: {
        uint64_t v = routing == FATTREE_DMODK ? f->dst : f->src;
        /* down from a folded top: the way D-mod-k's climb to v would take */
        u = up ? mod_k(ft, v, a.L) : mod_k(ft, v, ft->n - 2) % ft->fold;
        break;
    }
    default:
        u = scale(fattree_flow_hash(f, a.L - 1), ways);
        break;
    }
    return first + u;
}

uint64_t fattree_links(const fattree *ft, uint32_t level)
{
    if (level <= 1)
        return ft->nodes * ft->up[1];
    return ft->count[level - 1] * ft->up[level];
}
