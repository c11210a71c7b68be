/* test_dragonfly_route.c — dragonfly routing hop by hop (dfly_route_hop, moving
 * along dragonfly_topology.peer): every routing reaches the destination
 * router within its hop bound on VC classes that strictly rise in the
 * deadlock-free order of dragonfly_route.h; minimal takes the minimal route,
 * Valiant two global hops through a third group, UGAL-L / UGAL-G / PAR
 * follow the occupancies they are shown and keep to the minimal path unless
 * a detour saves more than ugal_threshold, extra VCs become lanes. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>

#include "dragonfly/dragonfly_route.h"
#include "dragonfly/dragonfly.h"
#include "warp_ini.h"

static const char *const routings[] = {"minimal", "valiant", "ugal-l", "ugal-g", "par"};

typedef struct net {
    dfly_shape s;
    void *t; /* the topology with the same shape, for peer() */
} net;

/* A dragonfly of g groups (0: a·h + 1); a Cascade one when rows > 0: rows
 * x cols routers per group with rl and cl links per row and column pair. */
static net make_cascade(unsigned rows, unsigned cols, unsigned rl, unsigned cl, unsigned a,
                        unsigned p, unsigned h, unsigned g, dfly_arrangement arr)
{
    static const char *const arr_names[] = {"absolute", "relative", "circulant"};
    net n;
    if (rows)
        a = rows * cols;
    cr_assert_null(dfly_shape_init(&n.s, a, p, h, g ? g : a * h + 1, arr));
    if (rows)
        cr_assert_null(dfly_shape_cascade(&n.s, rows, cols, rl, cl));
    warp_ini *ini = warp_ini_new();
    const char *keys[] = {"a", "p", "h", "g", "rows", "columns", "row_links", "column_links"};
    unsigned vals[] = {a, p, h, n.s.g, rows, cols, rl, cl};
    char v[8][16];
    for (int k = 0; k < (rows ? 8 : 4); k++) {
        snprintf(v[k], 16, "%u", vals[k]);
        warp_ini_set(ini, "dragonfly", keys[k], v[k], "test");
    }
    warp_ini_set(ini, "dragonfly", "arrangement", arr_names[arr], "test");
    net_params params = {.link_bandwidth = 12.5, .link_latency = 50, .packet_size = 256};
    n.t = dragonfly_topology.setup(ini, &params);
    warp_ini_free(ini);
    return n;
}

static net make(unsigned a, unsigned p, unsigned h, unsigned g, dfly_arrangement arr)
{
    return make_cascade(0, 0, 0, 0, a, p, h, g, arr);
}

static dfly_route_cfg cfg_of(dfly_routing alg)
{
    dfly_route_cfg c = {.alg = alg, .n_indirect = 1, .hop_weight = 1, .vcs = dfly_route_vcs(alg)};
    return c;
}

/* Occupancies the tests set: per own port and per group global port. */
typedef struct fake {
    double port[64];
    double global[64];
    uint64_t noise; /* nonzero: pseudo-random occupancies instead */
} fake;

static double mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (double)((z ^ (z >> 31)) % 4096);
}
static double fake_port(const void *ctx, int32_t port)
{
    const fake *f = ctx;
    return f->noise ? mix(f->noise * 131 + (uint64_t)port) : f->port[port];
}
static double fake_global(const void *ctx, uint32_t j)
{
    const fake *f = ctx;
    return f->noise ? mix(f->noise * 977 + j) : f->global[j];
}

/* Position of a hop's (kind, class) in the order L0 < [L1] < G0 < L < G1 < L. */
static int position(int global, int cls, int par)
{
    if (global)
        return par ? 2 * cls + 2 : 2 * cls + 1;
    return par ? (cls < 2 ? cls : 2 * cls - 1) : 2 * cls;
}

typedef struct path {
    uint32_t hops, globals, src_locals;
    uint32_t group[16]; /* group of each router visited */
} path;

