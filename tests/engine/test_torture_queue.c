/* tests/engine/test_torture_queue.c — the pending-event queue, all kinds
 * (ladder, 4-ary heap with lazy deletion, splay tree): pops follow the total key
 * (ts, depth, src, seq), and random inserts, pops and removals agree with a
 * reference kept by linear search. Drives engine/queue.c directly. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "internal.h"

/* total_lps sets the width of src in the heap's tie prefix: the tests'
 * sources are below 16. */
static warp_ctx *queue_ctx_lps(queue_kind kind, uint64_t cap, uint64_t total_lps)
{
    warp_ctx *w = calloc(1, sizeof *w);
    cr_assert_not_null(w);
    w->msg_size = 8;
    pool_init(w, cap, 0);
    queue_init(&w->queue, kind, 16, &w->pool, total_lps);
    return w;
}

static warp_ctx *queue_ctx(queue_kind kind, uint64_t cap) { return queue_ctx_lps(kind, cap, 16); }

static void queue_ctx_free(warp_ctx *w)
{
    queue_destroy(&w->queue);
    pool_destroy(w);
    free(w);
}

static warp_event *new_ev(warp_ctx *w, double ts, uint32_t depth, uint64_t src, uint64_t seq)
{
    warp_event *e = pool_get(w);
    memset(e, 0, sizeof *e);
    e->ts = ts;
    e->depth = depth;
    e->src = src;
    e->seq = seq;
    e->state = EV_NEW;
    return e;
}

/* The reference order, written out field by field (not ev_less). */
static int key_cmp(const warp_event *a, const warp_event *b)
{
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    if (a->depth != b->depth)
        return a->depth < b->depth ? -1 : 1;
    if (a->src != b->src)
        return a->src < b->src ? -1 : 1;
    if (a->seq != b->seq)
        return a->seq < b->seq ? -1 : 1;
    return 0;
}

static int key_qsort(const void *a, const void *b)
{
    return key_cmp(*(warp_event *const *)a, *(warp_event *const *)b);
}

/* Inserts ev[0 .. n) in random order, then sorts ev into the reference
 * order, which the pops must follow. */
static void insert_shuffled(warp_ctx *w, warp_event **ev, size_t n, warp_rng *r)
{
    for (size_t i = n; i > 1; i--) {
        size_t j = (size_t)warp_rng_integer(r, 0, (int64_t)i - 1);
        warp_event *x = ev[i - 1];
        ev[i - 1] = ev[j];
        ev[j] = x;
    }
    for (size_t i = 0; i < n; i++)
        queue_insert(w, ev[i]);
    qsort(ev, n, sizeof ev[0], key_qsort);
}

#define KEYF "(ts %g, depth %u, src %llu, seq %llu)"
#define KEYA(e) (e)->ts, (e)->depth, (unsigned long long)(e)->src, (unsigned long long)(e)->seq

static void ties_follow_key(queue_kind kind)
{
    static const struct { double ts; uint32_t depth; uint64_t src, seq; } keys[] = {
        {1.0, 0, 5, 0}, {1.0, 0, 5, 1}, {1.0, 1, 0, 0}, {1.0, 0, 2, 9},  {0.5, 3, 9, 9},
        {1.0, 2, 0, 0}, {2.0, 0, 0, 0}, {1.0, 0, 2, 10}, {0.0, 0, 0, 0}, {0.0, 1, 0, 0},
        {1e300, 0, 0, 0}, {5e-324, 0, 0, 0}, {1.0, 0, 0, 7}, {1.0, 1, 0, 1}, {0.5, 3, 9, 8},
    };
    enum { N = sizeof keys / sizeof keys[0] };
    warp_ctx *w = queue_ctx(kind, 64);
    warp_event *ref[N];
    for (int i = 0; i < N; i++) {
        ref[i] = new_ev(w, keys[i].ts, keys[i].depth, keys[i].src, keys[i].seq);
        queue_insert(w, ref[i]);
    }
    qsort(ref, N, sizeof ref[0], key_qsort);
    for (int i = 0; i < N; i++) {
        warp_event *p = queue_peek(w);
        warp_event *e = queue_pop(w);
        cr_assert_eq(p, e, "%s: peek and pop disagree at position %d", queue_name(kind), i);
        cr_assert_eq(e, ref[i], "%s: position %d pops " KEYF ", expected " KEYF, queue_name(kind), i,
                     KEYA(e), KEYA(ref[i]));
        pool_put(w, e);
    }
    cr_assert_null(queue_pop(w), "%s: the queue is not empty after all events popped", queue_name(kind));
    cr_assert_eq(w->pool.in_use, 0, "%s: %llu events not returned to the pool", queue_name(kind),
                 (unsigned long long)w->pool.in_use);
    queue_ctx_free(w);
}

