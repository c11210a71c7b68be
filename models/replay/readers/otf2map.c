/* otf2map.c — turns one OTF2 location's events into its rank's task graph
 * (otf2map.h). Invariant: the chain follows trace order; time outside MPI
 * regions becomes compute tasks; sender and receiver number the messages of
 * each (peer, communicator, tag) alike, so tags match exactly. Called by
 * otf2.c and by the unit tests with synthetic event lists. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/keymap.h"
#include "replay/readers/mpimap.h"
#include "replay/readers/otf2map.h"
#include "warp_error.h"

#define NONE UINT32_MAX

void o2_evbuf_push(o2_evbuf *b, const o2_event *e)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 256;
        b->ev = warp_xrealloc(b->ev, (size_t)b->cap * sizeof *b->ev);
    }
    b->ev[b->n++] = *e;
}

/* ---- mapper state -------------------------------------------------------------- */

typedef struct mapper {
    const o2_map_ctx *c;
    const o2_evbuf *b;
    replay_rank *r;
    replay_chain chain;
    replay_keymap seq_send, seq_recv, coll_seq;
    replay_keymap isend; /* req -> data task + 1 (0: eager, nothing to wait for) */
    replay_keymap irecv; /* req -> (src << 32 | wire tag) + 1 of the posted receive */
    uint32_t *done_of; /* per event: index of the O2_IRECV_DONE completing a post */
    replay_err *err;
    uint32_t ev; /* current event, for messages */
} mapper;

static int fail(mapper *m, const char *what)
{
    const o2_event *e = &m->b->ev[m->ev];
    return replay_errf(m->err, "%s: rank %d, event %u (time %" PRIu64 " ticks): %s", m->c->path,
                       m->c->rank, m->ev, e->time, what);
}

static uint32_t chain_task(mapper *m, uint64_t dur, int trig, int32_t src, int32_t tag)
{
    return replay_chain_task(&m->chain, dur, trig, src, tag);
}

/* The request maps: a 64-bit key each. */
static uint64_t *map_get(replay_keymap *map, uint64_t key, int create)
{
    return replay_keymap_get(map, key, 0, create);
}

static uint64_t ticks_to_ns(uint64_t ticks, uint64_t res)
{
    return (uint64_t)((unsigned __int128)ticks * 1000000000u / res);
}

/* World rank of position `pos` in communicator comm; -1 after an error. */
static int32_t world_of(mapper *m, uint32_t comm, uint32_t pos)
{
    const uint64_t *mem;
    uint32_t n;
    int self;
    if (m->c->members(m->c->arg, comm, &mem, &n, &self))
        return fail(m, "unknown communicator"), -1;
    if (self)
        return pos == 0 ? m->c->rank : (fail(m, "peer outside MPI_COMM_SELF"), -1);
    if (pos >= n || mem[pos] >= (uint64_t)m->c->nranks)
        return fail(m, "peer rank outside its communicator or the trace"), -1;
    return (int32_t)mem[pos];
}

/* ---- point-to-point ------------------------------------------------------------- */

static int do_send(mapper *m, const o2_event *e, int blocking)
{
    int32_t dst = world_of(m, e->comm, e->peer);
    if (dst < 0)
        return -1;
    uint64_t *seq = map_get(&m->seq_send, replay_wire_key(dst, e->comm, e->tag), 1);
    int32_t wt = replay_wire_tag(e->comm, e->tag, (*seq)++);
    if (e->len <= m->c->eager_limit) {
        uint32_t t = chain_task(m, 0, 0, 0, 0);
        replay_add_msg(m->r, t, dst, e->len, wt);
        if (!blocking)
            *map_get(&m->isend, e->req, 1) = 0;
        return 0;
    }
    /* Rendezvous: the data leaves when the receiver's control message arrives. */
    if (blocking) {
        uint32_t t = chain_task(m, 0, 1, dst, wt | O2_TAG_CTRL);
        replay_add_msg(m->r, t, dst, e->len, wt);
        return 0;
    }
    uint32_t t = replay_chain_branch(&m->chain, 0, 1, dst, wt | O2_TAG_CTRL);
    replay_add_msg(m->r, t, dst, e->len, wt);
    *map_get(&m->isend, e->req, 1) = (uint64_t)t + 1;
    return 0;
}

static int do_isend_done(mapper *m, const o2_event *e)
{
    uint64_t *v = map_get(&m->isend, e->req, 0);
    if (!v || *v == UINT64_MAX)
        return fail(m, "send completion of a request no MpiIsend opened (persistent requests are not supported)");
    if (*v) {
        uint32_t w = chain_task(m, 0, 0, 0, 0);
        replay_add_dep(m->r, w, (uint32_t)(*v - 1), 0);
    }
    *v = UINT64_MAX;
    return 0;
}

/* Posts a receive of (src, comm, tag, len): control message when rendezvous.
 * Returns the wire tag, or -1. */
