/* test_slimfly_traffic.c — the worst-case pairing pairs every router with one at
 * distance 2, and the pairs' minimal paths share middle links two by two:
 * exactly 2 directed links carry two paths per quadruple. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "sf_testutil.h"
#include "slimfly/slimfly_route.h"
#include "slimfly/slimfly_traffic.h"

Test(sf_traffic, worst_case_pairs_every_router_at_distance_2)
{
    for (int n = 0; n < sft_nqs; n++) {
        int q = sft_qs[n];
        sf_mms g;
        char err[300];
        cr_assert_eq(sf_mms_build(&g, q, NULL, 0, NULL, 0, err, sizeof err), 0, "%s", err);
        uint32_t N = g.nrouters, *partner = malloc(N * sizeof *partner);
        for (uint32_t r = 0; r < N; r++)
            partner[r] = SF_NONE;
        uint32_t quads = sf_worst_case_pairs(&g, partner);
        cr_assert_eq(quads, (uint32_t)((q / 2) * q), "q = %d: %u quadruples", q, quads);
        /* load[r * radix + p]: paths of ordered pairs using link r:p */
        unsigned char *load = calloc((size_t)N * g.radix, 1);
        for (uint32_t r = 0; r < N; r++) {
            uint32_t t = partner[r];
            cr_assert(t < N, "q = %d: router %u has no partner", q, r);
            cr_assert_eq(partner[t], r, "q = %d: %u -> %u -> %u", q, r, t, partner[t]);
            cr_assert_eq(sf_distance(&g, r, t), 2, "q = %d: pair %u %u at distance %d", q, r, t,
                         sf_distance(&g, r, t));
            if (sf_min_count(&g, r, t) == 1) {
                int p = sf_min_choice(&g, r, t, 0);
                uint32_t mid = sf_neighbor(&g, r, p);
                load[(size_t)r * g.radix + p]++;
                load[(size_t)mid * g.radix + sf_port_to(&g, mid, t)]++;
            }
        }
        size_t shared = 0;
        for (size_t i = 0; i < (size_t)N * g.radix; i++) {
            cr_assert_leq(load[i], 2, "q = %d: a link carries %d worst-case paths", q, load[i]);
            shared += load[i] == 2;
        }
        if (q % 2 == 0)
            cr_assert_eq(shared, 2 * (size_t)quads, "q = %d: %zu shared links", q, shared);
        else
            cr_assert_geq(shared, 2 * (size_t)quads, "q = %d: %zu shared links", q, shared);
        free(load);
        free(partner);
        sf_mms_free(&g);
    }
}
