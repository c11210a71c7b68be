/* engine/alloc.c — warp_alloc's memory: power-of-two size classes carved from
 * 256 KiB slabs, with per-class free lists, so forward handlers allocate
 * without malloc. Each block carries an alloc_hdr that links it into the lists
 * of the event that allocated it and of the event that frees it on commit.
 * Blocks above the largest class go straight to malloc (rare, and counted). */
#include "internal.h"

#include <stdint.h>
#include <stdlib.h>

#define ALLOC_MIN_SHIFT 5 /* 32 bytes */
#define ALLOC_BIG 0xFFFFFFFFu
#define ALLOC_MAGIC 0x57A2A110u
#define SLAB_BYTES (256u * 1024u)
#define CHUNK_SLABS 8 /* a 2 MiB huge page of slabs */

void alloc_init(warp_allocator *a)
{
    memset(a, 0, sizeof *a);
}

static uint32_t size_class(size_t total)
{
    uint32_t c = 0;
    while (((size_t)1 << (c + ALLOC_MIN_SHIFT)) < total)
        c++;
    return c;
}

/* A new slab. Where setup chose huge pages for the LP states, slabs come
 * eight to a chunk mapped for one: a router's queued packets are reached
 * at random as its state is, and in 4 KiB pages a million-node model's
 * blocks miss the TLB as often as they miss the cache. */
static char *slab_new(warp_ctx *w)
{
    warp_allocator *a = &w->alloc;
    if (!w->huge_active)
        return malloc(SLAB_BYTES);
    if (!a->chunk_slabs_left) {
        char *c = big_map((size_t)CHUNK_SLABS * SLAB_BYTES, true);
        void **grown = c ? realloc(a->chunks, (a->nchunks + 1) * sizeof *a->chunks) : NULL;
        if (!grown) {
            big_unmap(c, (size_t)CHUNK_SLABS * SLAB_BYTES, true);
            return NULL;
        }
        a->chunks = grown;
        a->chunks[a->nchunks++] = c;
        a->chunk_slabs_left = CHUNK_SLABS;
    }
    return (char *)a->chunks[a->nchunks - 1] + (size_t)(CHUNK_SLABS - a->chunk_slabs_left--) * SLAB_BYTES;
}

static void refill(warp_ctx *w, uint32_t cls)
{
    warp_allocator *a = &w->alloc;
    size_t bsz = (size_t)1 << (cls + ALLOC_MIN_SHIFT);
    char *slab = slab_new(w);
    if (!slab)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for model allocations on rank %d (%llu bytes in use)",
                   w->rank, (unsigned long long)a->bytes_in_use);
    if (a->nslabs == a->cap_slabs) {
        a->cap_slabs = a->cap_slabs ? 2 * a->cap_slabs : 64;
        a->slabs = realloc(a->slabs, a->cap_slabs * sizeof *a->slabs);
        if (!a->slabs)
            warp_fatal(WARP_EXIT_RESOURCE, "out of memory for the slab table on rank %d", w->rank);
    }
    a->slabs[a->nslabs++] = slab;
    for (size_t off = 0; off + bsz <= SLAB_BYTES; off += bsz) {
        alloc_hdr *h = (alloc_hdr *)(slab + off);
        h->cls = cls;  /* every header names its class: a checkpoint finds blocks by slab */
        h->magic = 0;  /* free until handed out */
        h->anext = a->free[cls];
        a->free[cls] = h;
    }
}

void *alloc_get(warp_ctx *w, size_t size)
{
    warp_allocator *a = &w->alloc;
    size_t total = sizeof(alloc_hdr) + ((size + 15) & ~(size_t)15);
    alloc_hdr *h;
    uint32_t cls = size_class(total);
    if (cls >= ALLOC_CLASSES) {
        h = malloc(total);
        if (!h)
            warp_fatal(WARP_EXIT_RESOURCE, "out of memory for a %zu-byte model allocation on rank %d",
                       size, w->rank);
        cls = ALLOC_BIG;
        a->bytes_in_use += total;
    } else {
        if (!a->free[cls])
            refill(w, cls);
        h = a->free[cls];
        a->free[cls] = h->anext;
        a->bytes_in_use += (size_t)1 << (cls + ALLOC_MIN_SHIFT);
    }
    if (a->bytes_in_use > a->peak)
        a->peak = a->bytes_in_use;
    h->anext = h->fnext = NULL;
    h->cls = cls;
    h->magic = ALLOC_MAGIC;
    return h + 1;
}