Test(queue, heap_equal_timestamps_follow_tie_key) { ties_follow_key(QUEUE_HEAP); }
Test(queue, splay_equal_timestamps_follow_tie_key) { ties_follow_key(QUEUE_SPLAY); }
Test(queue, ladder_equal_timestamps_follow_tie_key) { ties_follow_key(QUEUE_LADDER); }

/* Random inserts (few distinct timestamps: many ties), pops and removals of
 * random pending events, checked step by step against the reference set. */
static void random_ops_match_reference(queue_kind kind, uint64_t seed)
{
    /* The pool holds every event ever made: the heap keeps removed events
     * (dead) until they surface, so live events alone do not bound it. */
    enum { OPS = 20000, CAP = 4096 };
    static const double stamps[] = {0.0, 0.25, 0.5, 1.0, 1.0000000000000002, 3.0, 1e9};
    warp_ctx *w = queue_ctx(kind, OPS);
    warp_event **live = calloc(CAP, sizeof *live);
    size_t nlive = 0;
    uint64_t seq = 0;
    warp_rng r = warp_rng_stream(seed, 99);
    for (int op = 0; op < OPS; op++) {
        int64_t what = warp_rng_integer(&r, 0, 99);
        if (what < 55 && nlive < CAP / 2) {
            warp_event *e = new_ev(w, stamps[warp_rng_integer(&r, 0, 6)],
                                   (uint32_t)warp_rng_integer(&r, 0, 2),
                                   (uint64_t)warp_rng_integer(&r, 0, 3), seq++);
            queue_insert(w, e);
            live[nlive++] = e;
        } else if (what < 68 && nlive) {
            /* A bounded pop: the smallest event if it is at or below the
             * limit, else nothing, and the queue unchanged. */
            static const double limits[] = {-1.0, 0.0, 0.3, 1.0, 2.0, 1e9, 1e300};
            double limit = limits[warp_rng_integer(&r, 0, 6)];
            size_t best = 0;
            for (size_t i = 1; i < nlive; i++)
                if (key_cmp(live[i], live[best]) < 0)
                    best = i;
            warp_event *e = queue_pop_upto(w, limit);
            if (live[best]->ts > limit) {
                cr_assert_null(e, "%s seed %llu op %d: pop up to %g returns " KEYF, queue_name(kind),
                               (unsigned long long)seed, op, limit, KEYA(e));
                continue;
            }
            cr_assert_eq(e, live[best], "%s seed %llu op %d: pop up to %g returns %p, expected " KEYF,
                         queue_name(kind), (unsigned long long)seed, op, limit, (void *)e, KEYA(live[best]));
            live[best] = live[--nlive];
            pool_put(w, e);
        } else if (what < 80 || nlive == 0) {
            size_t best = 0;
            for (size_t i = 1; i < nlive; i++)
                if (key_cmp(live[i], live[best]) < 0)
                    best = i;
            warp_event *p = queue_peek(w);
            warp_event *e = queue_pop(w);
            cr_assert_eq(p, e, "%s seed %llu op %d: peek and pop disagree", queue_name(kind),
                         (unsigned long long)seed, op);
            if (!nlive) {
                cr_assert_null(e, "%s seed %llu op %d: pop of an empty queue returns an event",
                               queue_name(kind), (unsigned long long)seed, op);
                continue;
            }
            cr_assert_not_null(e, "%s seed %llu op %d: pop returns nothing with %zu pending",
                               queue_name(kind), (unsigned long long)seed, op, nlive);
            cr_assert_eq(e, live[best], "%s seed %llu op %d: pops " KEYF ", expected " KEYF,
                         queue_name(kind), (unsigned long long)seed, op, KEYA(e), KEYA(live[best]));
            live[best] = live[--nlive];
            pool_put(w, e);
        } else {
            size_t i = (size_t)warp_rng_integer(&r, 0, (int64_t)nlive - 1);
            queue_remove(w, live[i]);
            live[i] = live[--nlive];
        }
    }
    while (nlive) {
        size_t best = 0;
        for (size_t i = 1; i < nlive; i++)
            if (key_cmp(live[i], live[best]) < 0)
                best = i;
        warp_event *e = queue_pop(w);
        cr_assert_eq(e, live[best], "%s seed %llu drain: wrong event", queue_name(kind),
                     (unsigned long long)seed);
        live[best] = live[--nlive];
        pool_put(w, e);
    }
    cr_assert_null(queue_pop(w), "%s seed %llu: removed events came back", queue_name(kind),
                   (unsigned long long)seed);
    cr_assert_eq(w->pool.in_use, 0, "%s seed %llu: %llu removed events never returned to the pool",
                 queue_name(kind), (unsigned long long)seed, (unsigned long long)w->pool.in_use);
    free(live);
    queue_ctx_free(w);
}

