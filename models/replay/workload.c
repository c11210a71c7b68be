/* workload.c — the `replay` workload: one LP per simulated rank replays its
 * task graph with TraceR's rules (FORMATS.md §2) over the network layer.
 * Invariant: a task starts only when its dependencies are met and its message
 * matched; one task runs at a time per rank, ready tasks wait in FIFO order;
 * every write to the per-rank arrays is preceded by warp_save, and the small
 * scalar state is copied by the engine, so any event can be rolled back.
 * Each LP loads only its own rank's tasks, in init, on the PE that owns it.
 * On the loggp network the rank's CPU also pays LogGOPS overheads: a task
 * that sends ends when its last message has left (o + (s-1)O after the NIC
 * gap), and every arriving message first occupies the CPU for the cpu_ns the
 * NIC reports, as an implicit job in the same FIFO, before it can match.
 * Type built by replay_lp_type for workload_setup.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warp_error.h"
#include "replay/workload_impl.h"

enum { EV_KICK = NET_EV_WORKLOAD, EV_END, EV_SEND, EV_ACK };

enum { T_STARTED = 1, T_DONE = 2, T_MATCHED = 4, T_DEPSMET = 8 };

/* A task graph, shared by every rank of a process whose graph has the same
 * shape: equal tasks, dependencies and message sizes and tags, and peers at
 * the same offsets. With rel set, every trigger source and destination
 * (g.tasks[].trig_src, g.msgs[].dst) holds (peer - rank) mod nranks, so a
 * periodic stencil's half million ranks share 27 graphs; peer() decodes.
 * g.rank is the first rank that built it; the rank replaying is in the
 * state (rp_state.rank). */
typedef struct rp_graph {
    replay_rank g;
    uint32_t *out_end, *out; /* dependants (CSR), bit 31 = start dependency */
    uint32_t ntrig;
    int32_t job;
    int32_t rel, nranks;     /* peers relative to the rank (mod nranks) */
    uint64_t hash;
    struct rp_graph *next;   /* hash chain (rp_config.shapes) */
} rp_graph;

typedef struct rp_state {
    const rp_graph *gr;           /* NULL: idle rank */
    uint32_t *met;                /* met dependencies per task (zero at the start: the
                                     arrays stay untouched until the rank runs) */
    uint8_t *tf;                  /* T_* flags per task */
    uint32_t *ready;              /* FIFO of ready tasks (each enters once) */
    uint32_t *posted;             /* posted triggered tasks, posting order */
    int32_t *ux;                  /* unexpected messages: (src, tag, ack) triples, arrival order;
                                     ack: network rank owed a rendezvous match notice, or -1 */
    struct rp_rx *rx;             /* loggops: arrivals waiting for / done with CPU processing */
    uint32_t ready_head, ready_tail, nposted, nux, busy, done;
    uint32_t nrx, cur_task, waiting_sent, waiting_ack;
    uint32_t overflow;      /* a message found no room: reported if that event commits */
    int32_t rank;           /* the job rank this LP replays (constant; saved with the counters) */
    uint64_t sent, arrived, acks_sent, acks_got; /* motion left at the end: sent != arrived */
    double cur_start;
} rp_state;

/* An arrival's CPU job (loggops); FIFO entries >= ntasks name rx[entry - ntasks]. */
typedef struct rp_rx {
    int32_t src, tag, ack, pad;
    double cpu_ns;
} rp_rx;

typedef struct rp_out {
    const rp_graph *gr;
    double kickoff, finish;
    uint64_t tasks, compute_ns, msgs, bytes;
} rp_out;

typedef struct rp_payload { /* travels with every replay message */
    int32_t src_local, job;
} rp_payload;

typedef struct rp_user { /* EV_KICK / EV_END / EV_SEND */
    uint32_t task, k;
    double t;     /* the event's own time: commit handlers cannot ask the engine */
    double start; /* EV_END: when the task (or receive overhead) started */
} rp_user;

/* ---- the replay rules ------------------------------------------------------ */

/* A trigger source or destination of gr as rank `rank` sees it (REPLAY_ANY
 * stays itself). */
static inline int32_t peer(const rp_graph *gr, int32_t rank, int32_t v)
{
    if (!gr->rel || v < 0)
        return v;
    uint32_t x = (uint32_t)rank + (uint32_t)v; /* both below nranks < 2^31: no wrap */
    return (int32_t)(x >= (uint32_t)gr->nranks ? x - (uint32_t)gr->nranks : x);
}

static void start_task(warp_lp *lp, rp_state *s, uint32_t i);

static void push_ready(warp_lp *lp, rp_state *s, uint32_t i)
{
    warp_save(lp, &s->ready[s->ready_tail], sizeof s->ready[0]);
    s->ready[s->ready_tail++] = i;
    if (!s->busy)
        start_task(lp, s, s->ready[s->ready_head++]);
}