void alloc_put(warp_ctx *w, alloc_hdr *h)
{
    warp_allocator *a = &w->alloc;
    WARP_ASSERT(h->magic == ALLOC_MAGIC, "a block freed by the engine came from warp_alloc and is live");
    h->magic = 0;
    if (h->cls == ALLOC_BIG) {
        free(h);
        return;
    }
    a->bytes_in_use -= (size_t)1 << (h->cls + ALLOC_MIN_SHIFT);
    h->anext = a->free[h->cls];
    a->free[h->cls] = h;
}

void alloc_destroy(warp_allocator *a)
{
    if (a->nchunks) { /* every slab lies in a chunk */
        for (size_t i = 0; i < a->nchunks; i++)
            big_unmap(a->chunks[i], (size_t)CHUNK_SLABS * SLAB_BYTES, true);
        free(a->chunks);
    } else {
        for (size_t i = 0; i < a->nslabs; i++)
            free(a->slabs[i]);
    }
    free(a->slabs);
    memset(a, 0, sizeof *a);
}

/* ---- checkpoint support: live blocks found from addresses ---- */

static int slab_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t) * (char *const *)a, y = (uintptr_t) * (char *const *)b;
    return x < y ? -1 : x > y;
}

void alloc_index_build(warp_ctx *w, alloc_index *ix)
{
    warp_allocator *a = &w->alloc;
    ix->n = a->nslabs;
    ix->base = warp_xcalloc(a->nslabs ? a->nslabs : 1, sizeof *ix->base);
    if (a->nslabs) { /* no slabs yet: slabs is NULL, which memcpy must not see */
        memcpy(ix->base, a->slabs, a->nslabs * sizeof *ix->base);
        qsort(ix->base, ix->n, sizeof *ix->base, slab_cmp);
    }
    ix->lo = ix->n ? (uintptr_t)ix->base[0] : 1;
    ix->hi = ix->n ? (uintptr_t)ix->base[ix->n - 1] + SLAB_BYTES : 0;
}

void alloc_index_free(alloc_index *ix)
{
    free(ix->base);
    memset(ix, 0, sizeof *ix);
}

alloc_hdr *alloc_find(const alloc_index *ix, uintptr_t p)
{
    if (p < ix->lo || p >= ix->hi)
        return NULL;
    size_t lo = 0, hi = ix->n; /* the last slab whose base <= p */
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if ((uintptr_t)ix->base[mid] <= p)
            lo = mid;
        else
            hi = mid;
    }
    uintptr_t base = (uintptr_t)ix->base[lo];
    if (p < base || p >= base + SLAB_BYTES)
        return NULL;
    size_t bsz = (size_t)1 << (((alloc_hdr *)base)->cls + ALLOC_MIN_SHIFT);
    alloc_hdr *h = (alloc_hdr *)(base + (p - base) / bsz * bsz);
    if (h->magic != ALLOC_MAGIC || p < (uintptr_t)(h + 1))
        return NULL;
    return h;
}

uint32_t alloc_class(const alloc_hdr *h)
{
    return h->cls;
}

size_t alloc_usable(uint32_t cls)
{
    return ((size_t)1 << (cls + ALLOC_MIN_SHIFT)) - sizeof(alloc_hdr);
}

void *alloc_get_class(warp_ctx *w, uint32_t cls)
{
    WARP_ASSERT(cls >= 1 && cls < ALLOC_CLASSES, "a restored block has a slab size class");
    void *p = alloc_get(w, ((size_t)1 << (cls + ALLOC_MIN_SHIFT)) - 32);
    WARP_ASSERT(((alloc_hdr *)p - 1)->cls == cls, "a restored block gets its own size class");
    return p;
}

/* ---- the public calls ---- */

void *warp_alloc(warp_lp *lp, size_t size)
{
    warp_ctx *w = lp_ctx(lp);
    void *p = alloc_get(w, size);
    warp_event *e = w->sched.cur;
    if (e) { /* made by an event: released if that event is rolled back */
        alloc_hdr *h = (alloc_hdr *)p - 1;
        h->anext = e->allocs;
        e->allocs = h;
    }
    return p;
}

void warp_free_on_commit(warp_lp *lp, void *ptr)
{
    warp_ctx *w = lp_ctx(lp);
    alloc_hdr *h = (alloc_hdr *)ptr - 1;
    WARP_ASSERT(h->magic == ALLOC_MAGIC, "warp_free_on_commit gets a live warp_alloc block");
    warp_event *e = w->sched.cur;
    if (!e) { /* init or finish: nothing can roll back */
        alloc_put(w, h);
        return;
    }
    h->fnext = e->frees;
    e->frees = h;
}
