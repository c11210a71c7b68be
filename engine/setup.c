/* engine/setup.c — builds a run: LPs placed on PEs (map.c), grouped into
 * KPs, states, the pool and queue; then runs init handlers, the chosen
 * scheduler and finish handlers. Called by warp_run. */
#include "internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

/* Refuse early, with the estimate, a run whose LPs alone cannot fit: the
 * alternative is an out-of-memory kill deep into setup. Ranks on one node
 * share its memory, so each counts against its share. */
static void check_memory(const warp_ctx *w, uint64_t lp_bytes)
{
    uint64_t avail = warp_memory_per_rank(w);
    if (!avail || lp_bytes <= avail)
        return;
    warp_fatal(WARP_EXIT_RESOURCE,
               "%llu LPs need about %.2f GB on rank %d but it has %.2f GB (%d rank(s) on its node, "
               "--mem-per-rank): run on more nodes or with fewer LPs",
               (unsigned long long)w->nlocal, (double)lp_bytes / 1e9, w->rank, (double)avail / 1e9,
               w->on_node);
}

/* Models have a handful of types, and consecutive LPs mostly share one. */
const warp_lp_type *lp_class_for(warp_ctx *w, const warp_lp_type *t)
{
    if (w->nclasses && w->classes[w->nclasses - 1]->model == t)
        return &w->classes[w->nclasses - 1]->t;
    for (uint32_t k = 0; k < w->nclasses; k++)
        if (w->classes[k]->model == t) {
            /* the last one found is checked first next time */
            lp_class *c = w->classes[k];
            w->classes[k] = w->classes[w->nclasses - 1];
            w->classes[w->nclasses - 1] = c;
            return &c->t;
        }
    lp_class **a = realloc(w->classes, (w->nclasses + 1) * sizeof *a);
    lp_class *c = malloc(sizeof *c);
    if (!a || !c)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for the LP types on rank %d", w->rank);
    *c = (lp_class){.t = *t, .w = w, .model = t};
    /* The bytes queue_prefetch_ahead loads, decided once per type. */
    size_t head = t->state_head ? t->state_head : STATE_HEAD_DEFAULT;
    c->t.state_head = head < t->state_size ? head : t->state_size;
    w->classes = a;
    w->classes[w->nclasses++] = c;
    return &c->t;
}

void lp_classes_free(warp_ctx *w)
{
    for (uint32_t k = 0; k < w->nclasses; k++)
        free(w->classes[k]);
    free(w->classes);
    w->classes = NULL;
    w->nclasses = 0;
}

/* A state's alignment: what its type asks for, at least 16 bytes. */
static size_t state_align_of(const warp_lp_type *t) { return t->state_align > 16 ? t->state_align : 16; }

/* The bytes of state memory an LP of type t may take: its state rounded to
 * 16 bytes, and the most its alignment may skip before it (the states lie
 * one after another from a page-aligned block). */
static size_t state_span(const warp_ctx *w, const warp_lp_type *t)
{
    size_t a = t->state_align;
    if (a && ((a & (a - 1)) || a > 4096))
        warp_fatal(WARP_EXIT_USAGE, "model %s: LP type %s asks for a state alignment of %zu bytes; give a power of two up to 4096",
                   w->m->name, t->name ? t->name : "?", a);
    return ((t->state_size + 15) & ~(size_t)15) + state_align_of(t) - 16;
}

