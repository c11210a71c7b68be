/* test_xgft.c — generalised fat-trees XGFT(h; m; w), folded tops, pruned
 * trees and planes (w1 > 1) against closed forms: switches per level
 * (M_h / M_L) W_L (/ r at the top), links per level, symmetric wiring using
 * every port, minimal up/down routes that keep their plane with every
 * routing, the D-mod-k digit, CODES's Summit shape, and the m-port n-tree
 * written as an XGFT wired exactly as fattree_init's. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "fattree/fattree.h"
#include "warp_rng.h"

typedef struct xcase {
    const char *name;
    uint32_t h, down[4], up[4], fold;
    uint64_t nodes;
} xcase;

static const xcase cases[] = {
    {"4-ary 3-tree (BookSim)", 3, {4, 4, 4}, {1, 4, 4}, 1, 0},
    {"leaf-spine 12 racks of 6, 2 spines (3:1)", 2, {6, 12}, {1, 2}, 1, 0},
    {"tapered 3-level", 3, {4, 3, 5}, {1, 2, 3}, 1, 0},
    {"folded top 12-port, 3 pods", 3, {6, 6, 3}, {1, 6, 6}, 2, 0},
    {"folded top, pruned nodes", 3, {6, 6, 3}, {1, 6, 6}, 3, 100},
    {"4 levels mixed", 4, {2, 3, 2, 3}, {1, 2, 3, 2}, 1, 0},
    {"dual-plane tapered shape, one plane", 3, {24, 18, 11}, {1, 12, 18}, 3, 0},
    {"one switch, pruned", 1, {8}, {1}, 1, 5},
    {"two planes, 4-ary 3-tree", 3, {4, 4, 4}, {2, 4, 4}, 1, 0},
    {"three planes, pruned and folded", 3, {6, 6, 3}, {3, 6, 6}, 2, 100},
};
#define NCASES (sizeof cases / sizeof cases[0])

static fattree make(const xcase *c)
{
    fattree_shape s = {c->h, {0}, {0}, c->fold, c->nodes};
    for (uint32_t i = 0; i < c->h; i++) {
        s.down[i] = c->down[i];
        s.up[i] = c->up[i];
    }
    fattree ft;
    const char *why = fattree_init_xgft(&ft, &s);
    cr_assert_null(why, "%s: %s", c->name, why ? why : "");
    return ft;
}

static uint64_t prod(const uint32_t *v, uint32_t from, uint32_t to) /* v[from..to-1] */
{
    uint64_t p = 1;
    for (uint32_t i = from; i < to; i++)
        p *= v[i];
    return p;
}

Test(xgft, switches_and_links_per_level_follow_the_closed_forms)
{
    for (size_t c = 0; c < NCASES; c++) {
        const xcase *x = &cases[c];
        fattree ft = make(x);
        uint64_t count[FATTREE_MAX_LEVELS] = {0}, total = 0;
        for (uint64_t sw = 0; sw < ft.switches; sw++)
            count[fattree_switch_level(&ft, sw)]++;
        for (uint32_t L = 1; L <= x->h; L++) {
            /* (M_h / M_L) W_L, the top divided by the fold */
            uint64_t want = prod(x->down, L, x->h) * prod(x->up, 0, L) / (L == x->h ? x->fold : 1);
            cr_assert_eq(count[L - 1], want, "%s: level %u has %llu switches, not %llu", x->name,
                         L, (unsigned long long)count[L - 1], (unsigned long long)want);
            total += want;
            uint64_t links = L == 1 ? (x->nodes ? x->nodes : prod(x->down, 0, x->h)) * x->up[0]
                                    : count[L - 2] * x->up[L - 1];
            cr_assert_eq(fattree_links(&ft, L), links, "%s: links into level %u", x->name, L);
        }
        cr_assert_eq(ft.switches, total);
        cr_assert_eq(ft.nodes, x->nodes ? x->nodes : prod(x->down, 0, x->h));
    }
}

/* Every port leads somewhere (a pruned node's leaf port excepted), the far
 * end leads back, up ports join down ports one level up, and the links
 * counted between each pair of levels match fattree_links. */
