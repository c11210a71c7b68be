/* engine/gvt.c — global virtual time. Mattern's algorithm (default): a PE
 * joins round r by turning red (its sends carry epoch r+1) and freezing its
 * count of white (epoch r) sends; non-blocking all-reduces then combine
 * (white sent - white received) and min(local pending minimum, smallest red
 * send) until no white message is in transit, while events keep running. The
 * synchronous variant (--gvt=sync) drains the network with blocking
 * all-reduces, as ROSS does. Counts per epoch live in 4 slots: slot r&3 is
 * cleared when round r completes, before any epoch r+4 message can exist.
 *
 * GVT is reduced as a key (ts, depth, src, seq), the minimum of the pending
 * events' keys and of the keys of red sends (an anti-message with the key
 * of the event it cancels), so that fossil collection commits every
 * processed event whose key is below it, those of GVT's own instant
 * included: in a lock-step replay each round's GVT lands on the instant
 * being processed, and committing only ts < GVT kept that whole instant
 * alive. Why that is safe, by the argument that makes the timestamp
 * version safe, with keys in place of timestamps: (1) an event's children
 * have larger keys (a zero delay raises depth: api.c), so whatever a
 * pending or in-transit event or anti-message causes lies above its key;
 * (2) a straggler of key k rolls back only events with keys above k, and
 * an anti-message undoes its event (key k) and what lies above; (3) the
 * anti-messages a rollback sends cancel children of undone events, so
 * keys above the rollback's. Mattern's rounds bound every pending event,
 * every white message (the counts wait until none is in transit) and every
 * red send (red_min) from below by the reduced key K, and every later
 * event or anti-message descends from one of those; so no rollback ever
 * reaches below K, and a processed event with key < K is final. Keys are
 * unique to an event (equal keys are the same event or its cancelled
 * incarnation, whose anti-message then counts), so `<` is strict enough.
 *
 * The same round also reduces the safe bound S of --safe-events: the
 * minimum over ranks of (smallest pending ts + lookahead) and of the red
 * sends' ts. Every event that reaches a rank from another after the round
 * is a red send (counted) or descends from an event at or above GVT on
 * another rank, and crossing ranks takes at least the lookahead (api.c
 * refuses less), so it arrives at S or later. An event popped with ts < S
 * is thus final when it runs: no straggler reaches it (local ones come
 * from pending events, none below it), and its parent is final too, so
 * never cancels it: a local parent by the same argument, a remote one
 * because it lies below S - lookahead, under every rank's pending minimum
 * at the round, and only later arrivals (>= S) could have undone it. */
#include "internal.h"

#include <math.h>

gvt_key gvt_key_inf(void)
{
    return (gvt_key){.ts = INFINITY, .depth = UINT32_MAX, .src = UINT64_MAX, .seq = UINT64_MAX};
}

static void key_min_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const gvt_key *a = in;
    gvt_key *b = inout;
    for (int i = 0; i < *len; i++)
        if (key_less(&a[i], &b[i]))
            b[i] = a[i];
}

/* Sums the counts and keeps the smaller key: Mattern's two reductions in
 * one. */
void gvt_msg_combine(struct gvt_round_msg *into, const struct gvt_round_msg *a)
{
    for (int j = 0; j < 4; j++)
        into->sum[j] += a->sum[j];
    if (key_less(&a->min, &into->min))
        into->min = a->min;
    if (a->safe < into->safe)
        into->safe = a->safe;
}

static void msg_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    const struct gvt_round_msg *a = in;
    struct gvt_round_msg *b = inout;
    for (int i = 0; i < *len; i++)
        gvt_msg_combine(&b[i], &a[i]);
}

static gvt_key local_min_key(warp_ctx *w)
{
    warp_event *m = queue_peek(w);
    return m ? key_of(m) : gvt_key_inf();
}

double local_min_ts(warp_ctx *w)
{
    warp_event *m = queue_peek(w);
    return m ? m->ts : INFINITY;
}

void gvt_init(warp_ctx *w)
{
    warp_gvt *g = &w->gvt;
    memset(g, 0, sizeof *g);
    g->kind = w->opt.gvt_kind;
    g->red_min = gvt_key_inf();
    memset(&w->sched.gvt_key, 0, sizeof w->sched.gvt_key);
    g->key_type = MPI_DATATYPE_NULL;
    g->key_min = MPI_OP_NULL;
    g->msg_type = MPI_DATATYPE_NULL;
    g->msg_op = MPI_OP_NULL;
    g->req = MPI_REQUEST_NULL;
    if (w->nranks > 1) {
        MPI_Type_contiguous((int)sizeof(gvt_key), MPI_BYTE, &g->key_type);
        MPI_Type_commit(&g->key_type);
        MPI_Op_create(key_min_op, 1, &g->key_min);
        MPI_Type_contiguous((int)sizeof(struct gvt_round_msg), MPI_BYTE, &g->msg_type);
        MPI_Type_commit(&g->msg_type);
        MPI_Op_create(msg_op, 1, &g->msg_op);
    }
    /* Mattern's rounds only: --gvt=sync drains the network with blocking
     * collectives, conservative windows reduce their own. */
    if (g->kind == 0 && w->opt.synch != SYNCH_CONS)
        gvt_shm_init(w);
}

