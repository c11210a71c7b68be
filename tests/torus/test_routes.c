/* tests/torus/test_routes.c — the torus topology on its own: wiring is
 * symmetric, every route follows minimal dimension order to its destination
 * with the documented tie rule, and dateline VCs change only on wrap links
 * (or, with dateline = dimension, hold for the whole dimension of a route
 * that crosses one). */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "torus/torus.h"

static void *build_ties_dateline(const char *dims, const char *p, const char *ties, const char *dateline)
{
    warp_ini *ini = warp_ini_new();
    warp_ini_set(ini, "torus", "dims", dims, "test");
    warp_ini_set(ini, "torus", "nodes_per_router", p, "test");
    if (ties)
        warp_ini_set(ini, "torus", "ties", ties, "test");
    if (dateline)
        warp_ini_set(ini, "torus", "dateline", dateline, "test");
    net_params params = {.link_bandwidth = 1, .link_latency = 1};
    void *t = torus_topology.setup(ini, &params);
    warp_ini_free(ini);
    return t;
}

static void *build_ties(const char *dims, const char *p, const char *ties)
{
    return build_ties_dateline(dims, p, ties, NULL);
}

static void *build(const char *dims, const char *p) { return build_ties(dims, p, NULL); }

Test(torus, wiring_is_symmetric)
{
    void *t = build("4,3,5", "2");
    const net_topology_ops *o = &torus_topology;
    for (uint64_t r = 0; r < o->routers(t); r++)
        for (int32_t p = 0; p < o->radix(t, r); p++) {
            net_peer q = o->peer(t, r, p);
            if (q.kind == NET_PEER_ROUTER) {
                net_peer back = o->peer(t, q.id, q.port);
                cr_assert(back.kind == NET_PEER_ROUTER && back.id == r && back.port == p,
                          "router %llu port %d does not come back", (unsigned long long)r, p);
            } else if (q.kind == NET_PEER_TERMINAL) {
                net_attach a = o->attach(t, q.id);
                cr_assert(a.router == r && a.port == p, "terminal %llu attach differs",
                          (unsigned long long)q.id);
            }
        }
    o->destroy(t);
}

/* Ring distance from a to b in a k-ring, and the direction taken (+1 on ties). */
static int ring(int64_t a, int64_t b, int64_t k, int *dir)
{
    int64_t f = ((b - a) % k + k) % k;
    *dir = f <= k - f ? 1 : -1;
    return (int)(f <= k - f ? f : k - f);
}

/* dateline: NULL or "hop" (VC 1 from the wrap link on), "dimension" (VC 1
 * for the whole dimension when the way there crosses the wrap link). */
static void check_minimal_dimension_order(const char *ties, const char *dateline)
{
    const int64_t k[3] = {4, 3, 6};
    const uint64_t strides[3] = {1, 4, 12};
    int whole = dateline && !strcmp(dateline, "dimension");
    void *t = build_ties_dateline("4,3,6", "2", ties, dateline);
    const net_topology_ops *o = &torus_topology;
    uint64_t nodes = o->nodes(t);
    for (uint64_t s = 0; s < nodes; s++)
        for (uint64_t d = 0; d < nodes; d++) {
            net_attach a = o->attach(t, s);
            uint64_t r = a.router;
            int32_t in_port = a.port, in_vc = 0;
            uint32_t hops = 0;
            int last_dim = -1;
            for (;;) {
                net_route_in in = {.router = r, .in_port = in_port, .in_vc = in_vc, .src = s,
                                   .dst = d, .flow = (uint32_t)(s * nodes + d), .hops = hops};
                net_route_out out = o->route(t, &in);
                net_peer q = o->peer(t, r, out.port);
                if (q.kind == NET_PEER_TERMINAL) {
                    cr_assert_eq(q.id, d, "route %llu->%llu ends at terminal %llu",
                                 (unsigned long long)s, (unsigned long long)d,
                                 (unsigned long long)q.id);
                    break;
                }
                int dim = out.port / 2;
                cr_assert(dim >= last_dim, "dimension order broken on %llu->%llu",
                          (unsigned long long)s, (unsigned long long)d);
                int64_t c = (int64_t)(r / strides[dim] % (uint64_t)k[dim]);
                int64_t cd = (int64_t)(d / 2 / strides[dim] % (uint64_t)k[dim]);
                int wrap = out.port % 2 == 0 ? c == k[dim] - 1 : c == 0;
                int crosses = out.port % 2 == 0 ? c > cd : c < cd;
                int want_vc = dim == last_dim ? in_vc | (whole ? 0 : wrap) : whole ? crosses : wrap;
                cr_assert_eq(out.vc, want_vc, "VC on %llu->%llu hop %u", (unsigned long long)s,
                             (unsigned long long)d, hops);
                last_dim = dim;
                r = q.id;
                in_port = q.port;
                in_vc = out.vc;
                cr_assert(++hops <= 20, "route %llu->%llu loops", (unsigned long long)s,
                          (unsigned long long)d);
            }
            uint64_t rs = s / 2, rd = d / 2, want = 0;
            uint64_t stride[3] = {1, 4, 12};
            for (int i = 0; i < 3; i++) {
                int dir;
                want += (uint64_t)ring((int64_t)(rs / stride[i] % (uint64_t)k[i]),
                                       (int64_t)(rd / stride[i] % (uint64_t)k[i]), k[i], &dir);
            }
            cr_assert_eq(hops, want, "route %llu->%llu takes %u hops, minimal is %llu",
                         (unsigned long long)s, (unsigned long long)d, hops,
                         (unsigned long long)want);
            cr_assert_eq(o->min_hops(t, s, d), want, "min_hops %llu->%llu",
                         (unsigned long long)s, (unsigned long long)d);
        }
    o->destroy(t);
}

