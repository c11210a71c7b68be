/* test_slimfly_mms.c — the MMS graphs are what the definition says: 2q² routers,
 * k'-regular, simple, connected, diameter 2; the ports agree with the edge
 * relation; and user-given generator sets are checked. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "sf_testutil.h"
#include "slimfly/slimfly_mms.h"

static void build(sf_mms *g, int q)
{
    char err[300];
    cr_assert_eq(sf_mms_build(g, q, NULL, 0, NULL, 0, err, sizeof err), 0, "q = %d: %s", q, err);
}

static int expected_delta(int q) { return q % 4 == 1 ? 1 : q % 4 == 3 ? -1 : 0; }

Test(sf_mms, sizes_degree_and_simple_links)
{
    for (int n = 0; n < sft_nqs; n++) {
        int q = sft_qs[n];
        sf_mms g;
        build(&g, q);
        cr_assert_eq(g.nrouters, (uint32_t)(2 * q * q), "q = %d: %u routers", q, g.nrouters);
        cr_assert_eq(2 * g.radix, 3 * q - expected_delta(q), "q = %d: radix %d", q, g.radix);
        char *mark = calloc(g.nrouters, 1);
        for (uint32_t r = 0; r < g.nrouters; r++) {
            for (int p = 0; p < g.radix; p++) {
                uint32_t v = sf_neighbor(&g, r, p);
                cr_assert(v < g.nrouters && v != r, "q = %d: router %u port %d -> %u", q, r, p, v);
                cr_assert(!mark[v], "q = %d: router %u links twice to %u", q, r, v);
                mark[v] = 1;
                int back = sf_peer_port(&g, r, p);
                cr_assert_eq(sf_neighbor(&g, v, back), r,
                             "q = %d: link %u:%d -> %u does not come back on port %d", q, r, p, v,
                             back);
                cr_assert_eq(sf_port_to(&g, r, v), p, "q = %d: port_to(%u, %u)", q, r, v);
            }
            for (int p = 0; p < g.radix; p++)
                mark[sf_neighbor(&g, r, p)] = 0;
        }
        free(mark);
        sf_mms_free(&g);
    }
}

/* Diameter by two-step reachability with bit sets (a depth-2 BFS from every
 * router at once), connectivity by a BFS from router 0. */
Test(sf_mms, connected_with_diameter_2)
{
    for (int n = 0; n < sft_nqs; n++) {
        int q = sft_qs[n];
        sf_mms g;
        build(&g, q);
        uint32_t N = g.nrouters;
        size_t words = (N + 63) / 64;
        uint64_t *nb = calloc((size_t)N * words, sizeof *nb), *reach = calloc(words, sizeof *reach);
        for (uint32_t r = 0; r < N; r++)
            for (int p = 0; p < g.radix; p++) {
                uint32_t v = sf_neighbor(&g, r, p);
                nb[r * words + v / 64] |= 1ull << (v % 64);
            }
        int has_distance_2 = 0;
        for (uint32_t r = 0; r < N; r++) {
            memcpy(reach, nb + r * words, words * sizeof *reach);
            reach[r / 64] |= 1ull << (r % 64);
            for (int p = 0; p < g.radix; p++) {
                uint32_t v = sf_neighbor(&g, r, p);
                for (size_t w = 0; w < words; w++)
                    reach[w] |= nb[v * words + w];
            }
            for (uint32_t v = 0; v < N; v++)
                cr_assert(reach[v / 64] >> (v % 64) & 1, "q = %d: %u and %u are > 2 hops apart",
                          q, r, v);
            has_distance_2 |= !(nb[r * words] & 1) && r != 0;
        }
        cr_assert(has_distance_2, "q = %d: the graph is complete?", q);
        int *dist = malloc(N * sizeof *dist);
        cr_assert_eq(sft_bfs(&g, 0, dist), 2, "q = %d: BFS from router 0", q);
        free(dist);
        free(nb);
        free(reach);
        sf_mms_free(&g);
    }
}

Test(sf_mms, links_follow_the_definition)
{
    for (int n = 0; n < sft_nqs && sft_qs[n] <= 13; n++) {
        sf_mms g;
        build(&g, sft_qs[n]);
        for (uint32_t u = 0; u < g.nrouters; u++)
            for (uint32_t v = 0; v < g.nrouters; v++)
                cr_assert_eq(sf_port_to(&g, u, v) >= 0,
                             sft_edge(&g.f, g.gen[0], g.gen[1], g.h, u, v),
                             "q = %d: routers %u and %u", g.q, u, v);
        sf_mms_free(&g);
    }
}