static int64_t post_recv(mapper *m, int32_t src, uint32_t comm, uint32_t tag, uint64_t len)
{
    uint64_t *seq = map_get(&m->seq_recv, replay_wire_key(src, comm, tag), 1);
    int32_t wt = replay_wire_tag(comm, tag, (*seq)++);
    if (len > m->c->eager_limit) {
        uint32_t t = chain_task(m, 0, 0, 0, 0);
        replay_add_msg(m->r, t, src, O2_CTRL_BYTES, wt | O2_TAG_CTRL);
    }
    return wt;
}

static int do_irecv_post(mapper *m, const o2_event *e)
{
    if (m->done_of[m->ev] == NONE)
        return fail(m, "receive request is posted but never completes in the trace; the trace is incomplete");
    const o2_event *d = &m->b->ev[m->done_of[m->ev]];
    int32_t src = world_of(m, d->comm, d->peer);
    if (src < 0)
        return -1;
    int64_t wt = post_recv(m, src, d->comm, d->tag, d->len);
    *map_get(&m->irecv, e->req, 1) = ((uint64_t)(uint32_t)src << 32 | (uint32_t)wt) + 1;
    return 0;
}

static int do_irecv_done(mapper *m, const o2_event *e)
{
    uint64_t *v = map_get(&m->irecv, e->req, 0);
    if (!v || !*v)
        return fail(m, "receive completion of a request no MpiIrecvRequest posted");
    uint64_t x = *v - 1;
    *v = 0;
    chain_task(m, 0, 1, (int32_t)(x >> 32), (int32_t)(uint32_t)x);
    return 0;
}

static int do_recv(mapper *m, const o2_event *e)
{
    int32_t src = world_of(m, e->comm, e->peer);
    if (src < 0)
        return -1;
    int64_t wt = post_recv(m, src, e->comm, e->tag, e->len);
    chain_task(m, 0, 1, src, (int32_t)wt);
    return 0;
}

/* ---- collectives ------------------------------------------------------------------ */

typedef struct members {
    const uint64_t *mem;
    int32_t self_rank; /* >= 0: MPI_COMM_SELF-like group of this rank */
} members;

static int32_t member_world(const void *arg, uint32_t pos)
{
    const members *g = arg;
    return g->self_rank >= 0 ? g->self_rank : (int32_t)g->mem[pos];
}

static int do_coll(mapper *m, const o2_event *e)
{
    members g = {.self_rank = -1};
    replay_coll k = {.world = member_world, .arg = &g};
    int self;
    if (m->c->members(m->c->arg, e->comm, &g.mem, &k.n, &self))
        return fail(m, "collective on an unknown communicator");
    if (self) {
        k.n = 1;
        k.me = 0;
        g.self_rank = m->c->rank;
    } else {
        k.me = UINT32_MAX;
        for (uint32_t i = 0; i < k.n; i++)
            if (g.mem[i] == (uint64_t)m->c->rank)
                k.me = i;
    }
    if (k.me == UINT32_MAX)
        return fail(m, "collective on a communicator this rank is not part of");
    uint64_t *cs = map_get(&m->coll_seq, e->comm, 1), seq = (*cs)++;
    k.base_tag = replay_coll_tag(e->comm, seq);
    uint32_t n = k.n;
    uint64_t sent = e->len, recvd = e->len2, per = n ? sent / n : 0;
    k.root = e->peer;
    int rooted = e->op == O2_BCAST || e->op == O2_REDUCE || e->op == O2_GATHER || e->op == O2_GATHERV ||
                 e->op == O2_SCATTER || e->op == O2_SCATTERV;
    if (rooted && k.root >= n)
        return fail(m, "collective root outside its communicator");
    if (n == 1)
        return e->op <= O2_REDUCE_SCATTER_BLOCK ? 0 : fail(m, "unsupported collective operation");
    /* Payload per message from Score-P's byte counts (docs/trace-format.md). */
    switch (e->op) {
    case O2_BARRIER: k.alg = REPLAY_COLL_ALLREDUCE, k.bytes = 0; break;
    case O2_ALLREDUCE: k.alg = REPLAY_COLL_ALLREDUCE, k.bytes = per; break;
    case O2_BCAST: k.alg = REPLAY_COLL_BCAST, k.bytes = recvd; break;
    case O2_REDUCE: k.alg = REPLAY_COLL_REDUCE, k.bytes = sent; break;
    case O2_GATHER:
    case O2_GATHERV: k.alg = REPLAY_COLL_GATHER, k.bytes = sent; break;
    case O2_SCATTER:
    case O2_SCATTERV: k.alg = REPLAY_COLL_SCATTER, k.bytes = per; break;
    case O2_ALLGATHER:
    case O2_ALLGATHERV: k.alg = REPLAY_COLL_RING, k.bytes = per; break;
    case O2_REDUCE_SCATTER:
    case O2_REDUCE_SCATTER_BLOCK: k.alg = REPLAY_COLL_RING, k.bytes = recvd; break;
    case O2_ALLTOALL:
    case O2_ALLTOALLV:
    case O2_ALLTOALLW: k.alg = REPLAY_COLL_ALLTOALL, k.bytes = per; break;
    case O2_SCAN:
    case O2_EXSCAN: k.alg = REPLAY_COLL_SCAN, k.bytes = sent; break;
    default: {
        char what[120];
        snprintf(what, sizeof what, "collective operation %u (OTF2_CollectiveOp) is not supported; "
                 "only MPI collectives 0..16 are", e->op);
        return fail(m, what);
    }
    }
    /* the operations coll.h has, with their sizes as it counts them */
    int op = -1;
    uint64_t bytes = k.bytes;
    switch (e->op) {
    case O2_ALLREDUCE: op = COLL_ALLREDUCE; break;
    case O2_BCAST: op = COLL_BCAST; break;
    case O2_REDUCE: op = COLL_REDUCE; break;
    case O2_ALLGATHER:
    case O2_ALLGATHERV: op = COLL_ALLGATHER, bytes = k.bytes * n; break;
    case O2_REDUCE_SCATTER:
    case O2_REDUCE_SCATTER_BLOCK: op = COLL_REDUCE_SCATTER, bytes = k.bytes * n; break;
    case O2_ALLTOALL:
    case O2_ALLTOALLV:
    case O2_ALLTOALLW: op = COLL_ALLTOALL, bytes = k.bytes * n; break;
    default: break;
    }
    char place[300];
    snprintf(place, sizeof place, "%s: rank %d, event %u", m->c->path, m->c->rank, m->ev);
    return replay_coll_expand_as(&m->chain, &k, m->c->coll, op, bytes, e->comm, seq, place, m->err);
}