/* Routes a packet from router src to router dst; checks each hop. */
static path walk(const net *n, const dfly_route_cfg *cfg, uint64_t src, uint64_t dst, uint64_t seed,
                 uint32_t flow, fake *f)
{
    const dfly_shape *s = &n->s;
    dfly_occ occ = {fake_port, fake_global, f};
    dfly_pkt st = {0};
    path pa = {0};
    uint64_t cur = src;
    int last = -1, last_row = 0, par = cfg->alg == DFLY_PAR, need = dfly_route_vcs(cfg->alg);
    for (;;) {
        pa.group[pa.hops] = dfly_group_of(s, cur);
        if (f->noise)
            f->noise = seed * 1000003 + pa.hops + 1;
        dfly_hop h = dfly_route_hop(s, cfg, st, pa.hops, flow, cur, dst, seed * 7919 + pa.hops,
                                    &occ);
        if (h.port == DFLY_EJECT) {
            cr_assert_eq(cur, dst, "ejected at router %llu, not %llu", (unsigned long long)cur,
                         (unsigned long long)dst);
            return pa;
        }
        cr_assert(h.vc >= 0 && h.vc < cfg->vcs, "VC %d of %d", h.vc, cfg->vcs);
        int global = h.port >= dfly_global_base(s);
        int row = !global && h.port < (int32_t)((s->cols - 1) * s->row_links);
        int pos = position(global, h.vc % need, par);
        /* Equal positions only for a row hop then a column hop (Cascade). */
        cr_assert(pos > last || (pos == last && last_row && !global && !row),
                  "%s %llu -> %llu: hop %u (%s, class %d) does not rise", routings[cfg->alg],
                  (unsigned long long)src, (unsigned long long)dst, pa.hops,
                  global ? "global" : row ? "row" : "column", h.vc % need);
        last = pos;
        last_row = row;
        net_peer q = dragonfly_topology.peer(n->t, cur, h.port);
        cr_assert_eq(q.kind, NET_PEER_ROUTER, "a route leads to a router");
        if (global)
            pa.globals++;
        else if (pa.globals == 0)
            pa.src_locals++;
        cur = q.id;
        st = h.next;
        pa.hops++;
        cr_assert_leq(pa.hops, (uint32_t)dfly_route_max_hops(s, cfg->alg), "%s: %u hops",
                      routings[cfg->alg], pa.hops);
    }
}

Test(dfly_route, every_routing_reaches_the_destination_on_rising_classes)
{
    const unsigned shapes[][4] = {{4, 2, 2, 0}, {4, 2, 2, 5}, {6, 3, 3, 8}, {3, 1, 2, 4}};
    for (size_t k = 0; k < 4; k++)
        for (int arr = 0; arr < 3; arr++) {
            net n = make(shapes[k][0], shapes[k][1], shapes[k][2], shapes[k][3],
                         (dfly_arrangement)arr);
            uint64_t routers = dfly_routers(&n.s);
            for (int alg = 0; alg < 5; alg++) {
                dfly_route_cfg c = cfg_of((dfly_routing)alg);
                for (uint64_t x = 0; x < routers; x++)
                    for (uint64_t y = 0; y < routers; y++)
                        for (uint64_t seed = 1; seed <= 3; seed++) {
                            fake f = {.noise = 1};
                            path p = walk(&n, &c, x, y, seed + 5 * (x * routers + y), 0, &f);
                            cr_assert_leq(p.globals, alg == DFLY_MINIMAL ? 1u : 2u);
                            if (dfly_group_of(&n.s, x) == dfly_group_of(&n.s, y))
                                cr_assert_eq(p.hops, x == y ? 0u : 1u,
                                             "inside a group every routing goes direct");
                        }
            }
            dragonfly_topology.destroy(n.t);
        }
}

Test(dfly_route, minimal_takes_the_minimal_route)
{
    for (int arr = 0; arr < 3; arr++) {
        net n = make(4, 2, 2, 0, (dfly_arrangement)arr);
        net m = make(6, 3, 3, 8, (dfly_arrangement)arr);
        dfly_route_cfg c = cfg_of(DFLY_MINIMAL);
        for (uint64_t x = 0; x < dfly_routers(&n.s); x++)
            for (uint64_t y = 0; y < dfly_routers(&n.s); y++) {
                fake f = {0};
                path p = walk(&n, &c, x, y, x * 97 + y, 0, &f);
                cr_assert_eq(p.hops, dfly_router_hops(&n.s, x, y),
                             "one link per pair of groups: the route is the minimal one");
            }
        for (uint64_t x = 0; x < dfly_routers(&m.s); x++)
            for (uint64_t y = 0; y < dfly_routers(&m.s); y++) {
                fake f = {0};
                path p = walk(&m, &c, x, y, x * 97 + y, 0, &f);
                cr_assert_geq(p.hops, dfly_router_hops(&m.s, x, y));
                cr_assert_leq(p.hops, 3u);
            }
        dragonfly_topology.destroy(n.t);
        dragonfly_topology.destroy(m.t);
    }
}

Test(dfly_route, valiant_goes_through_a_third_group)
{
    net n = make(4, 2, 2, 0, DFLY_RELATIVE);
    dfly_route_cfg c = cfg_of(DFLY_VALIANT);
    uint64_t x = 1, y = 4 * 5 + 2; /* group 0 -> group 5 */
    unsigned seen[9] = {0};
    for (uint64_t seed = 0; seed < 900; seed++) {
        fake f = {0};
        path p = walk(&n, &c, x, y, seed, 0, &f);
        cr_assert_eq(p.globals, 2, "Valiant takes two global hops");
        uint32_t inter = 0;
        for (uint32_t i = 0; i <= p.hops; i++)
            if (p.group[i] != 0 && p.group[i] != 5)
                inter = p.group[i];
        cr_assert(inter != 0, "an intermediate group other than source and destination");
        seen[inter]++;
    }
    for (unsigned gr = 1; gr < 9; gr++)
        if (gr != 5)
            cr_assert_gt(seen[gr], 60, "group %u is chosen %u times of 900 (uniform: 128)", gr,
                         seen[gr]);
    dragonfly_topology.destroy(n.t);
}

