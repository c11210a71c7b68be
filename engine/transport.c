/* engine/transport.c — remote events. Events and anti-messages to one PE
 * are packed into an aggregation buffer and sent when it fills or at the end
 * of a batch: through a shared-memory ring to a rank of this node (shm.c),
 * else with MPI_Isend to pre-posted receives. Every message
 * carries its GVT epoch and is counted per epoch on both sides (gvt.c).
 * Received events live in a table by uid so an anti-message finds its event in
 * O(1); an anti-message that overtakes its event waits as an orphan. */
#include "internal.h"

#include <math.h>
#include <stdlib.h>

#define WARP_TAG 4242
#define NRECV 8
#define WARP_SENDS_TESTED 8 /* sends in flight before their completions are tested */

enum { WIRE_EVENT = 1, WIRE_ANTI = 2 };

typedef struct wire_hdr {
    double ts;
    uint32_t depth;
    uint8_t kind;
    uint8_t epoch;
    uint16_t pad;
    uint64_t src, seq, dst, uid;
    uint64_t parent_uid; /* the sending event's uid if it came from another PE, else 0 */
} wire_hdr;

/* Events are packed into a full-size buffer per destination; what is sent
 * goes out in a copy sized to its contents (the next power of two from 1
 * KiB): a batch typically flushes a few hundred bytes per destination, and
 * hundreds of sends can be in flight behind a busy receiver, so full-size
 * buffers in flight made the memory of long runs creep up. */
struct warp_sendbuf {
    warp_sendbuf *next;
    int dest;
    int cls;
    size_t used;
    size_t off; /* waiting for a ring: the bytes already in it */
    char data[];
};

static uint64_t uid_hash(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    return x;
}

void transport_init(warp_ctx *w)
{
    warp_transport *t = &w->tr;
    memset(t, 0, sizeof *t);
    size_t rec = sizeof(wire_hdr) + w->msg_size;
    t->buf_bytes = 64 * 1024;
    if (t->buf_bytes < 4 * rec)
        t->buf_bytes = 4 * rec;
    while (t->top_class < WARP_SEND_CLASSES - 1 && ((size_t)1024 << t->top_class) < t->buf_bytes)
        t->top_class++;
    t->out = calloc((size_t)w->nranks, sizeof *t->out);
    t->pend_head = calloc((size_t)w->nranks, sizeof *t->pend_head);
    t->pend_tail = calloc((size_t)w->nranks, sizeof *t->pend_tail);
    t->pend_pes = malloc((size_t)w->nranks * sizeof *t->pend_pes);
    shm_init(w, rec);
    /* With every other rank on this node's rings, no MPI receive is posted:
     * testing one ran MPI's progress engine at every poll. */
    t->nrecv = t->shm.nin == w->nranks - 1 ? 0 : NRECV;
    t->rreq = malloc(NRECV * sizeof *t->rreq);
    t->rbuf = malloc(NRECV * sizeof *t->rbuf);
    t->rpost = calloc(NRECV, sizeof *t->rpost);
    uint64_t buckets = 1024;
    while (buckets < w->pool.work / 4) /* the reservation can be far larger */
        buckets <<= 1;
    t->table = calloc(buckets, sizeof *t->table);
    t->table_mask = buckets - 1;
    t->dirty = malloc((size_t)w->nranks * sizeof *t->dirty);
    if (!t->out || !t->rreq || !t->rbuf || !t->table || !t->dirty || !t->rpost || !t->pend_head ||
        !t->pend_tail || !t->pend_pes)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for the MPI transport on rank %d", w->rank);
    for (int i = 0; i < t->nrecv; i++) {
        t->rbuf[i] = malloc(t->buf_bytes);
        if (!t->rbuf[i])
            warp_fatal(WARP_EXIT_RESOURCE, "out of memory for receive buffers on rank %d", w->rank);
        MPI_Irecv(t->rbuf[i], (int)t->buf_bytes, MPI_BYTE, MPI_ANY_SOURCE, WARP_TAG, w->comm,
                  &t->rreq[i]);
        t->rpost[i] = t->nposted++;
    }
    /* uids: rank in the top 20 bits, a counter below. */
    t->next_uid = (uint64_t)w->rank << 44;
    t->cancelled_min = INFINITY;
    t->up = true;
}

