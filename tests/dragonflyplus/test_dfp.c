/* test_dfp.c — the Dragonfly+ wiring and routing against the closed forms
 * and the VC rule (models/dragonflyplus): sizes, link counts and global
 * links per group from the formulas; symmetric wiring (the far end of
 * every port's far end is the port) with leaves holding the terminals and
 * spines the global links; minimal distances (diameter 3); and, walking
 * every routing hop by hop along dragonflyplus_topology.peer for every
 * pair of leaves under pseudo-random occupancies, arrival within the hop
 * bound on (class, up < global < down) positions that strictly rise, so
 * the channel dependency graph has no cycle. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "dragonfly/dfp_route.h"
#include "dragonfly/dragonflyplus.h"
#include "warp_ini.h"

typedef struct net {
    const dfp_shape *s;
    void *t;
} net;

static net make(unsigned leaves, unsigned spines, unsigned p, unsigned h, unsigned c, unsigned g,
                const char *arr)
{
    const char *keys[] = {"leaves", "spines", "p", "h", "level_links", "g"};
    unsigned vals[] = {leaves, spines, p, h, c, g ? g : spines * h + 1};
    warp_ini *ini = warp_ini_new();
    char v[6][16];
    for (int k = 0; k < 6; k++) {
        snprintf(v[k], 16, "%u", vals[k]);
        warp_ini_set(ini, "dragonflyplus", keys[k], v[k], "test");
    }
    warp_ini_set(ini, "dragonflyplus", "arrangement", arr, "test");
    net_params params = {.link_bandwidth = 12.5, .link_latency = 50, .packet_size = 256};
    net n;
    n.t = dragonflyplus_topology.setup(ini, &params);
    n.s = n.t; /* the shape is the description's first member */
    warp_ini_free(ini);
    return n;
}

Test(dragonflyplus, sizes_follow_the_formulas)
{
    /* L = 4, S = 4, p = 4, h = 2: g = S·h + 1 = 9, routers g(L+S) = 72,
     * nodes g·L·p = 144, leaf-spine links g·L·S = 144, global g·S·h/2 = 36. */
    net n = make(4, 4, 4, 2, 1, 0, "relative");
    const net_topology_ops *o = &dragonflyplus_topology;
    cr_expect_eq(o->routers(n.t), 72);
    cr_expect_eq(o->nodes(n.t), 144);
    cr_expect_eq(dfp_local_links(n.s), 144);
    cr_expect_eq(dfly_global_links(&n.s->glob), 36);
    cr_expect_eq(o->max_radix(n.t), 8);
    cr_expect_eq(o->radix(n.t, 0), 8, "leaf radix S·c + p");
    cr_expect_eq(o->radix(n.t, 4), 6, "spine radix L·c + h");
    o->destroy(n.t);
    /* CODES's dfp_8k: L = S = p = h = 16, 33 groups: 8,448 nodes,
     * 256 global ports per group over 32 others, 8 links per pair. */
    n = make(16, 16, 16, 16, 1, 33, "absolute");
    cr_expect_eq(o->nodes(n.t), 8448);
    cr_expect_eq(o->routers(n.t), 33 * 32);
    cr_expect_eq(dfly_links_between(&n.s->glob, 0, 17), 8);
    cr_expect_eq(dfly_global_links(&n.s->glob), 33 * 256 / 2);
    o->destroy(n.t);
}

/* Every port's far end leads back; terminals sit on leaves, global links
 * on spines, and every leaf-spine pair has c links. */
static void check_wiring(net n)
{
    const net_topology_ops *o = &dragonflyplus_topology;
    const dfp_shape *s = n.s;
    for (uint64_t r = 0; r < o->routers(n.t); r++) {
        for (int32_t port = 0; port < o->radix(n.t, r); port++) {
            net_peer q = o->peer(n.t, r, port);
            if (q.kind == NET_PEER_TERMINAL) {
                cr_assert(dfp_is_leaf(s, r), "terminal on spine %llu", (unsigned long long)r);
                net_attach at = o->attach(n.t, q.id);
                cr_assert(at.router == r && at.port == port, "terminal %llu attach",
                          (unsigned long long)q.id);
                continue;
            }
            cr_assert_eq(q.kind, NET_PEER_ROUTER, "router %llu port %d unwired",
                         (unsigned long long)r, port);
            net_peer back = o->peer(n.t, q.id, q.port);
            cr_assert(back.kind == NET_PEER_ROUTER && back.id == r && back.port == port,
                      "router %llu port %d -> %llu:%d does not lead back", (unsigned long long)r,
                      port, (unsigned long long)q.id, q.port);
            cr_assert_neq(dfp_is_leaf(s, r) && dfp_is_leaf(s, q.id), 1, "leaf-leaf link");
            int global = dfp_group_of(s, q.id) != dfp_group_of(s, r);
            cr_assert_eq(global, !dfp_is_leaf(s, r) && port >= dfp_spine_global_base(s),
                         "router %llu port %d: global links only on a spine's global ports",
                         (unsigned long long)r, port);
            if (!global)
                cr_assert_neq(dfp_is_leaf(s, r), dfp_is_leaf(s, q.id), "spine-spine link in a group");
        }
    }
}

