/* test_fattree.c — the m-port n-tree's sizes, wiring and routing against
 * independent derivations: size formulas, link symmetry, digit-wise nearest
 * common ancestors, and chi-square tests of the ECMP spread. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "fattree/fattree.h"
#include "warp_rng.h"

static fattree make(uint32_t m, uint32_t n)
{
    fattree ft;
    const char *why = fattree_init(&ft, m, n);
    cr_assert_null(why, "fattree_init(%u, %u): %s", m, n, why ? why : "");
    return ft;
}

static uint64_t ipow(uint64_t b, uint32_t e)
{
    uint64_t r = 1;
    while (e--)
        r *= b;
    return r;
}

/* ---- sizes ---------------------------------------------------------------- */

Test(fattree, sizes_match_the_issue_and_the_formulas)
{
    static const struct { uint32_t m, n; uint64_t nodes, switches; } cases[] = {
        {4, 2, 8, 6},       {4, 3, 16, 20},           {8, 3, 128, 80},
        {16, 3, 1024, 320}, {128, 3, 524288, 20480},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        fattree ft = make(cases[i].m, cases[i].n);
        uint64_t h = cases[i].m / 2;
        cr_assert_eq(ft.nodes, cases[i].nodes, "(%u,%u) nodes %llu", cases[i].m, cases[i].n,
                     (unsigned long long)ft.nodes);
        cr_assert_eq(ft.switches, cases[i].switches, "(%u,%u) switches %llu", cases[i].m,
                     cases[i].n, (unsigned long long)ft.switches);
        cr_assert_eq(ft.nodes, cases[i].m * ipow(h, cases[i].n - 1));
        cr_assert_eq(ft.switches, (2 * cases[i].n - 1) * ipow(h, cases[i].n - 1));
        cr_assert_eq(ft.top, ipow(h, cases[i].n - 1));
    }
}

Test(fattree, levels_hold_the_documented_switch_counts)
{
    static const uint32_t shapes[][2] = {{2, 3}, {4, 1}, {4, 2}, {4, 3}, {6, 3}, {8, 3}, {4, 5}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        fattree ft = make(shapes[s][0], shapes[s][1]);
        uint64_t count[FATTREE_MAX_LEVELS] = {0};
        for (uint64_t sw = 0; sw < ft.switches; sw++)
            count[fattree_switch_level(&ft, sw)]++;
        uint64_t top = ipow(ft.k, ft.n - 1);
        for (uint32_t l = 0; l + 1 < ft.n; l++)
            cr_assert_eq(count[l], 2 * top, "(%u,%u) level %u has %llu switches", ft.m, ft.n, l,
                         (unsigned long long)count[l]);
        cr_assert_eq(count[ft.n - 1], top, "(%u,%u) top level has %llu switches", ft.m, ft.n,
                     (unsigned long long)count[ft.n - 1]);
    }
}

Test(fattree, init_refuses_bad_shapes)
{
    fattree ft;
    cr_assert_not_null(fattree_init(&ft, 7, 3), "odd port count accepted");
    cr_assert_not_null(fattree_init(&ft, 0, 3), "zero ports accepted");
    cr_assert_not_null(fattree_init(&ft, 8, 0), "zero levels accepted");
    cr_assert_not_null(fattree_init(&ft, 2048, 2), "2048 ports accepted");
    cr_assert_not_null(fattree_init(&ft, 1024, 9), "a tree of 2^75 nodes accepted");
}

/* ---- wiring --------------------------------------------------------------- */

