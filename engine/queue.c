/* engine/queue.c — the pending-event queue: a 4-ary heap (default) and a
 * top-down splay tree behind one interface, chosen with --queue. Invariant:
 * queue_pop returns the pending event with the smallest key (ev_less), so
 * equal timestamps follow the tie key. Called by the schedulers, delivery and
 * rollback. */
#include "internal.h"

#include <stdlib.h>

int queue_parse(const char *name)
{
    if (!strcmp(name, "heap"))
        return QUEUE_HEAP;
    if (!strcmp(name, "splay"))
        return QUEUE_SPLAY;
    return -1;
}

/* ---- 4-ary heap of (key, word). Timestamps are never negative, so their
 * IEEE bit patterns order like unsigned integers: the heap compares those
 * (branch-free selection of the smallest child). Equal timestamps are common
 * (a replay's ranks run in lock-step), so each entry also carries a prefix of
 * the event's tie key, and the events themselves are read only when the
 * prefixes are equal too. Removal is lazy (the event is marked dead and
 * dropped when it surfaces), so the heap never tracks positions and a move
 * touches only the array. */

static inline uint64_t ts_key(double ts)
{
    uint64_t k;
    memcpy(&k, &ts, sizeof k);
    return k;
}

/* The tie prefix: the top tie_bits bits of (depth, src, seq) written out
 * with TIE_DEPTH_BITS for depth, src_bits for src and the rest for seq, each
 * field saturating and zeroing the fields after it when it saturates. It is
 * monotone in ev_less among equal timestamps, and strictly so where the
 * fields fit, so a differing prefix decides and an equal one defers to the
 * events: the order is exactly ev_less's either way. */
enum { TIE_DEPTH_BITS = 4, TIE_MIN_BITS = 16 };

static uint64_t tie_prefix_slow(const warp_queue *q, const warp_event *e)
{
    if (!q->tie_bits)
        return 0;
    unsigned rest = q->tie_bits - TIE_DEPTH_BITS;
    uint64_t dmax = ((uint64_t)1 << TIE_DEPTH_BITS) - 1;
    if (e->depth >= dmax)
        return dmax << rest;
    uint64_t v = (uint64_t)e->depth << rest;
    uint64_t smax = ((uint64_t)1 << q->src_bits) - 1;
    uint64_t src = e->src < smax ? e->src : smax;
    if (q->src_bits >= rest) /* no room for seq: src's top bits */
        return v | src >> (q->src_bits - rest);
    rest -= q->src_bits;
    if (src == smax)
        return v | smax << rest;
    uint64_t qmax = ((uint64_t)1 << rest) - 1;
    return v | src << rest | (e->seq < qmax ? e->seq : qmax);
}

/* The usual case inline (every field fits but perhaps seq); the same value
 * as tie_prefix_slow, which the limits set up in queue_init send the rest
 * to. Returned shifted left by one, with the low bit set when the prefix is
 * inexact (a field saturated, or computed the slow way): exact prefixes of
 * distinct events with one timestamp always differ, and never equal an
 * inexact one (that has a saturated field an exact one cannot have). */
static inline uint64_t tie_prefix(const warp_queue *q, const warp_event *e)
{
    if (__builtin_expect((e->depth >= q->depth_lim) | (e->src >= q->src_lim), 0))
        return q->tie_bits ? tie_prefix_slow(q, e) << 1 | 1 : 0; /* no prefix: inexact_bit is all */
    uint64_t inexact = e->seq >= q->seq_max;
    return ((uint64_t)e->depth << q->depth_shift | e->src << q->src_shift |
            (inexact ? q->seq_max : e->seq)) << 1 | inexact;
}

static inline warp_event *ent_ev(const warp_queue *q, const heap_ent *x)
{
    uint64_t slot = x->word & q->slot_mask;
    return (warp_event *)(q->base + (slot << 4));
}

static inline heap_ent ent_of(const warp_queue *q, warp_event *e)
{
    uint64_t slot = (uint64_t)((char *)e - q->base) >> 4;
    return (heap_ent){ts_key(e->ts), tie_prefix(q, e) << q->slot_bits | slot};
}

static inline bool ent_less(const warp_queue *q, const heap_ent *a, const heap_ent *b)
{
    if (a->key != b->key)
        return a->key < b->key;
    if ((a->word ^ b->word) >> q->slot_bits) /* the prefixes differ */
        return a->word < b->word;
    return ev_less(ent_ev(q, a), ent_ev(q, b));
}

