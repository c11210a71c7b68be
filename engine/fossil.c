/* engine/fossil.c — commit and fossil collection. Invariant: an event is
 * committed exactly once, when its key is below GVT's key (the smallest
 * pending key on one rank; in sequential and conservative modes right after
 * it ran); its commit handler and digest
 * update happen then and only then, in key order per LP. The digest word
 * itself was hashed when the event's (last) forward handler ran. */
#include "internal.h"

void commit_event(warp_ctx *w, warp_event *e)
{
    warp_lp *lp = e->lp;
    if (lp->type->commit) {
        w->sched.cur_lp = lp;
        w->sched.in_commit = e;
        lp->type->commit(lp, lp->out, EV_PAYLOAD(e), &e->bits);
        w->sched.in_commit = NULL;
        w->sched.cur_lp = NULL;
    }
    /* Check mode rehashes what it commits: a payload written after the
     * forward handler (by a commit handler casting away const, or through a
     * pointer a handler kept) would make the committed digest depend on
     * when it was hashed, so differ between modes. */
    if (w->opt.synch == SYNCH_CHECK)
        check_commit_digest(w, e);
    lp->digest = (lp->digest ^ e->digest) * 0x100000001B3ull + 0x9E3779B97F4A7C15ull;
    for (alloc_hdr *h = e->frees, *n; h; h = n) {
        n = h->fnext;
        alloc_put(w, h);
    }
    /* Remote-send records are only needed for cancellation; local children
     * are independent events (possibly committed already) and are not
     * touched. */
    for (warp_event *c = e->rsent, *n; c; c = n) {
        n = EV_COLD(c)->sibling;
        pool_put(w, c);
    }
    if (e->remote)
        remote_forget(w, e);
    w->cnt.committed++;
    pool_put(w, e);
}

/* What commit_event reads of an LP: type, out and digest (its one line). */
static inline void prefetch_commit_lp(const warp_lp *lp) { __builtin_prefetch(lp); }

/* KPs committed side by side: each lane's next event is prefetched a
 * whole round of the lanes before it commits. The lists were written long
 * ago and are cold, and one KP's list alone is a chain of dependent cache
 * misses (fossil collection was 15-20 % of a 2-rank Slim Fly rank's
 * samples). Per-LP commit order is kept: an LP's events are all in its
 * KP's list, and other modes commit KPs in other orders already. */
#define FOSSIL_LANES 8

/* Commits events with ts < gvt, or with a key below `below` when given:
 * on one rank nothing can arrive below the smallest pending key, so
 * everything before it is final, ties with it included; on several, GVT's
 * key bounds the same way (gvt.c). Only KPs holding processed events are
 * visited (w->live_kps). */
static inline bool ev_below(const warp_event *e, const gvt_key *k)
{
    return WARP_KEY_LESS(e, k);
}

#define FINAL(x) (below ? ev_below((x), below) : (x)->ts < gvt)

/* Commits the lanes side by side (see FOSSIL_LANES). Each lane's head is
 * final. With `check` a lane leaves the rotation at its first event that
 * is not, which becomes stop[i] (so no event is tested twice); without,
 * every lane is known final to its end and no key is read to decide: the
 * compiler evaluated the test whatever guarded it (it if-converts loads it
 * knows are safe), 15 instructions per event for nothing. */
static inline __attribute__((always_inline)) void commit_lanes(warp_ctx *w, warp_event **lane, warp_event **stop,
                                                               int nl, bool check, double gvt,
                                                               const gvt_key *below)
{
    for (int busy = nl; busy;) {
        busy = 0;
        for (int i = 0; i < nl; i++) {
            warp_event *e = lane[i];
            if (!e)
                continue;
            /* The next event was prefetched a lane round ago: its LP and
             * its successor load now, two rounds ahead. */
            warp_event *n = e->next;
            if (n) {
                prefetch_commit_lp(n->lp);
                __builtin_prefetch(EV_PAYLOAD(n));
                if (n->next)
                    __builtin_prefetch(n->next);
                if (check && !FINAL(n)) {
                    stop[i] = n;
                    n = NULL;
                }
            }
            commit_event(w, e);
            lane[i] = n;
            busy += n != NULL;
        }
    }
}

static void fossil(warp_ctx *w, double gvt, const gvt_key *below)
{
    double t0 = warp_wtime();
    /* Timestamps below this are final whatever their tie fields. */
    double sure = below ? below->ts : gvt;
    uint64_t kept = 0, k = 0;
    while (k < w->nlive) {
        warp_kp *lane_kp[FOSSIL_LANES];
        warp_event *lane[FOSSIL_LANES], *stop[FOSSIL_LANES];
        /* A lane is whole when its KP's newest event is final, as every
         * KP's is at every round on one rank: all of it commits. */
        bool whole = true;
        int nl = 0;
        while (nl < FOSSIL_LANES && k < w->nlive) {
            warp_kp *kp = w->live_kps[k++];
            warp_event *e = kp->head;
            if (!e) { /* emptied by a rollback */
                kp->live = false;
                continue;
            }
            bool all = kp->tail_ts < sure || FINAL(kp->tail); /* the tail is recent, hot */
            if (!all && !FINAL(e)) {
                w->live_kps[kept++] = kp; /* kept <= k: never overwrites one unread */
                continue;
            }
            if (e->next)
                __builtin_prefetch(e->next);
            prefetch_commit_lp(e->lp);
            whole &= all;
            lane_kp[nl] = kp;
            stop[nl] = NULL;
            lane[nl++] = e;
        }
        if (whole && nl == 1) /* common: a batch's events cluster in a KP or two */
            commit_lanes(w, lane, stop, 1, false, gvt, below);
        else if (whole)
            commit_lanes(w, lane, stop, nl, false, gvt, below);
        else
            commit_lanes(w, lane, stop, nl, true, gvt, below);
        for (int i = 0; i < nl; i++) {
            warp_kp *kp = lane_kp[i];
            warp_event *e = stop[i];
            kp->head = e;
            if (e) {
                EV_COLD(e)->prev = NULL;
                w->live_kps[kept++] = kp;
            } else {
                kp->tail = NULL;
                kp->live = false;
            }
            undo_release_before(w, kp, e);
        }
    }
    w->nlive = kept;
    w->cnt.fossils++;
    w->cnt.t.fossil += warp_wtime() - t0;
}
#undef FINAL

void fossil_collect(warp_ctx *w, double gvt)
{
    fossil(w, gvt, NULL);
}

void fossil_collect_below(warp_ctx *w, const gvt_key *key)
{
    fossil(w, 0, key);
}