/* Returns the bytes its LPs take (records, states, outputs). */
static uint64_t build_lps(warp_ctx *w)
{
    const warp_model *m = w->m;
    uint64_t n = w->nlocal;
    /* Sizes first, so a run too big for the node is refused before any of
     * it is touched. */
    size_t state_bytes = 0, out_bytes = 0;
    for (uint64_t i = 0; i < n; i++) {
        if ((i & 0x3FF) == 0)
            warp_poll_interrupt("building the LPs");
        warp_lpid gid = w->gids ? w->gids[i] : w->first_gid + i;
        const warp_lp_type *t = m->lp_type(gid, m->arg);
        if (!t || !t->forward)
            warp_fatal(WARP_EXIT_USAGE, "model %s gives LP %llu no type with a forward handler",
                       m->name, (unsigned long long)gid);
        state_bytes += state_span(w, t);
        out_bytes += (t->out_size + 15) & ~(size_t)15;
    }
    uint64_t lp_bytes = n * sizeof(warp_lp) + state_bytes + out_bytes;
    check_memory(w, lp_bytes);
    /* Events reach LPs at random: past the TLB's reach (a few MiB in 4 KiB
     * pages) nearly every event misses it on its LP's record and state. */
    w->huge_active = w->opt.huge_pages == WARP_HUGE_ON ||
                     (w->opt.huge_pages == WARP_HUGE_AUTO && lp_bytes > WARP_HUGE_AUTO_BYTES);
    w->prefetch_deep = lp_bytes > FINAL_PREFETCH_DEEP_BYTES;
    w->lps = big_map((n ? n : 1) * sizeof *w->lps, w->huge_active);
    if (!w->lps)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for %llu LPs on rank %d", (unsigned long long)n,
                   w->rank);
    for (uint64_t i = 0; i < n; i++) {
        warp_lpid gid = w->gids ? w->gids[i] : w->first_gid + i;
        w->lps[i].rng = warp_rng_stream(w->opt.seed, gid);
        w->lps[i].type = lp_class_for(w, m->lp_type(gid, m->arg));
    }
    w->state_bytes = state_bytes;
    w->out_bytes = out_bytes;
    w->state_mem = big_map(state_bytes, w->huge_active);
    w->out_mem = big_map(out_bytes, w->huge_active);
    if (!w->state_mem || !w->out_mem)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for LP states (%zu bytes) on rank %d",
                   state_bytes + out_bytes, w->rank);
    if (w->opt.kps_opt)
        w->nkps = w->opt.kps_opt < n ? w->opt.kps_opt : n;
    else if (w->opt.lps_per_kp)
        w->nkps = (n + w->opt.lps_per_kp - 1) / w->opt.lps_per_kp;
    else
        w->nkps = n < 64 ? n : 64;
    if (!w->nkps)
        w->nkps = 1;
    w->kp_mul = w->nkps < n ? (uint64_t)(((u128)w->nkps << 64) / n) : 0;
    w->kps = calloc(w->nkps, sizeof *w->kps);
    if (!w->kps)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for %llu KPs", (unsigned long long)w->nkps);
    undo_size_chunks(w);
    w->live_kps = calloc(w->nkps, sizeof *w->live_kps);
    if (!w->live_kps)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for %llu KPs", (unsigned long long)w->nkps);
    w->nlive = 0;
    for (uint64_t k = 0; k < w->nkps; k++)
        w->kps[k].id = (uint32_t)k;
    char *s = w->state_mem, *o = w->out_mem;
    for (uint64_t i = 0; i < n; i++) {
        warp_lp *lp = &w->lps[i];
        size_t a = state_align_of(lp->type);
        s = (char *)(((uintptr_t)s + a - 1) & ~(uintptr_t)(a - 1));
        lp->state = s;
        lp->out = o;
        s += (lp->type->state_size + 15) & ~(size_t)15;
        o += (lp->type->out_size + 15) & ~(size_t)15;
    }
    return lp_bytes;
}

static void check_mode(const warp_ctx *w)
{
    const warp_model *m = w->m;
    if (!m->total_lps)
        warp_fatal(WARP_EXIT_USAGE, "model %s has no LPs", m->name);
    if (!m->lp_type)
        warp_fatal(WARP_EXIT_USAGE, "model %s gives no lp_type function", m->name);
    if (w->nranks > 1 && (w->opt.synch == SYNCH_SEQ || w->opt.synch == SYNCH_CHECK || w->opt.synch == SYNCH_DEBUG))
        warp_fatal(WARP_EXIT_USAGE,
                   "--synch=%s runs on one rank (started on %d): use --synch=opt or cons under mpiexec",
                   w->opt.synch == SYNCH_SEQ ? "seq" : w->opt.synch == SYNCH_CHECK ? "check" : "debug",
                   w->nranks);
    if (w->opt.synch == SYNCH_CONS && !(m->lookahead > 0))
        warp_fatal(WARP_EXIT_USAGE,
                   "--synch=cons needs a positive lookahead; model %s declares %g: use --synch=opt",
                   m->name, m->lookahead);
}

