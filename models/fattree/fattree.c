/* fattree.c — sizes, wiring and up/down routing of the m-port n-tree by
 * address arithmetic (the layout is documented in fattree.h).
 * Invariant: every function is pure in (tree, arguments); the tree itself is
 * a few integers, so any size costs O(1) memory. Called by the fat-tree
 * topology of the network layer (per hop) and by the tests. */
#include "fattree/fattree.h"

#include <assert.h>
#include <string.h>

/* A switch id split into its address: level, group (below the top) and the
 * digits w (below the top) or t (top). */
typedef struct sw_addr {
    uint32_t l;
    uint64_t g;
    uint64_t w;
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
    memset(ft, 0, sizeof *ft);
    ft->m = m;
    ft->k = m / 2;
    ft->n = n;
    ft->kpow[0] = 1;
    for (uint32_t i = 1; i <= n; i++) {
        if (ft->kpow[i - 1] > FATTREE_MAX_NODES / ft->k)
            return "tree too large: more than 2^50 nodes (lower ports or levels)";
        ft->kpow[i] = ft->kpow[i - 1] * ft->k;
    }
    if (ft->kpow[n - 1] > FATTREE_MAX_NODES / m)
        return "tree too large: more than 2^50 nodes (lower ports or levels)";
    ft->nodes = (uint64_t)m * ft->kpow[n - 1];
    ft->top = ft->kpow[n - 1];
    ft->per_level = n >= 2 ? (uint64_t)m * ft->kpow[n - 2] : 0;
    ft->switches = (uint64_t)(n - 1) * ft->per_level + ft->top;
    for (uint32_t i = 0; i <= n; i++)
        ft->kdiv[i] = fattree_divisor_of(ft->kpow[i]);
    ft->lvl = fattree_divisor_of(ft->per_level);
    return NULL;
}

static sw_addr sw_split(const fattree *ft, uint64_t sw)
{
    assert(sw < ft->switches && "fattree: switch id within the tree");
    uint64_t base = (uint64_t)(ft->n - 1) * ft->per_level;
    sw_addr a;
    if (sw >= base) {
        a.l = ft->n - 1;
        a.g = 0;
        a.w = sw - base;
        return a;
    }
    uint64_t r = fattree_rem(&ft->lvl, sw);
    a.l = (uint32_t)fattree_quot(&ft->lvl, sw);
    a.g = fattree_quot(&ft->kdiv[ft->n - 2], r);
    a.w = fattree_rem(&ft->kdiv[ft->n - 2], r);
    return a;
}

static uint64_t sw_join(const fattree *ft, uint32_t l, uint64_t g, uint64_t w)
{
    if (l == ft->n - 1)
        return (uint64_t)l * ft->per_level + w;
    return (uint64_t)l * ft->per_level + g * ft->kpow[ft->n - 2] + w;
}

static uint64_t digit(const fattree *ft, uint64_t v, uint32_t i)
{
    return fattree_rem(&ft->kdiv[1], fattree_quot(&ft->kdiv[i], v));
}

static uint64_t set_digit(const fattree *ft, uint64_t v, uint32_t i, uint64_t d)
{
    return v - digit(ft, v, i) * ft->kpow[i] + d * ft->kpow[i];
}

static fattree_end end_of(fattree_kind kind, uint64_t id, uint64_t port)
{
    fattree_end e = {kind, id, (uint32_t)port};
    return e;
}

uint32_t fattree_switch_level(const fattree *ft, uint64_t sw)
{
    return sw_split(ft, sw).l;
}

void fattree_switch_address(const fattree *ft, uint64_t sw, uint32_t *level, uint64_t *group,
                            uint64_t *digits)
{
    sw_addr a = sw_split(ft, sw);
    *level = a.l;
    *group = a.g;
    *digits = a.w;
}

uint32_t fattree_switch_ports(const fattree *ft, uint64_t sw)
{
    (void)sw_split(ft, sw);
    return ft->m;
}

uint32_t fattree_down_ports(const fattree *ft, uint64_t sw)
{
    return sw_split(ft, sw).l == ft->n - 1 ? ft->m : ft->k;
}

int fattree_is_up_port(const fattree *ft, uint64_t sw, uint32_t port)
{
    return sw_split(ft, sw).l < ft->n - 1 && port >= ft->k;
}

