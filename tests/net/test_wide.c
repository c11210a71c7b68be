/* tests/net/test_wide.c — the routers' 32-bit statistics words
 * (router_core.h: net_wide_add, net_wide_value): a sum kept as a low word
 * in the port's record and a high word that gains only the carries equals
 * the plain 64-bit sum, across wraps and for addends past 32 bits, and
 * subtracting the addends from the low word alone (the reverse handler)
 * with the high word restored (the engine's log) gives back every
 * earlier value. */
#include <criterion/criterion.h>
#include <stdint.h>

#include "net/router_core.h"

/* Adds x the way net_rcore_account does; returns the carry it made. */
static uint32_t add(uint32_t *lo, uint32_t *hi, uint64_t x)
{
    uint32_t c = net_wide_add(lo, x);
    *hi += c;
    return c;
}

Test(wide, sums_match_64_bits_across_wraps)
{
    static const uint64_t xs[] = {1, 4096, UINT32_MAX, 1, 0, (UINT64_C(1) << 32) + 5, UINT32_MAX - 3,
                                  UINT64_C(0xFFFFFFFFFFFF), 7, UINT32_MAX, UINT32_MAX, 2};
    uint32_t lo = UINT32_MAX - 10, hi = 3;
    uint64_t sum = net_wide_value(hi, lo);
    for (size_t i = 0; i < sizeof xs / sizeof *xs; i++) {
        add(&lo, &hi, xs[i]);
        sum += xs[i];
        cr_assert_eq(net_wide_value(hi, lo), sum, "after adding xs[%zu] = %llu", i, (unsigned long long)xs[i]);
    }
}

Test(wide, carry_only_when_the_low_word_wraps)
{
    uint32_t lo = UINT32_MAX - 1, hi = 0;
    cr_assert_eq(add(&lo, &hi, 1), 0u, "no wrap: the high word is not written");
    cr_assert_eq(lo, UINT32_MAX);
    cr_assert_eq(add(&lo, &hi, 1), 1u, "the wrap carries one");
    cr_assert_eq(lo, 0u);
    cr_assert_eq(add(&lo, &hi, UINT64_C(3) << 32), 3u, "an addend past 32 bits carries its high part");
    cr_assert_eq(lo, 0u);
    cr_assert_eq(net_wide_value(hi, lo), UINT64_C(4) << 32);
}

Test(wide, reverse_restores_every_value)
{
    /* Forward: each add; reverse, newest first: subtract the addend's low
     * 32 bits from the low word and restore the high word from its log. */
    static const uint64_t xs[] = {9000, UINT32_MAX, 12, (UINT64_C(1) << 40) + 77, 65536, 1};
    enum { N = sizeof xs / sizeof *xs };
    uint32_t lo = UINT32_MAX - 100, hi = 41;
    uint64_t before[N];
    uint32_t hi_log[N];
    for (int i = 0; i < N; i++) {
        before[i] = net_wide_value(hi, lo);
        hi_log[i] = hi;
        add(&lo, &hi, xs[i]);
    }
    for (int i = N - 1; i >= 0; i--) {
        lo -= (uint32_t)xs[i];
        hi = hi_log[i];
        cr_assert_eq(net_wide_value(hi, lo), before[i], "undoing xs[%d]", i);
    }
}