Test(queue, heap_random_inserts_pops_removes_match_reference)
{
    for (uint64_t s = 1; s <= 4; s++)
        random_ops_match_reference(QUEUE_HEAP, s);
}

Test(queue, splay_random_inserts_pops_removes_match_reference)
{
    for (uint64_t s = 1; s <= 4; s++)
        random_ops_match_reference(QUEUE_SPLAY, s);
}

Test(queue, ladder_random_inserts_pops_removes_match_reference)
{
    for (uint64_t s = 1; s <= 4; s++)
        random_ops_match_reference(QUEUE_LADDER, s);
}

/* The heap settles equal timestamps by a prefix of the tie key packed into
 * its entries (depth, then src in as many bits as total_lps needs, then
 * seq), saturating where a field does not fit. Keys at and around every
 * field's limit, for several LP counts (src squeezed out of room, seq with
 * room or none), still pop in exactly the reference order. */
static void tie_prefix_limits(uint64_t total_lps)
{
    unsigned sb = 0;
    while (sb < 64 && (total_lps >> sb))
        sb++;
    uint64_t smax = sb < 64 ? ((uint64_t)1 << sb) - 1 : UINT64_MAX;
    const uint32_t depths[] = {0, 1, 14, 15, 16, 1000};
    const uint64_t srcs[] = {0, 1, smax ? smax - 1 : 0, smax, smax + 1, UINT64_MAX};
    const uint64_t seqs[] = {0, 1, ((uint64_t)1 << 40) - 1, (uint64_t)1 << 40, ((uint64_t)1 << 50) + 1,
                             UINT64_MAX};
    enum { N = 2 * 6 * 6 * 6 };
    warp_ctx *w = queue_ctx_lps(QUEUE_HEAP, N, total_lps);
    warp_event *ref[N];
    warp_rng r = warp_rng_stream(7, total_lps);
    int n = 0;
    for (int t = 0; t < 2; t++)
        for (int d = 0; d < 6; d++)
            for (int s = 0; s < 6; s++)
                for (int q = 0; q < 6; q++)
                    ref[n++] = new_ev(w, 1.0 + t, depths[d], srcs[s], seqs[q]);
    insert_shuffled(w, ref, N, &r);
    for (int i = 0; i < N; i++) {
        warp_event *e = queue_pop(w);
        cr_assert_not_null(e);
        cr_assert_eq(key_cmp(e, ref[i]), 0, "total_lps %llu: position %d pops " KEYF ", expected " KEYF,
                     (unsigned long long)total_lps, i, KEYA(e), KEYA(ref[i]));
        pool_put(w, e);
    }
    queue_ctx_free(w);
}

