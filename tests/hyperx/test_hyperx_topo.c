/* test_hyperx_topo.c — the HyperX as the network layer sees it
 * (hyperx_topology): closed forms for radix, links, diameter and bisection,
 * symmetric wiring with K_d links between two routers of a dimension, dor
 * routes that reach their destination in min_hops hops correcting
 * dimensions in rising order, the VC classes DAL needs, and a fixed-point
 * free worst case. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "hyperx/hyperx.h"
#include "hyperx/hyperx_shape.h"
#include "warp_ini.h"

static const net_topology_ops *ops = &hyperx_topology;

static hyperx *make(const char *dims, const char *trunking, const char *terminals, const char *routing)
{
    warp_ini *ini = warp_ini_new();
    warp_ini_set(ini, "hyperx", "dims", dims, "test");
    warp_ini_set(ini, "hyperx", "trunking", trunking, "test");
    warp_ini_set(ini, "hyperx", "terminals", terminals, "test");
    warp_ini_set(ini, "hyperx", "routing", routing, "test");
    warp_ini_set(ini, "hyperx", "terminal_bandwidth", "25GB/s", "test");
    net_params p;
    memset(&p, 0, sizeof p);
    p.link_bandwidth = 12.5;
    p.link_latency = 40;
    p.terminal_latency = 15;
    hyperx *h = ops->setup(ini, &p);
    warp_ini_free(ini);
    return h;
}

static const char *shapes[][3] = {{"4,4", "1", "4"}, {"3,5,2", "2,1,3", "2"}, {"8", "1", "8"},
                                  {"2,3,4", "1", "1"}, {"1,4,1,3", "2", "3"}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

/* Number of coordinates in which routers a and b differ, and the last one. */
static int differ(const hyperx *h, uint64_t a, uint64_t b, int *dim)
{
    int n = 0;
    for (int d = 0; d < h->n; d++)
        if (hx_coord(h, a, d) != hx_coord(h, b, d)) {
            n++;
            *dim = d;
        }
    return n;
}

Test(hyperx_topo, closed_forms_of_radix_links_diameter_bisection)
{
    /* dims 4,6, trunking 1,2, 3 terminals: R = 24, network ports 3 + 10 = 13,
     * radix 16, router links 24 x 13 / 2 = 156, diameter 2; halving
     * dimension 0 cuts 24/4 x 2 x 2 x 1 = 24 links, dimension 1 24/6 x 3 x 3 x 2
     * = 72: bisection 24 links of 12.5 B/ns. */
    hyperx *h = make("4,6", "1,2", "3", "dor");
    cr_assert_eq(ops->routers(h), 24);
    cr_assert_eq(ops->nodes(h), 72);
    cr_assert_eq(ops->max_radix(h), 16);
    uint64_t half_ports = 0;
    uint32_t diameter = 0;
    for (uint64_t r = 0; r < 24; r++)
        for (int32_t p = 0; p < ops->radix(h, r); p++) {
            half_ports += ops->peer(h, r, p).kind == NET_PEER_ROUTER;
            for (uint64_t s = 0; s < 24; s++) {
                uint32_t d = ops->min_hops(h, r * 3, s * 3);
                diameter = d > diameter ? d : diameter;
            }
        }
    cr_assert_eq(half_ports / 2, 156, "router links %llu", (unsigned long long)(half_ports / 2));
    cr_assert_eq(diameter, 2);
    cr_assert_float_eq(ops->bisection_bandwidth(h), 24 * 12.5, 1e-9, "bisection %g",
                       ops->bisection_bandwidth(h));
    free(h);
    /* Odd sizes only (3,5): the cut nearest halves, 15/3 x 1 x 2 = 10 links. */
    h = make("3,5", "1", "2", "dor");
    cr_assert_float_eq(ops->bisection_bandwidth(h), 10 * 12.5, 1e-9);
    free(h);
}

