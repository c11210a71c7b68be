/* engine/api.c — what handlers call: the clock, identity, RNG access and
 * event creation. An event's key is fixed here: ts = now + delay, depth grows
 * only across zero-delay (or rounded-away) sends, and seq is the sender's
 * counter, restored on rollback, so re-executions recreate identical keys. */
#include "internal.h"

#include <math.h>

warp_lpid warp_lp_id(const warp_lp *lp) { return lp_gid(lp); }
uint64_t warp_total_lps(const warp_lp *lp) { return lp_ctx(lp)->total_lps; }
double warp_end(const warp_lp *lp) { return lp_ctx(lp)->opt.end; }
const void *warp_model_arg(const warp_lp *lp) { return lp_ctx(lp)->m->arg; }
const warp_lp_type *warp_lp_get_type(const warp_lp *lp) { return lp_class_of(lp)->model; }
void *warp_lp_out(warp_lp *lp) { return lp->out; }
warp_rng *warp_lp_rng(warp_lp *lp) { return &lp->rng; }

double warp_now(const warp_lp *lp)
{
    const warp_ctx *w = lp_ctx(lp);
    if (w->sched.in_commit)
        return w->sched.in_commit->ts;
    return w->sched.cur ? w->sched.cur->ts : w->sched.now_init;
}

/* A window of conservative mode runs its events in timestamp order on each
 * PE, so only events that may cross PEs need the lookahead: those to another
 * LP outside the sender's group (groups stay on one PE, setup checks). */
static bool same_group(const warp_model *m, warp_lpid a, warp_lpid b)
{
    return a == b || (m->group && m->group(a, m->arg) == m->group(b, m->arg));
}

/* Conservative windows and the safe bound of --safe-events both rest on
 * the declared lookahead (la_enforced, setup.c): a shorter delay between
 * groups stops the run, naming the way out of the mode that needs it. */
static __attribute__((noreturn, cold)) void lookahead_broken(const warp_lp *lp, warp_lpid dest, double delay)
{
    const warp_ctx *w = lp_ctx(lp);
    if (w->opt.synch == SYNCH_CONS)
        warp_fatal_lp(lp,
                      "sends an event to LP %llu with delay %g below the lookahead %g; conservative "
                      "mode (--synch=cons) needs every delay to another LP >= lookahead: run with "
                      "--synch=opt",
                      (unsigned long long)dest, delay, w->m->lookahead);
    warp_fatal_lp(lp,
                  "sends an event to LP %llu with delay %g below the lookahead %g its model "
                  "declares; the optimistic ranks run events within the lookahead of GVT "
                  "without state saving on that promise: fix the model's lookahead, or run "
                  "with --safe-events=off",
                  (unsigned long long)dest, delay, w->m->lookahead);
}

void *warp_event_new(warp_lp *lp, warp_lpid dest, double delay)
{
    warp_ctx *w = lp_ctx(lp);
    if (w->sched.in_reverse)
        warp_fatal_lp(lp, "sends an event from its reverse handler; reverse handlers must not send");
    if (w->sched.in_commit)
        warp_fatal_lp(lp, "sends an event from its commit handler; commit handlers must not send");
    if (!(delay >= 0.0) || isinf(delay))
        warp_fatal_lp(lp, "sends an event with delay %g; delays must be finite and >= 0", delay);
    if (dest >= w->total_lps)
        warp_fatal_lp(lp, "sends an event to LP %llu; LP ids go up to %llu",
                      (unsigned long long)dest, (unsigned long long)(w->total_lps - 1));
    if (delay < w->sched.la_enforced && !same_group(w->m, lp_gid(lp), dest))
        lookahead_broken(lp, dest, delay);
    /* The send looks the destination up in the dense table (a random
     * entry of 4 bytes per LP of the whole model: a miss on large models);
     * start that load now, so it overlaps the model filling the payload. */
    if (w->gid_dense && dest != lp_gid(lp))
        __builtin_prefetch(&w->gid_dense[dest]);
    const warp_event *parent = w->sched.cur;
    double now = parent ? parent->ts : w->sched.now_init;
    warp_event *e = pool_get(w);
    e->ts = now + delay + 0.0; /* + 0.0 turns -0 into +0: keys compare as bits */
    e->depth = e->ts == now ? (parent ? parent->depth : 0) + 1 : 0;
    e->src = lp_gid(lp);
    e->seq = lp->seq++;
    e->dst = dest;
    e->state = EV_NEW;
    e->remote = 0;
    e->children = e->rsent = NULL;
    memset(EV_PAYLOAD(e), 0, w->msg_size);
    return EV_PAYLOAD(e);
}

/* Delivers e, sent by the running event (or by init): into this rank's
 * queue or onto the wire. */
static void deliver_sent(warp_ctx *w, warp_event *e, warp_lp *src)
{
    warp_event *parent = w->sched.cur;
    bool cancellable = w->sched.saving && parent;
    /* A self-send (timers, a router's own pipeline) needs no lookup. */
    warp_lp *dlp = src;
    int pe = e->dst == lp_gid(src) ? w->rank : map_dest(w, e->dst, &dlp);
    if (pe == w->rank) {
        e->lp = dlp;
        if (cancellable) {
            EV_COLD(e)->sibling = parent->children;
            parent->children = e;
        }
        deliver_local(w, e);
        return;
    }
    transport_send_event(w, e, pe, cancellable);
    if (cancellable) {
        e->state = EV_REMOTE_SENT;
        EV_COLD(e)->sibling = parent->rsent;
        parent->rsent = e;
    } else {
        pool_put(w, e);
    }
}

void outbox_flush(warp_ctx *w)
{
    for (uint32_t i = 0; i < w->sched.nout; i++)
        deliver_sent(w, w->sched.outbox[i], w->sched.cur_lp);
    w->sched.nout = 0;
}

/* Runs on many ranks look LPs up in a hash table, not the dense one
 * (setup.c); those lookups get no hint. */
void warp_prefetch_dest(const warp_lp *lp, warp_lpid dest)
{
    const warp_ctx *w = lp_ctx(lp);
    if (w->gid_dense && dest < w->total_lps)
        __builtin_prefetch(&w->gid_dense[dest]);
}

/* A handler's sends to other LPs wait in the outbox until it returns
 * (process_event flushes it before the next event): the order of delivery
 * among them changes nothing, as keys are unique, and the lookup of the
 * destination's rank and record, prefetched by warp_event_new, then rarely
 * waits for memory. Self-sends and init's sends go at once. */
void warp_event_send(warp_lp *lp, void *payload)
{
    warp_ctx *w = lp_ctx(lp);
    warp_event *e = EV_OF(payload);
    WARP_ASSERT(e->state == EV_NEW && e->src == lp_gid(lp), "warp_event_send gets an event from warp_event_new of this LP");
    if (e->ts >= w->opt.end) { /* never runs in any mode: drop it now */
        pool_put(w, e);
        return;
    }
    if (w->sched.cur && e->dst != lp_gid(lp)) {
        if (w->sched.nout == WARP_OUTBOX)
            outbox_flush(w);
        w->sched.outbox[w->sched.nout++] = e;
        return;
    }
    deliver_sent(w, e, lp);
}

void warp_send(warp_lp *lp, warp_lpid dest, double delay, const void *msg, size_t len)
{
    if (len > lp_ctx(lp)->msg_size)
        warp_fatal_lp(lp, "sends a %zu-byte message; the model declared msg_size %zu", len,
                      lp_ctx(lp)->msg_size);
    void *p = warp_event_new(lp, dest, delay);
    memcpy(p, msg, len);
    warp_event_send(lp, p);
}
