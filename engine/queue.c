/* engine/queue.c — the pending-event queue: a two-tier ladder (default: a
 * small 4-ary heap for the near future over time buckets of unsorted
 * entries), the plain 4-ary heap and a top-down splay tree behind one
 * interface, chosen with --queue. Invariant:
 * queue_pop returns the pending event with the smallest key (ev_less), so
 * equal timestamps follow the tie key. Called by the schedulers, delivery and
 * rollback. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

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

static void heap_push(warp_queue *q, heap_ent x)
{
    if (q->n == q->cap)
        heap_alloc(q, q->cap ? 2 * q->cap : 1024);
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

/* Floyd's O(n) heapify of the whole array. */
static void heap_heapify(warp_queue *q)
{
    heap_ent *h = q->heap;
    size_t m = q->n;
    for (size_t i = m / 4 + 1; i-- > 0;) {
        if (4 * i + 1 >= m)
            continue;
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

/* ---- ladder: the heap is the near tier; later events wait unsorted in
 * time buckets and enter the heap a bucket at a time, when it runs empty.
 * A pending set of 10^5..10^6 events then costs a heap of a few thousand
 * entries (in cache) per pop plus one streaming write and read per event,
 * instead of a heap whose bottom levels miss the cache on every pop.
 *
 * Bucket numbers come from ladder_bucket, monotone (non-decreasing) in the
 * timestamp: so every heap entry (bucket <= cur) is at most every ring or
 * overflow entry in timestamp, equal timestamps never straddle two tiers,
 * and the heap's minimum is the queue's (ev_less, ties included) whatever
 * rounding does to the bucket edges. The width adapts (ladder_rebuild):
 * from a sample of the pending timestamps past the minimum when the ring
 * runs out or a bucket or the heap comes out too large, at most once per
 * half pending-count of pops except when the ring is exhausted, so its
 * O(pending) cost is amortised. What is scheduled into the current bucket
 * goes to the heap; a large heap is sorted into the run once the run is
 * spent (near_sort). */
enum {
    LADDER_NB = 512,      /* ring buckets per epoch */
    LADDER_T = 4096,      /* target entries per bucket (64 KiB of heap) */
    LADDER_HI = 8 * LADDER_T, /* a heap this large asks for a rebuild */
    LADDER_SAMPLE = 128,  /* timestamps sampled to set the width */
    LADDER_SORT = 2048,   /* a heap this large is sorted once the run is spent */
    QCHUNK = 255,         /* entries per 4 KiB chunk */
};

struct q_chunk {
    q_chunk *next;
    uint64_t n;
    heap_ent e[QCHUNK];
};

static inline double key_ts(uint64_t k)
{
    double ts;
    memcpy(&ts, &k, sizeof ts);
    return ts;
}

static inline uint64_t ladder_bucket(const warp_queue *q, double ts)
{
    if (!(ts >= q->origin)) /* before the epoch (or no epoch yet): the heap's */
        return 0;
    double x = (ts - q->origin) * q->inv_w;
    if (__builtin_expect(x < 0x1p62, 1))
        return 1 + (uint64_t)x;
    /* NaN: an infinite timestamp at an infinite origin or with no width yet,
     * where every later event is infinite or shares bucket 1 too. */
    return x >= 0x1p62 ? (uint64_t)1 << 62 : 1;
}

static q_chunk *bucket_extend(warp_queue *q, q_bucket *b)
{
    q_chunk *c = q->spare;
    if (c)
        q->spare = c->next;
    else if (!(c = aligned_alloc(64, sizeof *c)))
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for the pending queue's buckets");
    c->next = NULL;
    c->n = 0;
    if (b->tail)
        b->tail->next = c;
    else
        b->head = c;
    b->tail = c;
    return c;
}

static inline void bucket_add(warp_queue *q, q_bucket *b, heap_ent x)
{
    q_chunk *c = b->tail;
    if (__builtin_expect(!c || c->n == QCHUNK, 0))
        c = bucket_extend(q, b);
    c->e[c->n++] = x;
    b->n++;
}

/* Hands a list of chunks to the free list. */
static void chunks_release(warp_queue *q, q_chunk *head, q_chunk *tail)
{
    if (!head)
        return;
    tail->next = q->spare;
    q->spare = head;
}

static void chunks_free(q_chunk *c)
{
    while (c) {
        q_chunk *next = c->next;
        free(c);
        c = next;
    }
}

/* Drops the dead entries of a bucket (freeing their events); returns how
 * many. Kept entries slide forward in place, so only whole chunks at the
 * end are released and only the tail may be partial. */
static size_t bucket_filter(warp_ctx *w, q_bucket *b)
{
    warp_queue *q = &w->queue;
    if (!b->head)
        return 0;
    q_chunk *wc = b->head;
    size_t wi = 0, kept = 0, was = b->n;
    for (q_chunk *c = b->head; c; c = c->next)
        for (size_t j = 0; j < c->n; j++) {
            warp_event *e = ent_ev(q, &c->e[j]);
            if (e->state == EV_DEAD) {
                pool_put(w, e);
                continue;
            }
            if (wi == QCHUNK) {
                wc = wc->next;
                wi = 0;
            }
            wc->e[wi++] = c->e[j];
            kept++;
        }
    if (!kept) {
        chunks_release(q, b->head, b->tail);
        *b = (q_bucket){0};
        return was;
    }
    if (wc != b->tail)
        chunks_release(q, wc->next, b->tail);
    wc->next = NULL;
    wc->n = wi;
    b->tail = wc;
    b->n = kept;
    return was - kept;
}

/* Sorting a pulled bucket: most significant digit first, on only the bits
 * that vary in the range (a bucket's timestamps share their top bits, and
 * the pool slot under the tie prefix never decides), then insertion sort
 * once a range is short. One pass spreads a uniform bucket of a few
 * thousand entries into ranges of a handful, where an LSD radix sort
 * takes a pass for every 11 varying bits of the timestamp and of the tie
 * prefix (8 passes a bucket on the Slim Fly). */
enum {
    RADIX_BITS = 11, /* the widest digit: 8 KiB of counts */
    RUN_INSERT = 32, /* a range this short is insertion-sorted */
    RUN_GROUP = 64,  /* the longest exact-prefix group sorted by its events */
};

/* Sorts a[0 .. n) in ent_less order by insertion. */
static void run_insert(const warp_queue *q, heap_ent *a, size_t n)
{
    for (size_t k = 1; k < n; k++) {
        heap_ent x = a[k];
        size_t l = k;
        for (; l > 0 && ent_less(q, &x, &a[l - 1]); l--)
            a[l] = a[l - 1];
        a[l] = x;
    }
}

/* The bits of the key and of the tie prefix that vary over a[0 .. n). */
static void run_vary(const warp_queue *q, const heap_ent *a, size_t n, uint64_t *kvary, uint64_t *wvary)
{
    uint64_t kand = UINT64_MAX, kor = 0, wand = UINT64_MAX, wor = 0;
    for (size_t i = 0; i < n; i++) {
        kand &= a[i].key;
        kor |= a[i].key;
        wand &= a[i].word;
        wor |= a[i].word;
    }
    *kvary = kand ^ kor;
    *wvary = (wand ^ wor) & ~q->slot_mask;
}

/* Sorts a[0 .. n) (t: as much scratch) in ent_less order, given the bits
 * that vary over it; false when a group equal in key and tie prefix is
 * longer than RUN_GROUP (its order is the events', too slow to sort here). */
static bool run_msd(const warp_queue *q, heap_ent *a, heap_ent *t, size_t n, uint64_t kvary, uint64_t wvary)
{
    if (n <= RUN_INSERT) {
        run_insert(q, a, n);
        return true;
    }
    if (!kvary && !wvary) { /* one exact-prefix group */
        if (n > RUN_GROUP)
            return false;
        run_insert(q, a, n);
        return true;
    }
    const bool on_key = kvary != 0;
    const uint64_t vary = on_key ? kvary : wvary;
    /* A digit of about log2(n) bits leaves ranges of a few entries without
     * clearing more counts than there are entries. */
    unsigned bits = 63u - (unsigned)__builtin_clzll(n);
    bits = bits < 4 ? 4 : bits > RADIX_BITS ? RADIX_BITS : bits;
    const unsigned top = 64u - (unsigned)__builtin_clzll(vary); /* bits up to the highest varying one */
    if (bits > top)
        bits = top;
    const unsigned shift = top - bits;
    const uint64_t mask = ((uint64_t)1 << bits) - 1;
    const size_t digits = (size_t)1 << bits;
    uint32_t count[1 << RADIX_BITS];
    memset(count, 0, digits * sizeof count[0]);
    for (size_t i = 0; i < n; i++)
        count[((on_key ? a[i].key : a[i].word) >> shift) & mask]++;
    uint32_t sum = 0;
    for (size_t d = 0; d < digits; d++) {
        uint32_t c = count[d];
        count[d] = sum;
        sum += c;
    }
    for (size_t i = 0; i < n; i++)
        t[count[((on_key ? a[i].key : a[i].word) >> shift) & mask]++] = a[i];
    memcpy(a, t, n * sizeof *a);
    /* count[d] is now the end of digit d's range. */
    size_t s = 0;
    for (size_t d = 0; d < digits; d++) {
        size_t e = count[d], len = e - s;
        if (len > 1) {
            uint64_t kv = 0, wv = 0;
            if (len > RUN_INSERT)
                run_vary(q, a + s, len, &kv, &wv);
            if (!run_msd(q, a + s, t + s, len, kv, wv))
                return false;
        }
        s = e;
    }
    return true;
}

/* Sorts run[0 .. m) in ent_less order, given the and and or of its keys and
 * words; false, leaving the run unsorted, when a group of entries equal in
 * both (inexact prefixes) is too long to put in ev_less order here (the
 * heap takes the bucket instead). A pulled bucket is sorted in a few
 * streaming passes rather than popped through log n heap levels; the
 * torus's lock-step timestamps put 10^5 events in one bucket, whatever the
 * width. */
static bool run_sort(warp_queue *q, size_t m, uint64_t kand, uint64_t kor, uint64_t wand, uint64_t wor)
{
    return run_msd(q, q->run, q->tmp, m, kand ^ kor, (wand ^ wor) & ~q->slot_mask);
}

static void run_reserve(warp_queue *q, size_t m)
{
    if (m <= q->rcap)
        return;
    size_t cap = q->rcap ? q->rcap : 1024;
    while (cap < m)
        cap *= 2;
    free(q->run);
    free(q->tmp);
    q->run = malloc(cap * sizeof *q->run);
    q->tmp = malloc(cap * sizeof *q->tmp);
    if (!q->run || !q->tmp)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for a pending queue of %zu events", m);
    q->rcap = cap;
}

/* Moves bucket b into the (empty) near tier, sorted; true when its
 * timestamps are not all equal (a finer width could split it). */
static bool ladder_pull(warp_queue *q, q_bucket *b)
{
    run_reserve(q, b->n);
    heap_ent *h = q->run;
    size_t m = 0;
    uint64_t kand = UINT64_MAX, kor = 0, wand = UINT64_MAX, wor = 0;
    for (q_chunk *c = b->head; c; c = c->next)
        for (size_t j = 0; j < c->n; j++) {
            heap_ent x = c->e[j];
            kand &= x.key;
            kor |= x.key;
            wand &= x.word;
            wor |= x.word;
            h[m++] = x;
        }
    chunks_release(q, b->head, b->tail);
    q->far -= b->n;
    *b = (q_bucket){0};
    q->ri = 0;
    q->rn = m;
    q->sort_at = LADDER_SORT;
    if (!run_sort(q, m, kand, kor, wand, wor)) { /* long exact-order groups: the heap's way */
        if (q->cap < m)
            heap_alloc(q, m);
        memcpy(q->heap, q->run, m * sizeof *q->heap);
        q->n = m;
        q->rn = 0;
        q->sort_at = 2 * m;
        heap_heapify(q);
    }
    return kand != kor;
}

/* Sorts the heap's entries into the (spent) run when the heap has grown
 * large: what arrived in the current bucket since it was pulled is then
 * popped from a sorted array like the pulled bucket was, not through log n
 * heap levels. A lock-step model fills the heap so: every event at one
 * instant schedules a zero-delay successor (one tie depth later), and the
 * whole next generation lands in the current bucket. The heap array is left
 * as it was, so a sort that gives up (long inexact tie groups) just keeps
 * the heap, and the next try waits until it has doubled. */
static void near_sort(warp_queue *q)
{
    size_t m = q->n;
    run_reserve(q, m);
    heap_ent *h = q->run;
    uint64_t kand = UINT64_MAX, kor = 0, wand = UINT64_MAX, wor = 0;
    for (size_t i = 0; i < m; i++) {
        heap_ent x = q->heap[i];
        kand &= x.key;
        kor |= x.key;
        wand &= x.word;
        wor |= x.word;
        h[i] = x;
    }
    if (run_sort(q, m, kand, kor, wand, wor)) {
        q->n = 0;
        q->ri = 0;
        q->rn = m;
        q->sort_at = LADDER_SORT;
    } else {
        q->sort_at = 2 * m;
    }
}

static void bucket_concat(q_bucket *to, q_bucket *from)
{
    if (!from->head)
        return;
    if (to->tail)
        to->tail->next = from->head;
    else
        to->head = from->head;
    to->tail = from->tail;
    to->n += from->n;
    *from = (q_bucket){0};
}

/* Sets a new epoch from everything pending: origin at the smallest
 * timestamp, a width that puts about LADDER_T of the sampled density in a
 * bucket (robust to a few far outliers: it reads the front of the sorted
 * sample), then deals every entry into the ring or the overflow. The heap
 * ends empty; the next pop pulls the first bucket. */
static void ladder_rebuild(warp_queue *q)
{
    q_bucket all = {0};
    /* The front too: in the new epoch its timestamp may be the origin's,
     * whose later inserts go to bucket 1, smaller keys included. */
    if (q->has_front) {
        bucket_add(q, &all, q->front);
        q->has_front = false;
    }
    for (size_t i = 0; i < q->n; i++)
        bucket_add(q, &all, q->heap[i]);
    q->n = 0;
    for (size_t i = q->ri; i < q->rn; i++)
        bucket_add(q, &all, q->run[i]);
    q->ri = q->rn = 0;
    for (uint64_t b = q->cur + 1; b <= LADDER_NB; b++)
        bucket_concat(&all, &q->ring[b]);
    bucket_concat(&all, &q->over);
    q->far = 0;
    size_t n = all.n;
    /* The minimum and how many share it: a lock-step model (every rank
     * ending a compute phase at one instant) can have most of its pending
     * events at the minimum, and those say nothing about the width. */
    uint64_t kmin = UINT64_MAX, sample[LADDER_SAMPLE];
    size_t nmin = 0;
    for (q_chunk *c = all.head; c; c = c->next)
        for (size_t j = 0; j < c->n; j++) {
            uint64_t k = c->e[j].key;
            nmin = k < kmin ? 0 : nmin;
            kmin = k < kmin ? k : kmin;
            nmin += k == kmin;
        }
    /* Sample the rest evenly. */
    size_t rest = n - nmin, ns = 0, stride = rest / LADDER_SAMPLE + 1, next = 0, i = 0;
    for (q_chunk *c = all.head; c && ns < LADDER_SAMPLE; c = c->next)
        for (size_t j = 0; j < c->n; j++) {
            uint64_t k = c->e[j].key;
            if (k == kmin)
                continue;
            if (i++ == next && ns < LADDER_SAMPLE) {
                sample[ns++] = k;
                next += stride;
            }
        }
    for (size_t a = 1; a < ns; a++) /* insertion sort: a rebuild is rare */
        for (size_t b = a; b > 0 && sample[b - 1] > sample[b]; b--) {
            uint64_t t = sample[b];
            sample[b] = sample[b - 1];
            sample[b - 1] = t;
        }
    q->origin = key_ts(kmin);
    /* The ring should cover the front f of the events past the minimum
     * (half the ring at the target density): a bucket gets about LADDER_T
     * of them at the density the sample reads there. */
    double f = (double)LADDER_NB * LADDER_T / 2 / (rest ? rest : 1);
    if (f > 0.9)
        f = 0.9;
    size_t idx = ns > 1 ? (size_t)(f * (double)(ns - 1)) : 0;
    if (ns) {
        double span = key_ts(sample[idx]) - q->origin;
        double covered = ((double)idx + 0.5) / (double)ns * (double)rest;
        double inv = covered / (span * LADDER_T);
        if (span > 0 && isfinite(inv) && inv > 0)
            q->inv_w = inv;
    }
    q->cur = 0;
    q->rebuilt_at = q->retry_at = q->pops;
    if (!(q->inv_w > 0)) {
        /* No width yet (every pending timestamp equal: a lock-step start):
         * stay a plain heap and look again once half of these have run. A
         * width guessed from nothing would put every later event into one
         * bucket, the heap's, for good. */
        q->origin = INFINITY;
        q->retry_at = q->pops + n / 2;
        if (q->cap < n)
            heap_alloc(q, n);
    }
    for (q_chunk *c = all.head; c;) {
        q_chunk *next_c = c->next;
        for (size_t j = 0; j < c->n; j++) {
            uint64_t b = ladder_bucket(q, key_ts(c->e[j].key));
            if (!b) /* plain heap */
                q->heap[q->n++] = c->e[j];
            else
                bucket_add(q, b <= LADDER_NB ? &q->ring[b] : &q->over, c->e[j]);
        }
        c->next = q->spare;
        q->spare = c;
        c = next_c;
    }
    q->far = n - q->n;
    if (q->n)
        heap_heapify(q);
}

/* Rebuilding costs O(pending): allowed once the pops since the last one
 * pay for it (while there is no width yet, as soon as retry_at allows). */
static inline bool ladder_may_rebuild(const warp_queue *q)
{
    return q->pops >= q->retry_at &&
           (q->pops - q->rebuilt_at >= (q->n + q->rn - q->ri + q->far) / 2 || !(q->inv_w > 0));
}

/* Refills the empty near tier from the first non-empty bucket; false when
 * nothing is pending. */
static bool ladder_advance(warp_queue *q)
{
    while (q->far) {
        if (q->far > q->over.n) {
            uint64_t b = q->cur + 1;
            while (!q->ring[b].n) /* stops at or before LADDER_NB: the ring holds one */
                b++;
            q->cur = b;
            bool spread = ladder_pull(q, &q->ring[b]);
            if (q->n + q->rn > LADDER_HI && spread && ladder_may_rebuild(q)) {
                ladder_rebuild(q);
                continue;
            }
            return true;
        }
        ladder_rebuild(q); /* only the overflow is left: a new epoch */
    }
    return q->n > 0 || q->ri < q->rn;
}

/* The near tier's smallest entry (front, run head or heap top), NULL when
 * empty. */
static inline const heap_ent *near_top(const warp_queue *q)
{
    if (q->has_front)
        return &q->front;
    if (q->ri < q->rn)
        return !q->n || ent_less(q, &q->run[q->ri], &q->heap[0]) ? &q->run[q->ri] : &q->heap[0];
    return q->n ? &q->heap[0] : NULL;
}

/* Pops the near tier's smallest entry; the tier is not empty. */
static inline warp_event *near_pop(warp_queue *q)
{
    if (q->has_front) {
        q->has_front = false;
        return ent_ev(q, &q->front);
    }
    if (q->ri < q->rn && (!q->n || ent_less(q, &q->run[q->ri], &q->heap[0]))) {
        warp_event *e = ent_ev(q, &q->run[q->ri++]);
        if (q->ri < q->rn) /* the likely next: fetch its event meanwhile */
            __builtin_prefetch(ent_ev(q, &q->run[q->ri]));
        return e;
    }
    return heap_pop(q);
}

/* x is smaller than all of the near tier (the heap first: where a lock-step
 * model's many inserts are rejected by one comparison). */
static inline bool near_below(const warp_queue *q, const heap_ent *x)
{
    if (q->has_front)
        return ent_less(q, x, &q->front);
    return (!q->n || ent_less(q, x, &q->heap[0])) && (q->ri == q->rn || ent_less(q, x, &q->run[q->ri]));
}

static void ladder_insert(warp_queue *q, warp_event *e)
{
    heap_ent x = ent_of(q, e);
    uint64_t b = ladder_bucket(q, e->ts);
    if (b <= q->cur) {
        if (near_below(q, &x)) { /* the near tier's new minimum */
            if (q->has_front)
                heap_push(q, q->front);
            q->front = x;
            q->has_front = true;
            return;
        }
        heap_push(q, x);
        if (__builtin_expect(q->n > LADDER_HI && q->pops >= q->retry_at, 0)) {
            if (ladder_may_rebuild(q))
                ladder_rebuild(q);
            else /* too soon: look again once the pops have paid for it */
                q->retry_at = q->rebuilt_at + (q->n + q->rn - q->ri + q->far) / 2;
        }
        return;
    }
    bucket_add(q, b <= LADDER_NB ? &q->ring[b] : &q->over, x);
    q->far++;
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
    heap_heapify(q);
    if (q->kind == QUEUE_LADDER) {
        size_t k = 0;
        for (size_t i = q->ri; i < q->rn; i++) { /* in order: the run stays sorted */
            warp_event *e = ent_ev(q, &q->run[i]);
            if (e->state == EV_DEAD)
                pool_put(w, e);
            else
                q->run[k++] = q->run[i];
        }
        q->ri = 0;
        q->rn = k;
        if (q->has_front && ent_ev(q, &q->front)->state == EV_DEAD) {
            pool_put(w, ent_ev(q, &q->front));
            q->has_front = false;
        }
        for (uint64_t b = q->cur + 1; b <= LADDER_NB; b++)
            q->far -= bucket_filter(w, &q->ring[b]);
        q->far -= bucket_filter(w, &q->over);
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
    if (kind != QUEUE_SPLAY) {
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
        if (kind == QUEUE_LADDER) {
            q->ring = calloc(LADDER_NB + 1, sizeof *q->ring);
            if (!q->ring)
                warp_fatal(WARP_EXIT_RESOURCE, "out of memory for the pending queue");
            q->origin = INFINITY; /* no epoch yet: everything goes to the heap */
            q->sort_at = LADDER_SORT;
            if (hint > 2 * LADDER_HI)
                hint = 2 * LADDER_HI;
        }
        heap_alloc(q, hint < 1024 ? 1024 : hint);
    }
}

void queue_insert(warp_ctx *w, warp_event *e)
{
    e->state = EV_PENDING;
    warp_queue *q = &w->queue;
    if (q->kind == QUEUE_LADDER)
        ladder_insert(q, e);
    else if (q->kind == QUEUE_HEAP)
        heap_push(q, ent_of(q, e));
    else
        splay_insert(q, e);
}

warp_event *queue_peek(warp_ctx *w)
{
    warp_queue *q = &w->queue;
    if (q->kind == QUEUE_LADDER) {
        for (;;) {
            const heap_ent *t = near_top(q);
            if (!t) {
                if (!ladder_advance(q))
                    return NULL;
                continue;
            }
            warp_event *e = ent_ev(q, t);
            if (e->state != EV_DEAD)
                return e;
            pool_put(w, near_pop(q));
            q->dead--;
        }
    }
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
    const heap_ent *t = q->kind == QUEUE_LADDER ? near_top(q) : q->kind == QUEUE_HEAP && q->n ? &q->heap[0] : NULL;
    if (t) {
        const warp_lp *lp = ent_ev(q, t)->lp; /* the event was prefetched at the last pop */
        __builtin_prefetch(lp);
    }
}

/* An event's run needs dependent lines: the event, then its LP (the
 * pointer is in the event), then the LP's state (the pointer is in the
 * LP), then what the payload names in the state. queue_prefetch_next
 * alone prefetches the next event's LP right before it runs, so the load
 * of the pointer waits for the event's miss and the state misses in the
 * handler. Here the ladder's sorted run is walked as a pipeline, one stage
 * per event run, each two events ahead of the next: the event five ahead
 * (its address is in the entry), the LP of the one three ahead (whose
 * event arrived meanwhile), the state's head and the type's hinted lines
 * of the one after next (whose LP and payload arrived meanwhile). One
 * event apart was too little: with the handlers' own misses in flight a
 * line takes longer than an event to come, and the next stage's load
 * waited for it (PHOLD with 1 Mi LPs ran 20 % faster two apart, the
 * million-node Slim Fly 1-2 %). Entries the near heap slips in between
 * only delay their use. */
void queue_prefetch_ahead(warp_ctx *w)
{
    queue_prefetch_next(w);
    warp_queue *q = &w->queue;
    if (q->kind != QUEUE_LADDER || q->ri + 5 >= q->rn)
        return;
    const heap_ent *r = &q->run[q->ri];
    const warp_event *e = ent_ev(q, &r[1]);
    const warp_lp *lp = e->lp;
    /* A small state whole (a terminal's three lines), a large one's head
     * (its type's state_head, set up by lp_class_for). */
    const char *st = lp->state;
    size_t hot = lp->type->state_head;
    __builtin_prefetch(st);
    for (size_t off = 64; off < hot; off += 64)
        __builtin_prefetch(st + off);
    if (hot > 64)
        __builtin_prefetch(st + hot - 1);
    if (lp->type->prefetch)
        lp->type->prefetch(lp, lp->state, EV_PAYLOAD(e));
    if (lp->type->commit) /* a final event commits right after it runs */
        __builtin_prefetch(lp->out);
    lp = ent_ev(q, &r[3])->lp;
    __builtin_prefetch(lp);
    /* The event's header and payload, not the cold line before it: the
     * run writes a few header fields and reads the payload (and so does the
     * model's hint). */
    const char *ev = (const char *)ent_ev(q, &r[5]);
    size_t size = w->pool.ev_size - sizeof(ev_cold);
    for (size_t off = 0; off < size; off += 64)
        __builtin_prefetch(ev + off);
    __builtin_prefetch(ev + size - 1);
}

/* The smallest live event, or NULL when none is left or (bounded) the
 * smallest lies past limit: then it stays. One look at the top entry's key
 * decides, without a separate peek: the schedulers' bounded batches paid
 * a peek and a pop per event (43 instructions an event of a 2-rank
 * fat-tree run in the peek alone). Inlined twice, so that the unbounded
 * pop tests nothing more. */
static inline __attribute__((always_inline)) warp_event *pop_live(warp_ctx *w, bool bounded, double limit)
{
    warp_queue *q = &w->queue;
    if (q->kind == QUEUE_SPLAY) {
        if (bounded) {
            warp_event *e = queue_peek(w);
            if (!e || e->ts > limit)
                return NULL;
        }
        return splay_pop(q);
    }
    if (q->kind == QUEUE_LADDER)
        for (;;) {
            if (q->ri == q->rn && !q->has_front) {
                if (q->n >= q->sort_at)
                    near_sort(q);
                else if (!q->n && !ladder_advance(q))
                    return NULL;
            }
            if (bounded && key_ts(near_top(q)->key) > limit)
                return NULL;
            q->pops++;
            warp_event *e = near_pop(q);
            if (e->state != EV_DEAD)
                return e;
            pool_put(w, e);
            q->dead--;
        }
    while (q->n && !(bounded && key_ts(q->heap[0].key) > limit)) {
        warp_event *e = heap_pop(q);
        if (e->state != EV_DEAD)
            return e;
        pool_put(w, e);
        q->dead--;
    }
    return NULL;
}

warp_event *queue_pop(warp_ctx *w) { return pop_live(w, false, 0); }

warp_event *queue_pop_upto(warp_ctx *w, double limit) { return pop_live(w, true, limit); }

void queue_remove(warp_ctx *w, warp_event *e)
{
    WARP_ASSERT(e->state == EV_PENDING, "only pending events leave the queue early");
    warp_queue *q = &w->queue;
    if (q->kind != QUEUE_SPLAY) {
        e->state = EV_DEAD; /* freed when it surfaces, or by compaction */
        if (++q->dead > 1024 && q->dead > (q->n + q->rn - q->ri + q->far) / 2)
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
    if (q->ring) {
        for (size_t b = 0; b <= LADDER_NB; b++)
            chunks_free(q->ring[b].head);
        free(q->ring);
    }
    chunks_free(q->over.head);
    chunks_free(q->spare);
    free(q->run);
    free(q->tmp);
    memset(q, 0, sizeof *q);
}