/* The array starts 3 entries into a 64-byte aligned block, so the four
 * children of any node (4i+1 .. 4i+4) share one cache line: a large heap
 * then costs one miss per level, not two. */
static void heap_alloc(warp_queue *q, size_t cap)
{
    heap_ent *raw = aligned_alloc(64, ((cap + 3) * sizeof(heap_ent) + 63) & ~(size_t)63);
    if (!raw)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for a pending queue of %zu events", cap);
    if (q->heap) {
        memcpy(raw + 3, q->heap, q->n * sizeof(heap_ent));
        free(q->heap - 3);
    }
    q->heap = raw + 3;
    q->cap = cap;
}

static void heap_insert(warp_queue *q, warp_event *e)
{
    if (q->n == q->cap)
        heap_alloc(q, q->cap ? 2 * q->cap : 1024);
    heap_ent x = ent_of(q, e);
    size_t i = q->n++;
    while (i > 0) {
        size_t parent = (i - 1) / 4;
        if (!ent_less(q, &x, &q->heap[parent]))
            break;
        q->heap[i] = q->heap[parent];
        i = parent;
    }
    q->heap[i] = x;
}

/* Index of the smallest of h[c .. last-1]. The first pass compares the
 * timestamps alone (most levels have no tie). On a tie a second pass
 * compares (timestamp, word) branch-free: the word's top bits are the tie
 * prefix, so that settles every pair whose prefixes differ; only a pair
 * equal in timestamp and prefix both (a saturated prefix) falls back to the
 * events. A later entry equal in both to the running minimum is always seen
 * against it (the minimum only moves to a strictly smaller pair), so the
 * fallback is taken whenever the minimum is not unique. The torus's
 * lock-step timestamps made the per-child ent_less loop a third of the run. */
static inline size_t min_child(const warp_queue *q, const heap_ent *h, size_t c, size_t last)
{
    size_t best = c;
    uint64_t bk = h[c].key;
    bool tie = false;
    for (size_t k = c + 1; k < last; k++) {
        uint64_t kk = h[k].key;
        tie |= kk == bk;
        best = kk < bk ? k : best;
        bk = kk < bk ? kk : bk;
    }
    if (!tie)
        return best;
    /* (key, word) as one 128-bit number: timestamp, then prefix and its
     * inexact bit, then the slot. Exact prefixes decide every tie; one
     * inexact entry among the children sends them all to ev_less. */
    __extension__ typedef unsigned __int128 u128;
    u128 bv = (u128)h[c].key << 64 | h[c].word;
    uint64_t any = h[c].word;
    best = c;
    for (size_t k = c + 1; k < last; k++) {
        u128 v = (u128)h[k].key << 64 | h[k].word;
        any |= h[k].word;
        bool lt = v < bv;
        best = lt ? k : best;
        bv = lt ? v : bv;
    }
    if (__builtin_expect((any & q->inexact_bit) != 0, 0))
        for (size_t k = c; k < last; k++)
            if (k != best && ent_less(q, &h[k], &h[best]))
                best = k;
    return best;
}

/* Floyd's bottom-up deletion: walk the hole down along the smallest children
 * to a leaf, then sift the last entry up from there. Fewer comparisons than
 * sifting the last entry down from the root, since it usually belongs low. */
static warp_event *heap_pop(warp_queue *q)
{
    if (!q->n)
        return NULL;
    heap_ent *h = q->heap;
    warp_event *top = ent_ev(q, &h[0]);
    size_t n = --q->n;
    if (!n)
        return top;
    heap_ent x = h[n];
    size_t i = 0;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= n)
            break;
        size_t best = min_child(q, h, c, c + 4 < n ? c + 4 : n);
        h[i] = h[best];
        i = best;
    }
    while (i > 0) {
        size_t parent = (i - 1) / 4;
        if (!ent_less(q, &x, &h[parent]))
            break;
        h[i] = h[parent];
        i = parent;
    }
    h[i] = x;
    /* The new top runs next: fetch its event while this one is processed. */
    __builtin_prefetch(ent_ev(q, &h[0]));
    return top;
}

/* ---- top-down splay tree (Sleator & Tarjan), keyed by ev_less; keys are
 * unique, so an event is found by its own key. */