static int matches(const rp_state *s, const replay_task *t, int32_t src, int32_t tag)
{
    int32_t from = peer(s->gr, s->rank, t->trig_src);
    return (from == REPLAY_ANY || from == src) && (t->trig_tag == REPLAY_ANY || t->trig_tag == tag);
}

static void set_flag(warp_lp *lp, rp_state *s, uint32_t i, uint8_t f)
{
    warp_save(lp, &s->tf[i], 1);
    s->tf[i] |= f;
}

/* LogGOPS rendezvous: the sender's task ends when the receiver matches. */
static void send_ack(warp_lp *lp, rp_state *s, int32_t to)
{
    if (to >= 0) {
        s->acks_sent++;
        warp_event_send(lp, net_workload_event(lp, (uint64_t)to, 0, EV_ACK));
    }
}

static void release(warp_lp *lp, rp_state *s, uint32_t i, int started_only);
static void schedule_end(warp_lp *lp, uint32_t i, double start, double delay);

/* Dependencies of i are met: start its wait, post its receive or make it ready. */
static void deps_met(warp_lp *lp, rp_state *s, uint32_t i)
{
    const replay_task *t = &s->gr->g.tasks[i];
    set_flag(lp, s, i, T_DEPSMET);
    if (t->flags & REPLAY_WAIT) { /* a timer: it starts now and holds no CPU */
        set_flag(lp, s, i, T_STARTED);
        schedule_end(lp, i, warp_now(lp), (double)t->dur_ns);
        release(lp, s, i, 1);
        return;
    }
    if (!(t->flags & REPLAY_TRIGGERED)) {
        push_ready(lp, s, i);
        return;
    }
    for (uint32_t k = 0; k < s->nux; k++)
        if (matches(s, t, s->ux[3 * k], s->ux[3 * k + 1])) {
            send_ack(lp, s, s->ux[3 * k + 2]);
            warp_save(lp, &s->ux[3 * k], (size_t)(s->nux - k) * 3 * sizeof s->ux[0]);
            memmove(&s->ux[3 * k], &s->ux[3 * k + 3], (size_t)(s->nux - k - 1) * 3 * sizeof s->ux[0]);
            s->nux--;
            set_flag(lp, s, i, T_MATCHED);
            push_ready(lp, s, i);
            return;
        }
    warp_save(lp, &s->posted[s->nposted], sizeof s->posted[0]);
    s->posted[s->nposted++] = i;
}

static uint32_t ndeps(const replay_rank *g, uint32_t i)
{
    return g->tasks[i].dep_end - replay_dep_begin(g, i);
}

static void release(warp_lp *lp, rp_state *s, uint32_t i, int started_only)
{
    const rp_graph *gr = s->gr;
    for (uint32_t k = gr->out_end[i]; k < gr->out_end[i + 1]; k++) {
        uint32_t w = gr->out[k];
        if (((w & REPLAY_DEP_START) != 0) != started_only)
            continue;
        uint32_t j = REPLAY_DEP_INDEX(w);
        warp_save(lp, &s->met[j], sizeof s->met[j]);
        if (++s->met[j] == ndeps(&gr->g, j))
            deps_met(lp, s, j);
    }
}

static double send_cost(const rp_config *c, const replay_msg *m)
{
    return c->overhead_ns + c->per_byte_ns * (double)m->bytes;
}

static void send_msg(warp_lp *lp, rp_state *s, const replay_msg *m)
{
    s->sent++;
    const rp_config *c = net_workload_of(lp);
    const rp_job *j = &c->jobs[s->gr->job];
    rp_payload p = {.src_local = s->rank, .job = s->gr->job};
    /* The network carries at least one byte; 0-byte messages (barriers) take 1. */
    net_send(lp, j->global[peer(s->gr, s->rank, m->dst)], m->bytes ? m->bytes : 1, m->tag, &p, sizeof p);
}

static void schedule_end(warp_lp *lp, uint32_t i, double start, double delay)
{
    net_event *e = net_workload_event(lp, net_rank_of(lp), delay, EV_END);
    rp_user u = {.task = i, .t = warp_now(lp) + delay, .start = start};
    memcpy(e->u.user, &u, sizeof u);
    warp_event_send(lp, e);
}