/* Conservative mode lets a group's LPs send each other events inside the
 * lookahead, which is safe only while the group runs on one PE. */
static void check_groups(const warp_ctx *w)
{
    const warp_model *m = w->m;
    if (w->opt.synch != SYNCH_CONS || !m->group || w->nranks == 1)
        return;
    for (uint64_t i = 0; i < w->nlocal; i++) {
        warp_lpid gid = lp_gid(&w->lps[i]), g = m->group(gid, m->arg);
        if (g >= w->total_lps || map_pe_of(w, g) != w->rank)
            warp_fatal(WARP_EXIT_INTERNAL,
                       "model %s puts LP %llu in the group of LP %llu but maps them to different "
                       "processes; --synch=cons needs a group on one process",
                       m->name, (unsigned long long)gid, (unsigned long long)g);
    }
}

static void teardown(warp_ctx *w)
{
    for (uint64_t k = 0; k < w->nkps; k++)
        undo_destroy(w, &w->kps[k]);
    while (w->spare_chunks) {
        undo_chunk *c = w->spare_chunks;
        w->spare_chunks = c->next;
        free(c);
    }
    if (w->nranks > 1)
        transport_destroy(w);
    gvt_destroy(w);
    queue_destroy(&w->queue);
    alloc_destroy(&w->alloc);
    pool_destroy(w);
    free(w->kps);
    free(w->live_kps);
    w->live_kps = NULL;
    big_unmap(w->lps, (w->nlocal ? w->nlocal : 1) * sizeof *w->lps, w->huge_active);
    big_unmap(w->state_mem, w->state_bytes, w->huge_active);
    big_unmap(w->out_mem, w->out_bytes, w->huge_active);
    w->state_mem = w->out_mem = NULL;
    lp_classes_free(w);
    map_free(w);
    free(w->check_snap);
    w->check_snap = NULL;
    w->kps = NULL;
    w->lps = NULL;
}

/* The setup progress line on rank 0 (with --progress, as the run's line):
 * LPs initialised so far — where a replay reads and builds its traces —
 * and an ETA from this rank's own pace, at most four times a second.
 * last < 0 ends the line. Returns the time of the last line shown. */
static double setup_progress(warp_ctx *w, uint64_t done, double t0, double last)
{
    if (w->rank != 0 || !w->rep.progress || !w->nlocal)
        return last;
    double now = warp_wtime();
    if (last >= 0 && now - last < 0.25)
        return last;
    double el = now - t0, frac = (double)done / (double)w->nlocal;
    fprintf(stderr, "\r[warp] setup: %" PRIu64 " / %" PRIu64 " LPs initialised (%5.1f%%)  ETA %6.0f s %s", done,
            w->nlocal, 100 * frac, frac > 0 ? el * (1 - frac) / frac : 0.0, last < 0 ? "\n" : "");
    fflush(stderr);
    return now;
}

