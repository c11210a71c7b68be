/* engine/pool.c — the per-PE event pool: fixed-size event slots reserved once
 * (--events of them) and handed out from a free list, so the hot path never
 * calls malloc. Slots are touched only when first used, so a large reservation
 * costs address space, not memory. Exhaustion stops the run naming --events. */
#include "internal.h"

#include <stdlib.h>

void pool_init(warp_ctx *w, uint64_t cap)
{
    warp_pool *p = &w->pool;
    p->ev_size = (sizeof(warp_event) + w->msg_size + 15) & ~(size_t)15;
    p->cap = cap;
    p->base = malloc(cap * p->ev_size);
    if (!p->base)
        warp_fatal(WARP_EXIT_RESOURCE,
                   "cannot reserve %llu events of %zu bytes on rank %d: lower --events",
                   (unsigned long long)cap, p->ev_size, w->rank);
    p->bump = 0;
    p->free = NULL;
    p->in_use = p->peak = 0;
}

warp_event *pool_get(warp_ctx *w)
{
    warp_pool *p = &w->pool;
    warp_event *e = p->free;
    if (e) {
        /* Freed slots are cold (fossil collection frees them long after
         * they ran): the next one's link loads before it is needed. */
        p->free = e->next;
        if (p->free)
            __builtin_prefetch(p->free);
    } else if (p->bump < p->cap) {
        e = (warp_event *)(p->base + p->bump * p->ev_size);
        p->bump++;
    } else {
        warp_fatal(WARP_EXIT_RESOURCE,
                   "out of event memory on rank %d at GVT %g: raise --events (now %llu per rank)",
                   w->rank, w->gvt_value, (unsigned long long)p->cap);
    }
    if (++p->in_use > p->peak)
        p->peak = p->in_use;
    return e;
}

void pool_put(warp_ctx *w, warp_event *e)
{
    warp_pool *p = &w->pool;
#ifdef WARP_DEBUG
    WARP_ASSERT(e->state != EV_FREE, "an event is freed once");
    memset(EV_PAYLOAD(e), 0xA5, w->msg_size); /* use after free shows up in digests */
#endif
    e->state = EV_FREE;
    e->next = p->free;
    p->free = e;
    p->in_use--;
}

/* Low means: less than an eighth of the reservation left. The optimistic
 * scheduler then forces a GVT round instead of running further ahead. */
bool pool_low(const warp_ctx *w)
{
    const warp_pool *p = &w->pool;
    return p->in_use + p->cap / 8 >= p->cap;
}

void pool_destroy(warp_ctx *w)
{
    free(w->pool.base);
    w->pool.base = NULL;
}