static void start_task(warp_lp *lp, rp_state *s, uint32_t i)
{
    const rp_config *c = net_workload_of(lp);
    const replay_rank *g = &s->gr->g;
    s->busy = 1;
    if (i >= g->ntasks) { /* an arrival's receive overhead */
        schedule_end(lp, i, warp_now(lp), s->rx[i - g->ntasks].cpu_ns);
        return;
    }
    set_flag(lp, s, i, T_STARTED);
    double at = 0;
    for (uint32_t k = replay_msg_begin(g, i); k < g->tasks[i].msg_end; k++) {
        at += send_cost(c, &g->msgs[k]);
        if (at == 0) {
            send_msg(lp, s, &g->msgs[k]);
        } else {
            net_event *e = net_workload_event(lp, net_rank_of(lp), at, EV_SEND);
            rp_user u = {.task = i, .k = k};
            memcpy(e->u.user, &u, sizeof u);
            warp_event_send(lp, e);
        }
    }
    uint32_t nmsgs = g->tasks[i].msg_end - replay_msg_begin(g, i);
    if (c->loggops && nmsgs) { /* ends when the NIC has taken the last message */
        s->cur_task = i;
        s->cur_start = warp_now(lp);
        s->waiting_sent = nmsgs;
        s->waiting_ack = 0; /* ... and the receivers matched every rendezvous one */
        for (uint32_t k = replay_msg_begin(g, i); k < g->tasks[i].msg_end; k++)
            s->waiting_ack += g->msgs[k].bytes > c->loggp_S;
    } else {
        schedule_end(lp, i, warp_now(lp), at + (double)g->tasks[i].dur_ns);
    }
    release(lp, s, i, 1);
}

static void on_arrive(warp_lp *lp, rp_state *s, int32_t src, int32_t tag, int32_t ack);

static void on_end(warp_lp *lp, rp_state *s, uint32_t i)
{
    if (i >= s->gr->g.ntasks) { /* receive overhead paid: now the message can match */
        s->busy = 0;
        const rp_rx *x = &s->rx[i - s->gr->g.ntasks];
        on_arrive(lp, s, x->src, x->tag, x->ack);
        if (!s->busy && s->ready_head < s->ready_tail)
            start_task(lp, s, s->ready[s->ready_head++]);
        return;
    }
    set_flag(lp, s, i, T_DONE);
    s->done++;
    if (!(s->gr->g.tasks[i].flags & REPLAY_WAIT))
        s->busy = 0;
    release(lp, s, i, 0);
    if (!s->busy && s->ready_head < s->ready_tail)
        start_task(lp, s, s->ready[s->ready_head++]);
}

static void on_arrive(warp_lp *lp, rp_state *s, int32_t src, int32_t tag, int32_t ack)
{
    const replay_rank *g = &s->gr->g;
    for (uint32_t k = 0; k < s->nposted; k++) {
        uint32_t i = s->posted[k];
        if (matches(s, &g->tasks[i], src, tag)) {
            send_ack(lp, s, ack);
            warp_save(lp, &s->posted[k], (size_t)(s->nposted - k) * sizeof s->posted[0]);
            memmove(&s->posted[k], &s->posted[k + 1], (size_t)(s->nposted - k - 1) * sizeof s->posted[0]);
            s->nposted--;
            set_flag(lp, s, i, T_MATCHED);
            push_ready(lp, s, i);
            return;
        }
    }
    /* More unmatched messages than receives: only a wrong speculative path or an
     * inconsistent trace gets here; commit decides which (see rp_commit). */
    if (s->nux >= s->gr->ntrig + 1u) {
        s->overflow = 1;
        return;
    }
    warp_save(lp, &s->ux[3 * s->nux], 3 * sizeof s->ux[0]);
    s->ux[3 * s->nux] = src;
    s->ux[3 * s->nux + 1] = tag;
    s->ux[3 * s->nux + 2] = ack;
    s->nux++;
}

/* ---- LP handlers ------------------------------------------------------------ */

/* Rewrites the graph's peers as offsets from its rank (rp_graph.rel) when
 * every one is a rank of the job (or a wildcard trigger). */
static void make_relative(rp_graph *gr, int32_t nranks)
{
    replay_rank *g = &gr->g;
    gr->nranks = nranks;
    for (uint32_t i = 0; i < g->ntasks; i++)
        if (g->tasks[i].trig_src < REPLAY_ANY || g->tasks[i].trig_src >= nranks)
            return;
    for (uint32_t k = 0; k < g->nmsgs; k++)
        if (g->msgs[k].dst < 0 || g->msgs[k].dst >= nranks)
            return;
    int64_t r = g->rank;
    for (uint32_t i = 0; i < g->ntasks; i++)
        if (g->tasks[i].trig_src != REPLAY_ANY)
            g->tasks[i].trig_src = (int32_t)(((int64_t)g->tasks[i].trig_src - r + nranks) % nranks);
    for (uint32_t k = 0; k < g->nmsgs; k++)
        g->msgs[k].dst = (int32_t)(((int64_t)g->msgs[k].dst - r + nranks) % nranks);
    gr->rel = 1;
}