static size_t class_bytes(const warp_transport *t, int cls)
{
    return cls >= t->top_class ? t->buf_bytes : (size_t)1024 << cls;
}

static warp_sendbuf *buf_get(warp_ctx *w, int dest, int cls)
{
    warp_transport *t = &w->tr;
    warp_sendbuf *b = t->spare[cls];
    if (b) {
        t->spare[cls] = b->next;
    } else {
        b = malloc(sizeof *b + class_bytes(t, cls));
        if (!b)
            warp_fatal(WARP_EXIT_RESOURCE, "out of memory for send buffers on rank %d", w->rank);
        b->cls = cls;
    }
    b->next = NULL;
    b->dest = dest;
    b->used = 0;
    return b;
}

static void buf_put(warp_transport *t, warp_sendbuf *b)
{
    b->next = t->spare[b->cls];
    t->spare[b->cls] = b;
}

/* b, or a copy of it in the smallest class that holds its contents. */
static warp_sendbuf *buf_shrink(warp_ctx *w, warp_sendbuf *b)
{
    warp_transport *t = &w->tr;
    int cls = 0;
    while (cls < t->top_class && class_bytes(t, cls) < b->used)
        cls++;
    if (cls == t->top_class)
        return b;
    warp_sendbuf *s = buf_get(w, b->dest, cls);
    memcpy(s->data, b->data, b->used);
    s->used = b->used;
    buf_put(t, b);
    return s;
}

/* The length of the whole records at p (of len bytes) that fit in room. */
static size_t whole_records(const warp_ctx *w, const char *p, size_t len, size_t room)
{
    size_t off = 0;
    while (off < len) {
        uint8_t kind;
        memcpy(&kind, p + off + offsetof(wire_hdr, kind), 1);
        size_t n = sizeof(wire_hdr) + (kind == WIRE_EVENT ? w->msg_size : 0);
        if (off + n > room)
            break;
        off += n;
    }
    return off;
}

/* Writes pe's waiting buffers into its ring, oldest first, as far as they
 * fit: a buffer larger than the ring goes in pieces of whole records.
 * Says whether none is left waiting. */
static bool pend_drain(warp_ctx *w, int pe)
{
    warp_transport *t = &w->tr;
    warp_sendbuf *b;
    while ((b = t->pend_head[pe])) {
        size_t left = b->used - b->off, room = shm_room(w, pe);
        size_t n = left <= room ? left : whole_records(w, b->data + b->off, left, room);
        if (!n)
            return false;
        bool put = shm_put(w, pe, b->data + b->off, n);
        WARP_ASSERT(put, "a record within the ring's room is written");
        b->off += n;
        if (b->off < b->used)
            continue;
        t->pend_head[pe] = b->next;
        buf_put(t, b);
    }
    return true;
}

/* A full ring never waits: the buffer waits for the next flush or poll,
 * behind any other of its PE's, so the stream stays in order. */
static void ring_send(warp_ctx *w, int dest, warp_sendbuf *b)
{
    warp_transport *t = &w->tr;
    if (!t->pend_head[dest] && shm_put(w, dest, b->data, b->used)) {
        buf_put(t, b);
        return;
    }
    w->cnt.ring_waits++;
    b = buf_shrink(w, b);
    b->off = 0;
    b->next = NULL;
    if (t->pend_head[dest]) {
        t->pend_tail[dest]->next = b;
    } else {
        t->pend_head[dest] = b;
        t->pend_pes[t->npend++] = dest;
    }
    t->pend_tail[dest] = b;
}

static void pend_drain_all(warp_ctx *w)
{
    warp_transport *t = &w->tr;
    int kept = 0;
    for (int i = 0; i < t->npend; i++)
        if (!pend_drain(w, t->pend_pes[i]))
            t->pend_pes[kept++] = t->pend_pes[i];
    t->npend = kept;
}

