/* otf2map.c — turns one OTF2 location's events into its rank's task graph
 * (otf2map.h). Invariant: the chain follows trace order; time outside MPI
 * regions becomes compute tasks; sender and receiver number the messages of
 * each (peer, communicator, tag) alike, so tags match exactly. Called by
 * otf2.c and by the unit tests with synthetic event lists. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- a small u64 -> u64 hash map ------------------------------------------- */

typedef struct u64map {
    uint64_t *key, *val;
    uint8_t *used;
    size_t cap, n;
} u64map;

static size_t slot(const u64map *m, uint64_t k)
{
    uint64_t h = k * 0x9e3779b97f4a7c15u;
    size_t i = (size_t)(h ^ (h >> 29)) & (m->cap - 1);
    while (m->used[i] && m->key[i] != k)
        i = (i + 1) & (m->cap - 1);
    return i;
}

static uint64_t *map_get(u64map *m, uint64_t k, int create)
{
    if (create && 2 * (m->n + 1) > m->cap) {
        u64map g = {.cap = m->cap ? 2 * m->cap : 64};
        g.key = warp_xcalloc(g.cap, sizeof *g.key);
        g.val = warp_xcalloc(g.cap, sizeof *g.val);
        g.used = warp_xcalloc(g.cap, 1);
        for (size_t i = 0; i < m->cap; i++)
            if (m->used[i]) {
                size_t j = slot(&g, m->key[i]);
                g.used[j] = 1;
                g.key[j] = m->key[i];
                g.val[j] = m->val[i];
            }
        g.n = m->n;
        free(m->key);
        free(m->val);
        free(m->used);
        *m = g;
    }
    if (!m->cap)
        return NULL;
    size_t i = slot(m, k);
    if (!m->used[i]) {
        if (!create)
            return NULL;
        m->used[i] = 1;
        m->key[i] = k;
        m->val[i] = 0;
        m->n++;
    }
    return &m->val[i];
}

/* Deletion by marking the value; keys stay (maps here are per load). */
static void map_free(u64map *m)
{
    free(m->key);
    free(m->val);
    free(m->used);
}

/* ---- mapper state -------------------------------------------------------------- */

typedef struct mapper {
    const o2_map_ctx *c;
    const o2_evbuf *b;
    replay_rank *r;
    uint32_t chain;
    u64map seq_send, seq_recv, coll_seq;
    u64map isend;  /* req -> data task + 1 (0: eager, nothing to wait for) */
    u64map irecv;  /* req -> (src << 32 | wire tag) + 1 of the posted receive */
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
    uint32_t t = replay_add_task(m->r, dur, trig ? REPLAY_TRIGGERED : 0, src, tag);
    if (m->chain != NONE)
        replay_add_dep(m->r, t, m->chain, 0);
    m->chain = t;
    return t;
}

static uint64_t ticks_to_ns(uint64_t ticks, uint64_t res)
{
    return (uint64_t)((unsigned __int128)ticks * 1000000000u / res);
}

static int32_t wire(uint32_t comm, uint32_t tag, uint64_t seq)
{
    return (int32_t)(((comm & 31u) << 24) | ((tag & 0xffffu) << 8) | (uint32_t)(seq & 0xffu));
}