static uint64_t hmix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15u + (h << 6) + (h >> 2);
    return h;
}

/* A hash of everything shape_equal compares (not the padding). */
static uint64_t shape_hash(const rp_graph *gr)
{
    const replay_rank *g = &gr->g;
    uint64_t h = hmix(hmix(hmix((uint64_t)gr->job, (uint64_t)gr->rel), g->ntasks), (uint64_t)g->ndeps << 32 | g->nmsgs);
    for (uint32_t i = 0; i < g->ntasks; i++) {
        const replay_task *t = &g->tasks[i];
        h = hmix(h, t->dur_ns);
        h = hmix(h, (uint64_t)(uint32_t)t->trig_src << 32 | (uint32_t)t->trig_tag);
        h = hmix(h, (uint64_t)t->dep_end << 32 | t->msg_end);
        h = hmix(h, (uint64_t)t->flags << 16 | (uint64_t)t->cpu << 8 | t->nic);
    }
    for (uint32_t k = 0; k < g->ndeps; k++)
        h = hmix(h, g->deps[k]);
    for (uint32_t k = 0; k < g->nmsgs; k++)
        h = hmix(hmix(h, g->msgs[k].bytes), (uint64_t)(uint32_t)g->msgs[k].dst << 32 | (uint32_t)g->msgs[k].tag);
    return h;
}

static bool shape_equal(const rp_graph *a, const rp_graph *b)
{
    const replay_rank *x = &a->g, *y = &b->g;
    if (a->hash != b->hash || a->job != b->job || a->rel != b->rel || x->ntasks != y->ntasks ||
        x->ndeps != y->ndeps || x->nmsgs != y->nmsgs ||
        (x->ndeps && memcmp(x->deps, y->deps, (size_t)x->ndeps * sizeof *x->deps)))
        return false;
    for (uint32_t i = 0; i < x->ntasks; i++) {
        const replay_task *s = &x->tasks[i], *t = &y->tasks[i];
        if (s->dur_ns != t->dur_ns || s->trig_src != t->trig_src || s->trig_tag != t->trig_tag ||
            s->dep_end != t->dep_end || s->msg_end != t->msg_end || s->flags != t->flags ||
            s->cpu != t->cpu || s->nic != t->nic)
            return false;
    }
    for (uint32_t k = 0; k < x->nmsgs; k++)
        if (x->msgs[k].bytes != y->msgs[k].bytes || x->msgs[k].dst != y->msgs[k].dst ||
            x->msgs[k].tag != y->msgs[k].tag)
            return false;
    return true;
}

static void shapes_grow(rp_config *c)
{
    uint64_t cap = c->shapes_cap ? 2 * c->shapes_cap : 1024;
    rp_graph **t = warp_xcalloc(cap, sizeof *t);
    for (uint64_t b = 0; b < c->shapes_cap; b++)
        for (rp_graph *gr = c->shapes[b], *next; gr; gr = next) {
            next = gr->next;
            gr->next = t[gr->hash & (cap - 1)];
            t[gr->hash & (cap - 1)] = gr;
        }
    free(c->shapes);
    c->shapes = t;
    c->shapes_cap = cap;
}

/* The graph of job rank `local`, built from its trace and then shared with
 * the ranks of this process that have the same shape: their graphs are
 * built, compared and dropped, so a half-million-rank stencil keeps a few
 * dozen graphs instead of one per rank (memory and first-touch faults
 * proportional to the shapes, not the ranks). Init-time only. */
static const rp_graph *build_graph(rp_config *c, int32_t job, int32_t local);

static const rp_graph *load_graph(rp_config *c, int32_t job, int32_t local)
{
    rp_job *j = &c->jobs[job];
    int cls = replay_source_shape_class(j->src, local);
    const rp_graph *known = cls >= 0 ? j->shape_memo[cls] : NULL;
    if (known) {
        c->shaped_ranks++;
        c->tasks_held += known->g.ntasks;
        return known;
    }
    const rp_graph *got = build_graph(c, job, local);
    if (cls >= 0)
        j->shape_memo[cls] = got;
    return got;
}

/* load_graph's work for a rank of unknown shape: built, then shared with an
 * equal graph built before or kept as a new shape. */
