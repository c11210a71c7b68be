/* engine/check.c — --synch=check: every event runs forward, is rolled back
 * through the real rollback path, its LP state is compared byte for byte with
 * a snapshot taken before it ran, and it runs forward again. The first
 * difference outside the LP type's check_skip regions stops the run with the
 * LP type, LP, event and byte offset: the reverse handler (or a warp_save)
 * misses that write. Runs on one rank. */
#include "internal.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>

static bool skipped(const warp_lp_type *t, size_t off)
{
    for (size_t i = 0; i < t->check_skip_count; i++)
        if (off >= t->check_skip[i].offset && off < t->check_skip[i].offset + t->check_skip[i].len)
            return true;
    return false;
}

/* Stops the run with the check's exit code, leaving nothing behind. */
static void check_fail(warp_ctx *w, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void check_fail(warp_ctx *w, const char *fmt, ...)
{
    free(w->check_snap);
    w->check_snap = NULL;
    va_list ap;
    va_start(ap, fmt);
    warp_vfatal(WARP_EXIT_CHECK, fmt, ap);
}

void check_commit_digest(warp_ctx *w, const warp_event *e)
{
    if (digest_event(w, e) == e->digest)
        return;
    const warp_lp *lp = e->lp;
    check_fail(w,
               "--synch=check: LP %llu (type %s), event at time %.17g from LP %llu: its payload changed "
               "after the forward handler ran (the commit handler wrote it, or a handler kept a pointer "
               "to it): only the forward handler may write an event's payload",
               (unsigned long long)lp_gid(lp), lp->type->name ? lp->type->name : "?", e->ts,
               (unsigned long long)e->src);
}

static void compare(warp_ctx *w, warp_event *e, const unsigned char *before)
{
    warp_lp *lp = e->lp;
    const warp_lp_type *t = lp->type;
    const unsigned char *now = lp->state;
    if (!memcmp(before, now, t->state_size))
        return;
    for (size_t i = 0; i < t->state_size; i++) {
        if (before[i] == now[i] || skipped(t, i))
            continue;
        const char *ename = t->event_name ? t->event_name(EV_PAYLOAD(e)) : NULL;
        unsigned char was = before[i];
        check_fail(w,
                   "--synch=check: LP %llu (type %s), event at time %.17g%s%s%s from LP %llu: state "
                   "byte %zu is 0x%02x after forward+rollback but was 0x%02x before: the reverse "
                   "handler or a warp_save misses a write there",
                   (unsigned long long)lp_gid(lp), t->name ? t->name : "?", e->ts,
                   ename ? " (" : "", ename ? ename : "", ename ? ")" : "",
                   (unsigned long long)e->src, i, now[i], was);
    }
}

void sched_check(warp_ctx *w)
{
    double t0 = warp_wtime();
    size_t maxstate = 1;
    for (uint64_t i = 0; i < w->nlocal; i++)
        if (w->lps[i].type->state_size > maxstate)
            maxstate = w->lps[i].type->state_size;
    unsigned char *snap = w->check_snap = malloc(maxstate);
    if (!snap)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for a %zu-byte state snapshot", maxstate);
    uint64_t n = 0;
    warp_event *e;
    while ((e = queue_pop(w))) {
        warp_lp *lp = e->lp;
        memcpy(snap, lp->state, lp->type->state_size);
        uint64_t rng0 = lp->rng.counter, seq0 = lp->seq;
        process_event(w, e);
        undo_event(w, e);
        WARP_ASSERT(lp->rng.counter == rng0 && lp->seq == seq0, "rollback restores the RNG counter and send sequence");
        compare(w, e, snap);
        process_event(w, e);
        kp_append(w, lp_kp(w, lp), e);
        if ((++n & 1023) == 0) {
            warp_event *m = queue_peek(w);
            w->sched.gvt_value = m ? m->ts : INFINITY;
            fossil_collect(w, w->sched.gvt_value);
            w->cnt.gvt_rounds++;
            round_report(w, w->sched.gvt_value, w->cnt.committed, w->cnt.rolled_back, false);
            if (warp_signal_pending()) {
                w->sched.stop_requested = true;
                return;
            }
        }
    }
    fossil_collect(w, INFINITY);
    w->sched.gvt_value = w->opt.end;
    w->cnt.t.forward = warp_wtime() - t0 - w->cnt.t.fossil - w->cnt.t.reverse;
    round_report(w, w->opt.end, w->cnt.committed, w->cnt.rolled_back, true);
}