/* Router 1 of group 0 bound for group 3 (relative, a = 4, h = 2): group 0's
 * link to group 3 is its global port 2, on router 1 (port a - 1 = 3). */
Test(dfly_route, ugal_follows_the_occupancies_it_sees)
{
    net n = make(4, 2, 2, 0, DFLY_RELATIVE);
    uint64_t x = 1, y = 3 * 4 + 1;
    for (int alg = DFLY_UGAL_L; alg <= DFLY_PAR; alg++) {
        dfly_route_cfg c = cfg_of((dfly_routing)alg);
        fake idle = {0};
        path p = walk(&n, &c, x, y, 11, 0, &idle);
        cr_assert_eq(p.globals, 1, "%s: ties go to the minimal path", routings[alg]);
        fake busy = {0};
        busy.port[3] = 1e6;
        for (uint64_t seed = 0; seed < 50; seed++) {
            p = walk(&n, &c, x, y, seed, 0, &busy);
            cr_assert_eq(p.globals, 2, "%s: a busy minimal port sends the packet around",
                         routings[alg]);
        }
    }
    /* Router 0 reaches group 3 through router 1's global port (group port
     * 2): only UGAL-G sees that port's queue. */
    fake remote = {0};
    remote.global[2] = 1e6;
    dfly_route_cfg l = cfg_of(DFLY_UGAL_L), g = cfg_of(DFLY_UGAL_G);
    for (uint64_t seed = 0; seed < 50; seed++) {
        cr_assert_eq(walk(&n, &l, 0, y, seed, 0, &remote).globals, 1, "UGAL-L sees local queues");
        cr_assert_eq(walk(&n, &g, 0, y, seed, 0, &remote).globals, 2,
                     "UGAL-G sees the remote global port");
    }
    dragonfly_topology.destroy(n.t);
}

/* ugal_threshold: a non-minimal candidate must save more than the
 * threshold over the minimal path, else the packet stays minimal. Costs
 * without the hop weight are the first port's queue alone: the minimal
 * port (3) holds 500 or 1500 bytes, every other port none, the threshold
 * is 1000 bytes. */
Test(dfly_route, ugal_threshold_keeps_small_savings_minimal)
{
    net n = make(4, 2, 2, 0, DFLY_RELATIVE);
    uint64_t x = 1, y = 3 * 4 + 1;
    for (int alg = DFLY_UGAL_L; alg <= DFLY_UGAL_G; alg++) {
        dfly_route_cfg c = cfg_of((dfly_routing)alg);
        c.hop_weight = 0;
        c.threshold = 1000;
        for (uint64_t seed = 0; seed < 50; seed++) {
            fake f = {0};
            cr_assert_eq(walk(&n, &c, x, y, seed, 0, &f).globals, 1,
                         "%s, threshold 1000 B: idle ports, yet the packet leaves the minimal path",
                         routings[alg]);
            f.port[3] = 500;
            cr_assert_eq(walk(&n, &c, x, y, seed, 0, &f).globals, 1,
                         "%s, threshold 1000 B: a detour saving 500 B was taken", routings[alg]);
            f.port[3] = 1500;
            cr_assert_eq(walk(&n, &c, x, y, seed, 0, &f).globals, 2,
                         "%s, threshold 1000 B: a detour saving 1500 B was not taken", routings[alg]);
        }
    }
    dragonfly_topology.destroy(n.t);
}

/* PAR: the source router's queues are idle, so it starts minimally; the
 * router holding the global link finds it busy and diverts — the packet
 * then takes a second local hop in the source group when its new exit is
 * elsewhere. */
Test(dfly_route, par_diverts_after_one_local_hop)
{
    net n = make(4, 2, 2, 0, DFLY_RELATIVE);
    dfly_route_cfg c = cfg_of(DFLY_PAR);
    c.n_indirect = 8;
    uint64_t x = 0, y = 3 * 4 + 1;
    fake f = {0};
    for (int port = 3; port < 5; port++)
        f.port[port] = 1e6; /* every router's global ports look busy */
    unsigned two_local = 0;
    for (uint64_t seed = 0; seed < 100; seed++) {
        path p = walk(&n, &c, x, y, seed, 0, &f);
        cr_assert_eq(p.globals, 2, "diverted at router 1");
        cr_assert_geq(p.src_locals, 1, "left router 0 minimally, on a local hop");
        two_local += p.src_locals == 2;
    }
    cr_assert_gt(two_local, 50, "most diversions need a second local hop (%u of 100)", two_local);
    dfly_route_cfg u = cfg_of(DFLY_UGAL_L);
    u.n_indirect = 8;
    for (uint64_t seed = 0; seed < 100; seed++)
        cr_assert_eq(walk(&n, &u, x, y, seed, 0, &f).globals, 1,
                     "UGAL-L decides once, at the idle source router");
    dragonfly_topology.destroy(n.t);
}

