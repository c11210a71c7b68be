/* test_slimfly_field.c — GF(q) satisfies the field axioms, matches residue
 * arithmetic for primes, has characteristic p, and xi generates GF(q)*. */
#include <criterion/criterion.h>

#include "slimfly/slimfly_field.h"

static const int small_qs[] = {2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 25, 27, 32, 49};

static sf_field field(int q)
{
    sf_field f;
    char err[200];
    cr_assert_eq(sf_field_init(&f, q, err, sizeof err), 0, "GF(%d) failed: %s", q, err);
    return f;
}

Test(sf_field, axioms_hold_on_small_fields)
{
    for (size_t n = 0; n < sizeof small_qs / sizeof small_qs[0]; n++) {
        int q = small_qs[n];
        sf_field f = field(q);
        for (int a = 0; a < q; a++) {
            cr_assert_eq(sf_add(&f, a, 0), a, "GF(%d): %d + 0", q, a);
            cr_assert_eq(sf_mul(&f, a, 1), a, "GF(%d): %d * 1", q, a);
            cr_assert_eq(sf_mul(&f, a, 0), 0, "GF(%d): %d * 0", q, a);
            cr_assert_eq(sf_add(&f, a, sf_neg(&f, a)), 0, "GF(%d): %d + -%d", q, a, a);
            if (a)
                cr_assert_eq(sf_mul(&f, a, sf_inv(&f, a)), 1, "GF(%d): %d * 1/%d", q, a, a);
            for (int b = 0; b < q; b++) {
                cr_assert_eq(sf_add(&f, a, b), sf_add(&f, b, a), "GF(%d): + commutes", q);
                cr_assert_eq(sf_mul(&f, a, b), sf_mul(&f, b, a), "GF(%d): * commutes", q);
                if (a && b)
                    cr_assert_neq(sf_mul(&f, a, b), 0, "GF(%d): zero divisor %d*%d", q, a, b);
                for (int c = 0; c < q; c++) {
                    cr_assert_eq(sf_add(&f, sf_add(&f, a, b), c), sf_add(&f, a, sf_add(&f, b, c)),
                                 "GF(%d): + associates on %d %d %d", q, a, b, c);
                    cr_assert_eq(sf_mul(&f, sf_mul(&f, a, b), c), sf_mul(&f, a, sf_mul(&f, b, c)),
                                 "GF(%d): * associates on %d %d %d", q, a, b, c);
                    cr_assert_eq(sf_mul(&f, a, sf_add(&f, b, c)),
                                 sf_add(&f, sf_mul(&f, a, b), sf_mul(&f, a, c)),
                                 "GF(%d): * distributes on %d %d %d", q, a, b, c);
                }
            }
        }
        sf_field_free(&f);
    }
}

Test(sf_field, primes_use_residues)
{
    int primes[] = {3, 5, 7, 13, 37, 163};
    for (size_t n = 0; n < sizeof primes / sizeof primes[0]; n++) {
        int q = primes[n];
        sf_field f = field(q);
        cr_assert_eq(f.k, 1);
        for (int a = 0; a < q; a++)
            for (int b = 0; b < q; b++) {
                cr_assert_eq(sf_add(&f, a, b), (a + b) % q);
                cr_assert_eq(sf_mul(&f, a, b), (a * b) % q);
            }
        sf_field_free(&f);
    }
}

Test(sf_field, characteristic_is_p)
{
    int qs[] = {4, 8, 9, 25, 27, 49, 121, 128, 243};
    int ps[] = {2, 2, 3, 5, 3, 7, 11, 2, 3};
    for (size_t n = 0; n < sizeof qs / sizeof qs[0]; n++) {
        sf_field f = field(qs[n]);
        cr_assert_eq(f.p, ps[n], "GF(%d) has p = %d", qs[n], f.p);
        for (int a = 0; a < qs[n]; a++) {
            int sum = 0;
            for (int i = 0; i < f.p; i++)
                sum = sf_add(&f, sum, a);
            cr_assert_eq(sum, 0, "GF(%d): %d added p times is %d", qs[n], a, sum);
        }
        sf_field_free(&f);
    }
}

Test(sf_field, xi_has_order_q_minus_1)
{
    int qs[] = {2, 3, 4, 5, 8, 9, 16, 25, 27, 37, 49, 64, 81, 125, 163, 169, 256};
    for (size_t n = 0; n < sizeof qs / sizeof qs[0]; n++) {
        int q = qs[n];
        sf_field f = field(q);
        char *seen = calloc((size_t)q, 1);
        int x = 1;
        for (int i = 0; i < q - 1; i++) {
            cr_assert(x != 0 && !seen[x], "GF(%d): xi^%d = %d repeats", q, i, x);
            seen[x] = 1;
            cr_assert_eq(f.exp[i], x, "GF(%d): exp table at %d", q, i);
            cr_assert_eq(f.log[x], i, "GF(%d): log table at %d", q, x);
            x = sf_mul(&f, x, f.xi);
        }
        cr_assert_eq(x, 1, "GF(%d): xi^(q-1) = %d, not 1", q, x);
        free(seen);
        sf_field_free(&f);
    }
}

Test(sf_field, rejects_non_prime_powers)
{
    int bad[] = {0, 1, 6, 10, 12, 15, 100, 1025, 2048};
    for (size_t n = 0; n < sizeof bad / sizeof bad[0]; n++) {
        sf_field f;
        char err[200] = "";
        cr_assert_eq(sf_field_init(&f, bad[n], err, sizeof err), -1, "q = %d accepted", bad[n]);
        cr_assert(strstr(err, "prime power") != NULL, "message for q = %d: %s", bad[n], err);
    }
}