static void check_wiring(uint32_t m, uint32_t n)
{
    fattree ft = make(m, n);
    uint64_t node_ends = 0, switch_ends = 0;
    char *seen = calloc(ft.nodes, 1);
    cr_assert_not_null(seen);
    for (uint64_t sw = 0; sw < ft.switches; sw++) {
        uint32_t l = fattree_switch_level(&ft, sw);
        cr_assert_eq(fattree_switch_ports(&ft, sw), m, "switch %llu does not use all %u ports",
                     (unsigned long long)sw, m);
        for (uint32_t p = 0; p < m; p++) {
            fattree_end e = fattree_switch_link(&ft, sw, p);
            int up = fattree_is_up_port(&ft, sw, p);
            cr_assert_eq(up, l + 1 < n && p >= m / 2, "(%u,%u) sw %llu port %u up=%d", m, n,
                         (unsigned long long)sw, p, up);
            if (e.kind == FATTREE_NODE) {
                node_ends++;
                cr_assert(l == 0 && !up, "(%u,%u) node on level %u port %u", m, n, l, p);
                cr_assert_lt(e.id, ft.nodes);
                cr_assert_eq(e.port, 0);
                cr_assert_eq(seen[e.id], 0, "node %llu attached twice", (unsigned long long)e.id);
                seen[e.id] = 1;
                fattree_end back = fattree_node_link(&ft, e.id);
                cr_assert(back.kind == FATTREE_SWITCH && back.id == sw && back.port == p,
                          "(%u,%u) node %llu links back to sw %llu port %u, not sw %llu port %u",
                          m, n, (unsigned long long)e.id, (unsigned long long)back.id, back.port,
                          (unsigned long long)sw, p);
                continue;
            }
            switch_ends++;
            cr_assert_lt(e.id, ft.switches);
            uint32_t el = fattree_switch_level(&ft, e.id);
            cr_assert_eq(el, up ? l + 1 : l - 1, "(%u,%u) sw %llu (level %u) port %u reaches level %u",
                         m, n, (unsigned long long)sw, l, p, el);
            cr_assert_eq(fattree_is_up_port(&ft, e.id, e.port), !up,
                         "a link must join an up port to a down port");
            fattree_end back = fattree_switch_link(&ft, e.id, e.port);
            cr_assert(back.kind == FATTREE_SWITCH && back.id == sw && back.port == p,
                      "(%u,%u) sw %llu port %u -> sw %llu port %u -> sw %llu port %u", m, n,
                      (unsigned long long)sw, p, (unsigned long long)e.id, e.port,
                      (unsigned long long)back.id, back.port);
        }
    }
    for (uint64_t v = 0; v < ft.nodes; v++)
        cr_assert(seen[v], "(%u,%u) node %llu is not attached", m, n, (unsigned long long)v);
    /* n layers of links, each as wide as the node count (full bisection). */
    cr_assert_eq(node_ends, ft.nodes);
    cr_assert_eq(switch_ends, 2 * (uint64_t)(n - 1) * ft.nodes, "(%u,%u) %llu switch link ends", m,
                 n, (unsigned long long)switch_ends);
    free(seen);
}

Test(fattree, every_link_is_symmetric_and_every_port_used)
{
    static const uint32_t shapes[][2] = {{2, 2}, {4, 1}, {4, 2}, {4, 3}, {6, 3},
                                         {8, 3}, {4, 4}, {6, 4}, {16, 3}};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        check_wiring(shapes[s][0], shapes[s][1]);
}

Test(fattree, top_switches_reach_every_group_once)
{
    fattree ft = make(8, 3);
    for (uint64_t t = ft.switches - ft.top; t < ft.switches; t++) {
        cr_assert_eq(fattree_down_ports(&ft, t), ft.m);
        for (uint32_t g = 0; g < ft.m; g++) {
            fattree_end e = fattree_switch_link(&ft, t, g);
            uint64_t below = e.id % ft.per_level / ipow(ft.k, ft.n - 2);
            cr_assert_eq(below, g, "top %llu port %u reaches group %llu", (unsigned long long)t, g,
                         (unsigned long long)below);
        }
    }
}

/* With n = 3 the tree is the k-ary data-centre fat-tree: inside a pod every
 * edge switch meets every aggregation switch. */