static const rp_graph *build_graph(rp_config *c, int32_t job, int32_t local)
{
    warp_poll_interrupt("reading the traces");
    rp_graph *gr = warp_xcalloc(1, sizeof *gr);
    const rp_job *j = &c->jobs[job];
    replay_err err;
    if (replay_source_load(j->src, local, &gr->g, &err) ||
        replay_rank_repeat(&gr->g, j->iterations, j->trace, &err))
        warp_fatal(WARP_EXIT_USAGE, "%s", err.msg);
    if (c->tracer)
        replay_tracer_apply(c->tracer, job, &gr->g);
    gr->job = job;
    make_relative(gr, j->ranks);
    gr->hash = shape_hash(gr);
    c->shaped_ranks++;
    if (c->shapes_cap)
        for (rp_graph *o = c->shapes[gr->hash & (c->shapes_cap - 1)]; o; o = o->next)
            if (shape_equal(o, gr)) {
                replay_rank_free(&gr->g);
                free(gr);
                c->tasks_held += o->g.ntasks;
                return o;
            }
    const replay_rank *g = &gr->g;
    for (uint32_t i = 0; i < g->ntasks; i++)
        if (g->tasks[i].cpu || g->tasks[i].nic)
            warp_fatal(WARP_EXIT_USAGE, "%s: rank %d task %u uses cpu %u / nic %u: the replay runs one CPU and one NIC "
                       "per rank; remove the cpu/nic clauses or map them to 0", j->trace, local, i,
                       g->tasks[i].cpu, g->tasks[i].nic);
    replay_rank_dependants(g, &gr->out_end, &gr->out);
    for (uint32_t i = 0; i < g->ntasks; i++)
        gr->ntrig += (g->tasks[i].flags & REPLAY_TRIGGERED) != 0;
    if (c->nshapes >= c->shapes_cap)
        shapes_grow(c);
    gr->next = c->shapes[gr->hash & (c->shapes_cap - 1)];
    c->shapes[gr->hash & (c->shapes_cap - 1)] = gr;
    c->nshapes++;
    c->tasks_held += g->ntasks;
    c->graph_bytes += sizeof *gr - sizeof gr->g + replay_rank_bytes(g) + ((size_t)g->ntasks + 1 + g->ndeps) * sizeof *gr->out;
    return gr;
}

/* Zeroed, 16-byte aligned memory for a rank's progress arrays, carved
 * from large blocks (one allocation per rank was a tenth of a large
 * replay's setup, with 16 bytes of malloc header each). Freed whole by
 * replay_graphs_free. */
static void *progress_alloc(rp_config *c, size_t len)
{
    len = (len + 15) & ~(size_t)15;
    c->progress_bytes += len;
    if (len > c->block_left) {
        /* 32 MiB: at glibc's largest mmap threshold, so a fresh mapping
         * that calloc need not clear and nobody touches before the run. */
        size_t sz = len > ((size_t)32 << 20) ? len : (size_t)32 << 20;
        c->blocks = warp_xrealloc(c->blocks, (c->nblocks + 1) * sizeof *c->blocks);
        c->blocks[c->nblocks++] = c->block_cur = warp_xcalloc(1, sz);
        c->block_left = sz;
    }
    void *p = c->block_cur;
    c->block_cur += len;
    c->block_left -= len;
    return p;
}

void replay_graphs_line(const rp_config *c, FILE *f)
{
    if (!c->shaped_ranks)
        return;
    double r = (double)c->shaped_ranks, t = c->tasks_held ? (double)c->tasks_held : 1;
    fprintf(f, "replay memory (process 0): %llu ranks share %llu task graphs of %llu bytes (%.3g bytes per rank, "
               "%.3g per task); progress arrays %llu bytes (%.3g per rank, %.3g per task)\n",
            (unsigned long long)c->shaped_ranks, (unsigned long long)c->nshapes, (unsigned long long)c->graph_bytes,
            (double)c->graph_bytes / r, (double)c->graph_bytes / t, (unsigned long long)c->progress_bytes,
            (double)c->progress_bytes / r, (double)c->progress_bytes / t);
}

void replay_graphs_free(rp_config *c)
{
    for (uint64_t b = 0; b < c->shapes_cap; b++)
        for (rp_graph *gr = c->shapes[b], *next; gr; gr = next) {
            next = gr->next;
            replay_rank_free(&gr->g);
            free(gr->out_end);
            free(gr->out);
            free(gr);
        }
    free(c->shapes);
    for (size_t k = 0; k < c->nblocks; k++)
        free(c->blocks[k]);
    free(c->blocks);
    c->shapes = NULL;
    c->blocks = NULL;
    c->nshapes = c->shapes_cap = c->nblocks = c->block_left = 0;
}

/* Arrivals that may wait for the CPU at once (rx entries, which also pass
 * through the ready FIFO): one per triggered task and one over, reported as
 * an overflow; none where arrivals cost no CPU time (only LogGOPS charges
 * it), which saves a third of the progress arrays of a large replay. */
static size_t rx_slots(const rp_config *c, const rp_graph *gr)
{
    return c->loggops ? (size_t)gr->ntrig + 1 : 0;
}

/* The rank's task graph and its progress arrays, fresh: init, and a
 * restart before the checkpoint's progress is read back. False: idle rank. */