static void buf_send(warp_ctx *w, int dest)
{
    warp_transport *t = &w->tr;
    warp_sendbuf *b = t->out[dest];
    t->out[dest] = NULL;
    if (t->shm.out && t->shm.out[dest]) {
        ring_send(w, dest, b);
        return;
    }
    b = buf_shrink(w, b);
    if (t->ninfl == t->cap_infl) { /* grows to the most ever in flight, then stays */
        int cap = t->cap_infl ? 2 * t->cap_infl : 64;
        warp_sendbuf **nb = realloc(t->ifl_buf, (size_t)cap * sizeof *nb);
        if (nb)
            t->ifl_buf = nb;
        MPI_Request *nr = realloc(t->ifl_req, (size_t)cap * sizeof *nr);
        if (nr)
            t->ifl_req = nr;
        int *ni = realloc(t->ifl_idx, (size_t)cap * sizeof *ni);
        if (ni)
            t->ifl_idx = ni;
        MPI_Status *ns = realloc(t->ifl_st, (size_t)cap * sizeof *ns);
        if (ns)
            t->ifl_st = ns;
        if (!nb || !nr || !ni || !ns)
            warp_fatal(WARP_EXIT_RESOURCE, "out of memory for send requests on rank %d", w->rank);
        t->cap_infl = cap;
    }
    MPI_Isend(b->data, (int)b->used, MPI_BYTE, dest, WARP_TAG, w->comm, &t->ifl_req[t->ninfl]);
    t->ifl_buf[t->ninfl++] = b;
}

/* reserve's way when dest has no buffer or a full one. */
static __attribute__((noinline)) char *reserve_slow(warp_ctx *w, int dest, size_t len)
{
    warp_transport *t = &w->tr;
    warp_sendbuf *b = t->out[dest];
    /* A destination with a buffer being filled is listed in dirty until the
     * flush; one whose full buffer went early stays listed once (listing it
     * again overran dirty[], sized for one entry per rank). */
    bool listed = b != NULL;
    if (b && b->used + len > t->buf_bytes) {
        buf_send(w, dest);
        b = NULL;
    }
    if (!b) {
        b = t->out[dest] = buf_get(w, dest, t->top_class);
        if (!listed)
            t->dirty[t->ndirty++] = dest;
    }
    char *p = b->data + b->used;
    b->used += len;
    return p;
}

/* len bytes at the end of dest's buffer: inline, as it runs once per remote
 * send and anti-message (the call was a quarter of a send's instructions). */
static inline char *reserve(warp_ctx *w, int dest, size_t len)
{
    warp_sendbuf *b = w->tr.out[dest];
    if (__builtin_expect(!b || b->used + len > w->tr.buf_bytes, 0))
        return reserve_slow(w, dest, len);
    char *p = b->data + b->used;
    b->used += len;
    return p;
}

static uint8_t send_epoch(warp_ctx *w)
{
    warp_gvt *g = &w->gvt;
    uint64_t e = g->active ? g->round + 1 : g->round;
    w->tr.sent[e & 3]++;
    return (uint8_t)e;
}

/* GVT's red minimum is a key (gvt.c): an anti-message counts with the key
 * of the event it cancels, which is where it rolls its receiver back. */
static void note_red(warp_ctx *w, const warp_event *e)
{
    warp_gvt *g = &w->gvt;
    if (g->active && e->ts <= g->red_min.ts) {
        gvt_key k = key_of(e);
        if (key_less(&k, &g->red_min))
            g->red_min = k;
    }
}

/* Only a record kept for cancellation (keep) needs its destination: the
 * cold line before an event run final is otherwise never touched, and
 * writing it was a cache miss per remote event. A parent run final can
 * never be cancelled, so its children name no parent (doomed). */
