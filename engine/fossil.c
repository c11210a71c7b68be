/* engine/fossil.c — commit and fossil collection. Invariant: an event is
 * committed exactly once, when its timestamp is below GVT (or in sequential
 * and conservative modes right after it ran); its commit handler and digest
 * update happen then and only then, in key order per LP. */
#include "internal.h"

void commit_event(warp_ctx *w, warp_event *e)
{
    warp_lp *lp = e->lp;
    if (lp->type->commit) {
        w->cur_lp = lp;
        w->in_commit = e;
        lp->type->commit(lp, lp->out, EV_PAYLOAD(e), &e->bits);
        w->in_commit = NULL;
        w->cur_lp = NULL;
    }
    lp->digest = (lp->digest ^ digest_event(w, e)) * 0x100000001B3ull + 0x9E3779B97F4A7C15ull;
    for (alloc_hdr *h = e->frees, *n; h; h = n) {
        n = h->fnext;
        alloc_put(w, h);
    }
    /* Remote-send records are only needed for cancellation; local children
     * are independent events (possibly committed already) and are not
     * touched. */
    for (warp_event *c = e->rsent, *n; c; c = n) {
        n = c->sibling;
        pool_put(w, c);
    }
    if (e->remote)
        remote_forget(w, e);
    w->committed++;
    pool_put(w, e);
}

/* Commits events with ts < gvt, or with a key below `below` when given:
 * on one rank nothing can arrive below the smallest pending key, so
 * everything before it is final, ties with it included. */
static void fossil(warp_ctx *w, double gvt, const warp_event *below)
{
    double t0 = warp_wtime();
    uint64_t kept = 0;
    for (uint64_t k = 0; k < w->nlive; k++) {
        warp_kp *kp = w->live_kps[k];
        warp_event *e = kp->head;
#define FINAL(x) (below ? ev_less((x), below) : (x)->ts < gvt)
        if (!e) { /* emptied by a rollback */
            kp->live = false;
            continue;
        }
        if (!FINAL(e)) {
            w->live_kps[kept++] = kp;
            continue;
        }
        while (e && FINAL(e)) {
#undef FINAL
            /* The list was written long ago and is cold: the next event's
             * header and payload load while this one commits. */
            warp_event *n = e->next;
            if (n) {
                __builtin_prefetch(n);
                __builtin_prefetch(EV_PAYLOAD(n));
            }
            commit_event(w, e);
            e = n;
        }
        kp->head = e;
        if (e) {
            e->prev = NULL;
            w->live_kps[kept++] = kp;
        } else {
            kp->tail = NULL;
            kp->live = false;
        }
        undo_release_before(w, kp, e);
    }
    w->nlive = kept;
    w->fossils++;
    w->t.fossil += warp_wtime() - t0;
}

void fossil_collect(warp_ctx *w, double gvt)
{
    fossil(w, gvt, NULL);
}

void fossil_collect_below(warp_ctx *w, const warp_event *key)
{
    fossil(w, 0, key);
}