static uint64_t seq_key(int32_t peer, uint32_t comm, uint32_t tag)
{
    return (uint64_t)(uint32_t)peer | (uint64_t)(comm & 31u) << 32 | (uint64_t)(tag & 0xffffu) << 37;
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
    uint64_t *seq = map_get(&m->seq_send, seq_key(dst, e->comm, e->tag), 1);
    int32_t wt = wire(e->comm, e->tag, (*seq)++);
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
    uint32_t t = replay_add_task(m->r, 0, REPLAY_TRIGGERED, dst, wt | O2_TAG_CTRL);
    if (m->chain != NONE)
        replay_add_dep(m->r, t, m->chain, 0);
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
    uint64_t *seq = map_get(&m->seq_recv, seq_key(src, comm, tag), 1);
    int32_t wt = wire(comm, tag, (*seq)++);
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

typedef struct coll {
    mapper *m;
    const uint64_t *mem;
    uint32_t n, me;
    int32_t base;
    int self;
} coll;

static int32_t cworld(const coll *c, uint32_t pos)
{
    return c->self ? c->m->c->rank : (int32_t)c->mem[pos];
}

static void csend(coll *c, uint32_t pos, uint64_t bytes, uint32_t round)
{
    uint32_t t = chain_task(c->m, 0, 0, 0, 0);
    replay_add_msg(c->m->r, t, cworld(c, pos), bytes, c->base | (int32_t)(round & 0xffu));
}

static void crecv(coll *c, uint32_t pos, uint32_t round)
{
    chain_task(c->m, 0, 1, cworld(c, pos), c->base | (int32_t)(round & 0xffu));
}

/* Binomial tree broadcast from root (positions relative to root). */
static void bcast_tree(coll *c, uint32_t root, uint64_t p, uint32_t round)
{
    uint32_t n = c->n, vr = (c->me + n - root) % n, mask = 1;
    while (mask < n) {
        if (vr & mask) {
            crecv(c, (vr - mask + root) % n, round);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n)
            csend(c, (vr + mask + root) % n, p, round);
}

/* Binomial tree reduction to root. */
static void reduce_tree(coll *c, uint32_t root, uint64_t p, uint32_t round)
{
    uint32_t n = c->n, vr = (c->me + n - root) % n;
    for (uint32_t mask = 1; mask < n; mask <<= 1) {
        if (!(vr & mask)) {
            if ((vr | mask) < n)
                crecv(c, ((vr | mask) + root) % n, round);
        } else {
            csend(c, ((vr & ~mask) + root) % n, p, round);
            break;
        }
    }
}

static void allreduce(coll *c, uint64_t p)
{
    uint32_t n = c->n;
    if ((n & (n - 1)) == 0) {
        for (uint32_t k = 0; (1u << k) < n; k++) {
            csend(c, c->me ^ (1u << k), p, 16 + k);
            crecv(c, c->me ^ (1u << k), 16 + k);
        }
        return;
    }
    reduce_tree(c, 0, p, 1);
    bcast_tree(c, 0, p, 2);
}

/* n - 1 steps: send to the right, receive from the left. */
static void ring(coll *c, uint64_t p)
{
    for (uint32_t s = 0; s + 1 < c->n; s++) {
        csend(c, (c->me + 1) % c->n, p, s);
        crecv(c, (c->me + c->n - 1) % c->n, s);
    }
}

static int do_coll(mapper *m, const o2_event *e)
{
    coll c = {.m = m};
    if (m->c->members(m->c->arg, e->comm, &c.mem, &c.n, &c.self))
        return fail(m, "collective on an unknown communicator");
    if (c.self)
        c.n = 1;
    c.me = UINT32_MAX;
    for (uint32_t i = 0; !c.self && i < c.n; i++)
        if (c.mem[i] == (uint64_t)m->c->rank)
            c.me = i;
    if (c.self)
        c.me = 0;
    if (c.me == UINT32_MAX)
        return fail(m, "collective on a communicator this rank is not part of");
    uint64_t *cs = map_get(&m->coll_seq, e->comm, 1);
    c.base = O2_TAG_COLL | (int32_t)((e->comm & 31u) << 24) | (int32_t)(((*cs)++ & 0xffffu) << 8);
    uint32_t n = c.n, root = e->peer;
    uint64_t sent = e->len, recvd = e->len2, per = n ? sent / n : 0;
    int rooted = e->op == O2_BCAST || e->op == O2_REDUCE || e->op == O2_GATHER || e->op == O2_GATHERV ||
                 e->op == O2_SCATTER || e->op == O2_SCATTERV;
    if (rooted && root >= n)
        return fail(m, "collective root outside its communicator");
    if (n == 1)
        return e->op <= O2_REDUCE_SCATTER_BLOCK ? 0 : fail(m, "unsupported collective operation");
    /* Payload per message from Score-P's byte counts (docs/trace-format.md). */
    switch (e->op) {
    case O2_BARRIER: allreduce(&c, 0); break;
    case O2_ALLREDUCE: allreduce(&c, per); break;
    case O2_BCAST: bcast_tree(&c, root, recvd, 0); break;
    case O2_REDUCE: reduce_tree(&c, root, sent, 0); break;
    case O2_GATHER:
    case O2_GATHERV:
        if (c.me != root)
            csend(&c, root, sent, 0);
        else
            for (uint32_t i = 0; i < n; i++)
                if (i != root)
                    crecv(&c, i, 0);
        break;
    case O2_SCATTER:
    case O2_SCATTERV:
        if (c.me == root) {
            for (uint32_t i = 0; i < n; i++)
                if (i != root)
                    csend(&c, i, per, 0);
        } else {
            crecv(&c, root, 0);
        }
        break;
    case O2_ALLGATHER:
    case O2_ALLGATHERV: ring(&c, per); break;
    case O2_REDUCE_SCATTER:
    case O2_REDUCE_SCATTER_BLOCK: ring(&c, recvd); break;
    case O2_ALLTOALL:
    case O2_ALLTOALLV:
    case O2_ALLTOALLW:
        for (uint32_t k = 1; k < n; k++) {
            csend(&c, (c.me + k) % n, per, k);
            crecv(&c, (c.me + n - k) % n, k);
        }
        break;
    case O2_SCAN:
    case O2_EXSCAN:
        if (c.me > 0)
            crecv(&c, c.me - 1, 0);
        if (c.me + 1 < n)
            csend(&c, c.me + 1, sent, 0);
        break;
    default: {
        char what[120];
        snprintf(what, sizeof what, "collective operation %u (OTF2_CollectiveOp) is not supported; "
                 "only MPI collectives 0..16 are", e->op);
        return fail(m, what);
    }
    }
    return 0;
}

/* ---- driver ---------------------------------------------------------------------- */

/* Links each receive post to the completion with the same request id. */
static void link_requests(mapper *m)
{
    const o2_evbuf *b = m->b;
    u64map open = {0};
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
    map_free(&open);
}

int o2_map_events(const o2_map_ctx *ctx, const o2_evbuf *b, replay_rank *out, replay_err *err)
{
    mapper m = {.c = ctx, .b = b, .r = out, .chain = NONE, .err = err};
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
    map_free(&m.seq_send);
    map_free(&m.seq_recv);
    map_free(&m.coll_seq);
    map_free(&m.isend);
    map_free(&m.irecv);
    if (!rc)
        rc = replay_rank_end(out, ctx->path, err);
    if (rc)
        replay_rank_free(out);
    return rc;
}