void transport_send_event(warp_ctx *w, warp_event *e, int pe, bool keep)
{
    e->uid = w->tr.next_uid++;
    if (keep)
        EV_COLD(e)->dst_pe = pe;
    const warp_event *parent = w->sched.cur;
    uint64_t parent_uid = keep && parent && parent->remote ? parent->uid : 0;
    uint8_t epoch = send_epoch(w);
    note_red(w, e);
    /* The header's fields straight into the buffer: a header built on the
     * stack and copied whole was read back in 16-byte pieces across its
     * narrower stores, which the CPU cannot forward. */
    char *p = reserve(w, pe, sizeof(wire_hdr) + w->msg_size);
    static const uint8_t kind = WIRE_EVENT;
    static const uint16_t pad = 0; /* no byte of the buffer left unwritten */
    memcpy(p + offsetof(wire_hdr, ts), &e->ts, sizeof e->ts);
    memcpy(p + offsetof(wire_hdr, depth), &e->depth, sizeof e->depth);
    memcpy(p + offsetof(wire_hdr, kind), &kind, 1);
    memcpy(p + offsetof(wire_hdr, epoch), &epoch, 1);
    memcpy(p + offsetof(wire_hdr, pad), &pad, sizeof pad);
    memcpy(p + offsetof(wire_hdr, src), &e->src, sizeof e->src);
    memcpy(p + offsetof(wire_hdr, seq), &e->seq, sizeof e->seq);
    memcpy(p + offsetof(wire_hdr, dst), &e->dst, sizeof e->dst);
    memcpy(p + offsetof(wire_hdr, uid), &e->uid, sizeof e->uid);
    memcpy(p + offsetof(wire_hdr, parent_uid), &parent_uid, sizeof parent_uid);
    memcpy(p + sizeof(wire_hdr), EV_PAYLOAD(e), w->msg_size);
    w->cnt.remote_sent++;
}

static void table_insert(warp_transport *t, warp_event *e);

/* The record stays, as EV_CANCELLED, until GVT passes it: an event that
 * arrives as a child of a cancelled one is doomed (see receive_event). */
void transport_send_anti(warp_ctx *w, warp_event *rec)
{
    wire_hdr h = {.ts = rec->ts, .kind = WIRE_ANTI, .epoch = send_epoch(w), .uid = rec->uid};
    note_red(w, rec);
    char *p = reserve(w, EV_COLD(rec)->dst_pe, sizeof h);
    memcpy(p, &h, sizeof h);
    w->cnt.anti_sent++;
    rec->state = EV_CANCELLED;
    table_insert(&w->tr, rec);
    rec->next = w->tr.cancelled;
    w->tr.cancelled = rec;
    if (rec->ts < w->tr.cancelled_min)
        w->tr.cancelled_min = rec->ts;
}

void transport_flush(warp_ctx *w)
{
    warp_transport *t = &w->tr;
    for (int i = 0; i < t->ndirty; i++)
        if (t->out[t->dirty[i]])
            buf_send(w, t->dirty[i]);
    t->ndirty = 0;
    if (t->npend)
        pend_drain_all(w);
    /* Completed sends are collected once several are in flight: a test
     * runs MPI's progress engine (about as much work as the send itself),
     * and one per flush was a third of a 2-rank fat-tree rank's network
     * instructions. The receive tests progress sends meanwhile; waiting
     * only keeps a few small buffers out of the spare lists longer. */
    if (t->ninfl < WARP_SENDS_TESTED)
        return;
    int ndone = 0;
    MPI_Testsome(t->ninfl, t->ifl_req, &ndone, t->ifl_idx, t->ifl_st);
    if (ndone <= 0) /* MPI_UNDEFINED cannot happen: no request is null */
        return;
    for (int i = 0; i < ndone; i++) {
        buf_put(t, t->ifl_buf[t->ifl_idx[i]]);
        t->ifl_buf[t->ifl_idx[i]] = NULL;
    }
    int kept = 0;
    for (int i = 0; i < t->ninfl; i++)
        if (t->ifl_buf[i]) {
            t->ifl_buf[kept] = t->ifl_buf[i];
            t->ifl_req[kept++] = t->ifl_req[i];
        }
    t->ninfl = kept;
}

