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
    if (warp_rng_unif(&w->sched.debug_rng) < 0.5)
        return;
    uint64_t k = (uint64_t)warp_rng_integer(&w->sched.debug_rng, 0, (int64_t)w->nkps - 1);
    warp_kp *kp = &w->kps[k];
    if (!kp->tail)
        return;
    int64_t n = warp_rng_integer(&w->sched.debug_rng, 1, (int64_t)w->opt.batch);
    warp_event *key = kp->tail;
    while (--n > 0 && EV_COLD(key)->prev)
        key = EV_COLD(key)->prev;
    rollback_kp(w, kp, key, false);
}

/* Runs up to `max` events with timestamps up to `limit`. Unthrottled it
 * stops early when the pool runs low; throttled (under memory pressure) it
 * goes on from the pool's reserve, with `limit` at GVT: the events GVT waits
 * for. *clock is the time it starts at and becomes the time it ends at:
 * the schedulers chain one clock reading from phase to phase, as a reading
 * costs 0.1 us on this VM's kvm-clock, several per batch of 16 or 32 events.
 * Inlined in each caller: one rank's runs (unthrottled, no limit) then test
 * neither per event. */
static inline __attribute__((always_inline)) bool run_batch(warp_ctx *w, bool throttled, double limit, uint64_t max,
                                                            double *clock)
{
    double t0 = *clock, q = 0;
    uint64_t n = 0;
    while (n < max) {
        warp_event *e;
        if (!throttled && pool_low(w))
            break;
        bool timed = (w->cnt.pops++ & 63) == 0; /* one pop in 64 is timed and scaled */
        double tq = timed ? warp_wtime() : 0;
        e = limit < INFINITY ? queue_pop_upto(w, limit) : queue_pop(w);
        if (timed)
            q += 64.0 * (warp_wtime() - tq);
        if (!e)
            break;
        n++;
        final_order(w, e);
        if (e->ts < w->sched.safe_ts) {
            process_final(w, e);
            continue;
        }
        process_event(w, e);
        queue_prefetch_ahead(w); /* small final runs take the one-stage hint (queue_prefetch_for) */
        kp_append(w, lp_kp(w, e->lp), e);
    }
    /* The split is exclusive and never negative: one slow sampled pop (a
     * descheduled process) cannot claim more than the batch took. */
    *clock = warp_wtime();
    double el = *clock - t0;
    if (q > el)
        q = el;
    w->cnt.t.queue += q;
    w->cnt.t.forward += el - q;
    return n > 0;
}

/* Events between one rank's rounds when --gvt-interval is not given (or
 * is auto, which adapts only across ranks), in whole batches. A round here
 * is a fossil pass, no reduction, and the sooner events commit the likelier
 * their lines are still in L1: on the 32K torus (cachegrind, 3 us, batches
 * of 16) 2 batches instead of 16 cut D1 misses from 79.1 M to 60.2 M (1:
 * 52.2 M) for 0.35 % more instructions (1: 0.8 %, and three clock readings
 * a round). */
#define LOCAL_ROUND_EVENTS 32

static void run_local(warp_ctx *w)
{
    bool debug = w->opt.synch == SYNCH_DEBUG;
    uint64_t batches = 0;
    uint64_t local = w->opt.batch < LOCAL_ROUND_EVENTS ? LOCAL_ROUND_EVENTS / w->opt.batch : 1;
    uint64_t every = w->opt.gvt_interval_given && !w->opt.gvt_interval_auto ? w->opt.gvt_interval : local;
    double clock = warp_wtime();
    for (;;) {
        bool ran = run_batch(w, false, INFINITY, w->opt.batch, &clock);
        warp_event *m = queue_peek(w);
        if (!ran && m) {
            /* Low memory: commit what is final, then go on one event at a
             * time from the reserve; a pool that cannot hold the model ends
             * in pool_get's "raise --events". */
            gvt_key k = key_of(m);
            fossil_collect_below(w, &k);
            clock = warp_wtime(); /* fossil timed itself */
            ran = run_batch(w, true, INFINITY, 1, &clock);
        }
        if (debug && ran) {
            forced_rollback(w);
            clock = warp_wtime(); /* the rollback timed itself */
        }
        m = queue_peek(w); /* after any rollback: the true minimum */
        if (!m)
            break;
        if (warp_signal_pending()) {
            w->sched.stop_requested = true;
            w->sched.gvt_value = m->ts; /* everything below it has run */
            return;
        }
        if (++batches >= every || pool_low(w)) {
            batches = 0;
            double cut;
            if (ckpt_due(w, m->ts, &cut)) {
                ckpt_take(w, cut);
                if (w->ck.stop)
                    return;
                if (!(m = queue_peek(w)))
                    break;
            }
            w->sched.gvt_value = m->ts;
            w->cnt.gvt_rounds++;
            gvt_key k = key_of(m);
            fossil_collect_below(w, &k);
            round_report(w, w->sched.gvt_value, w->cnt.committed, w->cnt.rolled_back, false);
            clock = warp_wtime();
        }
    }
    fossil_collect(w, INFINITY);
    w->sched.gvt_value = w->opt.end;
}

/* The adaptive optimism window (--window=auto): quarter it when a GVT round
 * rolled back more than it committed, halve it when more than an eighth,
 * double it when less
 * than a thirty-second, and lift it once it spans a thousand rounds of GVT
 * progress. Every rank sees the same global counts, so all agree. It only
 * changes speed: committed results are the same with any window. */