Test(fattree, three_levels_form_complete_pods)
{
    fattree ft = make(8, 3);
    uint64_t per_pod = ft.k;
    for (uint64_t edge = 0; edge < ft.per_level; edge++) {
        uint64_t pod = edge / per_pod, mask = 0;
        for (uint32_t u = 0; u < ft.k; u++) {
            fattree_end e = fattree_switch_link(&ft, edge, ft.k + u);
            uint64_t agg = e.id - ft.per_level;
            cr_assert_eq(agg / per_pod, pod, "edge %llu leaves its pod", (unsigned long long)edge);
            mask |= UINT64_C(1) << (agg % per_pod);
        }
        cr_assert_eq(mask, (UINT64_C(1) << per_pod) - 1, "edge %llu misses an aggregation switch",
                     (unsigned long long)edge);
    }
}

/* ---- routing -------------------------------------------------------------- */

/* Height of the nearest common ancestor from the digits themselves: n across
 * groups, else one more than the highest differing digit (1 when equal). */
static uint32_t digit_nca(const fattree *ft, uint64_t a, uint64_t b)
{
    uint64_t span = ipow(ft->k, ft->n - 1);
    if (a / span != b / span)
        return ft->n;
    uint32_t h = 1;
    for (uint32_t i = 0; i + 1 < ft->n; i++) {
        uint64_t da = a % span / ipow(ft->k, i) % ft->k, db = b % span / ipow(ft->k, i) % ft->k;
        if (da != db)
            h = i + 1;
    }
    return h;
}

typedef struct walk {
    uint32_t hops;
    uint32_t peak;       /* highest level visited */
    uint64_t peak_sw;    /* the switch there */
    uint64_t first_up;   /* first up choice (port - k) at the leaf, or k if none */
} walk;

/* Follows fattree_route from src to f->dst, checking each step. */
static walk route(const fattree *ft, const fattree_flow *f, fattree_routing r, warp_rng *rng)
{
    walk w = {0, 0, 0, ft->k};
    fattree_end at = fattree_node_link(ft, f->src);
    int descending = 0;
    w.hops = 1;
    uint64_t occ[FATTREE_MAX_PORTS];
    for (;;) {
        cr_assert_eq(at.kind, FATTREE_SWITCH);
        uint32_t l = fattree_switch_level(ft, at.id);
        if (l >= w.peak) {
            w.peak = l;
            w.peak_sw = at.id;
        }
        for (uint32_t u = 0; rng && u < ft->k; u++)
            occ[u] = (uint64_t)warp_rng_integer(rng, 0, 3);
        uint64_t draw = rng ? (uint64_t)warp_rng_integer(rng, 0, INT64_MAX) : 0;
        uint32_t p = fattree_route(ft, at.id, f, r, occ, draw);
        int up = fattree_is_up_port(ft, at.id, p);
        cr_assert(!(descending && up), "route %llu -> %llu goes down then up at sw %llu",
                  (unsigned long long)f->src, (unsigned long long)f->dst,
                  (unsigned long long)at.id);
        if (r == FATTREE_ADAPTIVE && up) {
            for (uint32_t u = 0; u < ft->k; u++)
                cr_assert_leq(occ[p - ft->k], occ[u], "adaptive took a busier up port");
        }
        if (up && l == 0)
            w.first_up = p - ft->k;
        descending |= !up;
        at = fattree_switch_link(ft, at.id, p);
        w.hops++;
        cr_assert_leq(w.hops, 2 * ft->n, "route %llu -> %llu longer than 2n links",
                      (unsigned long long)f->src, (unsigned long long)f->dst);
        if (at.kind == FATTREE_NODE)
            break;
    }
    cr_assert_eq(at.id, f->dst, "route %llu -> %llu ends at node %llu",
                 (unsigned long long)f->src, (unsigned long long)f->dst,
                 (unsigned long long)at.id);
    return w;
}