Test(queue, heap_tie_prefix_limits_keep_the_order)
{
    const uint64_t lps[] = {0, 16, (uint64_t)1 << 20, ((uint64_t)1 << 45) + 3, (uint64_t)1 << 62};
    for (size_t i = 0; i < sizeof lps / sizeof lps[0]; i++)
        tie_prefix_limits(lps[i]);
}

Test(queue, parse_names_every_kind)
{
    cr_assert_eq(queue_parse("heap"), QUEUE_HEAP);
    cr_assert_eq(queue_parse("splay"), QUEUE_SPLAY);
    cr_assert_eq(queue_parse("ladder"), QUEUE_LADDER);
    cr_assert_eq(queue_parse("calendar"), -1, "an unknown queue name is accepted");
    for (int k = QUEUE_HEAP; k <= QUEUE_LADDER; k++)
        cr_assert_eq(queue_parse(queue_name((queue_kind)k)), k, "queue kind %d's name %s parses to another", k,
                     queue_name((queue_kind)k));
}

/* The ladder at the sizes where it leaves plain-heap mode (pending sets of
 * 10^5, well past its rebuild threshold): a hold model (pop the minimum,
 * schedule a successor) whose delays mix a lattice (many equal timestamps,
 * settled by the tie key), exponential spreads of two scales, far-future
 * bursts (the overflow), inserts below the last pop (rollback) and
 * removals of random pending events (dead entries in every tier and
 * compaction). Every pop is checked against a twin run through the splay
 * tree, an independent implementation, and the bulk phases against a
 * sorted copy. The twins share keys; seq is unique, so a key names its event. */
typedef struct twin {
    warp_event *a, *b; /* ladder's and splay's copy */
} twin;

/* An anti-message: a random twin leaves both queues (if still pending). */
static void twin_remove(warp_ctx *wa, warp_ctx *wb, twin *live, size_t *nlive, warp_rng *r)
{
    size_t i = (size_t)warp_rng_integer(r, 0, (int64_t)*nlive - 1);
    if (live[i].a->state == EV_PENDING) {
        queue_remove(wa, live[i].a);
        queue_remove(wb, live[i].b);
    }
    live[i] = live[--*nlive];
}

/* A new event with key (ts, depth, src, seq++) in both queues. */
static void twin_add(warp_ctx *wa, warp_ctx *wb, twin *live, size_t *nlive, uint64_t *seq, double ts,
                     uint32_t depth, uint64_t src)
{
    live[*nlive].a = new_ev(wa, ts, depth, src, *seq);
    live[*nlive].b = new_ev(wb, ts, depth, src, (*seq)++);
    queue_insert(wa, live[*nlive].a);
    queue_insert(wb, live[*nlive].b);
    ++*nlive;
}

/* Pops both queues and checks that they agree (peek too); the popped pair
 * is marked processed (the next sweep drops it). NULL when both are empty. */
static warp_event *twin_pop(warp_ctx *wa, warp_ctx *wb, const char *name, uint64_t seed, int op)
{
    warp_event *pa = queue_peek(wa);
    warp_event *e = queue_pop(wa);
    warp_event *f = queue_pop(wb);
    cr_assert_eq(pa, e, "%s seed %llu op %d: peek and pop disagree", name, (unsigned long long)seed, op);
    if (!f) {
        cr_assert_null(e, "%s seed %llu op %d: pops from an empty queue", name, (unsigned long long)seed, op);
        return NULL;
    }
    cr_assert_not_null(e, "%s seed %llu op %d: empty with events pending", name, (unsigned long long)seed, op);
    cr_assert_eq(key_cmp(e, f), 0, "%s seed %llu op %d: pops " KEYF ", expected " KEYF, name,
                 (unsigned long long)seed, op, KEYA(e), KEYA(f));
    e->state = f->state = EV_PROCESSED;
    return e;
}

/* Drops the popped twins from the list; returns how many are left. */
static size_t twin_sweep(twin *live, size_t nlive)
{
    size_t m = 0;
    for (size_t i = 0; i < nlive; i++)
        if (live[i].a->state == EV_PENDING)
            live[m++] = live[i];
    return m;
}

