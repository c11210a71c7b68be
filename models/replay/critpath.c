/* critpath.c — sequential zero-network timing of a task graph (critpath.h).
 * Invariant: events are processed in (time, creation sequence) order, so the
 * result is a pure function of the graph; a task starts only when all its
 * dependencies are met and its message (if any) has been matched.
 * Called by warpnet-trace info and by the replay tests as the oracle. */
#include <stdlib.h>
#include <string.h>

#include "replay/critpath.h"
#include "warp_error.h"

enum { EV_END, EV_ARRIVE };

typedef struct cp_event {
    uint64_t t, seq;
    int32_t type, rank;
    int32_t a, b; /* END: task; ARRIVE: src, tag */
} cp_event;

typedef struct cp_vec {
    uint32_t *v;
    uint32_t n, head, cap;
} cp_vec;

typedef struct cp_rank {
    uint32_t *left;     /* unmet dependencies per task */
    uint8_t *state;     /* bit 0 started, 1 done, 2 matched, 3 dependencies met */
    uint32_t *out_end;  /* dependants CSR: out[out_end[d] .. out_end[d+1]) */
    uint32_t *out;      /* dependant index | REPLAY_DEP_START */
    cp_vec ready;       /* FIFO of ready tasks (serialize mode) */
    cp_vec posted;      /* posted triggered tasks, in posting order */
    cp_vec unexp_src, unexp_tag; /* unexpected messages, in arrival order */
    int busy;
    uint64_t finish;
} cp_rank;

typedef struct cp_sim {
    const replay_rank *g;
    cp_rank *r;
    int32_t nranks;
    int serialize;
    cp_event *heap;
    size_t nheap, capheap;
    uint64_t seq;
    replay_timing *res;
} cp_sim;

static void vec_push(cp_vec *v, uint32_t x)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 8;
        v->v = warp_xrealloc(v->v, (size_t)v->cap * sizeof *v->v);
    }
    v->v[v->n++] = x;
}

static void vec_remove(cp_vec *v, uint32_t k)
{
    memmove(&v->v[k], &v->v[k + 1], (size_t)(v->n - k - 1) * sizeof *v->v);
    v->n--;
}