/* ---- driver ---------------------------------------------------------------------- */

/* Links each receive post to the completion with the same request id. */
static void link_requests(mapper *m)
{
    const o2_evbuf *b = m->b;
    replay_keymap open = {0};
    m->done_of = warp_xcalloc(b->n, sizeof *m->done_of);
    for (uint32_t i = 0; i < b->n; i++) {
        m->done_of[i] = NONE;
        const o2_event *e = &b->ev[i];
        if (e->kind == O2_IRECV_POST) {
            *map_get(&open, e->req, 1) = (uint64_t)i + 1;
        } else if (e->kind == O2_IRECV_DONE) {
            uint64_t *v = map_get(&open, e->req, 0);
            if (v && *v) {
                m->done_of[*v - 1] = i;
                *v = 0;
            }
        }
    }
    replay_keymap_free(&open);
}

int o2_map_events(const o2_map_ctx *ctx, const o2_evbuf *b, replay_rank *out, replay_err *err)
{
    mapper m = {.c = ctx, .b = b, .r = out, .chain = {out, REPLAY_CHAIN_EMPTY}, .err = err};
    replay_rank_begin(out, ctx->rank);
    link_requests(&m);
    uint64_t pending = 0, last = b->n ? b->ev[0].time : 0;
    int depth = 0, rc = 0;
    for (uint32_t i = 0; i < b->n && !rc; i++) {
        const o2_event *e = &b->ev[i];
        m.ev = i;
        if (e->time < last) {
            rc = fail(&m, "timestamps go backwards; the trace is corrupt");
            break;
        }
        if (depth == 0)
            pending += e->time - last;
        last = e->time;
        switch (e->kind) {
        case O2_ENTER_MPI:
            if (depth++ == 0 && pending) {
                chain_task(&m, ticks_to_ns(pending, ctx->timer_res), 0, 0, 0);
                pending = 0;
            }
            break;
        case O2_LEAVE_MPI:
            if (depth == 0)
                rc = fail(&m, "leave of an MPI region that was not entered");
            else
                depth--;
            break;
        case O2_SEND: rc = do_send(&m, e, 1); break;
        case O2_ISEND: rc = do_send(&m, e, 0); break;
        case O2_ISEND_DONE: rc = do_isend_done(&m, e); break;
        case O2_IRECV_POST: rc = do_irecv_post(&m, e); break;
        case O2_IRECV_DONE: rc = do_irecv_done(&m, e); break;
        case O2_RECV: rc = do_recv(&m, e); break;
        case O2_COLL: rc = do_coll(&m, e); break;
        case O2_CANCELLED: rc = fail(&m, "cancelled MPI requests cannot be replayed"); break;
        default: break;
        }
    }
    if (!rc && pending)
        chain_task(&m, ticks_to_ns(pending, ctx->timer_res), 0, 0, 0);
    free(m.done_of);
    replay_keymap_free(&m.seq_send);
    replay_keymap_free(&m.seq_recv);
    replay_keymap_free(&m.coll_seq);
    replay_keymap_free(&m.isend);
    replay_keymap_free(&m.irecv);
    if (!rc)
        rc = replay_rank_end(out, ctx->path, err);
    if (rc)
        replay_rank_free(out);
    return rc;
}