static void ladder_against_reference(uint64_t seed)
{
    enum { N0 = 100000, OPS = 400000, CAP = N0 + OPS + 16 };
    warp_ctx *wa = queue_ctx_lps(QUEUE_LADDER, CAP, 1024);
    warp_ctx *wb = queue_ctx_lps(QUEUE_SPLAY, CAP, 1024);
    twin *live = calloc(CAP, sizeof *live);
    warp_event **ref = calloc(CAP, sizeof *ref);
    size_t nlive = 0;
    uint64_t seq = 0;
    warp_rng r = warp_rng_stream(seed, 4242);
    double now = 0;
#define TWIN_NEW(ts_)                                                                              \
    do {                                                                                           \
        double ts__ = (ts_);                                                                       \
        uint32_t d__ = (uint32_t)warp_rng_integer(&r, 0, 2);                                       \
        twin_add(wa, wb, live, &nlive, &seq, ts__, d__, (uint64_t)warp_rng_integer(&r, 0, 1023));  \
    } while (0)
    /* Bulk: N0 events on a coarse lattice (about 40 per timestamp), drained
     * halfway against the sorted order, then refilled. */
    for (int i = 0; i < N0; i++)
        TWIN_NEW(0.125 * (double)warp_rng_integer(&r, 0, N0 / 40));
    for (size_t i = 0; i < nlive; i++)
        ref[i] = live[i].a;
    qsort(ref, nlive, sizeof ref[0], key_qsort);
    for (int i = 0; i < N0 / 2; i++) {
        warp_event *e = queue_pop(wa);
        cr_assert_eq(e, ref[i], "ladder seed %llu bulk pop %d: " KEYF ", expected " KEYF,
                     (unsigned long long)seed, i, KEYA(e), KEYA(ref[i]));
        warp_event *f = queue_pop(wb);
        cr_assert_eq(f->seq, e->seq);
        now = e->ts;
        e->state = f->state = EV_PROCESSED; /* popped: the sweeps below drop it */
    }
    /* Forget the popped ones in the twin list (their events stay out of the
     * pools' way: the pools are sized for every event ever made). */
    nlive = twin_sweep(live, nlive);
    cr_assert_eq(nlive, (size_t)(N0 - N0 / 2));
    for (int op = 0; op < OPS; op++) {
        int64_t what = warp_rng_integer(&r, 0, 999);
        if (what < 480 || nlive == 0) { /* pop and check */
            warp_event *e = twin_pop(wa, wb, "ladder", seed, op);
            if (e)
                now = e->ts;
        } else if (what < 960) { /* schedule: the hold model's successor */
            int64_t kind = warp_rng_integer(&r, 0, 99);
            double ts;
            if (kind < 40)
                ts = now + 0.125 * (double)warp_rng_integer(&r, 0, 64); /* lattice: ties */
            else if (kind < 75)
                ts = now + warp_rng_exp(&r, 2.0);
            else if (kind < 90)
                ts = now + warp_rng_exp(&r, 0.001);
            else if (kind < 97)
                ts = now + 1e6 + warp_rng_exp(&r, 1e5); /* far future */
            else
                ts = now > 1 ? now - warp_rng_unif(&r) : now; /* rollback: below the last pop */
            TWIN_NEW(ts);
        } else { /* remove a random pending event (anti-message) */
            twin_remove(wa, wb, live, &nlive, &r);
        }
        if ((op & 4095) == 0) /* sweep the popped out of the twin list */
            nlive = twin_sweep(live, nlive);
    }
    /* Drain against the sorted order of what is left. */
    size_t m = 0;
    for (size_t i = 0; i < nlive; i++)
        if (live[i].a->state == EV_PENDING)
            ref[m++] = live[i].a;
    qsort(ref, m, sizeof ref[0], key_qsort);
    for (size_t i = 0; i < m; i++) {
        warp_event *e = queue_pop(wa);
        cr_assert_eq(e, ref[i], "ladder seed %llu drain %zu: " KEYF ", expected " KEYF, (unsigned long long)seed, i,
                     KEYA(e), KEYA(ref[i]));
    }
    cr_assert_null(queue_pop(wa), "ladder seed %llu: removed events came back", (unsigned long long)seed);
#undef TWIN_NEW
    free(ref);
    free(live);
    queue_ctx_free(wa);
    queue_ctx_free(wb);
}

