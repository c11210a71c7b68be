/* engine/pool.c — the per-PE event pool: fixed-size event slots reserved once
 * and handed out from a free list, so the hot path never calls malloc. The
 * reservation is address space (an mmap with no swap reserved), touched only
 * when a slot is first used: by default it is 3/4 of the rank's share of the
 * node's memory, so a run stops for event memory only when the memory is
 * really gone, and what it touches (its RSS) is what it used. --events=N caps
 * it. Exhaustion stops the run naming what ran out and the fix. */
#include "internal.h"

#include <stdlib.h>
#include <sys/mman.h>

#ifndef MAP_NORESERVE
#define MAP_NORESERVE 0
#endif
#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif

uint64_t pool_work_size(uint64_t nlocal)
{
    uint64_t n = 4 * nlocal + 65536;
    return n < (UINT64_C(1) << 20) ? UINT64_C(1) << 20 : n;
}

uint64_t pool_default_cap(uint64_t work, size_t ev_size, uint64_t mem)
{
    uint64_t n = mem / 4 * 3 / (ev_size ? ev_size : 1);
    return n > work ? n : work;
}

static char *reserve(uint64_t bytes)
{
    if (!bytes || bytes > SIZE_MAX)
        return NULL;
    /* No swap reserved: the kernel's overcommit heuristic would refuse a
     * reservation near the memory size, though only what is touched counts. */
    void *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                   -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

size_t warp_event_footprint(size_t msg_size)
{
    return (sizeof(ev_cold) + sizeof(warp_event) + msg_size + 15) & ~(size_t)15;
}

void pool_init(warp_ctx *w, uint64_t cap, uint64_t mem)
{
    warp_pool *p = &w->pool;
    p->ev_size = warp_event_footprint(w->msg_size);
    bool given = cap != 0;
    p->given = given;
    p->work = pool_work_size(w->nlocal);
    p->mem = given ? 0 : mem;
    if (!given)
        cap = pool_default_cap(p->work, p->ev_size, mem);
    /* The slots, then the stack of free ones (8 bytes a slot, touched only
     * as deep as slots are ever free at once). */
    size_t slot_bytes = p->ev_size + sizeof(warp_event *);
    p->base = reserve(cap * slot_bytes);
    /* A default larger than the address space allows (ulimit -v, strict
     * overcommit) halves down to the working size rather than failing. */
    while (!p->base && !given && cap / 2 >= p->work) {
        cap /= 2;
        p->base = reserve(cap * slot_bytes);
    }
    if (!p->base)
        warp_fatal(WARP_EXIT_RESOURCE,
                   "cannot reserve %llu events of %zu bytes (%.2f GiB of address space) on rank %d: "
                   "lower --events or raise the address-space limit (ulimit -v)",
                   (unsigned long long)cap, slot_bytes, (double)(cap * slot_bytes) / 1073741824.0, w->rank);
    /* Events are run, cancelled and freed at random over the touched part
     * of the reservation, like the LP states (setup.c chose huge_active). */
    if (w->huge_active)
        big_advise_huge(p->base, (size_t)(cap * p->ev_size));
    /* An explicit --events is the working size too, as it always was. */
    if (given || p->work > cap)
        p->work = cap;
    p->cap = cap;
    p->low_at = cap - cap / 8;
    p->bump = 0;
    p->stack = (warp_event **)(void *)(p->base + cap * p->ev_size);
    p->nfree = 0;
    p->in_use = p->peak = 0;
}

void pool_exhausted(const warp_ctx *w, const char *how)
{
    const warp_pool *p = &w->pool;
    double gib = (double)(p->cap * p->ev_size) / 1073741824.0;
    if (p->given || !p->mem)
        warp_fatal(WARP_EXIT_RESOURCE,
                   "out of event memory on rank %d at GVT %g%s: all %llu events (%.2f GiB) of %s are in use; "
                   "raise --events (now %llu per rank)%s",
                   w->rank, w->sched.gvt_value, how, (unsigned long long)p->cap, gib,
                   p->given ? "--events" : "the pool", (unsigned long long)p->cap,
                   p->given ? ", or leave it out to use 3/4 of the rank's memory" : "");
    warp_fatal(WARP_EXIT_RESOURCE,
               "out of event memory on rank %d at GVT %g%s: all %llu events (%.2f GiB, 3/4 of the %.2f GiB "
               "the rank had: %s) are in use; run on more nodes or fewer ranks per node, or raise "
               "--mem-per-rank or --events if the node has more memory free",
               w->rank, w->sched.gvt_value, how, (unsigned long long)p->cap, gib, (double)p->mem / 1073741824.0,
               w->opt.mem_per_rank ? "--mem-per-rank" : "available memory / ranks on the node");
}

/* How far ahead pool_get prefetches: a burst's gets are a few dozen
 * instructions apart, a miss some hundreds of cycles. */
#define POOL_AHEAD 6

warp_event *pool_get(warp_ctx *w)
{
    warp_pool *p = &w->pool;
    warp_event *e;
    if (p->nfree) {
        /* Freed slots are cold (fossil collection frees them long after
         * they ran, a received message takes many at once): the slots the
         * next gets take start loading now, for writing. */
        e = p->stack[--p->nfree];
        if (p->nfree)
            __builtin_prefetch(p->stack[p->nfree - 1], 1);
        if (p->nfree >= POOL_AHEAD)
            __builtin_prefetch(p->stack[p->nfree - POOL_AHEAD], 1);
    } else if (p->bump < p->cap) {
        e = (warp_event *)(p->base + p->bump * p->ev_size + sizeof(ev_cold));
        p->bump++;
    } else {
        pool_exhausted(w, "");
    }
    if (++p->in_use > p->peak)
        p->peak = p->in_use;
    return e;
}

void pool_destroy(warp_ctx *w)
{
    if (w->pool.base)
        munmap(w->pool.base, (size_t)(w->pool.cap * (w->pool.ev_size + sizeof(warp_event *))));
    w->pool.base = NULL;
}