Test(dragonflyplus, wiring_is_symmetric)
{
    static const char *const arrs[] = {"absolute", "relative", "circulant"};
    for (int a = 0; a < 3; a++) {
        net n = make(3, 2, 2, 3, 2, 0, arrs[a]);
        check_wiring(n);
        dragonflyplus_topology.destroy(n.t);
        n = make(2, 3, 1, 2, 1, 4, arrs[a]); /* fewer groups: several links per pair */
        check_wiring(n);
        dragonflyplus_topology.destroy(n.t);
    }
}

Test(dragonflyplus, minimal_distances)
{
    net n = make(4, 4, 4, 2, 1, 0, "relative");
    const dfp_shape *s = n.s;
    uint32_t most = 0;
    for (uint64_t x = 0; x < dfp_routers(s); x++)
        for (uint64_t y = 0; y < dfp_routers(s); y++) {
            if (!dfp_is_leaf(s, x) || !dfp_is_leaf(s, y))
                continue;
            uint32_t hops = dfp_router_hops(s, x, y);
            uint32_t want = x == y ? 0 : dfp_group_of(s, x) == dfp_group_of(s, y) ? 2 : 3;
            cr_assert_eq(hops, want, "leaf %llu to leaf %llu: %u hops, want %u",
                         (unsigned long long)x, (unsigned long long)y, hops, want);
            most = hops > most ? hops : most;
        }
    cr_expect_eq(most, 3, "diameter between leaves");
    dragonflyplus_topology.destroy(n.t);
}

static double mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) % 4096);
}
static double noisy_port(const void *ctx, int32_t port)
{
    return mix(*(const uint64_t *)ctx * 131 + (uint64_t)port);
}

/* A hop's rank: up 0, global 1, down 2; position = 3·class + rank. */
static int rank_of(const dfp_shape *s, uint64_t r, int32_t port)
{
    if (dfp_is_leaf(s, r))
        return 0;
    return port >= dfp_spine_global_base(s) ? 1 : 2;
}

/* Walks every routing between every pair of leaves, 8 draws per pair. */
static void walk_all(net n, dfp_routing alg, unsigned *nonminimal)
{
    const dfp_shape *s = n.s;
    dfp_route_cfg cfg = {.alg = alg, .n_indirect = 2, .hop_weight = 1, .vcs = dfp_route_vcs(alg)};
    uint64_t seed = 1;
    for (uint64_t src = 0; src < dfp_routers(s); src++)
        for (uint64_t dst = 0; dst < dfp_routers(s); dst++) {
            if (!dfp_is_leaf(s, src) || !dfp_is_leaf(s, dst))
                continue;
            for (int k = 0; k < 8; k++, seed++) {
                dfp_occ occ = {noisy_port, &seed};
                dfp_pkt st = {0, 0, 0};
                uint64_t cur = src;
                int last = -1;
                uint32_t hops = 0;
                for (;; hops++) {
                    uint64_t draw = (uint64_t)mix(seed * 7 + hops) << 40 ^ seed * 0x9E3779B97F4A7C15ull;
                    dfp_hop h = dfp_route_hop(s, &cfg, st, hops, (uint32_t)seed, cur, dst, draw, &occ);
                    if (h.port == DFP_EJECT)
                        break;
                    cr_assert((int)hops < dfp_route_max_hops(alg), "%s path %llu -> %llu too long",
                              alg == DFP_MINIMAL ? "minimal" : "non-minimal",
                              (unsigned long long)src, (unsigned long long)dst);
                    int pos = 3 * h.vc + rank_of(s, cur, h.port);
                    cr_assert(pos > last,
                              "routing %d, %llu -> %llu: hop %u (class %d, rank %d) does not rise "
                              "above position %d: a cycle of channel dependencies is possible",
                              alg, (unsigned long long)src, (unsigned long long)dst, hops, h.vc,
                              rank_of(s, cur, h.port), last);
                    last = pos;
                    net_peer q = dragonflyplus_topology.peer(n.t, cur, h.port);
                    cr_assert_eq(q.kind, NET_PEER_ROUTER);
                    cur = q.id;
                    st = h.next;
                }
                cr_assert_eq(cur, dst);
                if (alg == DFP_MINIMAL)
                    cr_assert_eq(hops, dfp_router_hops(s, src, dst), "minimal takes a minimal path");
                *nonminimal += hops > dfp_router_hops(s, src, dst);
            }
        }
}

Test(dragonflyplus, every_routing_arrives_on_rising_vc_classes)
{
    static const char *const arrs[] = {"absolute", "relative", "circulant"};
    for (int a = 0; a < 3; a++) {
        net n = make(3, 3, 2, 2, 1, 0, arrs[a]);
        for (int alg = DFP_MINIMAL; alg <= DFP_PAR; alg++) {
            unsigned nonmin = 0;
            walk_all(n, (dfp_routing)alg, &nonmin);
            if (alg == DFP_VALIANT || alg == DFP_UGAL || alg == DFP_PAR)
                cr_expect_gt(nonmin, 0, "routing %d never leaves the minimal path", alg);
        }
        dragonflyplus_topology.destroy(n.t);
        n = make(2, 3, 2, 2, 2, 4, arrs[a]);
        for (int alg = DFP_MINIMAL; alg <= DFP_PAR; alg++) {
            unsigned nonmin = 0;
            walk_all(n, (dfp_routing)alg, &nonmin);
        }
        dragonflyplus_topology.destroy(n.t);
    }
}