static void table_insert(warp_transport *t, warp_event *e)
{
    warp_event **slot = &t->table[uid_hash(e->uid) & t->table_mask];
    EV_COLD(e)->hnext = *slot;
    *slot = e;
}

static warp_event *table_take(warp_event **head, uint64_t uid)
{
    for (warp_event **pp = head; *pp; pp = &EV_COLD(*pp)->hnext) {
        if ((*pp)->uid == uid) {
            warp_event *e = *pp;
            *pp = EV_COLD(e)->hnext;
            return e;
        }
    }
    return NULL;
}

void remote_forget(warp_ctx *w, warp_event *e)
{
    warp_transport *t = &w->tr;
    warp_event *x = table_take(&t->table[uid_hash(e->uid) & t->table_mask], e->uid);
    WARP_ASSERT(x == e, "a committed remote event is in the remote table");
}

static warp_event *table_find(warp_transport *t, uint64_t uid)
{
    for (warp_event *e = t->table[uid_hash(uid) & t->table_mask]; e; e = EV_COLD(e)->hnext)
        if (e->uid == uid)
            return e;
    return NULL;
}

/* An event whose parent this PE has cancelled is doomed: the parent's PE
 * will roll the parent back and send an anti-message for it. Running it
 * anyway lets two ranks re-create each other's cancelled events forever at
 * one timestamp (zero-delay ping-pong: the restored state makes the same
 * sends again); so it is annihilated on arrival and its record waits in the
 * table for the anti-message. */
static bool doomed(warp_ctx *w, const wire_hdr *h)
{
    if (!h->parent_uid || !w->tr.cancelled) /* no EV_CANCELLED record: no lookup */
        return false;
    const warp_event *p = table_find(&w->tr, h->parent_uid);
    return p && p->state == EV_CANCELLED;
}

/* A record kept past GVT only makes more arrivals doomed that are doomed
 * anyway, so the list, in no order, is swept only when GVT has passed its
 * oldest record and at most every 8th round (or at the end, or when memory
 * is low): a sweep per round walked every record each time, 3 % of a
 * 2-rank Slim Fly run. */
void transport_fossil(warp_ctx *w, double gvt)
{
    warp_transport *t = &w->tr;
    if (gvt <= t->cancelled_min)
        return;
    if (++t->since_sweep < 8 && gvt < INFINITY && !pool_low(w))
        return;
    t->since_sweep = 0;
    t->cancelled_min = INFINITY;
    warp_event **pp = &t->cancelled;
    while (*pp) {
        warp_event *r = *pp;
        if (r->ts >= gvt && r->ts < t->cancelled_min)
            t->cancelled_min = r->ts;
        if (r->ts < gvt) {
            *pp = r->next;
            warp_event *x = table_take(&t->table[uid_hash(r->uid) & t->table_mask], r->uid);
            WARP_ASSERT(x == r, "a cancellation record is in the remote table");
            pool_put(w, r);
        } else {
            pp = &r->next;
        }
    }
}

static void receive_event(warp_ctx *w, const wire_hdr *h, const char *payload)
{
    warp_transport *t = &w->tr;
    warp_event *orphan = table_take(&t->orphans, h->uid);
    if (orphan) { /* its anti-message came first: both vanish */
        pool_put(w, orphan);
        return;
    }
    if (doomed(w, h)) {
        warp_event *r = pool_get(w);
        r->uid = h->uid;
        r->ts = h->ts;
        r->state = EV_DOOMED;
        table_insert(t, r);
        w->cnt.doomed++;
        return;
    }
    warp_event *e = pool_get(w);
    e->ts = h->ts;
    e->depth = h->depth;
    e->src = h->src;
    e->seq = h->seq;
    e->dst = h->dst;
    e->uid = h->uid;
    /* Held ranks run only final events, so no anti-message will look for
     * it: it skips the table (and its commit the removal). */
    e->remote = !w->sched.safe_hold;
    e->children = e->rsent = NULL;
    memcpy(EV_PAYLOAD(e), payload, w->msg_size);
    e->lp = map_local_lp(w, e->dst);
    if (e->remote)
        table_insert(t, e);
    deliver_local(w, e);
}

