/* engine/sched_opt.c — the optimistic Time Warp scheduler (--synch=opt, and
 * --synch=debug on one rank). Each iteration polls the network, runs a batch
 * of the smallest pending events, flushes outgoing events and advances GVT;
 * fossil collection commits what GVT has passed. On one rank GVT is simply
 * the smallest pending timestamp. Debug mode forces random rollbacks after
 * every batch; its committed results must equal sequential exactly. */
#include "internal.h"

#include <math.h>
#include <sched.h>

/* With probability 1/2, roll back between 1 and --batch of the newest events
 * of a random KP: on average a quarter of what a batch runs, so the run
 * still progresses while every event risks being undone and redone. */
static void forced_rollback(warp_ctx *w)
{
    if (warp_rng_unif(&w->debug_rng) < 0.5)
        return;
    uint64_t k = (uint64_t)warp_rng_integer(&w->debug_rng, 0, (int64_t)w->nkps - 1);
    warp_kp *kp = &w->kps[k];
    if (!kp->tail)
        return;
    int64_t n = warp_rng_integer(&w->debug_rng, 1, (int64_t)w->batch);
    warp_event *key = kp->tail;
    while (--n > 0 && key->prev)
        key = key->prev;
    rollback_kp(w, kp, key, false);
}

static bool run_batch(warp_ctx *w)
{
    double t0 = warp_wtime();
    uint64_t n = 0;
    while (n < w->batch) {
        warp_event *e;
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
        kp_append(e->lp->kp, e);
        n++;
    }
    w->t.forward += warp_wtime() - t0;
    return n > 0;
}

static void run_local(warp_ctx *w)
{
    bool debug = w->synch == SYNCH_DEBUG;
    uint64_t batches = 0;
    for (;;) {
        bool ran = run_batch(w);
        if (debug && ran)
            forced_rollback(w);
        warp_event *m = queue_peek(w);
        if (!m)
            break;
        if (++batches >= w->gvt_interval || pool_low(w)) {
            batches = 0;
            w->gvt_value = m->ts;
            w->gvt_rounds++;
            fossil_collect(w, w->gvt_value);
            progress_maybe(w, w->gvt_value, w->committed, w->rolled_back, false);
        }
    }
    fossil_collect(w, INFINITY);
    w->gvt_value = w->end;
}

static void run_distributed(warp_ctx *w)
{
    for (;;) {
        double t0 = warp_wtime();
        transport_poll(w);
        w->t.net += warp_wtime() - t0;
        /* Under memory pressure stop running ahead and let GVT catch up. */
        bool ran = !pool_low(w) && run_batch(w);
        t0 = warp_wtime();
        transport_flush(w);
        w->t.net += warp_wtime() - t0;
        bool idle = !ran;
        if (gvt_step(w, idle)) {
            if (w->gvt_value >= w->end)
                break;
            fossil_collect(w, w->gvt_value);
        } else if (idle) {
            sched_yield(); /* oversubscribed ranks share cores */
        }
    }
    fossil_collect(w, INFINITY);
    w->gvt_value = w->end;
}

void sched_opt(warp_ctx *w)
{
    if (w->nranks == 1)
        run_local(w);
    else
        run_distributed(w);
    progress_maybe(w, w->end, w->committed, w->rolled_back, true);
}