static void adapt_window(warp_ctx *w, double dg, uint64_t dc, uint64_t dr, double *adv)
{
    if (dg > 0)
        *adv = *adv > 0 ? 0.5 * *adv + 0.5 * dg : dg;
    if (!*adv)
        return;
    double floor = w->m->lookahead > 0 ? w->m->lookahead : 1e-9 * w->opt.end;
    if (dr * 8 > dc) {
        double x = isinf(w->sched.window) ? 4 * *adv : (dr > dc ? 0.25 : 0.5) * w->sched.window;
        w->sched.window = x > floor ? x : floor;
    } else if (dr * 32 < dc && !isinf(w->sched.window)) {
        w->sched.window *= 2;
        if (w->sched.window > 1000 * *adv)
            w->sched.window = INFINITY;
    }
}

/* --gvt-interval=auto: a GVT round costs a reduction and a fossil pass
 * whatever it commits, so while the events not yet committed after a
 * round hold little of the pool, rounds become rarer (up to 1,024 batches
 * apart); when they hold a quarter, more frequent again (down to 4). The
 * committed result does not depend on the interval. Measured against the
 * pool's working size, not the whole reservation: that would let rounds
 * grow rare and uncommitted events fill the rank's memory. */
static void adapt_interval(warp_ctx *w)
{
    uint64_t in_use = w->pool.in_use, cap = w->pool.work;
    if (in_use * 16 < cap && w->sched.gvt_interval < 1024)
        w->sched.gvt_interval *= 2;
    else if (in_use * 4 > cap && w->sched.gvt_interval > 4)
        w->sched.gvt_interval /= 2;
}

/* A held rank's next event lies below the bound: whatever arrives meanwhile
 * lands at the bound or later (gvt.c), and what it sends is needed by the
 * others only once they reach it, so it neither polls nor flushes (full
 * buffers still go out): conservative windows exchange once per window
 * too. */
static bool held_below_bound(warp_ctx *w)
{
    if (!w->sched.safe_hold)
        return false;
    warp_event *m = queue_peek(w);
    return m && m->ts < w->sched.safe_ts;
}

static void run_distributed(warp_ctx *w)
{
    double last_gvt = -1, adv = 0, held_at = NAN, held_limit = -INFINITY;
    uint64_t last_committed = 0, last_rolled = 0, stalled = 0;
    /* One clock reading per phase boundary, each closing one phase and
     * opening the next (see run_batch). */
    double clock = warp_wtime(), t;
    for (;;) {
        if (!held_below_bound(w))
            transport_poll(w);
        t = warp_wtime();
        w->cnt.t.net += t - clock;
        clock = t;
        /* Under memory pressure stop running ahead and let GVT catch up. */
        bool low = pool_low(w);
        double limit = low ? w->sched.gvt_value : w->sched.gvt_value + w->sched.window;
        /* Held: only what runs final, strictly below the bound (the
         * largest double below it, recomputed only when the bound moves:
         * nextafter is a library call). */
        if (w->sched.safe_hold && w->sched.safe_ts != held_at) {
            held_at = w->sched.safe_ts;
            held_limit = nextafter(held_at, -INFINITY);
        }
        if (w->sched.safe_hold && !(limit < w->sched.safe_ts))
            limit = held_limit;
        bool ran = run_batch(w, low, limit, w->opt.batch, &clock);
        /* One look at the next event serves both: held below the bound
         * (no flush), or past it (stale: see below). */
        warp_event *next = w->sched.safe_la > 0 ? queue_peek(w) : NULL;
        bool below = next && next->ts < w->sched.safe_ts;
        if (!(w->sched.safe_hold && below))
            transport_flush(w);
        t = warp_wtime();
        w->cnt.t.net += t - clock;
        clock = t;
        bool idle = !ran;
        /* Past the safe bound every event pays for saving: an asynchronous
         * round starts at once rather than after --gvt-interval batches. */
        bool stale = w->gvt.kind == 0 && next && !below;
        bool round = gvt_step(w, idle || stale);
        t = warp_wtime();
        w->cnt.t.gvt += t - clock;
        clock = t;
        if (round) {
            if (w->sched.stop_requested)
                return;
            double cut;
            if (ckpt_due(w, w->sched.gvt_value, &cut)) {
                ckpt_take(w, cut);
                if (w->ck.stop)
                    return;
            }
            if (w->sched.gvt_value >= w->opt.end)
                break;
            fossil_collect_below(w, &w->sched.gvt_key);
            transport_fossil(w, w->sched.gvt_value);
            if (w->opt.gvt_interval_auto)
                adapt_interval(w);
            /* GVT and the global commit count frozen while this rank is out
             * of memory: no schedule can finish in this pool. */
            uint64_t c = w->sched.gvt_committed;
            stalled = low && w->sched.gvt_value == last_gvt && c == last_committed ? stalled + 1 : 0;
            if (w->opt.window_auto && last_gvt >= 0)
                adapt_window(w, w->sched.gvt_value - last_gvt, c - last_committed,
                             w->sched.gvt_rolled - last_rolled, &adv);
            last_gvt = w->sched.gvt_value;
            last_committed = c;
            last_rolled = w->sched.gvt_rolled;
            if (stalled >= 64) {
                char how[64];
                snprintf(how, sizeof how, ", no progress in %llu GVT rounds", (unsigned long long)stalled);
                pool_exhausted(w, how);
            }
            clock = warp_wtime(); /* fossil collection timed itself */
        } else if (idle) {
            sched_yield(); /* oversubscribed ranks share cores */
            clock = warp_wtime(); /* waiting is no phase's time */
        }
    }
    fossil_collect(w, INFINITY);
    transport_fossil(w, INFINITY);
    w->sched.gvt_value = w->opt.end;
}

void sched_opt(warp_ctx *w)
{
    if (w->nranks == 1)
        run_local(w);
    else
        run_distributed(w);
    if (!w->sched.stop_requested && !w->ck.stop)
        round_report(w, w->opt.end, w->cnt.committed, w->cnt.rolled_back, true);
}