/* Keys are unique among live events; the address breaks a tie should two
 * ever meet, so the tree's order is total and removal finds its event. */
static inline bool sp_less(const warp_event *a, const warp_event *b)
{
    if (ev_less(a, b))
        return true;
    return !ev_less(b, a) && (uintptr_t)a < (uintptr_t)b;
}

#define SL(x) ((x)->sp.l)
#define SR(x) ((x)->sp.r)

static warp_event *splay_join(warp_event *t, warp_event *header, warp_event *l, warp_event *r)
{
    SR(l) = SL(t);
    SL(r) = SR(t);
    SL(t) = SR(header);
    SR(t) = SL(header);
    return t;
}

/* Brings the event with `key` (or the nearest) to the root. */
static warp_event *splay(warp_event *t, const warp_event *key)
{
    warp_event header, *l = &header, *r = &header;
    SL(&header) = SR(&header) = NULL;
    for (;;) {
        if (sp_less(key, t)) {
            warp_event *c = SL(t);
            if (!c)
                break;
            if (sp_less(key, c)) { /* rotate right */
                SL(t) = SR(c);
                SR(c) = t;
                t = c;
                if (!SL(t))
                    break;
            }
            SL(r) = t; /* link right */
            r = t;
            t = SL(t);
        } else if (sp_less(t, key)) {
            warp_event *c = SR(t);
            if (!c)
                break;
            if (sp_less(c, key)) { /* rotate left */
                SR(t) = SL(c);
                SL(c) = t;
                t = c;
                if (!SR(t))
                    break;
            }
            SR(l) = t; /* link left */
            l = t;
            t = SR(t);
        } else {
            break;
        }
    }
    return splay_join(t, &header, l, r);
}

/* Brings the minimum to the root. */
static warp_event *splay_min(warp_event *t)
{
    warp_event header, *l = &header, *r = &header;
    SL(&header) = SR(&header) = NULL;
    for (;;) {
        warp_event *c = SL(t);
        if (!c)
            break;
        SL(t) = SR(c); /* rotate right */
        SR(c) = t;
        t = c;
        if (!SL(t))
            break;
        SL(r) = t; /* link right */
        r = t;
        t = SL(t);
    }
    return splay_join(t, &header, l, r);
}

static void splay_insert(warp_queue *q, warp_event *e)
{
    if (!q->root) {
        e->sp.l = e->sp.r = NULL;
    } else {
        warp_event *t = splay(q->root, e);
        if (sp_less(e, t)) {
            e->sp.l = t->sp.l;
            e->sp.r = t;
            t->sp.l = NULL;
        } else {
            e->sp.r = t->sp.r;
            e->sp.l = t;
            t->sp.r = NULL;
        }
    }
    q->root = e;
    q->n++;
}

static void splay_remove(warp_queue *q, warp_event *e)
{
    warp_event *t = splay(q->root, e);
    WARP_ASSERT(t == e, "a removed event is in the splay tree");
    if (!t->sp.l) {
        q->root = t->sp.r;
    } else {
        warp_event *x = splay(t->sp.l, e); /* max of the left subtree */
        x->sp.r = t->sp.r;
        q->root = x;
    }
    q->n--;
}

static warp_event *splay_pop(warp_queue *q)
{
    if (!q->root)
        return NULL;
    warp_event *t = splay_min(q->root);
    q->root = t->sp.r;
    q->n--;
    return t;
}

/* Rebuilds the heap without its dead entries (Floyd's O(n) heapify). Done
 * when the dead outnumber the live, so removal stays O(1) amortised and a
 * rollback storm cannot fill the pool with cancelled events. */
static void heap_compact(warp_ctx *w)
{
    warp_queue *q = &w->queue;
    heap_ent *h = q->heap;
    size_t m = 0;
    for (size_t i = 0; i < q->n; i++) {
        warp_event *e = ent_ev(q, &h[i]);
        if (e->state == EV_DEAD)
            pool_put(w, e);
        else
            h[m++] = h[i];
    }
    q->n = m;
    q->dead = 0;
    for (size_t i = m / 4 + 1; i-- > 0;) {
        heap_ent x = h[i];
        size_t j = i;
        for (;;) {
            size_t c = 4 * j + 1;
            if (c >= m)
                break;
            size_t best = min_child(q, h, c, c + 4 < m ? c + 4 : m);
            if (!ent_less(q, &h[best], &x))
                break;
            h[j] = h[best];
            j = best;
        }
        h[j] = x;
    }
}

