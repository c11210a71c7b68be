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

/* ---- 4-ary heap of (ts, event): the ts copy keeps most comparisons inside
 * the heap array, off the events themselves. */

static inline bool ent_less(const heap_ent *a, const heap_ent *b)
{
    if (a->ts != b->ts)
        return a->ts < b->ts;
    return ev_less(a->ev, b->ev);
}

static void heap_place(warp_queue *q, size_t i, heap_ent x)
{
    q->heap[i] = x;
    x.ev->q.qpos = (uint32_t)i;
}

static void heap_up(warp_queue *q, size_t i, heap_ent x)
{
    while (i > 0) {
        size_t parent = (i - 1) / 4;
        if (!ent_less(&x, &q->heap[parent]))
            break;
        heap_place(q, i, q->heap[parent]);
        i = parent;
    }
    heap_place(q, i, x);
}

static void heap_down(warp_queue *q, size_t i, heap_ent x)
{
    size_t n = q->n;
    for (;;) {
        size_t c = 4 * i + 1;
        if (c >= n)
            break;
        size_t best = c, last = c + 4 < n ? c + 4 : n;
        for (size_t k = c + 1; k < last; k++)
            if (ent_less(&q->heap[k], &q->heap[best]))
                best = k;
        if (!ent_less(&q->heap[best], &x))
            break;
        heap_place(q, i, q->heap[best]);
        i = best;
    }
    heap_place(q, i, x);
}

static void heap_insert(warp_queue *q, warp_event *e)
{
    if (q->n == q->cap) {
        q->cap = q->cap ? q->cap * 2 : 1024;
        q->heap = realloc(q->heap, q->cap * sizeof *q->heap);
        if (!q->heap)
            warp_fatal(WARP_EXIT_RESOURCE, "out of memory growing the pending queue to %zu events",
                       q->cap);
    }
    heap_up(q, q->n++, (heap_ent){e->ts, e});
}

static warp_event *heap_pop(warp_queue *q)
{
    if (!q->n)
        return NULL;
    warp_event *top = q->heap[0].ev;
    heap_ent last = q->heap[--q->n];
    if (q->n)
        heap_down(q, 0, last);
    return top;
}

static void heap_remove(warp_queue *q, warp_event *e)
{
    size_t i = e->q.qpos;
    WARP_ASSERT(i < q->n && q->heap[i].ev == e, "a removed event is in the heap at its slot");
    heap_ent last = q->heap[--q->n];
    if (i == q->n)
        return;
    if (i > 0 && ent_less(&last, &q->heap[(i - 1) / 4]))
        heap_up(q, i, last);
    else
        heap_down(q, i, last);
}

/* ---- top-down splay tree (Sleator & Tarjan), keyed by ev_less; keys are
 * unique, so an event is found by its own key. */

#define SL(x) ((x)->q.sp.l)
#define SR(x) ((x)->q.sp.r)

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
        if (ev_less(key, t)) {
            warp_event *c = SL(t);
            if (!c)
                break;
            if (ev_less(key, c)) { /* rotate right */
                SL(t) = SR(c);
                SR(c) = t;
                t = c;
                if (!SL(t))
                    break;
            }
            SL(r) = t; /* link right */
            r = t;
            t = SL(t);
        } else if (ev_less(t, key)) {
            warp_event *c = SR(t);
            if (!c)
                break;
            if (ev_less(c, key)) { /* rotate left */
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
        e->q.sp.l = e->q.sp.r = NULL;
    } else {
        warp_event *t = splay(q->root, e);
        if (ev_less(e, t)) {
            e->q.sp.l = t->q.sp.l;
            e->q.sp.r = t;
            t->q.sp.l = NULL;
        } else {
            e->q.sp.r = t->q.sp.r;
            e->q.sp.l = t;
            t->q.sp.r = NULL;
        }
    }
    q->root = e;
    q->n++;
}

static void splay_remove(warp_queue *q, warp_event *e)
{
    warp_event *t = splay(q->root, e);
    WARP_ASSERT(t == e, "a removed event is in the splay tree");
    if (!t->q.sp.l) {
        q->root = t->q.sp.r;
    } else {
        warp_event *x = splay(t->q.sp.l, e); /* max of the left subtree */
        x->q.sp.r = t->q.sp.r;
        q->root = x;
    }
    q->n--;
}

static warp_event *splay_pop(warp_queue *q)
{
    if (!q->root)
        return NULL;
    warp_event *t = splay_min(q->root);
    q->root = t->q.sp.r;
    q->n--;
    return t;
}

/* ---- the interface ---- */

void queue_init(warp_queue *q, queue_kind kind, size_t hint)
{
    memset(q, 0, sizeof *q);
    q->kind = kind;
    if (kind == QUEUE_HEAP) {
        q->cap = hint < 1024 ? 1024 : hint;
        q->heap = malloc(q->cap * sizeof *q->heap);
        if (!q->heap)
            warp_fatal(WARP_EXIT_RESOURCE, "out of memory for a pending queue of %zu events", q->cap);
    }
}

void queue_insert(warp_queue *q, warp_event *e)
{
    if (q->kind == QUEUE_HEAP)
        heap_insert(q, e);
    else
        splay_insert(q, e);
}

warp_event *queue_peek(warp_queue *q)
{
    if (q->kind == QUEUE_HEAP)
        return q->n ? q->heap[0].ev : NULL;
    if (!q->root)
        return NULL;
    q->root = splay_min(q->root);
    return q->root;
}

warp_event *queue_pop(warp_queue *q)
{
    return q->kind == QUEUE_HEAP ? heap_pop(q) : splay_pop(q);
}

void queue_remove(warp_queue *q, warp_event *e)
{
    if (q->kind == QUEUE_HEAP)
        heap_remove(q, e);
    else
        splay_remove(q, e);
}

void queue_destroy(warp_queue *q)
{
    free(q->heap);
    memset(q, 0, sizeof *q);
}