Test(queue, ladder_hold_model_with_ties_bursts_and_removals_matches_reference, .timeout = 120)
{
    for (uint64_t s = 1; s <= 2; s++)
        ladder_against_reference(s);
}

/* Groups equal in timestamp and tie prefix inside the ladder's buckets:
 * with total_lps = 2^62 the prefix holds the depth and src's top bits only,
 * so events of one source at one instant differ only by seq, which the
 * bucket sort cannot see. Groups of 2 to 300 such events (the sort settles
 * those up to 64 by their keys and hands a bucket with a longer one to the
 * heap) sit among 10^5 events at spread timestamps, inserted in random
 * order; every pop matches the sorted reference. */
Test(queue, ladder_long_equal_prefix_groups_pop_in_key_order)
{
    enum { SPREAD = 100000, NG = 40, CAP = SPREAD + NG * 300 };
    static const int sizes[] = {2, 24, 25, 64, 65, 300};
    warp_ctx *w = queue_ctx_lps(QUEUE_LADDER, CAP, (uint64_t)1 << 62);
    warp_event **ref = calloc(CAP, sizeof *ref);
    cr_assert_not_null(ref);
    warp_rng r = warp_rng_stream(11, 62);
    size_t n = 0;
    uint64_t seq = 0;
    for (int i = 0; i < SPREAD; i++)
        ref[n++] = new_ev(w, 1000.0 * warp_rng_unif(&r), 0, (uint64_t)warp_rng_integer(&r, 0, 4095), seq++);
    for (int g = 0; g < NG; g++) {
        double ts = 1000.0 * warp_rng_unif(&r);
        uint64_t src = (uint64_t)warp_rng_integer(&r, 0, 4095);
        for (int k = 0; k < sizes[g % 6]; k++)
            ref[n++] = new_ev(w, ts, 1, src, seq++);
    }
    insert_shuffled(w, ref, n, &r);
    for (size_t i = 0; i < n; i++) {
        warp_event *e = queue_pop(w);
        cr_assert_eq(e, ref[i], "pop %zu: " KEYF ", expected " KEYF, i, KEYA(e), KEYA(ref[i]));
    }
    cr_assert_null(queue_pop(w));
    free(ref);
    queue_ctx_free(w);
}

/* The ladder keeps an entry smaller than all of its near tier apart (the
 * front: a zero-delay successor about to run). Cancelled while there, it
 * must be freed once, whether it surfaces or a compaction (more than half
 * of what is pending cancelled) drops it first; and whatever is inserted
 * smaller still takes its place. */
Test(queue, ladder_front_entry_cancelled_and_compacted)
{
    enum { N = 3000 };
    warp_ctx *w = queue_ctx(QUEUE_LADDER, N + 16);
    warp_event *ev[N];
    for (int i = 0; i < N; i++) /* the first is the front until displaced */
        queue_insert(w, ev[i] = new_ev(w, 10.0 + i, 0, 1, (uint64_t)i));
    warp_event *lower = new_ev(w, 5.0, 0, 1, 0); /* below everything: the new front */
    queue_insert(w, lower);
    warp_event *same = new_ev(w, 5.0, 0, 2, 0); /* the same time, a larger key */
    queue_insert(w, same);
    cr_assert_eq(queue_peek(w), lower, "the smallest insert is not next");
    queue_remove(w, lower);
    for (int i = 0; i < N; i += 2) /* half and one more cancelled: compaction */
        queue_remove(w, ev[i]);
    cr_assert_eq(queue_pop(w), same);
    pool_put(w, same);
    for (int i = 1; i < N; i += 2) {
        warp_event *e = queue_pop(w);
        cr_assert_eq(e, ev[i], "pop of %d: " KEYF, i, KEYA(e));
        pool_put(w, e);
    }
    cr_assert_null(queue_pop(w));
    cr_assert_eq(w->pool.in_use, 0, "%llu events not returned to the pool (a cancelled front freed twice or never)",
                 (unsigned long long)w->pool.in_use);
    cr_assert_eq(w->queue.dead, 0, "%llu cancelled entries still counted", (unsigned long long)w->queue.dead);
    queue_ctx_free(w);
}