static void check_route(const fattree *ft, uint64_t s, uint64_t d, uint64_t key,
                        fattree_routing r, warp_rng *rng)
{
    fattree_flow f = {s, d, key};
    walk w = route(ft, &f, r, rng);
    uint32_t h = digit_nca(ft, s, d);
    cr_assert_eq(w.hops, 2 * h, "(%u,%u) route %llu -> %llu: %u hops, NCA height %u", ft->m, ft->n,
                 (unsigned long long)s, (unsigned long long)d, w.hops, h);
    cr_assert_eq(fattree_route_hops(ft, s, d), 2 * h);
    cr_assert_eq(w.peak + 1, h, "route %llu -> %llu peaks at level %u", (unsigned long long)s,
                 (unsigned long long)d, w.peak);
    cr_assert(fattree_in_subtree(ft, w.peak_sw, s) && fattree_in_subtree(ft, w.peak_sw, d),
              "the turning switch is not a common ancestor");
}

Test(fattree, every_route_of_small_trees_is_minimal_up_down)
{
    static const uint32_t shapes[][2] = {{4, 1}, {4, 2}, {4, 3}, {6, 3}, {8, 3}, {4, 4}, {6, 4}};
    warp_rng rng = warp_rng_stream(11, 0);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        fattree ft = make(shapes[s][0], shapes[s][1]);
        for (uint64_t a = 0; a < ft.nodes; a++)
            for (uint64_t b = 0; b < ft.nodes; b++) {
                check_route(&ft, a, b, a * 31 + b, FATTREE_ECMP, NULL);
                check_route(&ft, a, b, 0, FATTREE_ADAPTIVE, &rng);
            }
    }
}

Test(fattree, sampled_routes_of_large_trees_are_minimal_up_down)
{
    static const uint32_t shapes[][2] = {{16, 3}, {32, 3}, {128, 3}, {8, 6}};
    warp_rng rng = warp_rng_stream(12, 0);
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        fattree ft = make(shapes[s][0], shapes[s][1]);
        for (int i = 0; i < 20000; i++) {
            uint64_t a = (uint64_t)warp_rng_integer(&rng, 0, (int64_t)ft.nodes - 1);
            uint64_t b = (uint64_t)warp_rng_integer(&rng, 0, (int64_t)ft.nodes - 1);
            if (i % 4 == 1) /* same leaf or same group, which uniform pairs rarely give */
                b = a - a % ipow(ft.k, 1 + i % (ft.n - 1)) + b % ipow(ft.k, 1 + i % (ft.n - 1));
            check_route(&ft, a, b, (uint64_t)i, FATTREE_ECMP, NULL);
            check_route(&ft, a, b, 0, FATTREE_ADAPTIVE, &rng);
        }
    }
}

/* Chi-square critical value at p = 0.001 (Wilson-Hilferty). */
static double chi2_crit(int df)
{
    double c = 2.0 / (9.0 * df);
    return df * pow(1.0 - c + 3.0902 * sqrt(c), 3);
}

static double chi2(const uint64_t *count, uint64_t bins, uint64_t total)
{
    double e = (double)total / (double)bins, x = 0;
    for (uint64_t i = 0; i < bins; i++)
        x += ((double)count[i] - e) * ((double)count[i] - e) / e;
    return x;
}

/* Random flows leaving one leaf spread evenly over its up ports. */
Test(fattree, ecmp_spreads_flows_evenly_over_up_ports)
{
    static const uint32_t ports[] = {4, 8, 16, 128};
    warp_rng rng = warp_rng_stream(13, 0);
    for (size_t s = 0; s < sizeof ports / sizeof ports[0]; s++) {
        fattree ft = make(ports[s], 3);
        uint64_t count[64] = {0}, total = 400 * ft.k;
        uint64_t leaf = (uint64_t)warp_rng_integer(&rng, 0, (int64_t)ft.per_level - 1);
        for (uint64_t i = 0; i < total; i++) {
            fattree_flow f;
            f.src = leaf * ft.k + (uint64_t)warp_rng_integer(&rng, 0, ft.k - 1);
            do
                f.dst = (uint64_t)warp_rng_integer(&rng, 0, (int64_t)ft.nodes - 1);
            while (f.dst / ft.k == leaf);
            f.key = (uint64_t)warp_rng_integer(&rng, 0, 1 << 20);
            uint32_t p = fattree_route(&ft, leaf, &f, FATTREE_ECMP, NULL, 0);
            cr_assert_geq(p, ft.k, "a flow leaving the leaf went down");
            count[p - ft.k]++;
        }
        double x = chi2(count, ft.k, total), crit = chi2_crit((int)ft.k - 1);
        cr_assert_lt(x, crit, "%u ports: chi-square %.1f over %u up ports exceeds %.1f", ft.m, x,
                     ft.k, crit);
    }
}