static int ev_less(const cp_event *x, const cp_event *y)
{
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

static void heap_push(cp_sim *s, cp_event e)
{
    if (s->nheap == s->capheap) {
        s->capheap = s->capheap ? 2 * s->capheap : 64;
        s->heap = warp_xrealloc(s->heap, s->capheap * sizeof *s->heap);
    }
    e.seq = s->seq++;
    size_t i = s->nheap++;
    while (i && ev_less(&e, &s->heap[(i - 1) / 2])) {
        s->heap[i] = s->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->heap[i] = e;
}

static cp_event heap_pop(cp_sim *s)
{
    cp_event top = s->heap[0], last = s->heap[--s->nheap];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= s->nheap)
            break;
        if (c + 1 < s->nheap && ev_less(&s->heap[c + 1], &s->heap[c]))
            c++;
        if (!ev_less(&s->heap[c], &last))
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    s->heap[i] = last;
    return top;
}

static int matches(const replay_task *t, int32_t src, int32_t tag)
{
    return (t->trig_src == REPLAY_ANY || t->trig_src == src) &&
           (t->trig_tag == REPLAY_ANY || t->trig_tag == tag);
}

static void start_task(cp_sim *s, int32_t rank, uint32_t i, uint64_t now);

static void make_ready(cp_sim *s, int32_t rank, uint32_t i, uint64_t now)
{
    cp_rank *r = &s->r[rank];
    if (!s->serialize || (s->g[rank].tasks[i].flags & REPLAY_WAIT)) { /* a wait needs no CPU */
        start_task(s, rank, i, now);
        return;
    }
    vec_push(&r->ready, i);
    if (!r->busy) {
        uint32_t next = r->ready.v[r->ready.head++];
        start_task(s, rank, next, now);
    }
}

/* All dependencies of task i are met: post its receive or make it ready. */
static void deps_met(cp_sim *s, int32_t rank, uint32_t i, uint64_t now)
{
    const replay_task *t = &s->g[rank].tasks[i];
    cp_rank *r = &s->r[rank];
    r->state[i] |= 8;
    if (!(t->flags & REPLAY_TRIGGERED) || (r->state[i] & 4)) {
        make_ready(s, rank, i, now);
        return;
    }
    for (uint32_t k = 0; k < r->unexp_src.n; k++)
        if (matches(t, (int32_t)r->unexp_src.v[k], (int32_t)r->unexp_tag.v[k])) {
            vec_remove(&r->unexp_src, k);
            vec_remove(&r->unexp_tag, k);
            r->state[i] |= 4;
            make_ready(s, rank, i, now);
            return;
        }
    vec_push(&r->posted, i);
}

static void release(cp_sim *s, int32_t rank, uint32_t i, int started_only, uint64_t now)
{
    cp_rank *r = &s->r[rank];
    for (uint32_t k = r->out_end[i]; k < r->out_end[i + 1]; k++) {
        uint32_t w = r->out[k];
        if (((w & REPLAY_DEP_START) != 0) != started_only)
            continue;
        uint32_t j = REPLAY_DEP_INDEX(w);
        if (--r->left[j] == 0)
            deps_met(s, rank, j, now);
    }
}

static void start_task(cp_sim *s, int32_t rank, uint32_t i, uint64_t now)
{
    const replay_rank *g = &s->g[rank];
    cp_rank *r = &s->r[rank];
    int wait = (g->tasks[i].flags & REPLAY_WAIT) != 0;
    r->busy |= !wait;
    r->state[i] |= 1;
    for (uint32_t k = replay_msg_begin(g, i); k < g->tasks[i].msg_end; k++) {
        const replay_msg *m = &g->msgs[k];
        if (m->dst < 0 || m->dst >= s->nranks) {
            s->res->msgs_bad_dst++;
            continue;
        }
        heap_push(s, (cp_event){.t = now, .type = EV_ARRIVE, .rank = m->dst, .a = rank, .b = m->tag});
    }
    heap_push(s, (cp_event){.t = now + g->tasks[i].dur_ns, .type = EV_END, .rank = rank, .a = (int32_t)i});
    release(s, rank, i, 1, now);
}

static void on_end(cp_sim *s, int32_t rank, uint32_t i, uint64_t now)
{
    cp_rank *r = &s->r[rank];
    r->state[i] |= 2;
    s->res->tasks_done++;
    if (now > r->finish)
        r->finish = now;
    /* TraceR's order: free the CPU, queue newly ready dependants, then run
     * the oldest ready task (the replay LP does the same). A wait held no CPU. */
    if (!(s->g[rank].tasks[i].flags & REPLAY_WAIT))
        r->busy = 0;
    release(s, rank, i, 0, now);
    if (s->serialize && !r->busy && r->ready.head < r->ready.n)
        start_task(s, rank, r->ready.v[r->ready.head++], now);
}

static void on_arrive(cp_sim *s, int32_t rank, int32_t src, int32_t tag, uint64_t now)
{
    cp_rank *r = &s->r[rank];
    const replay_rank *g = &s->g[rank];
    for (uint32_t k = 0; k < r->posted.n; k++) {
        uint32_t i = r->posted.v[k];
        if (matches(&g->tasks[i], src, tag)) {
            vec_remove(&r->posted, k);
            r->state[i] |= 4;
            make_ready(s, rank, i, now);
            return;
        }
    }
    vec_push(&r->unexp_src, (uint32_t)src);
    vec_push(&r->unexp_tag, (uint32_t)tag);
}

static void setup_rank(cp_rank *r, const replay_rank *g)
{
    uint32_t n = g->ntasks;
    r->left = warp_xcalloc(n, sizeof *r->left);
    r->state = warp_xcalloc(n, 1);
    replay_rank_dependants(g, &r->out_end, &r->out);
    for (uint32_t i = 0; i < n; i++)
        r->left[i] = g->tasks[i].dep_end - replay_dep_begin(g, i);
}

static void free_rank(cp_rank *r)
{
    free(r->left);
    free(r->state);
    free(r->out_end);
    free(r->out);
    free(r->ready.v);
    free(r->posted.v);
    free(r->unexp_src.v);
    free(r->unexp_tag.v);
}

void replay_timing_run(const replay_rank *ranks, int32_t nranks, int serialize,
                       replay_timing *out, uint64_t *rank_finish)
{
    memset(out, 0, sizeof *out);
    cp_sim s = {.g = ranks, .nranks = nranks, .serialize = serialize, .res = out};
    s.r = warp_xcalloc((size_t)nranks, sizeof *s.r);
    for (int32_t q = 0; q < nranks; q++)
        setup_rank(&s.r[q], &ranks[q]);
    for (int32_t q = 0; q < nranks; q++)
        for (uint32_t i = 0; i < ranks[q].ntasks; i++)
            if (s.r[q].left[i] == 0 && !(s.r[q].state[i] & 8))
                deps_met(&s, q, i, 0);
    while (s.nheap) {
        cp_event e = heap_pop(&s);
        if (e.type == EV_END)
            on_end(&s, e.rank, (uint32_t)e.a, e.t);
        else
            on_arrive(&s, e.rank, e.a, e.b, e.t);
    }
    for (int32_t q = 0; q < nranks; q++) {
        uint64_t total = ranks[q].ntasks;
        out->msgs_unmatched += s.r[q].unexp_src.n;
        if (s.r[q].finish > out->finish_ns)
            out->finish_ns = s.r[q].finish;
        if (rank_finish)
            rank_finish[q] = s.r[q].finish;
        for (uint32_t i = 0; i < total; i++)
            if (!(s.r[q].state[i] & 2))
                out->tasks_stuck++;
        free_rank(&s.r[q]);
    }
    free(s.r);
    free(s.heap);
}
