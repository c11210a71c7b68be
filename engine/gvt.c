/* engine/gvt.c — global virtual time. Mattern's algorithm (default): a PE
 * joins round r by turning red (its sends carry epoch r+1) and freezing its
 * count of white (epoch r) sends; non-blocking all-reduces then combine
 * (white sent - white received) and min(local pending minimum, smallest red
 * send) until no white message is in transit, while events keep running. The
 * synchronous variant (--gvt=sync) drains the network with blocking
 * all-reduces, as ROSS does. Counts per epoch live in 4 slots: slot r&3 is
 * cleared when round r completes, before any epoch r+4 message can exist. */
#include "internal.h"

#include <math.h>

double local_min_ts(warp_ctx *w)
{
    warp_event *m = queue_peek(w);
    return m ? m->ts : INFINITY;
}

void gvt_init(warp_ctx *w)
{
    warp_gvt *g = &w->gvt;
    memset(g, 0, sizeof *g);
    g->kind = w->gvt_kind;
    g->red_min = INFINITY;
}

static void start_reduction(warp_ctx *w)
{
    warp_gvt *g = &w->gvt;
    g->sum_in[0] = g->white_sent - (int64_t)w->tr.recvd[g->round & 3];
    g->sum_in[1] = (int64_t)w->committed;
    g->sum_in[2] = (int64_t)w->rolled_back;
    g->sum_in[3] = warp_signal_pending();
    double lm = local_min_ts(w);
    g->min_in = lm < g->red_min ? lm : g->red_min;
    MPI_Iallreduce(g->sum_in, g->sum_out, 4, MPI_INT64_T, MPI_SUM, w->comm, &g->req[0]);
    MPI_Iallreduce(&g->min_in, &g->min_out, 1, MPI_DOUBLE, MPI_MIN, w->comm, &g->req[1]);
}

static void new_gvt(warp_ctx *w, double gvt, int64_t committed, int64_t rolled)
{
    WARP_ASSERT(gvt >= w->gvt_value, "GVT never decreases");
    w->gvt_value = gvt;
    w->gvt_committed = (uint64_t)committed;
    w->gvt_rolled = (uint64_t)rolled;
    w->gvt_rounds++;
    round_report(w, gvt < w->end ? gvt : w->end, (uint64_t)committed, (uint64_t)rolled, false);
}

double gvt_sync(warp_ctx *w)
{
    int64_t c[4];
    for (;;) {
        transport_flush(w);
        transport_poll(w);
        transport_flush(w);
        int64_t in[4] = {(int64_t)w->tr.sent[0] - (int64_t)w->tr.recvd[0], (int64_t)w->committed,
                         (int64_t)w->rolled_back, warp_signal_pending()};
        MPI_Allreduce(in, c, 4, MPI_INT64_T, MPI_SUM, w->comm);
        if (c[3])
            w->stop_requested = true;
        if (c[0] == 0 || c[3])
            break;
    }
    double lm = local_min_ts(w), gvt;
    MPI_Allreduce(&lm, &gvt, 1, MPI_DOUBLE, MPI_MIN, w->comm);
    new_gvt(w, gvt, c[1], c[2]);
    return gvt;
}

bool gvt_step(warp_ctx *w, bool idle)
{
    warp_gvt *g = &w->gvt;
    bool done = false;
    if (g->kind == 1) {
        if (++g->batches_since >= w->gvt_interval || pool_low(w) || idle) {
            g->batches_since = 0;
            gvt_sync(w);
            return true;
        }
        return false;
    }
    if (!g->active) {
        if (++g->batches_since < w->gvt_interval && !pool_low(w) && !idle)
            return false;
        g->active = true;
        g->white_sent = (int64_t)w->tr.sent[g->round & 3];
        g->red_min = INFINITY;
        start_reduction(w);
    } else {
        int flag = 0;
        MPI_Status st[2];
        MPI_Testall(2, g->req, &flag, st);
        if (flag && g->sum_out[3]) { /* a rank was interrupted: all stop here */
            w->stop_requested = true;
            g->active = false;
            done = true;
        } else if (flag) {
            if (g->sum_out[0] == 0) {
                w->tr.sent[g->round & 3] = w->tr.recvd[g->round & 3] = 0;
                g->round++;
                g->active = false;
                g->batches_since = 0;
                new_gvt(w, g->min_out, g->sum_out[1], g->sum_out[2]);
                done = true;
            } else {
                start_reduction(w); /* white messages still in transit */
            }
        }
    }
    return done;
}