Test(dfly_route, extra_vcs_become_lanes_of_each_class)
{
    net n = make(4, 2, 2, 0, DFLY_CIRCULANT);
    dfly_route_cfg c = cfg_of(DFLY_VALIANT);
    c.vcs = 7; /* 3 classes: classes 0 gets 3 lanes, 1 and 2 get 2 */
    const dfly_shape *s = &n.s;
    for (uint32_t flow = 0; flow < 12; flow++) {
        dfly_pkt st = {0};
        uint64_t cur = 1, dst = 6 * 4 + 3;
        uint32_t hops = 0;
        for (;;) {
            dfly_hop h = dfly_route_hop(s, &c, st, hops, flow, cur, dst, flow * 31 + hops, NULL);
            if (h.port == DFLY_EJECT)
                break;
            int cls = h.vc % 3, lanes = cls == 0 ? 3 : 2;
            cr_assert_lt(h.vc, 7);
            cr_assert_eq(h.vc / 3, (int)(flow % (uint32_t)lanes), "flow %u class %d on VC %d", flow,
                         cls, h.vc);
            cur = dragonfly_topology.peer(n.t, cur, h.port).id;
            st = h.next;
            hops++;
        }
    }
    dragonfly_topology.destroy(n.t);
}

/* Cascade groups (rows x columns, parallel row and column links): the
 * wiring is symmetric with the link counts asked for, and every routing
 * reaches its destination within its hop bound, local hops going row then
 * column inside one VC class; inside a group every routing takes the
 * dfly_local_hops of the shortest path, and with one link per pair of
 * groups minimal routing takes the minimal route. */
Test(dfly_route, cascade_groups_route_row_then_column)
{
    const unsigned shapes[][6] = {{2, 3, 1, 2, 1, 0}, {3, 2, 2, 1, 1, 4}, {2, 2, 1, 3, 2, 5}};
    for (size_t k = 0; k < 3; k++)
        for (int arr = 0; arr < 3; arr++) {
            const unsigned *sh = shapes[k];
            net n = make_cascade(sh[0], sh[1], sh[2], sh[3], 0, 1, sh[4], sh[5], (dfly_arrangement)arr);
            const dfly_shape *s = &n.s;
            uint64_t routers = dfly_routers(s);
            for (uint64_t r = 0; r < routers; r++) {
                uint32_t count[16] = {0};
                for (int32_t port = 0; port < dfly_global_base(s); port++) {
                    net_peer q = dragonfly_topology.peer(n.t, r, port);
                    net_peer b = dragonfly_topology.peer(n.t, q.id, q.port);
                    cr_assert(q.kind == NET_PEER_ROUTER && b.id == r && b.port == port,
                              "router %llu local port %d does not lead back", (unsigned long long)r, port);
                    cr_assert_eq(dfly_group_of(s, q.id), dfly_group_of(s, r));
                    count[dfly_index_of(s, q.id)]++;
                }
                uint32_t idx = dfly_index_of(s, r);
                for (uint32_t o = 0; o < s->a; o++)
                    cr_assert_eq(count[o], o == idx ? 0
                                           : idx / s->cols == o / s->cols ? s->row_links
                                           : idx % s->cols == o % s->cols ? s->col_links : 0,
                                 "router index %u to %u: %u links", idx, o, count[o]);
            }
            for (int alg = 0; alg < 5; alg++) {
                dfly_route_cfg c = cfg_of((dfly_routing)alg);
                for (uint64_t x = 0; x < routers; x++)
                    for (uint64_t y = 0; y < routers; y++)
                        for (uint64_t seed = 1; seed <= 2; seed++) {
                            fake f = {.noise = 1};
                            path p = walk(&n, &c, x, y, seed + 5 * (x * routers + y), (uint32_t)seed, &f);
                            if (dfly_group_of(s, x) == dfly_group_of(s, y))
                                cr_assert_eq(p.hops, dfly_router_hops(s, x, y),
                                             "inside a group: the shortest local path");
                            if (alg == DFLY_MINIMAL && s->rounds == 1 && s->spare == 0)
                                cr_assert_eq(p.hops, dfly_router_hops(s, x, y), "minimal route");
                        }
            }
            dragonfly_topology.destroy(n.t);
        }
}
