/* tests/rng/test_rng.c — Philox4x32-10 and the reversible stream helpers of
 * warp_rng.h: published known answers, exact reversal, one block per draw,
 * and the distributions' moments against bounds derived from their closed
 * forms (6 standard errors, or a 1e-6 chi-square tail). Streams are
 * deterministic, so every bound here is checked on fixed seeds. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "warp_rng.h"

/* ---- the raw generator -------------------------------------------------------- */

/* Random123's kat_vectors for philox4x32 with 10 rounds, as reproduced in
 * DEShawResearch/Random123-Boost libs/random/test/test_philox.cpp
 * ("cut-and-pasted from the kat_vectors file in the original Random123
 * distribution"): counter[4] key[2] -> output[4]. */
static const struct {
    uint32_t ctr[4], key[2], out[4];
} kat[] = {
    {{0x00000000, 0x00000000, 0x00000000, 0x00000000},
     {0x00000000, 0x00000000},
     {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

Test(rng, philox4x32_10_known_answers)
{
    for (size_t v = 0; v < sizeof kat / sizeof kat[0]; v++) {
        uint32_t out[4];
        warp_philox4x32_10(kat[v].ctr, kat[v].key, out);
        for (int w = 0; w < 4; w++)
            cr_assert_eq(out[w], kat[v].out[w], "vector %zu word %d: %08x, expected %08x", v, w,
                         out[w], kat[v].out[w]);
    }
}

Test(rng, block_is_philox_of_counter_and_stream)
{
    /* Counter words: (counter lo, counter hi, stream lo, stream hi). */
    warp_rng r = warp_rng_stream(5, 0x0123456789abcdefull);
    r.counter = 0xfedcba9876543210ull;
    uint32_t got[4], want[4];
    uint32_t ctr[4] = {0x76543210, 0xfedcba98, 0x89abcdef, 0x01234567};
    warp_philox4x32_10(ctr, r.key, want);
    warp_rng_block(&r, got);
    cr_assert_eq(memcmp(got, want, sizeof got), 0, "block differs from Philox(counter, key)");
    cr_assert_eq(r.counter, 0xfedcba9876543211ull);
}

/* ---- reversal and position -------------------------------------------------- */

static uint64_t bits(double x)
{
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* Draw i of a fixed mix of every helper, as raw bits. */
static uint64_t mixed_draw(warp_rng *r, int i)
{
    switch (i % 7) {
    case 0:
        return bits(warp_rng_unif(r));
    case 1:
        return (uint64_t)warp_rng_integer(r, -5, 1000);
    case 2:
        return bits(warp_rng_exp(r, 3.5));
    case 3:
        return bits(warp_rng_normal(r, 1.0, 2.0));
    case 4:
        return bits(warp_rng_pareto(r, 2.0, 1.5));
    case 5:
        return bits(warp_rng_lognormal(r, 0.5, 0.25));
    default: {
        uint32_t b[4];
        warp_rng_block(r, b);
        return ((uint64_t)b[0] << 32) | b[3];
    }
    }
}

Test(rng, reversal_restores_stream)
{
    warp_rng r = warp_rng_stream(42, 7);
    double first[64];
    for (int i = 0; i < 64; i++)
        first[i] = warp_rng_unif(&r);
    warp_rng_reverse(&r, 64);
    cr_assert_eq(warp_rng_count(&r), 0);
    for (int i = 0; i < 64; i++)
        cr_assert_eq(bits(warp_rng_unif(&r)), bits(first[i]), "draw %d differs after reversal", i);
}

Test(rng, reversal_restores_a_mix_of_every_helper)
{
    enum { N = 700 };
    warp_rng r = warp_rng_stream(2024, 99);
    uint64_t first[N];
    for (int i = 0; i < 3; i++) /* start mid-stream */
        warp_rng_unif(&r);
    for (int i = 0; i < N; i++)
        first[i] = mixed_draw(&r, i);
    /* Undo the last 250 and redo them, then undo everything. */
    warp_rng_reverse(&r, 250);
    for (int i = N - 250; i < N; i++)
        cr_assert_eq(mixed_draw(&r, i), first[i], "draw %d differs after partial reversal", i);
    warp_rng_reverse(&r, N);
    cr_assert_eq(warp_rng_count(&r), 3);
    for (int i = 0; i < N; i++)
        cr_assert_eq(mixed_draw(&r, i), first[i], "draw %d (helper %d) differs after reversal", i,
                     i % 7);
}

Test(rng, every_helper_consumes_exactly_one_block)
{
    warp_rng r = warp_rng_stream(1, 2);
    for (int i = 0; i < 7 * 50; i++) {
        uint64_t before = warp_rng_count(&r);
        mixed_draw(&r, i);
        cr_assert_eq(warp_rng_count(&r), before + 1, "helper %d advanced the counter by %llu", i % 7,
                     (unsigned long long)(warp_rng_count(&r) - before));
    }
    uint64_t before = warp_rng_count(&r);
    warp_rng_integer(&r, INT64_MIN, INT64_MAX);
    warp_rng_integer(&r, 3, 3);
    cr_assert_eq(warp_rng_count(&r), before + 2, "integer over the full or a single-value range");
}

Test(rng, position_is_the_counter)
{
    /* Jumping to counter k gives the k-th draw: streams are random access. */
    warp_rng seq = warp_rng_stream(77, 3);
    uint64_t drawn[100];
    for (int i = 0; i < 100; i++)
        drawn[i] = mixed_draw(&seq, i);
    for (int i = 99; i >= 0; i -= 7) {
        warp_rng jump = warp_rng_stream(77, 3);
        jump.counter = (uint64_t)i;
        cr_assert_eq(mixed_draw(&jump, i), drawn[i], "draw %d differs when reached directly", i);
    }
}

/* ---- streams ------------------------------------------------------------------ */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Number of values the sorted arrays a and b have in common. */
static size_t common(const uint64_t *a, const uint64_t *b, size_t n)
{
    size_t i = 0, j = 0, c = 0;
    while (i < n && j < n) {
        if (a[i] < b[j])
            i++;
        else if (a[i] > b[j])
            j++;
        else
            c++, i++, j++;
    }
    return c;
}

static void draws64(warp_rng r, uint64_t *out, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint32_t b[4];
        warp_rng_block(&r, b);
        out[i] = ((uint64_t)b[0] << 32) | b[1];
    }
    qsort(out, n, sizeof *out, cmp_u64);
}

Test(rng, different_streams_share_no_64bit_output)
{
    /* 1e5 x 1e5 pairs of 64-bit values: a chance match has probability 5e-10. */
    enum { N = 100000 };
    uint64_t *a = malloc(N * sizeof *a), *b = malloc(N * sizeof *b), *c = malloc(N * sizeof *c);
    draws64(warp_rng_stream(1, 0), a, N);
    draws64(warp_rng_stream(1, 1), b, N);
    draws64(warp_rng_stream(2, 0), c, N);
    cr_assert_eq(common(a, b, N), 0, "streams 0 and 1 of seed 1 share outputs");
    cr_assert_eq(common(a, c, N), 0, "seeds 1 and 2 of stream 0 share outputs");
    for (size_t i = 1; i < N; i++)
        cr_assert_neq(a[i], a[i - 1], "stream repeats a 64-bit output");
    free(a);
    free(b);
    free(c);
}

Test(rng, stream_values_do_not_depend_on_creation_order)
{
    warp_rng a1 = warp_rng_stream(9, 100), b1 = warp_rng_stream(9, 200);
    uint64_t a_first[50], b_first[50];
    for (int i = 0; i < 50; i++)
        a_first[i] = bits(warp_rng_unif(&a1));
    for (int i = 0; i < 50; i++)
        b_first[i] = bits(warp_rng_unif(&b1));
    /* The other order, and the draws interleaved. */
    warp_rng b2 = warp_rng_stream(9, 200), a2 = warp_rng_stream(9, 100);
    for (int i = 0; i < 50; i++) {
        cr_assert_eq(bits(warp_rng_unif(&b2)), b_first[i], "stream 200 draw %d", i);
        cr_assert_eq(bits(warp_rng_unif(&a2)), a_first[i], "stream 100 draw %d", i);
    }
}

/* ---- distributions ------------------------------------------------------------ */

#define Z_1E6 4.753424308822899 /* standard normal quantile at 1 - 1e-6 */

/* Chi-square quantile for k degrees of freedom at normal quantile z
 * (Wilson-Hilferty). */
static double chi2_quantile(double k, double z)
{
    double a = 2.0 / (9.0 * k);
    return k * pow(1.0 - a + z * sqrt(a), 3);
}

static void check_chi2(const long *count, int bins, long n, const char *what)
{
    double expect = (double)n / bins, chi2 = 0;
    for (int i = 0; i < bins; i++)
        chi2 += (count[i] - expect) * (count[i] - expect) / expect;
    double lo = chi2_quantile(bins - 1, -Z_1E6), hi = chi2_quantile(bins - 1, Z_1E6);
    cr_assert(chi2 > lo && chi2 < hi, "%s: chi-square %.1f outside (%.1f, %.1f)", what, chi2, lo,
              hi);
}

Test(rng, uniform_fills_100_bins_evenly)
{
    enum { BINS = 100, N = 1000000 };
    for (uint64_t s = 0; s < 3; s++) {
        long count[BINS] = {0};
        warp_rng r = warp_rng_stream(12345 + s, s);
        for (int i = 0; i < N; i++)
            count[(int)(warp_rng_unif(&r) * BINS)]++;
        check_chi2(count, BINS, N, "uniform");
    }
}

Test(rng, uniform_is_inside_the_open_interval_on_a_2_pow_53_grid)
{
    warp_rng r = warp_rng_stream(3, 4);
    for (int i = 0; i < 200000; i++) {
        double u = warp_rng_unif(&r), k = u * 0x1.0p53;
        cr_assert(u > 0.0 && u < 1.0, "draw %d: %a outside (0, 1)", i, u);
        cr_assert(k == floor(k) || u == 0x1.0p-54, "draw %d: %a is not a multiple of 2^-53", i, u);
    }
}

Test(rng, integer_fills_100_values_evenly)
{
    enum { BINS = 100, N = 1000000 };
    long count[BINS] = {0};
    warp_rng r = warp_rng_stream(8, 8);
    for (int i = 0; i < N; i++) {
        int64_t v = warp_rng_integer(&r, -50, 49);
        cr_assert(v >= -50 && v <= 49, "%lld outside [-50, 49]", (long long)v);
        count[v + 50]++;
    }
    check_chi2(count, BINS, N, "integer");
}

Test(rng, integer_range_edges)
{
    warp_rng r = warp_rng_stream(6, 1);
    for (int i = 0; i < 1000; i++) {
        cr_assert_eq(warp_rng_integer(&r, 17, 17), 17);
        cr_assert_eq(warp_rng_integer(&r, -3, -3), -3);
        cr_assert_eq(warp_rng_integer(&r, INT64_MIN, INT64_MIN), INT64_MIN);
        cr_assert_eq(warp_rng_integer(&r, INT64_MAX, INT64_MAX), INT64_MAX);
    }
    /* Negative range: every value of [-10, -5] and nothing else. */
    int seen[6] = {0};
    for (int i = 0; i < 6000; i++) {
        int64_t v = warp_rng_integer(&r, -10, -5);
        cr_assert(v >= -10 && v <= -5, "%lld outside [-10, -5]", (long long)v);
        seen[v + 10]++;
    }
    for (int k = 0; k < 6; k++)
        cr_assert_gt(seen[k], 800, "value %d drawn %d times of 6000", k - 10, seen[k]);
    /* Both ends of the int64 range. */
    int lowest = 0, highest = 0;
    for (int i = 0; i < 30000; i++) {
        int64_t v = warp_rng_integer(&r, INT64_MIN, INT64_MIN + 2);
        cr_assert(v >= INT64_MIN && v <= INT64_MIN + 2);
        lowest += v == INT64_MIN;
        v = warp_rng_integer(&r, INT64_MAX - 2, INT64_MAX);
        cr_assert(v >= INT64_MAX - 2 && v <= INT64_MAX);
        highest += v == INT64_MAX;
    }
    cr_assert(lowest > 9000 && lowest < 11000, "INT64_MIN drawn %d of 30000", lowest);
    cr_assert(highest > 9000 && highest < 11000, "INT64_MAX drawn %d of 30000", highest);
}

Test(rng, integer_full_int64_range)
{
    /* Each of the 4 quarters of the full range has probability 1/4. */
    enum { N = 400000 };
    long quarter[4] = {0};
    warp_rng r = warp_rng_stream(10, 10);
    for (int i = 0; i < N; i++)
        quarter[(uint64_t)warp_rng_integer(&r, INT64_MIN, INT64_MAX) >> 62]++;
    check_chi2(quarter, 4, N, "full int64 range quarters");
    /* A range wider than 2^63 (span does not fit int64). */
    long half[2] = {0};
    for (int i = 0; i < N; i++) {
        int64_t v = warp_rng_integer(&r, -1, INT64_MAX);
        half[v >= INT64_MAX / 2]++;
    }
    check_chi2(half, 2, N, "[-1, INT64_MAX] halves");
}

/* Sample mean and variance of n draws. */
typedef struct moments {
    double mean, var;
} moments;

static moments sample(warp_rng *r, int n, double (*draw)(warp_rng *, double, double), double a,
                      double b)
{
    double s = 0, s2 = 0;
    for (int i = 0; i < n; i++) {
        double x = draw(r, a, b);
        s += x;
        s2 += x * x;
    }
    moments m = {s / n, (s2 - s * s / n) / (n - 1)};
    return m;
}

static double exp_draw(warp_rng *r, double mean, double unused)
{
    (void)unused;
    return warp_rng_exp(r, mean);
}

Test(rng, exponential_mean_and_variance)
{
    /* Mean m, variance m^2; the sample variance's variance is 8 m^4 / n. */
    const int n = 1000000;
    const double m = 2.5;
    warp_rng r = warp_rng_stream(31, 4);
    moments s = sample(&r, n, exp_draw, m, 0);
    double se_mean = m / sqrt(n), se_var = sqrt(8.0) * m * m / sqrt(n);
    cr_assert(fabs(s.mean - m) < 6 * se_mean, "mean %.5f, expected %.5f +- %.5f", s.mean, m,
              6 * se_mean);
    cr_assert(fabs(s.var - m * m) < 6 * se_var, "variance %.5f, expected %.5f +- %.5f", s.var,
              m * m, 6 * se_var);
}

Test(rng, normal_mean_sd_and_one_sigma_mass)
{
    const int n = 1000000;
    const double mu = 3.0, sd = 2.0, p1 = 0.6826894921370859; /* P(|Z| < 1) */
    warp_rng r = warp_rng_stream(32, 5);
    moments s = sample(&r, n, warp_rng_normal, mu, sd);
    double se_mean = sd / sqrt(n), se_sd = sd / sqrt(2.0 * n);
    cr_assert(fabs(s.mean - mu) < 6 * se_mean, "mean %.5f, expected %.5f +- %.5f", s.mean, mu,
              6 * se_mean);
    cr_assert(fabs(sqrt(s.var) - sd) < 6 * se_sd, "sd %.5f, expected %.5f +- %.5f", sqrt(s.var),
              sd, 6 * se_sd);
    long inside = 0;
    for (int i = 0; i < n; i++)
        inside += fabs(warp_rng_normal(&r, mu, sd) - mu) < sd;
    double frac = (double)inside / n, se = sqrt(p1 * (1 - p1) / n);
    cr_assert(fabs(frac - p1) < 6 * se, "mass within 1 sd %.5f, expected %.5f +- %.5f", frac, p1,
              6 * se);
}

/* Fraction of n draws <= x, against the closed-form cdf within 6 binomial
 * standard errors. */
static void check_cdf(warp_rng *r, double (*draw)(warp_rng *, double, double), double a, double b,
                      double x, double cdf, const char *what)
{
    const int n = 400000;
    long below = 0;
    for (int i = 0; i < n; i++)
        below += draw(r, a, b) <= x;
    double frac = (double)below / n, se = sqrt(cdf * (1 - cdf) / n);
    cr_assert(fabs(frac - cdf) < 6 * se, "%s: P(X <= %g) = %.5f, expected %.5f +- %.5f", what, x,
              frac, cdf, 6 * se);
}

Test(rng, pareto_tail_follows_its_cdf)
{
    /* P(X <= x) = 1 - (xm / x)^alpha for x >= xm; never below xm. */
    warp_rng r = warp_rng_stream(33, 6);
    const double xm = 2.0, alpha = 1.5;
    for (double x = 2.5; x < 40; x *= 2)
        check_cdf(&r, warp_rng_pareto, xm, alpha, x, 1 - pow(xm / x, alpha), "pareto");
    for (int i = 0; i < 100000; i++)
        cr_assert_geq(warp_rng_pareto(&r, xm, alpha), xm);
}

Test(rng, lognormal_follows_its_cdf)
{
    /* P(X <= e^(mu + k sigma)) = Phi(k). */
    warp_rng r = warp_rng_stream(34, 7);
    const double mu = 0.5, sigma = 0.75;
    check_cdf(&r, warp_rng_lognormal, mu, sigma, exp(mu), 0.5, "lognormal median");
    check_cdf(&r, warp_rng_lognormal, mu, sigma, exp(mu + sigma), 0.8413447460685429,
              "lognormal +1 sigma");
    check_cdf(&r, warp_rng_lognormal, mu, sigma, exp(mu - 2 * sigma), 0.022750131948179195,
              "lognormal -2 sigma");
}
