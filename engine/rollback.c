/* engine/rollback.c — undo processed events of one KP back to a key.
 * Invariant: after rollback_kp(kp, key) every event of kp with a key >= key is
 * back in the pending queue, and every LP of kp is in the state it had before
 * the first of them ran; everything those events sent is cancelled. Called on
 * stragglers, anti-messages, cancellations (secondary rollbacks), and by the
 * check and debug modes. */
#include "internal.h"

/* Undo one event, the newest processed event of its KP. It is left unlinked
 * and not in the queue; the caller decides where it goes. */
void undo_event(warp_ctx *w, warp_event *e)
{
    warp_lp *lp = e->lp;
    if (lp->type->reverse) {
        /* A delivery inside a forward handler can roll another KP back:
         * keep the running event's context. */
        warp_event *cur = w->sched.cur;
        warp_lp *cur_lp = w->sched.cur_lp;
        bool in_rev = w->sched.in_reverse;
        w->sched.cur = e;
        w->sched.cur_lp = lp;
        w->sched.in_reverse = true;
        lp->type->reverse(lp, lp->state, EV_PAYLOAD(e), &e->bits);
        w->sched.in_reverse = in_rev;
        w->sched.cur = cur;
        w->sched.cur_lp = cur_lp;
    }
    undo_replay(w, lp_kp(w, lp), e);
    lp->rng.counter = EV_COLD(e)->rng_before;
    lp->seq = EV_COLD(e)->seq_before;

    warp_event *c = e->children;
    e->children = NULL;
    while (c) {
        warp_event *n = EV_COLD(c)->sibling;
        cancel_event(w, c);
        c = n;
    }
    c = e->rsent;
    e->rsent = NULL;
    while (c) {
        warp_event *n = EV_COLD(c)->sibling;
        transport_send_anti(w, c);
        c = n;
    }
    for (alloc_hdr *h = e->allocs, *n; h; h = n) {
        n = h->anext;
        alloc_put(w, h);
    }
    e->allocs = NULL;
    e->frees = NULL; /* the deferred frees never happen */
    e->state = EV_PENDING;
    w->cnt.rolled_back++;
    lp_kp(w, lp)->rolled_back++;
}

void rollback_kp(warp_ctx *w, warp_kp *kp, const warp_event *key, bool secondary)
{
    double t0 = warp_wtime();
    if (secondary)
        w->cnt.rb_secondary++;
    else
        w->cnt.rb_primary++;
    kp->rollbacks++;
    while (kp->tail && !ev_less(kp->tail, key)) {
        warp_event *e = kp->tail;
        kp->tail = EV_COLD(e)->prev;
        if (kp->tail)
            kp->tail->next = NULL;
        else
            kp->head = NULL;
        undo_event(w, e);
        queue_insert(w, e);
    }
    if (kp->tail)
        kp->tail_ts = kp->tail->ts;
    w->cnt.t.reverse += warp_wtime() - t0;
}

/* Cancel a local event sent by an event being undone. */
void cancel_event(warp_ctx *w, warp_event *e)
{
    if (e->state == EV_PROCESSED)
        rollback_kp(w, lp_kp(w, e->lp), e, true);
    WARP_ASSERT(e->state == EV_PENDING, "a cancelled local event is pending after its KP rolled back");
    queue_remove(w, e);
}