void warp_run(warp_ctx *w, const warp_model *m)
{
    double t0 = warp_wtime();
    w->m = m;
    w->total_lps = m->total_lps;
    w->msg_size = m->msg_size;
    w->digest_size = m->digest_size > m->msg_size ? m->digest_size : m->msg_size;
    digest_setup(w);
    check_mode(w);
    ckpt_setup(w);
    w->sched.tracking = w->opt.synch == SYNCH_OPT || w->opt.synch == SYNCH_CHECK || w->opt.synch == SYNCH_DEBUG;
    w->sched.saving = w->sched.tracking;
    w->sched.safe_la = w->opt.safe_events && w->opt.synch == SYNCH_OPT && w->nranks > 1 && m->lookahead > 0 ? m->lookahead : 0;
    w->sched.safe_ts = -INFINITY;
    w->sched.final_key = (gvt_key){.ts = -INFINITY};
    w->sched.safe_hold = w->sched.safe_la > 0 && !w->opt.safe_ahead;
    w->sched.stragglers = w->sched.tracking && !w->sched.safe_hold;
    w->sched.la_enforced = w->opt.synch == SYNCH_CONS ? m->lookahead : w->sched.safe_la;
    w->cnt.final_run = 0;
    w->cnt.committed = w->cnt.processed = w->cnt.rolled_back = w->cnt.rb_primary = w->cnt.rb_secondary = 0;
    w->cnt.gvt_rounds = w->cnt.fossils = w->cnt.remote_sent = w->cnt.anti_sent = w->cnt.pops = w->cnt.doomed = 0;
    w->cnt.ring_records = w->cnt.ring_waits = w->cnt.gvt_shared = 0;
    memset(&w->cnt.t, 0, sizeof w->cnt.t);
    w->sched.gvt_value = 0;
    w->rep.progress = w->opt.progress || (w->rank == 0 && isatty(2) && !w->opt.quiet);
    w->sched.gvt_interval = w->opt.gvt_interval;
    w->sched.window = w->opt.window;

    map_build(w);
    uint64_t lp_bytes = build_lps(w);
    check_groups(w);
    /* The states are not touched yet, so the memory still reads as free:
     * the pool's share is what is left after them. */
    uint64_t mem = w->opt.events_opt ? 0 : warp_memory_per_rank(w);
    pool_init(w, w->opt.events_opt, mem > lp_bytes ? mem - lp_bytes : 0);
    queue_init(&w->queue, w->opt.qkind, w->nlocal + 16, &w->pool, w->total_lps);
    alloc_init(&w->alloc);
    w->sched.debug_rng = warp_rng_stream(w->opt.seed ^ 0xDEB06DEB06ull, (uint64_t)w->rank);
    if (w->nranks > 1)
        transport_init(w);
    gvt_init(w);

    w->sched.now_init = 0;
    w->ck.restored_committed = 0;
    ckpt_prepare(w);
    if (w->opt.restart_dir) {
        ckpt_restore(w); /* in place of init: states and events from the checkpoint */
    } else {
        double t_shown = t0;
        for (uint64_t i = 0; i < w->nlocal; i++) {
            warp_lp *lp = &w->lps[i];
            if ((i & 0x3FF) == 0) {
                warp_poll_interrupt("initialising the LPs");
                t_shown = setup_progress(w, i, t0, t_shown);
            }
            if (lp->type->init) {
                w->sched.cur_lp = lp;
                lp->type->init(lp, lp->state);
                w->sched.cur_lp = NULL;
            }
        }
        if (t_shown > t0) /* a progress line was shown: end it */
            setup_progress(w, w->nlocal, t0, -1);
    }
    coll_barrier(w);
    fatal_run_started();
    w->cnt.t_setup = warp_wtime() - t0;
    w->cnt.t_start = warp_wtime();
    w->rep.last_progress = w->rep.last_heartbeat = w->cnt.t_start;
    report_open(w);

    switch (w->opt.synch) {
    case SYNCH_SEQ:
        sched_seq(w);
        break;
    case SYNCH_CONS:
        sched_cons(w);
        break;
    case SYNCH_CHECK:
        sched_check(w);
        break;
    case SYNCH_OPT:
    case SYNCH_DEBUG:
        sched_opt(w);
        break;
    }
    double run_s = warp_wtime() - w->cnt.t_start;
    if (w->ck.stop || (w->sched.stop_requested && w->opt.ckpt_dir))
        ckpt_on_stop(w, w->sched.gvt_value);
    if (w->sched.stop_requested) {
        /* No finish handlers: nothing may look like a result. */
        w->stats.run_s = run_s;
        stats_finish(w);
        report_close(w, false);
        /* Messages may still be in flight: the transport stays up, so
         * several ranks abort, once rank 0 has said why. */
        warp_stop_all(w, WARP_EXIT_SIGNAL, "interrupted by a signal at GVT %.9g of %.9g: the statistics above "
                                           "are partial and no model results were written",
                      w->sched.gvt_value, w->opt.end);
    }

    for (uint64_t i = 0; i < w->nlocal; i++) {
        warp_lp *lp = &w->lps[i];
        if (lp->type->finish) {
            w->sched.cur_lp = lp;
            lp->type->finish(lp, lp->state, lp->out);
            w->sched.cur_lp = NULL;
        }
    }
    w->stats.run_s = run_s;
    stats_finish(w);
    report_close(w, true);
    teardown(w);
}