/* Across groups the turning point is any of the k^(n-1) top switches: ECMP
 * must use them all evenly, level choices being independent. */
Test(fattree, ecmp_spreads_flows_evenly_over_top_switches)
{
    fattree ft = make(8, 3);
    warp_rng rng = warp_rng_stream(14, 0);
    uint64_t count[16] = {0}, total = 16 * 500;
    for (uint64_t i = 0; i < total; i++) {
        fattree_flow f;
        f.src = (uint64_t)warp_rng_integer(&rng, 0, 15);           /* group 0 */
        f.dst = (uint64_t)warp_rng_integer(&rng, 16, (int64_t)ft.nodes - 1);
        f.key = i;
        walk w = route(&ft, &f, FATTREE_ECMP, NULL);
        count[w.peak_sw - (ft.switches - ft.top)]++;
    }
    double x = chi2(count, ft.top, total), crit = chi2_crit((int)ft.top - 1);
    cr_assert_lt(x, crit, "chi-square %.1f over 16 top switches exceeds %.1f", x, crit);
}

Test(fattree, one_flow_keeps_one_path_and_packets_spray)
{
    fattree ft = make(8, 3);
    for (uint64_t s = 0; s < 16; s++) {
        fattree_flow f = {s, ft.nodes - 1 - s, 77 + s};
        walk first = route(&ft, &f, FATTREE_ECMP, NULL);
        for (int rep = 0; rep < 8; rep++) {
            walk again = route(&ft, &f, FATTREE_ECMP, NULL);
            cr_assert(again.peak_sw == first.peak_sw && again.first_up == first.first_up,
                      "flow %llu changed path on repetition %d", (unsigned long long)s, rep);
        }
        /* per-packet keys: 16 top switches, 200 packets see them all */
        uint64_t seen = 0;
        for (uint64_t pkt = 0; pkt < 200; pkt++) {
            f.key = pkt;
            seen |= UINT64_C(1) << (route(&ft, &f, FATTREE_ECMP, NULL).peak_sw -
                                    (ft.switches - ft.top));
        }
        cr_assert_eq(seen, 0xffff, "per-packet ECMP from %llu used top switches %#llx",
                     (unsigned long long)s, (unsigned long long)seen);
    }
}

Test(fattree, adaptive_takes_the_least_occupied_up_port)
{
    fattree ft = make(8, 2);
    uint64_t occ[4] = {5, 2, 7, 2};
    cr_assert_eq(fattree_least_choice(ft.k, occ, 0), 1);
    cr_assert_eq(fattree_least_choice(ft.k, occ, 1), 3);
    cr_assert_eq(fattree_least_choice(ft.k, occ, 2), 1, "ties are picked by draw mod ties");
    uint64_t one[4] = {9, 9, 0, 9};
    for (uint64_t d = 0; d < 10; d++)
        cr_assert_eq(fattree_least_choice(ft.k, one, d), 2, "a unique least port always wins");
    uint64_t flat[4] = {3, 3, 3, 3};
    for (uint64_t d = 0; d < 8; d++)
        cr_assert_eq(fattree_least_choice(ft.k, flat, d), d % 4);
    fattree_flow f = {0, ft.nodes - 1, 0};
    cr_assert_eq(fattree_route(&ft, 0, &f, FATTREE_ADAPTIVE, one, 5), ft.k + 2);
}