Test(sf_mms, distance_matches_bfs)
{
    for (int n = 0; n < sft_nqs && sft_qs[n] <= 13; n++) {
        sf_mms g;
        build(&g, sft_qs[n]);
        int *dist = malloc(g.nrouters * sizeof *dist);
        for (uint32_t s = 0; s < g.nrouters; s++) {
            sft_bfs(&g, s, dist);
            for (uint32_t t = 0; t < g.nrouters; t++)
                cr_assert_eq(sf_distance(&g, s, t), dist[t], "q = %d: distance %u -> %u", g.q, s,
                             t);
        }
        free(dist);
        sf_mms_free(&g);
    }
}

/* For δ = 1 the construction makes X the nonzero squares and X' the
 * non-squares of GF(q). */
Test(sf_mms, delta_1_sets_are_squares_and_non_squares)
{
    int qs[] = {5, 9, 13, 17, 25, 29, 37};
    for (size_t n = 0; n < sizeof qs / sizeof qs[0]; n++) {
        sf_mms g;
        build(&g, qs[n]);
        char *square = calloc((size_t)g.q, 1);
        for (int a = 1; a < g.q; a++)
            square[sf_mul(&g.f, a, a)] = 1;
        for (int i = 0; i < g.h; i++) {
            cr_assert(square[g.gen[0][i]], "q = %d: X has non-square %d", g.q, g.gen[0][i]);
            cr_assert(!square[g.gen[1][i]], "q = %d: X' has square %d", g.q, g.gen[1][i]);
        }
        free(square);
        sf_mms_free(&g);
    }
}

static int build_err(int q, const int *X, int nX, const int *Xp, int nXp, char *err, size_t n)
{
    sf_mms g;
    int rc = sf_mms_build(&g, q, X, nX, Xp, nXp, err, n);
    if (rc == 0)
        sf_mms_free(&g);
    return rc;
}

Test(sf_mms, explicit_default_sets_give_the_same_graph)
{
    sf_mms a, b;
    char err[300];
    build(&a, 13);
    cr_assert_eq(sf_mms_build(&b, 13, a.gen[0], a.h, a.gen[1], a.h, err, sizeof err), 0, "%s",
                 err);
    for (uint32_t r = 0; r < a.nrouters; r++)
        for (int p = 0; p < a.radix; p++)
            cr_assert_eq(sf_neighbor(&a, r, p), sf_neighbor(&b, r, p), "router %u port %d", r, p);
    sf_mms_free(&a);
    sf_mms_free(&b);
}

Test(sf_mms, bad_sets_are_refused_with_a_reason)
{
    char err[300];
    /* q = 13: X = squares {1,3,4,9,10,12}, X' = non-squares {2,5,6,7,8,11} */
    int sq[] = {1, 3, 4, 9, 10, 12}, nsq[] = {2, 5, 6, 7, 8, 11};
    cr_assert_eq(build_err(13, sq, 6, nsq, 6, err, sizeof err), 0, "%s", err);
    cr_assert_eq(build_err(13, sq, 5, nsq, 6, err, sizeof err), -1);
    cr_assert(strstr(err, "needs (q - d)/2 = 6"), "%s", err);
    int asym[] = {1, 3, 4, 9, 10, 11};
    cr_assert_eq(build_err(13, asym, 6, nsq, 6, err, sizeof err), -1);
    cr_assert(strstr(err, "not symmetric"), "%s", err);
    int dup[] = {1, 1, 4, 9, 10, 12};
    cr_assert_eq(build_err(13, dup, 6, nsq, 6, err, sizeof err), -1);
    cr_assert(strstr(err, "twice"), "%s", err);
    int range[] = {0, 3, 4, 9, 10, 12};
    cr_assert_eq(build_err(13, range, 6, nsq, 6, err, sizeof err), -1);
    cr_assert(strstr(err, "not a nonzero element"), "%s", err);
    cr_assert_eq(build_err(13, sq, 6, sq, 6, err, sizeof err), -1);
    cr_assert(strstr(err, "miss element 2"), "%s", err);
    cr_assert_eq(build_err(13, sq, 6, NULL, 0, err, sizeof err), -1);
    cr_assert(strstr(err, "both"), "%s", err);
    cr_assert_eq(build_err(6, NULL, 0, NULL, 0, err, sizeof err), -1);
    cr_assert_eq(build_err(15, NULL, 0, NULL, 0, err, sizeof err), -1);
    cr_assert(strstr(err, "prime power"), "%s", err);
}

/* Diameter of the graph the definition gives for (X, X'), from the edge
 * relation and bit-set products (no use of sf_mms). */