fattree_end fattree_node_link(const fattree *ft, uint64_t node)
{
    assert(node < ft->nodes && "fattree: node id within the tree");
    uint64_t g = fattree_quot(&ft->kdiv[ft->n - 1], node);
    uint64_t x = fattree_rem(&ft->kdiv[ft->n - 1], node);
    if (ft->n == 1)
        return end_of(FATTREE_SWITCH, 0, g);
    return end_of(FATTREE_SWITCH, sw_join(ft, 0, g, fattree_quot(&ft->kdiv[1], x)),
                  fattree_rem(&ft->kdiv[1], x));
}

fattree_end fattree_switch_link(const fattree *ft, uint64_t sw, uint32_t port)
{
    sw_addr a = sw_split(ft, sw);
    uint32_t n = ft->n, k = ft->k;
    assert(port < ft->m && "fattree: port within the switch");
    if (a.l == n - 1) { /* top: down port g leads to group g */
        if (n == 1)
            return end_of(FATTREE_NODE, port, 0);
        const fattree_divisor *below = &ft->kdiv[n - 2];
        return end_of(FATTREE_SWITCH, sw_join(ft, n - 2, port, fattree_rem(below, a.w)),
                      k + fattree_quot(below, a.w));
    }
    if (port < k) { /* down */
        if (a.l == 0)
            return end_of(FATTREE_NODE, a.g * ft->kpow[n - 1] + a.w * k + port, 0);
        uint64_t child = set_digit(ft, a.w, a.l - 1, port);
        return end_of(FATTREE_SWITCH, sw_join(ft, a.l - 1, a.g, child), k + digit(ft, a.w, a.l - 1));
    }
    uint64_t u = port - k; /* up choice u */
    if (a.l == n - 2)
        return end_of(FATTREE_SWITCH, sw_join(ft, n - 1, 0, u * ft->kpow[n - 2] + a.w), a.g);
    return end_of(FATTREE_SWITCH, sw_join(ft, a.l + 1, a.g, set_digit(ft, a.w, a.l, u)),
                  digit(ft, a.w, a.l));
}

static int addr_holds(const fattree *ft, sw_addr a, uint64_t node)
{
    if (a.l == ft->n - 1)
        return 1;
    uint64_t g = fattree_quot(&ft->kdiv[ft->n - 1], node);
    uint64_t x = fattree_rem(&ft->kdiv[ft->n - 1], node);
    return g == a.g && fattree_quot(&ft->kdiv[a.l], a.w) == fattree_quot(&ft->kdiv[a.l + 1], x);
}

static uint32_t addr_down_port(const fattree *ft, sw_addr a, uint64_t dst)
{
    if (a.l == ft->n - 1)
        return (uint32_t)fattree_quot(&ft->kdiv[ft->n - 1], dst);
    return (uint32_t)digit(ft, fattree_rem(&ft->kdiv[ft->n - 1], dst), a.l);
}

int fattree_in_subtree(const fattree *ft, uint64_t sw, uint64_t node)
{
    assert(node < ft->nodes && "fattree: node id within the tree");
    return addr_holds(ft, sw_split(ft, sw), node);
}

uint32_t fattree_nca_height(const fattree *ft, uint64_t a, uint64_t b)
{
    assert(a < ft->nodes && b < ft->nodes && "fattree: node ids within the tree");
    uint64_t span = ft->kpow[ft->n - 1];
    if (a / span != b / span)
        return ft->n;
    for (uint32_t h = 1; h < ft->n; h++)
        if ((a % span) / ft->kpow[h] == (b % span) / ft->kpow[h])
            return h;
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

uint32_t fattree_ecmp_choice(const fattree *ft, uint64_t sw, const fattree_flow *f)
{
    return scale(fattree_flow_hash(f, fattree_switch_level(ft, sw)), ft->k);
}

uint32_t fattree_adaptive_choice(const fattree *ft, const uint64_t *occ, uint64_t draw)
{
    uint64_t best = occ[0], ties = 0;
    for (uint32_t u = 0; u < ft->k; u++) {
        if (occ[u] < best) {
            best = occ[u];
            ties = 0;
        }
        ties += occ[u] == best;
    }
    uint64_t pick = draw % ties;
    for (uint32_t u = 0; u < ft->k; u++)
        if (occ[u] == best && pick-- == 0)
            return u;
    assert(0 && "fattree: the least occupancy occurs among the up ports");
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
    uint32_t port;
    if (fattree_descend(ft, sw, f->dst, &port))
        return port;
    uint32_t u = routing == FATTREE_ADAPTIVE ? fattree_adaptive_choice(ft, occ, draw)
                                             : fattree_ecmp_choice(ft, sw, f);
    return ft->k + u;
}