/* A lock-step model, the ladder's hard case: every pending event starts at
 * one instant (no width to read from the timestamps), and most pops
 * schedule a zero-delay successor one tie depth later or a hop a few
 * hundredths ahead, so whole generations land in the bucket being popped
 * (the near tier's heap, sorted into a run when it grows); the rest go a
 * serialisation time or a compute phase ahead. Random removals leave dead
 * entries in every tier. Every pop is checked against the splay twin. With
 * total_lps = 2^62 the tie prefix has no room for src, so events equal in
 * timestamp and depth are settled by the events themselves (groups longer
 * than the bucket sort takes: ladder_long_equal_prefix_groups_pop_in_key_order). */
static void lockstep_against_reference(uint64_t seed, uint64_t total_lps)
{
    enum { N0 = 40000, OPS = 300000, CAP = N0 + 2 * OPS + 16 };
    warp_ctx *wa = queue_ctx_lps(QUEUE_LADDER, CAP, total_lps);
    warp_ctx *wb = queue_ctx_lps(QUEUE_SPLAY, CAP, total_lps);
    twin *live = calloc(CAP, sizeof *live);
    size_t nlive = 0;
    uint64_t seq = 0;
    warp_rng r = warp_rng_stream(seed, 777);
#define TWIN_AT(ts_, depth_)                                                                       \
    twin_add(wa, wb, live, &nlive, &seq, (ts_), (depth_), (uint64_t)warp_rng_integer(&r, 0, 4095))
    for (int i = 0; i < N0; i++)
        TWIN_AT(100.0, 0);
    for (int op = 0; op < OPS; op++) {
        int64_t what = warp_rng_integer(&r, 0, 99);
        if (what < 97 || nlive == 0) {
            warp_event *e = twin_pop(wa, wb, total_lps > 4096 ? "lock-step, src past the prefix" : "lock-step", seed, op);
            if (!e)
                break;
            double now = e->ts;
            uint32_t depth = e->depth;
            int64_t kind = warp_rng_integer(&r, 0, 99);
            if (kind < 30) /* zero delay: the next generation, same instant */
                TWIN_AT(now, depth + 1);
            else if (kind < 70) /* router and link hops */
                TWIN_AT(now + 0.03 * (double)warp_rng_integer(&r, 1, 3), 0);
            else if (kind < 95) /* a packet's serialisation */
                TWIN_AT(now + 0.688, 0);
            else if (kind < 98) /* the next compute phase: lock-step again */
                TWIN_AT(floor(now) + 1.0, 0);
            if (kind % 8 == 0 && kind < 30) /* a second child now and then */
                TWIN_AT(now, depth + 1);
        } else { /* remove a random pending event (anti-message) */
            twin_remove(wa, wb, live, &nlive, &r);
        }
        if ((op & 4095) == 0) /* sweep the popped out of the twin list */
            nlive = twin_sweep(live, nlive);
    }
    for (;;) { /* drain */
        warp_event *e = queue_pop(wa);
        warp_event *f = queue_pop(wb);
        if (!f) {
            cr_assert_null(e, "lock-step seed %llu: removed events came back", (unsigned long long)seed);
            break;
        }
        cr_assert_not_null(e, "lock-step seed %llu drain: empty with events pending", (unsigned long long)seed);
        cr_assert_eq(key_cmp(e, f), 0, "lock-step seed %llu drain: " KEYF ", expected " KEYF,
                     (unsigned long long)seed, KEYA(e), KEYA(f));
    }
#undef TWIN_AT
    free(live);
    queue_ctx_free(wa);
    queue_ctx_free(wb);
}

Test(queue, ladder_lockstep_generations_in_the_current_bucket_match_reference, .timeout = 120)
{
    lockstep_against_reference(1, 4096);
    lockstep_against_reference(2, 4096);
    lockstep_against_reference(3, (uint64_t)1 << 62);
}
