/* engine/sched_seq.c — the sequential scheduler (--synch=seq): events run in
 * key order and commit right after their forward handler, with no rollback
 * bookkeeping at all. This is the reference every other mode must match. */
#include "internal.h"

void sched_seq(warp_ctx *w)
{
    double t0 = warp_wtime();
    for (;;) {
        warp_event *e;
        /* Time one pop in 64 and scale: a cheap estimate of queue cost. */
        if ((w->pops++ & 63) == 0) {
            double tq = warp_wtime();
            e = queue_pop(w);
            w->t.queue += 64.0 * (warp_wtime() - tq);
        } else {
            e = queue_pop(w);
        }
        if (!e)
            break;
        process_event(w, e);
        double ts = e->ts;
        commit_event(w, e);
        if ((w->committed & 0x3FFFF) == 0) {
            round_report(w, ts, w->committed, 0, false);
            if (warp_signal_pending()) {
                w->stop_requested = true;
                break;
            }
        }
    }
    w->gvt_value = w->end;
    w->t.forward = warp_wtime() - t0 - w->t.queue;
    round_report(w, w->end, w->committed, 0, true);
}
