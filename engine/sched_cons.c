/* engine/sched_cons.c — the conservative scheduler (--synch=cons): YAWNS-like
 * windows. All ranks drain the network, agree on the smallest pending
 * timestamp T, then run every event with timestamp < T + lookahead; no event
 * can arrive inside the window because every send is at least lookahead ahead
 * (warp_event_new enforces it). Events commit right after they run, so
 * in key order on each rank; one that arrives late stops the run
 * (final_order). */
#include "internal.h"

#include <math.h>

void sched_cons(warp_ctx *w)
{
    const double la = w->m->lookahead;
    for (;;) {
        double t0 = warp_wtime();
        for (;;) { /* every message sent in the last window is delivered */
            if (w->nranks > 1) {
                transport_flush(w);
                transport_poll(w);
            }
            int64_t in[2] = {w->nranks > 1 ? (int64_t)w->tr.sent[0] - (int64_t)w->tr.recvd[0] : 0,
                             warp_signal_pending()},
                    sum[2];
            coll_allreduce(w, in, sum, 2, COLL_I64, COLL_SUM);
            if (sum[1]) {
                w->sched.stop_requested = true;
                return;
            }
            if (sum[0] == 0)
                break;
        }
        double lm = local_min_ts(w), lbts;
        coll_allreduce(w, &lm, &lbts, 1, COLL_DOUBLE, COLL_MIN);
        w->cnt.t.gvt += warp_wtime() - t0;
        double cut;
        if (ckpt_due(w, lbts, &cut)) {
            ckpt_take(w, lbts); /* everything below lbts ran and committed */
            if (w->ck.stop) {
                w->sched.gvt_value = lbts;
                return;
            }
        }
        if (!(lbts < w->opt.end))
            break;
        w->sched.gvt_value = lbts;
        w->cnt.gvt_rounds++;
        double wend = lbts + la;
        t0 = warp_wtime();
        warp_event *e;
        while ((e = queue_peek(w)) && e->ts < wend) {
            queue_pop(w);
            final_order(w, e);
            w->sched.final_key = key_of(e);
            process_event(w, e);
            queue_prefetch_for(w); /* as seq does */
            commit_event(w, e);
        }
        w->cnt.t.forward += warp_wtime() - t0;
        round_report(w, lbts, w->cnt.committed * (uint64_t)w->nranks, 0, false);
    }
    w->sched.gvt_value = w->opt.end;
    round_report(w, w->opt.end, w->cnt.committed * (uint64_t)w->nranks, 0, true);
}
