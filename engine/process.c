/* engine/process.c — running one event and delivering new ones. Invariant
 * kept with rollback.c: every KP's processed list is in ascending key order and
 * every pending event of a KP has a larger key than the KP's last processed
 * event (delivery of a smaller key rolls the KP back first). */
#include "internal.h"

void process_event(warp_ctx *w, warp_event *e)
{
    warp_lp *lp = e->lp;
    /* A payload of several lines (a packet's: the network models'): the
     * handler reads its first and the digest below all of them. Loads
     * started now overlap the handler's own misses rather than stalling
     * the digest one by one. */
    const char *pl = EV_PAYLOAD(e);
    size_t m = w->msg_size;
    if (m > 64) {
        for (size_t off = 64; off < m; off += 64)
            __builtin_prefetch(pl + off);
        __builtin_prefetch(pl + m - 1); /* the last line of an unaligned payload */
    }
    e->bits.b = 0;
    e->children = e->rsent = NULL;
    e->allocs = e->frees = NULL;
    if (w->sched.saving) {
        EV_COLD(e)->rng_before = lp->rng.counter;
        EV_COLD(e)->seq_before = lp->seq;
        undo_mark(w, lp_kp(w, lp), e);
    }
    w->sched.cur = e;
    w->sched.cur_lp = lp;
    if (w->sched.saving && lp->type->save == WARP_SAVE_FULL)
        warp_save(lp, lp->state, lp->type->state_size);
    lp->type->forward(lp, lp->state, EV_PAYLOAD(e), &e->bits);
    /* The payload is final now and still hot; commit (cold, much later on
     * several ranks) only folds this word into the LP's digest. */
    e->digest = digest_event(w, e);
    if (w->sched.nout)
        outbox_flush(w);
    w->sched.cur = NULL;
    w->sched.cur_lp = NULL;
    e->state = EV_PROCESSED;
    w->cnt.processed++;
}

/* Below the safe bound (gvt.c) an event is final as it runs, so it runs as
 * in seq, without state saving or send records. Its KP's processed events
 * all have smaller keys (a pending event never has one below its KP's
 * last processed) and commit first, to keep each LP's commits in key
 * order: with none, it commits at once, while hot; else it joins their
 * list and commits with them at the next fossil pass, whose lanes overlap
 * the cold misses that walking the list here would take one by one. It is
 * never rolled back (nothing arrives below it), so it needs only the undo
 * arena mark that fossil collection reads. Its children still go through
 * the straggler check: other KPs may have run optimistically past them. */
void process_final(warp_ctx *w, warp_event *e)
{
    w->sched.final_key = key_of(e);
    w->sched.saving = false;
    process_event(w, e);
    w->sched.saving = true;
    queue_prefetch_for(w);
    warp_kp *kp = lp_kp(w, e->lp);
    if (kp->head) {
        undo_mark(w, kp, e);
        kp_append(w, kp, e);
    } else {
        commit_event(w, e);
    }
    w->cnt.final_run++;
}

void causality_broken(const warp_ctx *w, const warp_event *e)
{
    const warp_lp *lp = e->lp;
    bool cons = w->opt.synch == SYNCH_CONS;
    warp_fatal(WARP_EXIT_INTERNAL,
               "internal error: causality violated on rank %d: an event for LP %llu (%s) at time %.17g "
               "runs after one at time %.17g ran final (%s): it arrived too late, the lookahead the "
               "engine relied on is not kept (a model's lookahead or groups are wrong, or an engine "
               "bug); nothing was committed out of order; please report it, and run with %s meanwhile",
               w->rank, (unsigned long long)lp_gid(lp), lp->type->name, e->ts, w->sched.final_key.ts,
               cons ? "--synch=cons commits each event as it runs" : "below the safe-events bound",
               cons ? "--synch=opt" : "--safe-events=off");
}

/* A straggler: its KP rolls back first. Apart, so that the common paths
 * below call nothing but queue_insert, by a tail call, and keep no frame. */
static __attribute__((noinline, cold)) void deliver_straggler(warp_ctx *w, warp_kp *kp, warp_event *e)
{
    rollback_kp(w, kp, e, false);
    queue_insert(w, e);
}

/* deliver_local with rollback records kept (opt, check, debug). */
static __attribute__((noinline)) void deliver_tracked(warp_ctx *w, warp_event *e)
{
    warp_kp *kp = lp_kp(w, e->lp);
    if (__builtin_expect(e->ts <= kp->tail_ts && kp->tail && ev_less(e, kp->tail), 0))
        deliver_straggler(w, kp, e);
    else
        queue_insert(w, e);
}

void deliver_local(warp_ctx *w, warp_event *e)
{
    if (w->sched.stragglers)
        deliver_tracked(w, e);
    else
        queue_insert(w, e);
}
