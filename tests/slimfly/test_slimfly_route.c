/* test_slimfly_route.c — minimal routes are shortest paths (every first hop on a
 * shortest path is offered, and no other); Valiant routes pass their
 * intermediate and take at most 4 hops; UGAL takes the minimal path at zero
 * load and otherwise the cheapest path by the cost formula. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "sf_testutil.h"
#include "slimfly/slimfly_route.h"

static const int route_qs[] = {4, 5, 7, 8, 9, 13};

static void build(sf_mms *g, int q)
{
    char err[300];
    cr_assert_eq(sf_mms_build(g, q, NULL, 0, NULL, 0, err, sizeof err), 0, "q = %d: %s", q, err);
}

/* Walks a packet from src to dst; returns hops, checks VC = hop index, and
 * records the routers visited in path[0 .. hops]. */
static int walk(const sf_mms *g, const sf_route_cfg *cfg, uint32_t src, uint32_t dst,
                uint64_t seed, sf_occ_fn occ, const void *ctx, uint32_t *path, uint32_t *inter)
{
    sf_pkt_route st = sf_route_start();
    uint32_t cur = src;
    int hops = 0;
    path[0] = src;
    *inter = SF_NONE;
    for (;;) {
        sf_hop h = sf_route_hop(g, cfg, st, cur, dst, sft_draw(seed, (uint64_t)hops), occ, ctx);
        if (hops == 0 && h.next.phase == SF_PHASE_TO_INTER)
            *inter = h.next.inter;
        if (h.port == SF_EJECT)
            break;
        cr_assert(h.port >= 0 && h.port < g->radix, "port %d", h.port);
        cr_assert_eq(h.vc, hops, "hop %d used VC %d", hops, h.vc);
        cr_assert(hops < 8, "route %u -> %u does not end", src, dst);
        cur = sf_neighbor(g, cur, h.port);
        path[++hops] = cur;
        st = h.next;
    }
    cr_assert_eq(cur, dst, "packet ejected at %u, not %u", cur, dst);
    return hops;
}

static double zero_occ(const void *ctx, int port)
{
    (void)ctx;
    (void)port;
    return 0;
}

Test(sf_route, minimal_first_hops_are_exactly_the_shortest_path_ones)
{
    for (size_t n = 0; n < sizeof route_qs / sizeof route_qs[0]; n++) {
        sf_mms g;
        build(&g, route_qs[n]);
        int *dist = malloc(g.nrouters * sizeof *dist);
        char *offered = malloc((size_t)g.radix);
        for (uint32_t t = 0; t < g.nrouters; t++) {
            sft_bfs(&g, t, dist); /* distances to t (the graph is undirected) */
            for (uint32_t s = 0; s < g.nrouters; s++) {
                if (s == t)
                    continue;
                memset(offered, 0, (size_t)g.radix);
                int count = sf_min_count(&g, s, t);
                for (int k = 0; k < count; k++) {
                    int p = sf_min_choice(&g, s, t, k);
                    cr_assert(!offered[p], "q = %d: %u -> %u offers port %d twice", g.q, s, t, p);
                    offered[p] = 1;
                }
                for (int p = 0; p < g.radix; p++) {
                    int on_shortest = dist[sf_neighbor(&g, s, p)] == dist[s] - 1;
                    cr_assert_eq(offered[p], on_shortest,
                                 "q = %d: %u -> %u (distance %d): port %d offered %d, on a "
                                 "shortest path %d",
                                 g.q, s, t, dist[s], p, offered[p], on_shortest);
                }
            }
        }
        free(offered);
        free(dist);
        sf_mms_free(&g);
    }
}

/* Every route from every router to every stride-th router is a shortest
 * path with no intermediate. */
static void assert_minimal_routes(const sf_route_cfg *cfg, const int *qs, size_t nq,
                                  uint32_t stride, sf_occ_fn occ)
{
    for (size_t n = 0; n < nq; n++) {
        sf_mms g;
        build(&g, qs[n]);
        uint32_t path[9], inter;
        for (uint32_t s = 0; s < g.nrouters; s++)
            for (uint32_t t = 0; t < g.nrouters; t += stride) {
                int hops = walk(&g, cfg, s, t, s * 7919u + t, occ, NULL, path, &inter);
                cr_assert_eq(inter, SF_NONE, "q = %d: %u -> %u left the minimal path", g.q, s,
                             t);
                cr_assert_eq(hops, sf_distance(&g, s, t), "q = %d: %u -> %u in %d hops", g.q, s,
                             t, hops);
            }
        sf_mms_free(&g);
    }
}

Test(sf_route, minimal_routes_take_the_distance)
{
    sf_route_cfg cfg = {SF_ROUTE_MINIMAL, 0, 1.0, 0};
    cr_assert_eq(sf_route_vcs(SF_ROUTE_MINIMAL), 2);
    assert_minimal_routes(&cfg, route_qs, sizeof route_qs / sizeof route_qs[0], 3, NULL);
}