static int reference_diameter_le_2(const sf_field *f, const int *X, const int *Xp, int h)
{
    uint32_t N = 2u * (uint32_t)(f->q * f->q);
    size_t words = (N + 63) / 64;
    uint64_t *A = calloc((size_t)N * words, sizeof *A);
    for (uint32_t u = 0; u < N; u++)
        for (uint32_t v = 0; v < N; v++)
            if (sft_edge(f, X, Xp, h, u, v))
                A[u * words + v / 64] |= 1ull << (v % 64);
    int ok = 1;
    for (uint32_t u = 0; u < N && ok; u++)
        for (uint32_t v = 0; v < N && ok; v++) {
            if (u == v || (A[u * words + v / 64] >> (v % 64) & 1))
                continue;
            int two = 0;
            for (size_t w = 0; w < words && !two; w++)
                two = (A[u * words + w] & A[v * words + w]) != 0;
            ok = two;
        }
    free(A);
    return ok;
}

/* sf_mms_check_sets's algebraic criterion agrees with the graph's diameter
 * on random symmetric sets of the right size. */
Test(sf_mms, set_criterion_matches_diameter)
{
    int qs[] = {5, 7, 9, 11, 13};
    int accepted = 0, refused = 0;
    for (size_t n = 0; n < sizeof qs / sizeof qs[0]; n++) {
        sf_field f;
        char err[300];
        cr_assert_eq(sf_field_init(&f, qs[n], err, sizeof err), 0);
        int q = qs[n], h = (q - expected_delta(q)) / 2, S[2][16];
        for (int trial = 0; trial < 12; trial++) {
            for (int s = 0; s < 2; s++) {
                char used[64] = {0};
                for (int i = 0; i < h; i += 2) {
                    int e;
                    uint64_t k = 0;
                    do
                        e = 1 + (int)(sft_draw((uint64_t)(trial * 2 + s), k++) % (uint64_t)(q - 1));
                    while (used[e]);
                    used[e] = used[sf_neg(&f, e)] = 1;
                    S[s][i] = e;
                    S[s][i + 1] = sf_neg(&f, e);
                }
            }
            int criterion = sf_mms_check_sets(&f, S[0], S[1], h, err, sizeof err) == 0;
            cr_assert_eq(criterion, reference_diameter_le_2(&f, S[0], S[1], h),
                         "q = %d trial %d: criterion says %d (%s)", q, trial, criterion, err);
            accepted += criterion;
            refused += !criterion;
        }
        sf_field_free(&f);
    }
    cr_assert(accepted > 0 && refused > 0, "random sets: %d accepted, %d refused", accepted,
              refused);
}

/* The neighbour table slimfly_mms.c built before the neighbours were computed
 * (its loop verbatim): the port order every committed digest depends on. */
static uint32_t *table_adjacency(const sf_mms *g)
{
    int q = g->q, h = g->h;
    const sf_field *f = &g->f;
    uint32_t *adj = malloc((size_t)g->nrouters * (size_t)g->radix * sizeof *adj);
    for (int s = 0; s < 2; s++)
        for (int a = 0; a < q; a++)
            for (int b = 0; b < q; b++) {
                uint32_t *row = adj + (size_t)sf_router(g, s, a, b) * (size_t)g->radix;
                for (int i = 0; i < h; i++)
                    row[i] = sf_router(g, s, a, sf_add(f, b, g->gen[s][i]));
                for (int j = 0; j < q; j++)
                    row[h + j] = s == 0 ? sf_router(g, 1, j, sf_sub(f, b, sf_mul(f, j, a)))
                                        : sf_router(g, 0, j, sf_add(f, sf_mul(f, a, j), b));
            }
    return adj;
}

/* Every router and port of q = 4w+1 (5, 13, 37, 41), 4w-1 (7, 11, 19) and
 * 4w (4, 8, 16): the computed neighbour is the table's, and an edge of the
 * definition (sft_edge). */
Test(sf_mms, computed_neighbours_match_the_table)
{
    static const int qs[] = {4, 5, 7, 8, 11, 13, 16, 19, 37, 41};
    for (size_t n = 0; n < sizeof qs / sizeof qs[0]; n++) {
        sf_mms g;
        build(&g, qs[n]);
        uint32_t *adj = table_adjacency(&g);
        for (uint32_t r = 0; r < g.nrouters; r++)
            for (int p = 0; p < g.radix; p++) {
                uint32_t v = sf_neighbor(&g, r, p);
                cr_assert_eq(v, adj[(size_t)r * (size_t)g.radix + (size_t)p],
                             "q = %d: router %u port %d: %u, the table %u", g.q, r, p, v,
                             adj[(size_t)r * (size_t)g.radix + (size_t)p]);
                cr_assert(sft_edge(&g.f, g.gen[0], g.gen[1], g.h, r, v), "q = %d: %u-%u", g.q,
                          r, v);
            }
        free(adj);
        sf_mms_free(&g);
    }
}