Test(torus, routes_are_minimal_dimension_order_with_dateline_vcs)
{
    check_minimal_dimension_order(NULL, NULL);
    check_minimal_dimension_order("balanced", NULL);
    check_minimal_dimension_order("random", "hop");
    check_minimal_dimension_order(NULL, "dimension");
    check_minimal_dimension_order("random", "dimension");
}

/* Hops on + and - links of an 8-ring under all-pairs traffic: each source
 * has 6 hops each way to distances 1..3 and a tie at distance 4, so `plus`
 * puts 10 of 16 hops per source on + links (the 80/63-style imbalance that
 * costs uniform DOR throughput) and `balanced` 8 each way. */
static void ring_loads(const char *ties, uint64_t *plus, uint64_t *minus, int *both_ways)
{
    void *t = build_ties("8", "1", ties);
    *plus = *minus = 0;
    int seen[2] = {0, 0};
    for (uint64_t s = 0; s < 8; s++)
        for (uint64_t d = 0; d < 8; d++) {
            uint64_t r = s;
            net_attach a = torus_topology.attach(t, s);
            int32_t in_port = a.port, in_vc = 0;
            for (int hop = 0; hop < 8; hop++) {
                net_route_in in = {.router = r, .in_port = in_port, .in_vc = in_vc, .src = s,
                                   .dst = d, .flow = (uint32_t)(s * 8 + d)};
                net_route_out out = torus_topology.route(t, &in);
                net_peer q = torus_topology.peer(t, r, out.port);
                if (q.kind == NET_PEER_TERMINAL)
                    break;
                if ((d - s + 8) % 8 == 4 && r == s)
                    seen[out.port]++;
                *(out.port == 0 ? plus : minus) += 1;
                r = q.id;
                in_port = q.port;
                in_vc = out.vc;
            }
        }
    *both_ways = seen[0] > 0 && seen[1] > 0;
    torus_topology.destroy(t);
}

Test(torus, tie_rules_spread_the_load)
{
    uint64_t plus, minus;
    int both;
    ring_loads("plus", &plus, &minus, &both);
    cr_assert(plus == 8 * 10 && minus == 8 * 6 && !both, "plus: + %llu, - %llu",
              (unsigned long long)plus, (unsigned long long)minus);
    ring_loads("balanced", &plus, &minus, &both);
    cr_assert(plus == 8 * 8 && minus == 8 * 8 && both, "balanced: + %llu, - %llu",
              (unsigned long long)plus, (unsigned long long)minus);
    ring_loads("random", &plus, &minus, &both);
    cr_assert(plus + minus == 8 * 16 && both, "random: + %llu, - %llu, both ways %d",
              (unsigned long long)plus, (unsigned long long)minus, both);
}

Test(torus, ties_go_the_positive_way)
{
    void *t = build("4", "1");
    net_attach a = torus_topology.attach(t, 0);
    net_route_in in = {.router = 0, .in_port = a.port, .dst = 2};
    net_route_out out = torus_topology.route(t, &in);
    cr_assert_eq(out.port, 0, "distance 2 in a 4-ring goes through port 0 (+), got %d", out.port);
    torus_topology.destroy(t);
}