static bool rp_build(warp_lp *lp, rp_state *s, rp_out *o)
{
    /* The per-process graph table and blocks are filled here, in init. */
    rp_config *c = (rp_config *)net_workload_of(lp);
    memset(s, 0, sizeof *s);
    memset(o, 0, sizeof *o);
    uint64_t r = net_rank_of(lp);
    if (c->rank_job[r] < 0)
        return false;
    s->rank = c->rank_local[r];
    s->gr = load_graph(c, c->rank_job[r], c->rank_local[r]);
    o->gr = s->gr;
    uint32_t n = s->gr->g.ntasks;
    /* One zeroed block for the six arrays, from the process's blocks;
     * nothing is written here, so its pages are first touched when the
     * rank runs (its setup was mostly those page faults). Zeroed, as
     * checkpoints write them whole. */
    size_t t = s->gr->ntrig, nrx = rx_slots(c, s->gr), at[6], end = 0;
    const size_t len[6] = {(size_t)n * sizeof *s->met, ((size_t)n + nrx) * sizeof *s->ready,
                           nrx * sizeof *s->rx, t * sizeof *s->posted, 3 * (t + 1) * sizeof *s->ux,
                           (size_t)n};
    for (int k = 0; k < 6; k++) {
        at[k] = end;
        end = (end + len[k] + 15) & ~(size_t)15;
    }
    char *blk = progress_alloc(c, end);
    s->met = (uint32_t *)(void *)(blk + at[0]);
    s->ready = (uint32_t *)(void *)(blk + at[1]);
    s->rx = (struct rp_rx *)(void *)(blk + at[2]);
    s->posted = (uint32_t *)(void *)(blk + at[3]);
    s->ux = (int32_t *)(void *)(blk + at[4]);
    s->tf = (uint8_t *)(blk + at[5]);
    return true;
}

static void rp_init(warp_lp *lp, void *state)
{
    if (!rp_build(lp, state, warp_lp_out(lp)))
        return;
    uint64_t r = net_rank_of(lp);
    net_event *k = net_workload_event(lp, r, 0, EV_KICK);
    rp_user u = {.t = warp_now(lp)};
    memcpy(k->u.user, &u, sizeof u);
    warp_event_send(lp, k);
}

static void rp_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    rp_state *s = state;
    const net_event *e = msg;
    if (!s->gr)
        return;
    /* A send notice nobody waits for (every network but LogGOPS) changes
     * nothing: no undo record, where six of a stencil rank's dozen events in
     * flight are such notices. Every other event saves the counters (the
     * pointers before them never change while the run goes); the arrays
     * save what they change as they change it. */
    if (e->kind == NET_EV_SENT && !s->waiting_sent)
        return;
    warp_save(lp, &s->ready_head, sizeof *s - offsetof(rp_state, ready_head));
    rp_user u;
    memcpy(&u, e->u.user, sizeof u);
    switch (e->kind) {
    case EV_KICK:
        for (uint32_t i = 0; i < s->gr->g.ntasks; i++)
            if (s->met[i] == ndeps(&s->gr->g, i) && !(s->tf[i] & T_DEPSMET))
                deps_met(lp, s, i);
        break;
    case EV_END:
        on_end(lp, s, u.task);
        break;
    case EV_SEND:
        send_msg(lp, s, &s->gr->g.msgs[u.k]);
        break;
    case NET_EV_ARRIVE: {
        s->arrived++;
        rp_payload p;
        memcpy(&p, e->u.msg.payload, sizeof p);
        const rp_config *c = net_workload_of(lp);
        if (c->loggops && e->u.msg.cpu_ns > 0) {
            if (s->nrx > s->gr->ntrig) {
                s->overflow = 1;
                break;
            }
            warp_save(lp, &s->rx[s->nrx], sizeof s->rx[0]);
            s->rx[s->nrx] = (rp_rx){.src = p.src_local, .tag = (int32_t)e->u.msg.tag,
                                    .ack = e->u.msg.bytes > c->loggp_S ? (int32_t)e->u.msg.src_rank : -1,
                                    .cpu_ns = e->u.msg.cpu_ns};
            push_ready(lp, s, s->gr->g.ntasks + s->nrx++);
        } else {
            int32_t ack = c->loggops && e->u.msg.bytes > c->loggp_S ? (int32_t)e->u.msg.src_rank : -1;
            on_arrive(lp, s, p.src_local, (int32_t)e->u.msg.tag, ack);
        }
        break;
    }
    case NET_EV_SENT:
    case EV_ACK: {
        /* Only LogGOPS sends wait for these; elsewhere sends end on their own. */
        s->acks_got += e->kind == EV_ACK;
        uint32_t *w = e->kind == NET_EV_SENT ? &s->waiting_sent : &s->waiting_ack;
        if (!*w)
            break;
        if (--*w == 0 && !s->waiting_sent && !s->waiting_ack) {
            double left = s->cur_start + (double)s->gr->g.tasks[s->cur_task].dur_ns - warp_now(lp);
            schedule_end(lp, s->cur_task, s->cur_start, left > 0 ? left : 0);
        }
        break;
    }
    default:
        break;
    }
    if (s->overflow) { /* state is copied per event: this flag rolls back with it */
        s->overflow = 0;
        bits->b |= 1;
    }
}