Test(hyperx_topo, wiring_is_symmetric_with_k_links_per_pair_in_one_dimension)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        hyperx *h = make(shapes[s][0], shapes[s][1], shapes[s][2], "dor");
        uint64_t R = ops->routers(h);
        int32_t want_ports = 0;
        for (int d = 0; d < h->n; d++)
            want_ports += (int32_t)((h->S[d] - 1) * h->K[d]);
        cr_assert_eq(ops->max_radix(h), want_ports + (int32_t)h->T, "%s: radix", shapes[s][0]);
        uint32_t *pairs = calloc(R * R, sizeof *pairs);
        for (uint64_t r = 0; r < R; r++)
            for (int32_t p = 0; p < ops->radix(h, r); p++) {
                net_peer e = ops->peer(h, r, p);
                if (e.kind == NET_PEER_TERMINAL) {
                    cr_assert_eq(e.bandwidth, 25.0);
                    cr_assert_eq(e.latency, 15.0);
                    net_attach a = ops->attach(h, e.id);
                    cr_assert(a.router == r && a.port == p, "%s: terminal %llu attach", shapes[s][0],
                              (unsigned long long)e.id);
                    continue;
                }
                cr_assert_eq(e.kind, NET_PEER_ROUTER);
                cr_assert_eq(e.bandwidth, 12.5);
                cr_assert_eq(e.latency, 40.0);
                net_peer back = ops->peer(h, e.id, e.port);
                cr_assert(back.kind == NET_PEER_ROUTER && back.id == r && back.port == p,
                          "%s: r%llu port %d -> r%llu port %d does not lead back", shapes[s][0],
                          (unsigned long long)r, p, (unsigned long long)e.id, e.port);
                int d = -1;
                cr_assert_eq(differ(h, r, e.id, &d), 1, "%s: r%llu port %d to a router two steps away",
                             shapes[s][0], (unsigned long long)r, p);
                cr_assert(p >= h->base[d] && p < h->base[d] + (h->S[d] - 1) * h->K[d],
                          "%s: port %d leads along dimension %d, outside its ports", shapes[s][0], p, d);
                pairs[r * R + e.id]++;
            }
        for (uint64_t r = 0; r < R; r++)
            for (uint64_t q = 0; q < R; q++) {
                int d = -1;
                uint32_t want = differ(h, r, q, &d) == 1 ? (uint32_t)h->K[d] : 0;
                cr_assert_eq(pairs[r * R + q], want, "%s: r%llu-r%llu joined by %u links, want %u",
                             shapes[s][0], (unsigned long long)r, (unsigned long long)q,
                             pairs[r * R + q], want);
            }
        free(pairs);
        free(h);
    }
}

Test(hyperx_topo, dor_reaches_every_terminal_in_min_hops_in_rising_dimensions)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        hyperx *h = make(shapes[s][0], shapes[s][1], shapes[s][2], "dor");
        uint64_t N = ops->nodes(h);
        for (uint64_t src = 0; src < N; src++)
            for (uint64_t dst = 0; dst < N; dst++) {
                net_attach a = ops->attach(h, src);
                net_route_in in = {.router = a.router, .in_port = a.port, .src = src, .dst = dst,
                                   .flow = (uint32_t)(src * 31 + dst)};
                int last_dim = -1;
                for (;;) {
                    net_route_out o = ops->route(h, &in);
                    cr_assert_eq(o.vc, 0, "dor uses one VC");
                    net_peer e = ops->peer(h, in.router, o.port);
                    if (e.kind == NET_PEER_TERMINAL) {
                        cr_assert_eq(e.id, dst, "%s: %llu -> %llu ejects at terminal %llu", shapes[s][0],
                                     (unsigned long long)src, (unsigned long long)dst,
                                     (unsigned long long)e.id);
                        break;
                    }
                    int d = -1;
                    differ(h, in.router, e.id, &d);
                    cr_assert_gt(d, last_dim, "%s: dimension %d after %d", shapes[s][0], d, last_dim);
                    last_dim = d;
                    in.router = e.id;
                    in.in_port = e.port;
                    in.hops++;
                    cr_assert_leq(in.hops, (uint32_t)h->n);
                }
                cr_assert_eq(in.hops, ops->min_hops(h, src, dst), "%s: %llu -> %llu", shapes[s][0],
                             (unsigned long long)src, (unsigned long long)dst);
            }
        free(h);
    }
}

Test(hyperx_topo, dal_needs_a_class_per_hop_of_its_longest_path)
{
    /* a minimal hop in every dimension of size >= 2, a deroute in those of
     * size >= 3 */
    hyperx *h = make("8,8,8", "1", "1", "dal");
    cr_assert_eq(hx_route_classes(h, HX_DAL), 6);
    cr_assert_eq(ops->vcs(h), 6);
    cr_assert_eq(hx_route_classes(h, HX_DOR), 1);
    free(h);
    h = make("2,8,1", "1", "1", "dal");
    cr_assert_eq(ops->vcs(h), 3);
    free(h);
}

Test(hyperx_topo, worst_case_is_a_shift_without_fixed_points)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        hyperx *h = make(shapes[s][0], shapes[s][1], shapes[s][2], "dor");
        uint64_t N = ops->nodes(h);
        char *hit = calloc(N, 1);
        for (uint64_t t = 0; t < N; t++) {
            uint64_t d = ops->worst_case_dst(h, t);
            cr_assert_neq(d, t, "%s: terminal %llu sends to itself", shapes[s][0], (unsigned long long)t);
            cr_assert_eq(ops->min_hops(h, t, d), 1);
            cr_assert_not(hit[d], "%s: terminal %llu is a destination twice", shapes[s][0],
                          (unsigned long long)d);
            hit[d] = 1;
        }
        free(hit);
        free(h);
    }
}
