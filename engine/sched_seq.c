/* engine/sched_seq.c — the sequential scheduler (--synch=seq): events run in
 * key order and commit right after their forward handler, with no rollback
 * bookkeeping at all. This is the reference every other mode must match. */
#include "internal.h"

#include <math.h>

void sched_seq(warp_ctx *w)
{
    /* Every 64th pop is timed; the chunk of 64 events around it splits into
     * queue = 64 x that pop (at most the chunk) and forward = the rest, so
     * the split is cheap, never negative, and current at every report. */
    double chunk0 = warp_wtime(), sample = 0, reached = 0;
    for (;;) {
        warp_event *e;
        if ((w->cnt.pops++ & 63) == 0) {
            double tq = warp_wtime();
            double chunk = tq - chunk0, q = 64.0 * sample;
            if (q > chunk)
                q = chunk;
            w->cnt.t.queue += q;
            w->cnt.t.forward += chunk - q;
            chunk0 = tq;
            e = queue_pop(w);
            sample = warp_wtime() - tq;
        } else {
            e = queue_pop(w);
        }
        if (!e)
            break;
        process_event(w, e);
        queue_prefetch_for(w);
        double ts = e->ts;
        reached = ts;
        commit_event(w, e);
        if (w->ck.next_at < INFINITY || (w->opt.ckpt_every_s > 0 && (w->cnt.committed & 0x3FFFF) == 0)) {
            warp_event *n = queue_peek(w);
            double cut;
            if (n && ckpt_due(w, n->ts, &cut)) {
                ckpt_take(w, cut);
                if (w->ck.stop) {
                    w->sched.gvt_value = n->ts;
                    return;
                }
            }
        }
        if ((w->cnt.committed & 0x3FFFF) == 0)
            round_report(w, ts, w->cnt.committed, 0, false);
        /* A flag read: cheap enough to honour a signal within 1024 events
         * even when each event is slow. */
        if ((w->cnt.committed & 0x3FF) == 0 && warp_signal_pending()) {
            w->sched.stop_requested = true;
            break;
        }
    }
    w->cnt.t.forward += warp_wtime() - chunk0;
    if (w->sched.stop_requested) {
        /* Everything below the next pending event has run: how far an
         * interrupted run got (never the end time), and the cut a
         * checkpoint on a signal takes. */
        double next = local_min_ts(w);
        w->sched.gvt_value = next < INFINITY ? next : reached;
        return;
    }
    w->sched.gvt_value = w->opt.end;
    round_report(w, w->opt.end, w->cnt.committed, 0, true);
}