/* What a committed slice was, for the timeline viewers. */
static replay_tl_kind task_kind(const replay_rank *g, uint32_t i)
{
    if (i >= g->ntasks)
        return REPLAY_TL_RX;
    int recv = (g->tasks[i].flags & REPLAY_TRIGGERED) != 0;
    int send = g->tasks[i].msg_end > replay_msg_begin(g, i);
    return recv ? (send ? REPLAY_TL_RECV_SEND : REPLAY_TL_RECV) : send ? REPLAY_TL_SEND : REPLAY_TL_COMPUTE;
}

static void rp_commit(warp_lp *lp, void *out, const void *msg, const warp_bits *bits)
{
    rp_out *o = out;
    const net_event *e = msg;
    if (!o->gr)
        return;
    if (bits->b & 1)
        warp_fatal(WARP_EXIT_USAGE, "%s: rank %d received more messages than it has receives; the trace is "
                   "inconsistent", ((const rp_config *)net_workload_of(lp))->jobs[o->gr->job].trace,
                   ((const rp_config *)net_workload_of(lp))->rank_local[net_rank_of(lp)]);
    rp_user u;
    memcpy(&u, e->u.user, sizeof u);
    const rp_config *c = net_workload_of(lp);
    int32_t rank = c->rank_local[net_rank_of(lp)];
    if (e->kind == EV_KICK) {
        o->kickoff = u.t;
    } else if (e->kind == NET_EV_ARRIVE && (c->tl || c->jobs[o->gr->job].cap_times || c->jobs[o->gr->job].phase_t)) {
        rp_payload p;
        memcpy(&p, e->u.msg.payload, sizeof p);
        rp_capture_note(c, o->gr->job, (int32_t)e->u.msg.tag, e->u.msg.t_send, warp_now(lp));
        rp_phase_note(c, o->gr->job, (int32_t)e->u.msg.tag, e->u.msg.t_send, warp_now(lp));
        if (c->tl && p.src_local < c->timeline_ranks && rank < c->timeline_ranks)
            replay_timeline_msg(c->tl, o->gr->job, p.src_local, rank, e->u.msg.bytes, e->u.msg.tag,
                                e->u.msg.t_send, warp_now(lp));
    } else if (e->kind == EV_END) {
        const replay_rank *g = &o->gr->g;
        if (u.t > o->finish)
            o->finish = u.t; /* the CPU's last busy moment, receive overheads included */
        if (c->tl && rank < c->timeline_ranks)
            replay_timeline_slice(c->tl, o->gr->job, rank, u.task >= g->ntasks ? u.task - g->ntasks : u.task,
                                  task_kind(g, u.task), u.start, u.t);
        if (c->timeline_f && rank < c->timeline_ranks)
            fprintf(c->timeline_f, "%d,%d,%s%u,%.3f,%.3f\n", o->gr->job, rank,
                    u.task >= g->ntasks ? "rx" : "", u.task >= g->ntasks ? u.task - g->ntasks : u.task,
                    u.start, u.t);
        if (u.task >= g->ntasks)
            return;
        o->tasks++;
        if (!(g->tasks[u.task].flags & REPLAY_WAIT))
            o->compute_ns += g->tasks[u.task].dur_ns;
        for (uint32_t k = replay_msg_begin(g, u.task); k < g->tasks[u.task].msg_end; k++) {
            o->msgs++;
            o->bytes += g->msgs[k].bytes;
        }
    }
}

/* What an unfinished rank waits on at the end: the rendezvous match of the
 * send that holds its CPU, else its oldest posted receive, else the
 * dependencies of its first unfinished task. It is still moving when a
 * task end or a NIC hand-off of its own is pending. */