Test(xgft, wiring_is_symmetric_and_uses_every_port)
{
    for (size_t c = 0; c < NCASES; c++) {
        const xcase *x = &cases[c];
        fattree ft = make(x);
        uint64_t links[FATTREE_MAX_LEVELS + 2] = {0}, none = 0;
        for (uint64_t sw = 0; sw < ft.switches; sw++) {
            uint32_t l = fattree_switch_level(&ft, sw), L = l + 1;
            uint32_t downs = fattree_down_ports(&ft, sw), ups = fattree_up_ports(&ft, sw);
            cr_assert_eq(downs, x->down[l] * (L == x->h ? x->fold : 1));
            cr_assert_eq(ups, L < x->h ? x->up[L] : 0);
            cr_assert_eq(fattree_switch_ports(&ft, sw), downs + ups);
            cr_assert_leq(downs + ups, ft.m);
            for (uint32_t p = 0; p < downs + ups; p++) {
                fattree_end e = fattree_switch_link(&ft, sw, p);
                int up = fattree_is_up_port(&ft, sw, p);
                cr_assert_eq(up, p >= downs);
                if (e.kind == FATTREE_NONE) {
                    cr_assert(L == 1 && x->nodes, "%s: unconnected port %u on level %u", x->name, p, L);
                    none++;
                    continue;
                }
                if (e.kind == FATTREE_NODE) {
                    cr_assert(L == 1 && !up);
                    cr_assert_lt(e.port, x->up[0], "a node's port is a plane");
                    fattree_end back = fattree_node_plane_link(&ft, e.id, e.port);
                    cr_assert(back.id == sw && back.port == p, "%s: node %llu", x->name,
                              (unsigned long long)e.id);
                    links[1]++;
                    continue;
                }
                uint32_t el = fattree_switch_level(&ft, e.id);
                cr_assert_eq(el, up ? l + 1 : l - 1, "%s: sw %llu port %u", x->name,
                             (unsigned long long)sw, p);
                cr_assert_eq(fattree_is_up_port(&ft, e.id, e.port), !up);
                fattree_end back = fattree_switch_link(&ft, e.id, e.port);
                cr_assert(back.kind == FATTREE_SWITCH && back.id == sw && back.port == p,
                          "%s: sw %llu port %u -> sw %llu port %u -> sw %llu port %u", x->name,
                          (unsigned long long)sw, p, (unsigned long long)e.id, e.port,
                          (unsigned long long)back.id, back.port);
                if (up)
                    links[L + 1]++;
            }
        }
        for (uint32_t L = 1; L <= x->h; L++)
            cr_assert_eq(links[L], fattree_links(&ft, L), "%s: %llu links into level %u", x->name,
                         (unsigned long long)links[L], L);
        cr_assert_eq(none, (prod(x->down, 0, x->h) - ft.nodes) * x->up[0]);
    }
}

/* Follows fattree_route from s to d, entering plane key mod w1; checks
 * minimal up/down, that the route stays in its plane and, for the modulo
 * routings, the up port each level takes. Returns links crossed. */
static uint32_t walk(const fattree *ft, uint64_t s, uint64_t d, uint64_t key, fattree_routing r,
                     warp_rng *rng)
{
    fattree_flow f = {s, d, key};
    uint32_t plane = (uint32_t)(key % ft->up[1]);
    fattree_end at = fattree_node_plane_link(ft, s, plane);
    uint32_t hops = 1;
    int down = 0;
    uint64_t occ[FATTREE_MAX_PORTS];
    while (at.kind == FATTREE_SWITCH) {
        uint32_t L = fattree_switch_level(ft, at.id) + 1, first;
        int up;
        uint32_t ways = fattree_ways(ft, at.id, d, &first, &up);
        for (uint32_t i = 0; i < ways; i++)
            occ[i] = (uint64_t)warp_rng_integer(rng, 0, 2);
        uint32_t p = fattree_route(ft, at.id, &f, r, occ, (uint64_t)warp_rng_integer(rng, 0, 1000));
        cr_assert(p >= first && p < first + ways);
        cr_assert_eq(fattree_is_up_port(ft, at.id, p), up);
        cr_assert(!(down && up), "down then up");
        if (r == FATTREE_ADAPTIVE)
            for (uint32_t i = 0; i < ways; i++)
                cr_assert_leq(occ[p - first], occ[i], "adaptive took a busier port");
        if (up && (r == FATTREE_DMODK || r == FATTREE_SMODK)) {
            uint64_t v = r == FATTREE_DMODK ? d : s, wl = 1;
            for (uint32_t i = 1; i <= L; i++)
                wl *= ft->up[i];
            cr_assert_eq(p - first, v / wl % ft->up[L + 1], "mod-k digit at level %u", L);
        }
        down |= !up;
        at = fattree_switch_link(ft, at.id, p);
        hops++;
    }
    cr_assert_eq(at.kind, FATTREE_NODE);
    cr_assert_eq(at.port, plane, "a route leaves its plane");
    cr_assert_eq(at.id, d, "route %llu -> %llu ends at %llu", (unsigned long long)s,
                 (unsigned long long)d, (unsigned long long)at.id);
    return hops;
}

Test(xgft, every_route_is_minimal_with_every_routing)
{
    static const fattree_routing rs[] = {FATTREE_ECMP, FATTREE_ADAPTIVE, FATTREE_DMODK, FATTREE_SMODK};
    warp_rng rng = warp_rng_stream(5, 1);
    for (size_t c = 0; c < NCASES; c++) {
        fattree ft = make(&cases[c]);
        uint64_t step = ft.nodes > 200 ? ft.nodes / 97 : 1;
        for (size_t r = 0; r < 4; r++)
            for (uint64_t a = 0; a < ft.nodes; a += step)
                for (uint64_t b = 0; b < ft.nodes; b++) {
                    uint32_t hops = walk(&ft, a, b, a * 31 + b, rs[r], &rng);
                    /* the NCA: the lowest level whose subtree (M_L nodes) holds both */
                    uint32_t L = 1;
                    uint64_t span = cases[c].down[0];
                    while (L < ft.n && a / span != b / span)
                        span *= cases[c].down[L++];
                    cr_assert_eq(hops, 2 * L, "%s: %llu -> %llu in %u links, NCA level %u",
                                 cases[c].name, (unsigned long long)a, (unsigned long long)b, hops, L);
                    cr_assert_eq(fattree_route_hops(&ft, a, b), 2 * L);
                }
    }
}