void gvt_destroy(warp_ctx *w)
{
    warp_gvt *g = &w->gvt;
    if (g->key_type != MPI_DATATYPE_NULL)
        MPI_Type_free(&g->key_type);
    if (g->key_min != MPI_OP_NULL)
        MPI_Op_free(&g->key_min);
    if (g->msg_type != MPI_DATATYPE_NULL)
        MPI_Type_free(&g->msg_type);
    if (g->msg_op != MPI_OP_NULL)
        MPI_Op_free(&g->msg_op);
    gvt_shm_destroy(w);
}

static void start_reduction(warp_ctx *w)
{
    warp_gvt *g = &w->gvt;
    g->in.sum[0] = g->white_sent - (int64_t)w->tr.recvd[g->round & 3];
    g->in.sum[1] = (int64_t)w->cnt.committed;
    g->in.sum[2] = (int64_t)w->cnt.rolled_back;
    g->in.sum[3] = warp_signal_pending();
    gvt_key lm = local_min_key(w);
    g->in.min = key_less(&lm, &g->red_min) ? lm : g->red_min;
    double reach = lm.ts + w->sched.safe_la; /* the earliest a pending event's remote children arrive */
    g->in.safe = w->sched.safe_la > 0 ? (reach < g->red_min.ts ? reach : g->red_min.ts) : -INFINITY;
    if (g->slots)
        gvt_shm_start(w);
    else
        MPI_Iallreduce(&g->in, &g->out, 1, g->msg_type, g->msg_op, w->comm, &g->req);
}

static void new_gvt(warp_ctx *w, gvt_key key, double safe, int64_t committed, int64_t rolled)
{
    if (safe > w->ck.next_at) /* that checkpoint cuts at T: nothing above it may run final */
        safe = w->ck.next_at;
    if (safe > w->sched.safe_ts)
        w->sched.safe_ts = safe;
    double gvt = key.ts;
    WARP_ASSERT(gvt >= w->sched.gvt_value, "GVT never decreases");
    w->sched.gvt_value = gvt;
    w->sched.gvt_key = key;
    w->sched.gvt_committed = (uint64_t)committed;
    w->sched.gvt_rolled = (uint64_t)rolled;
    w->cnt.gvt_rounds++;
    round_report(w, gvt < w->opt.end ? gvt : w->opt.end, (uint64_t)committed, (uint64_t)rolled, false);
}

double gvt_sync(warp_ctx *w)
{
    int64_t c[4];
    for (;;) {
        transport_flush(w);
        transport_poll(w);
        transport_flush(w);
        int64_t in[4] = {(int64_t)w->tr.sent[0] - (int64_t)w->tr.recvd[0], (int64_t)w->cnt.committed,
                         (int64_t)w->cnt.rolled_back, warp_signal_pending()};
        coll_allreduce(w, in, c, 4, COLL_I64, COLL_SUM);
        if (c[3])
            w->sched.stop_requested = true;
        if (c[0] == 0 || c[3])
            break;
    }
    gvt_key lm = local_min_key(w), gvt;
    MPI_Allreduce(&lm, &gvt, 1, w->gvt.key_type, w->gvt.key_min, w->comm);
    /* Drained: every later arrival descends from a pending event. */
    new_gvt(w, gvt, w->sched.safe_la > 0 ? gvt.ts + w->sched.safe_la : -INFINITY, c[1], c[2]);
    return gvt.ts;
}

/* A held rank (safe_hold) joins a round only once it has run everything
 * below the bound (idle): joining on the way, every --gvt-interval
 * batches, would report a pending minimum below the bound and raise it by
 * less than the lookahead, so the ranks would step in slivers. */
static bool round_due(warp_ctx *w, bool idle)
{
    if (idle || pool_low(w))
        return true;
    return !w->sched.safe_hold && ++w->gvt.batches_since >= w->sched.gvt_interval;
}

bool gvt_step(warp_ctx *w, bool idle)
{
    warp_gvt *g = &w->gvt;
    bool done = false;
    if (g->kind == 1) {
        if (round_due(w, idle)) {
            g->batches_since = 0;
            gvt_sync(w);
            return true;
        }
        return false;
    }
    if (!g->active) {
        if (!round_due(w, idle))
            return false;
        g->active = true;
        g->white_sent = (int64_t)w->tr.sent[g->round & 3];
        g->red_min = gvt_key_inf();
        start_reduction(w);
    } else {
        int flag = 0;
        if (g->slots)
            flag = gvt_shm_test(w);
        else
            MPI_Test(&g->req, &flag, MPI_STATUS_IGNORE);
        if (flag && g->out.sum[3]) { /* a rank was interrupted: all stop here */
            w->sched.stop_requested = true;
            g->active = false;
            done = true;
        } else if (flag) {
            if (g->out.sum[0] == 0) {
                w->tr.sent[g->round & 3] = w->tr.recvd[g->round & 3] = 0;
                g->round++;
                g->active = false;
                g->batches_since = 0;
                new_gvt(w, g->out.min, g->out.safe, g->out.sum[1], g->out.sum[2]);
                done = true;
            } else {
                start_reduction(w); /* white messages still in transit */
            }
        }
    }
    return done;
}