static void where_blocked(const rp_state *s, const rp_config *c, rp_result *r)
{
    const replay_rank *g = &s->gr->g;
    r->moving = s->waiting_sent || (s->busy && !s->waiting_ack);
    if (s->waiting_ack) {
        r->wait_kind = RP_WAIT_ACK;
        r->wait_task = s->cur_task;
        for (uint32_t k = replay_msg_begin(g, s->cur_task); k < g->tasks[s->cur_task].msg_end; k++)
            if (g->msgs[k].bytes > c->loggp_S) {
                r->wait_src = peer(s->gr, s->rank, g->msgs[k].dst);
                break;
            }
        return;
    }
    if (s->nposted) {
        const replay_task *t = &g->tasks[s->posted[0]];
        r->wait_kind = RP_WAIT_RECV;
        r->wait_task = s->posted[0];
        r->wait_src = peer(s->gr, s->rank, t->trig_src);
        r->wait_tag = t->trig_tag;
        return;
    }
    for (uint32_t i = 0; i < g->ntasks; i++)
        if (!(s->tf[i] & T_DONE)) {
            r->wait_kind = RP_WAIT_DEPS;
            r->wait_task = i;
            r->wait_src = ndeps(g, i) - s->met[i];
            return;
        }
}

static void rp_finish(warp_lp *lp, void *state, void *out)
{
    const rp_config *c = net_workload_of(lp);
    rp_state *s = state;
    const rp_out *o = out;
    if (s->gr) {
        rp_result *r = &c->res[net_rank_of(lp)];
        *r = (rp_result){.kickoff = o->kickoff, .finish = o->finish, .tasks = o->tasks,
                         .tasks_total = s->gr->g.ntasks, .compute_ns = o->compute_ns, .msgs = o->msgs,
                         .bytes = o->bytes, .loaded = 1, .sent = s->sent, .arrived = s->arrived,
                         .acks_sent = s->acks_sent, .acks_got = s->acks_got};
        if (o->tasks < s->gr->g.ntasks)
            where_blocked(s, c, r);
    }
    /* The graph and the progress arrays are the process's (replay_graphs_free). */
    memset(s, 0, sizeof *s);
}

/* Checkpoints: the task progress lives in malloc'd arrays the engine cannot
 * see (docs/checkpoint.md); the graph itself is read again from the trace. */
#define RP_ARRAYS(s, n, t, r, X)                                                                   \
    X((s)->met, (size_t)(n) * sizeof *(s)->met)                                                    \
    X((s)->tf, (size_t)(n))                                                                        \
    X((s)->ready, ((size_t)(n) + (r)) * sizeof *(s)->ready)                                        \
    X((s)->rx, (size_t)(r) * sizeof *(s)->rx)                                                      \
    X((s)->posted, (size_t)(t) * sizeof *(s)->posted)                                              \
    X((s)->ux, 3 * ((size_t)(t) + 1) * sizeof *(s)->ux)

static void rp_ckpt_save(warp_lp *lp, const void *state, const void *out, warp_ckpt *c)
{
    const rp_state *s = state;
    if (!s->gr)
        return;
#define RP_SAVE(p, len) warp_ckpt_write(c, (p), (len));
    RP_ARRAYS(s, s->gr->g.ntasks, s->gr->ntrig, rx_slots(net_workload_of(lp), s->gr), RP_SAVE)
#undef RP_SAVE
}

static void rp_ckpt_load(warp_lp *lp, void *state, void *out, warp_ckpt *c)
{
    rp_state *s = state, saved = *s;
    rp_out *o = out, saved_out = *o;
    if (!rp_build(lp, s, o))
        return;
    /* The counters come from the checkpoint, the pointers from the build. */
    rp_state fresh = *s;
    *s = saved;
    s->gr = fresh.gr;
    s->rank = fresh.rank;
    s->met = fresh.met;
    s->tf = fresh.tf;
    s->ready = fresh.ready;
    s->rx = fresh.rx;
    s->posted = fresh.posted;
    s->ux = fresh.ux;
    *o = saved_out;
    o->gr = s->gr;
#define RP_LOAD(p, len) warp_ckpt_read(c, (p), (len));
    RP_ARRAYS(s, s->gr->g.ntasks, s->gr->ntrig, rx_slots(net_workload_of(lp), s->gr), RP_LOAD)
#undef RP_LOAD
}

static const char *rp_event_name(const void *msg)
{
    const net_event *e = msg;
    switch (e->kind) {
    case EV_KICK: return "replay-kickoff";
    case EV_END: return "replay-task-end";
    case EV_SEND: return "replay-send";
    case EV_ACK: return "replay-rendezvous-match";
    case NET_EV_ARRIVE: return "replay-arrive";
    default: return "replay-other";
    }
}

void replay_lp_type(warp_lp_type *t)
{
    *t = (warp_lp_type){.name = "replay",
                        .state_size = sizeof(rp_state),
                        .out_size = sizeof(rp_out),
                        .save = WARP_SAVE_NONE, /* rp_forward saves the counters */
                        .init = rp_init,
                        .forward = rp_forward,
                        .commit = rp_commit,
                        .finish = rp_finish,
                        .event_name = rp_event_name,
                        .ckpt_save = rp_ckpt_save,
                        .ckpt_load = rp_ckpt_load};
}