/* D-mod-k gives every destination one path: all sources reach d's leaf
 * through the same top switch when they climb to the top. */
Test(xgft, d_mod_k_gives_each_destination_one_top_switch)
{
    fattree ft = make(&cases[0]);
    for (uint64_t d = 0; d < ft.nodes; d++) {
        uint64_t seen = UINT64_MAX;
        for (uint64_t s = 0; s < ft.nodes; s++) {
            if (fattree_nca_height(&ft, s, d) != ft.n)
                continue;
            fattree_flow f = {s, d, s};
            fattree_end at = fattree_node_link(&ft, s);
            while (fattree_switch_level(&ft, at.id) + 1 < ft.n)
                at = fattree_switch_link(&ft, at.id, fattree_route(&ft, at.id, &f, FATTREE_DMODK, NULL, 0));
            if (seen == UINT64_MAX)
                seen = at.id;
            cr_assert_eq(at.id, seen, "destination %llu reached through two top switches",
                         (unsigned long long)d);
        }
    }
}

/* CODES's Summit: 36-port switches, 3,564 nodes = 11 pods of 18 x 18: 198
 * leaves, 198 spines, 108 cores (18 x 18 / 3), each core taking 3 links from
 * each pod (33 ports used). */
Test(xgft, summit_pruned_as_codes_prunes_it)
{
    fattree_shape s = fattree_pruned_shape(36, 3, 3564);
    cr_assert_eq(s.down[2], 11);
    cr_assert_eq(s.fold, 3);
    fattree ft;
    cr_assert_null(fattree_init_xgft(&ft, &s));
    cr_assert_eq(ft.nodes, 3564);
    cr_assert_eq(ft.count[1], 198);
    cr_assert_eq(ft.count[2], 198);
    cr_assert_eq(ft.count[3], 108);
    cr_assert_eq(fattree_switch_ports(&ft, ft.switches - 1), 33);
    cr_assert_eq(ft.m, 36);
    /* full bisection: as many links into the cores as nodes */
    cr_assert_eq(fattree_links(&ft, 3), 3564);
    /* pruned within a pod: 3,000 nodes keep 10 pods, the last one partly empty */
    s = fattree_pruned_shape(36, 3, 3000);
    cr_assert_eq(s.down[2], 10);
    cr_assert_eq(s.fold, 3, "largest divisor r of 18 with 10 r <= 36");
    s = fattree_pruned_shape(8, 3, 128);
    cr_assert(s.down[2] == 8 && s.fold == 1, "a full tree is not pruned");
}

/* ports/levels and the same shape written as down/up: the same wiring. */
Test(xgft, m_port_n_tree_is_the_xgft_it_claims)
{
    static const uint32_t shapes[][2] = {{4, 2}, {4, 3}, {6, 3}, {8, 3}, {4, 4}};
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
        uint32_t m = shapes[i][0], n = shapes[i][1], k = m / 2;
        fattree a, b;
        cr_assert_null(fattree_init(&a, m, n));
        fattree_shape s = {n, {0}, {0}, 1, 0};
        for (uint32_t L = 0; L < n; L++) {
            s.down[L] = L + 1 < n ? k : m;
            s.up[L] = L ? k : 1;
        }
        cr_assert_null(fattree_init_xgft(&b, &s));
        cr_assert_eq(a.switches, b.switches);
        for (uint64_t sw = 0; sw < a.switches; sw++)
            for (uint32_t p = 0; p < fattree_switch_ports(&a, sw); p++) {
                fattree_end x = fattree_switch_link(&a, sw, p), y = fattree_switch_link(&b, sw, p);
                cr_assert(x.kind == y.kind && x.id == y.id && x.port == y.port);
            }
    }
}

Test(xgft, init_refuses_bad_shapes)
{
    fattree ft;
    fattree_shape s = {3, {4, 4, 4}, {17, 4, 4}, 1, 0};
    cr_assert_not_null(fattree_init_xgft(&ft, &s), "17 planes accepted");
    s.up[0] = 1;
    s.fold = 3;
    cr_assert_not_null(fattree_init_xgft(&ft, &s), "a fold not dividing w2 accepted");
    s.fold = 1;
    s.nodes = 65;
    cr_assert_not_null(fattree_init_xgft(&ft, &s), "more nodes than the full tree accepted");
    s.nodes = 0;
    s.down[1] = 0;
    cr_assert_not_null(fattree_init_xgft(&ft, &s), "a zero count accepted");
    fattree_shape big = {2, {1000, 3}, {1, 1000}, 1, 0};
    cr_assert_not_null(fattree_init_xgft(&ft, &big), "a 2000-port switch accepted");
}