static void receive_anti(warp_ctx *w, const wire_hdr *h)
{
    warp_transport *t = &w->tr;
    warp_event *e = table_take(&t->table[uid_hash(h->uid) & t->table_mask], h->uid);
    if (e && e->state == EV_DOOMED) { /* annihilated on arrival already */
        pool_put(w, e);
        return;
    }
    if (!e) {
        warp_event *o = pool_get(w);
        o->uid = h->uid;
        o->state = EV_NEW;
        EV_COLD(o)->hnext = t->orphans;
        t->orphans = o;
        return;
    }
    if (e->state == EV_PROCESSED)
        rollback_kp(w, lp_kp(w, e->lp), e, false);
    WARP_ASSERT(e->state == EV_PENDING, "an annihilated event is pending after its KP rolled back");
    queue_remove(w, e);
}

static void unpack(warp_ctx *w, const char *buf, int len)
{
    size_t off = 0;
    while (off < (size_t)len) {
        wire_hdr h;
        memcpy(&h, buf + off, sizeof h);
        off += sizeof h;
        w->tr.recvd[h.epoch & 3]++;
        if (h.kind == WIRE_EVENT) {
            receive_event(w, &h, buf + off);
            off += w->msg_size;
        } else {
            WARP_ASSERT(h.kind == WIRE_ANTI, "a received record is an event or an anti-message");
            receive_anti(w, &h);
        }
    }
}

/* Receives are handled strictly in the order they were posted, which is the
 * order MPI matched messages to them: a later receive that completes first
 * waits. That keeps each sender's stream in order, so an anti-message is
 * always handled before the re-sent event that replaces its victim. */
void transport_poll(warp_ctx *w)
{
    warp_transport *t = &w->tr;
    if (t->shm.nin)
        shm_poll(w, unpack);
    if (t->npend)
        pend_drain_all(w);
    while (t->nrecv) {
        int oldest = 0;
        for (int i = 1; i < t->nrecv; i++)
            if (t->rpost[i] < t->rpost[oldest])
                oldest = i;
        int done = 0;
        MPI_Status st;
        MPI_Test(&t->rreq[oldest], &done, &st);
        if (!done)
            break;
        int len;
        MPI_Get_count(&st, MPI_BYTE, &len);
        unpack(w, t->rbuf[oldest], len);
        MPI_Irecv(t->rbuf[oldest], (int)t->buf_bytes, MPI_BYTE, MPI_ANY_SOURCE, WARP_TAG,
                  w->comm, &t->rreq[oldest]);
        t->rpost[oldest] = t->nposted++;
    }
}

void transport_destroy(warp_ctx *w)
{
    warp_transport *t = &w->tr;
    for (int i = 0; i < t->ninfl; i++) {
        MPI_Wait(&t->ifl_req[i], MPI_STATUS_IGNORE);
        free(t->ifl_buf[i]);
    }
    free(t->ifl_buf);
    free(t->ifl_req);
    free(t->ifl_idx);
    free(t->ifl_st);
    for (int c = 0; c < WARP_SEND_CLASSES; c++)
        while (t->spare[c]) {
            warp_sendbuf *b = t->spare[c];
            t->spare[c] = b->next;
            free(b);
        }
    for (int i = 0; i < w->nranks; i++) {
        free(t->out[i]);
        while (t->pend_head[i]) { /* the run ended: no one reads them */
            warp_sendbuf *b = t->pend_head[i];
            t->pend_head[i] = b->next;
            free(b);
        }
    }
    shm_destroy(w);
    free(t->pend_head);
    free(t->pend_tail);
    free(t->pend_pes);
    for (int i = 0; i < t->nrecv; i++) {
        MPI_Cancel(&t->rreq[i]);
        MPI_Wait(&t->rreq[i], MPI_STATUS_IGNORE);
        free(t->rbuf[i]);
    }
    free(t->rreq);
    free(t->rbuf);
    free(t->rpost);
    free(t->out);
    free(t->dirty);
    free(t->table);
    memset(t, 0, sizeof *t);
}