Test(sf_route, valiant_passes_its_intermediate_within_4_hops)
{
    sf_route_cfg cfg = {SF_ROUTE_VALIANT, 0, 1.0, 0};
    cr_assert_eq(sf_route_vcs(SF_ROUTE_VALIANT), 4);
    int qs[] = {5, 8, 13};
    for (size_t n = 0; n < sizeof qs / sizeof qs[0]; n++) {
        sf_mms g;
        build(&g, qs[n]);
        uint32_t path[9], inter;
        int longest = 0;
        for (uint64_t i = 0; i < 20000; i++) {
            uint32_t s = (uint32_t)(sft_draw(1, i) % g.nrouters);
            uint32_t t = (uint32_t)(sft_draw(2, i) % g.nrouters);
            int hops = walk(&g, &cfg, s, t, sft_draw(3, i), NULL, NULL, path, &inter);
            if (s == t) {
                cr_assert_eq(hops, 0);
                continue;
            }
            cr_assert(inter != s && inter != t && inter < g.nrouters, "intermediate %u", inter);
            int d1 = sf_distance(&g, s, inter), d2 = sf_distance(&g, inter, t);
            cr_assert_eq(hops, d1 + d2, "q = %d: %u -> %u -> %u in %d hops", g.q, s, inter, t,
                         hops);
            cr_assert_eq(path[d1], inter, "the route does not reach its intermediate");
            cr_assert_leq(hops, 4);
            longest = hops > longest ? hops : longest;
        }
        cr_assert_eq(longest, 4, "q = %d: no 4-hop Valiant route in 20000", g.q);
        sf_mms_free(&g);
    }
}

Test(sf_route, valiant_intermediates_cover_all_other_routers)
{
    sf_mms g;
    build(&g, 5);
    uint32_t s = 7, t = 31;
    int *seen = calloc(g.nrouters, sizeof *seen);
    for (uint64_t i = 0; i < 50000; i++)
        seen[sf_valiant_pick(&g, s, t, (uint32_t)sft_draw(9, i))]++;
    for (uint32_t r = 0; r < g.nrouters; r++) {
        if (r == s || r == t)
            cr_assert_eq(seen[r], 0, "picked the source or destination %u", r);
        else /* expected 50000/48 = 1042 each */
            cr_assert(seen[r] > 850 && seen[r] < 1250, "router %u picked %d times", r, seen[r]);
    }
    free(seen);
    sf_mms_free(&g);
}

Test(sf_route, ugal_is_minimal_at_zero_load)
{
    sf_route_cfg cfg = {SF_ROUTE_UGAL, 3, 1.0, 0};
    int qs[] = {5, 9, 13};
    assert_minimal_routes(&cfg, qs, sizeof qs / sizeof qs[0], 5, zero_occ);
}

/* Occupancy: `hot` on one port, 1 elsewhere. */
typedef struct hot_port {
    int port;
    double hot;
} hot_port;

static double hot_occ(const void *ctx, int port)
{
    const hot_port *h = ctx;
    return port == h->port ? h->hot : 1.0;
}

/* The cost formula evaluated here from the same sub-draws. */
static uint32_t expected_ugal(const sf_mms *g, const sf_route_cfg *cfg, uint32_t s, uint32_t t,
                              uint64_t draw, const hot_port *hp, int *port)
{
    int pm = sf_min_port(g, s, t, sf_subdraw(draw, 0));
    double best = hot_occ(hp, pm) - cfg->threshold, lm = sf_distance(g, s, t);
    uint32_t choice = SF_NONE;
    *port = pm;
    for (int i = 0; i < cfg->n_indirect; i++) {
        uint32_t I = sf_valiant_pick(g, s, t, sf_subdraw(draw, 2 * i + 1));
        int p = sf_min_port(g, s, I, sf_subdraw(draw, 2 * i + 2));
        double c = (sf_distance(g, s, I) + sf_distance(g, I, t)) / lm * cfg->c_sf * hot_occ(hp, p);
        if (c < best) {
            best = c;
            choice = I;
            *port = p;
        }
    }
    return choice;
}

Test(sf_route, ugal_takes_the_cheapest_path)
{
    sf_mms g;
    build(&g, 13);
    int nonminimal = 0;
    for (int variant = 0; variant < 3; variant++) {
        /* plain; c_sf = 50; threshold 9 (a candidate would need cost < 1) */
        sf_route_cfg cfg = {SF_ROUTE_UGAL, 3, variant == 1 ? 50.0 : 1.0, variant == 2 ? 9.0 : 0};
        for (uint64_t i = 0; i < 5000; i++) {
            uint32_t s = (uint32_t)(sft_draw(4, i) % g.nrouters);
            uint32_t t = (uint32_t)(sft_draw(5, i) % g.nrouters);
            if (s == t)
                continue;
            uint64_t draw = sft_draw(6, i);
            hot_port hp = {sf_min_port(&g, s, t, sf_subdraw(draw, 0)), 10.0};
            sf_hop h = sf_route_hop(&g, &cfg, sf_route_start(), s, t, draw, hot_occ, &hp);
            int port;
            uint32_t want = expected_ugal(&g, &cfg, s, t, draw, &hp, &port);
            cr_assert_eq(h.next.inter, want, "%u -> %u: UGAL chose %u, cost says %u", s, t,
                         h.next.inter, want);
            cr_assert_eq(h.port, port);
            cr_assert_eq(h.next.phase, want == SF_NONE ? SF_PHASE_TO_DST : SF_PHASE_TO_INTER);
            if (variant > 0) /* 50 * L_i/L_M >= 25 > 10; cost >= 1 is not < 10 - 9 */
                cr_assert_eq(h.next.inter, SF_NONE, "variant %d left the minimal path", variant);
            nonminimal += h.next.inter != SF_NONE;
        }
    }
    /* With c_sf = 1 a loaded minimal port (10 vs at most 4 for a candidate)
     * is nearly always avoided. */
    cr_assert_gt(nonminimal, 4000, "only %d non-minimal choices", nonminimal);
    sf_mms_free(&g);
}
