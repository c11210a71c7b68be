/* tests/engine/test_pool_size.c — the event pool's default size (engine/pool.c):
 * 3/4 of the rank's memory in events, never below the working size
 * max(1 Mi, 4 x LPs + 64 Ki); an explicit size is kept; a reservation far
 * larger than what is touched costs address space only. Expected values are
 * the formulas worked by hand. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "internal.h"

Test(pool_size, working_size_is_the_old_default)
{
    cr_assert_eq(pool_work_size(0), UINT64_C(1) << 20);
    cr_assert_eq(pool_work_size(245760), UINT64_C(1) << 20); /* 4 x 245760 + 65536 = 1 Mi exactly */
    cr_assert_eq(pool_work_size(245761), (UINT64_C(1) << 20) + 4);
    cr_assert_eq(pool_work_size(262144), UINT64_C(1114112)); /* 512K replay on 2 ranks: 4 x 2^18 + 2^16 */
}

Test(pool_size, default_is_three_quarters_of_memory)
{
    uint64_t gib = UINT64_C(1) << 30;
    /* 12 GiB at 256 bytes an event: 9 GiB / 256 = 37,748,736 events, the
     * 9 M the 512K replay needed on 2 ranks four times over. */
    cr_assert_eq(pool_default_cap(UINT64_C(1) << 20, 256, 12 * gib), UINT64_C(37748736));
    /* Unknown or small memory: the working size. */
    cr_assert_eq(pool_default_cap(UINT64_C(1114112), 256, 0), UINT64_C(1114112));
    cr_assert_eq(pool_default_cap(UINT64_C(1114112), 256, 256 * UINT64_C(1000000)), UINT64_C(1114112));
    cr_assert_eq(pool_default_cap(UINT64_C(1) << 20, 0, 0), UINT64_C(1) << 20);
}

static warp_ctx *ctx(uint64_t nlocal)
{
    warp_ctx *w = calloc(1, sizeof *w);
    cr_assert_not_null(w);
    w->msg_size = 64;
    w->nlocal = nlocal;
    return w;
}

Test(pool_size, default_reservation_is_address_space)
{
    /* 16 GiB of reservation on any machine: the mapping reserves no swap,
     * and only the slots handed out are touched. */
    warp_ctx *w = ctx(16);
    pool_init(w, 0, UINT64_C(16) << 30);
    cr_assert_eq(w->pool.cap, pool_default_cap(UINT64_C(1) << 20, w->pool.ev_size, UINT64_C(16) << 30));
    cr_assert(!w->pool.given);
    cr_assert_eq(w->pool.work, UINT64_C(1) << 20, "the GVT interval keeps the old working size");
    for (int i = 0; i < 1000; i++)
        pool_put(w, pool_get(w));
    cr_assert_eq(w->pool.bump, 1, "a freed slot is reused before a new one is touched");
    cr_assert_eq(w->pool.peak, 1);
    cr_assert(!pool_low(w));
    pool_destroy(w);
    free(w);
}

Test(pool_size, explicit_size_is_kept)
{
    warp_ctx *w = ctx(1000000);
    pool_init(w, 100, UINT64_C(16) << 30);
    cr_assert_eq(w->pool.cap, 100);
    cr_assert_eq(w->pool.work, 100, "an explicit --events is the working size too");
    cr_assert(w->pool.given);
    warp_event *e[100];
    for (int i = 0; i < 87; i++)
        e[i] = pool_get(w);
    cr_assert(!pool_low(w), "87 of 100 in use: more than 1/8 left");
    e[87] = pool_get(w);
    cr_assert(pool_low(w), "88 of 100 in use: 1/8 left");
    for (int i = 0; i < 88; i++)
        pool_put(w, e[i]);
    pool_destroy(w);
    free(w);
}