/* ---- the interface: dead (lazily removed) events are freed as they
 * surface, so callers only ever see live pending events. ---- */

static unsigned bit_width(uint64_t x)
{
    return x ? 64 - (unsigned)__builtin_clzll(x) : 0;
}

void queue_init(warp_queue *q, queue_kind kind, size_t hint, const warp_pool *pool, uint64_t total_lps)
{
    memset(q, 0, sizeof *q);
    q->kind = kind;
    if (kind == QUEUE_HEAP) {
        /* Slots are 16-byte offsets (event sizes are multiples of 16; the
         * pool is one malloc, so well under 2^60 of them); what the slot
         * leaves of the word is the tie prefix, if enough is left. */
        q->base = pool->base;
        q->slot_bits = bit_width(pool->cap * pool->ev_size >> 4);
        unsigned left = 64 - q->slot_bits;
        /* One bit of what is left marks inexact prefixes (tie_prefix). */
        q->tie_bits = left >= TIE_MIN_BITS + 1 ? left - 1 : 0;
        q->inexact_bit = q->tie_bits ? (uint64_t)1 << q->slot_bits : ~(uint64_t)0;
        q->slot_mask = ((uint64_t)1 << q->slot_bits) - 1;
        q->src_bits = bit_width(total_lps); /* every gid < total_lps <= 2^src_bits - 1 */
        if (q->tie_bits && q->src_bits < q->tie_bits - TIE_DEPTH_BITS) { /* else all slow */
            q->depth_shift = q->tie_bits - TIE_DEPTH_BITS;
            q->src_shift = q->depth_shift - q->src_bits;
            q->depth_lim = ((uint32_t)1 << TIE_DEPTH_BITS) - 1;
            q->src_lim = ((uint64_t)1 << q->src_bits) - 1;
            q->seq_max = ((uint64_t)1 << q->src_shift) - 1;
        }
        heap_alloc(q, hint < 1024 ? 1024 : hint);
    }
}

void queue_insert(warp_ctx *w, warp_event *e)
{
    e->state = EV_PENDING;
    if (w->queue.kind == QUEUE_HEAP)
        heap_insert(&w->queue, e);
    else
        splay_insert(&w->queue, e);
}

warp_event *queue_peek(warp_ctx *w)
{
    warp_queue *q = &w->queue;
    if (q->kind == QUEUE_HEAP) {
        while (q->n) {
            warp_event *e = ent_ev(q, &q->heap[0]);
            if (e->state != EV_DEAD)
                return e;
            pool_put(w, heap_pop(q));
            q->dead--;
        }
        return NULL;
    }
    if (!q->root)
        return NULL;
    q->root = splay_min(q->root);
    return q->root;
}

void queue_prefetch_next(warp_ctx *w)
{
    warp_queue *q = &w->queue;
    if (q->kind == QUEUE_HEAP && q->n) {
        const warp_lp *lp = ent_ev(q, &q->heap[0])->lp; /* the event was prefetched at the last pop */
        __builtin_prefetch(lp);
        __builtin_prefetch((const char *)lp + 64);
    }
}

warp_event *queue_pop(warp_ctx *w)
{
    warp_queue *q = &w->queue;
    if (q->kind != QUEUE_HEAP)
        return splay_pop(q);
    for (;;) {
        warp_event *e = heap_pop(q);
        if (!e || e->state != EV_DEAD)
            return e;
        pool_put(w, e);
        q->dead--;
    }
}

void queue_remove(warp_ctx *w, warp_event *e)
{
    WARP_ASSERT(e->state == EV_PENDING, "only pending events leave the queue early");
    if (w->queue.kind == QUEUE_HEAP) {
        e->state = EV_DEAD; /* freed when it surfaces, or by compaction */
        if (++w->queue.dead > 1024 && w->queue.dead > w->queue.n / 2)
            heap_compact(w);
    } else {
        splay_remove(&w->queue, e);
        pool_put(w, e);
    }
}

void queue_destroy(warp_queue *q)
{
    if (q->heap)
        free(q->heap - 3);
    memset(q, 0, sizeof *q);
}
