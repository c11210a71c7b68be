/* engine/report.c — what the engine shows while it runs. At every GVT round
 * (window in cons mode, 2^18 events in seq mode): an instrumentation row per
 * rank when --engine-stats=FILE is on (gathered to rank 0 at the end), the
 * progress line on rank 0's stderr (a terminal, or --progress; at most four
 * times a second) and a heartbeat line every --heartbeat seconds in a file,
 * so batch jobs can be watched. Everything is off unless asked for. */
#include "internal.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <sys/resource.h>

static void add_row(warp_ctx *w, double gvt)
{
    if (w->rep.nrows == w->rep.cap_rows) {
        w->rep.cap_rows = w->rep.cap_rows ? 2 * w->rep.cap_rows : 256;
        w->rep.rows = realloc(w->rep.rows, w->rep.cap_rows * ROW_COLS * sizeof *w->rep.rows);
        if (!w->rep.rows)
            warp_fatal(WARP_EXIT_RESOURCE, "out of memory for --engine-stats rows");
    }
    double *r = w->rep.rows + w->rep.nrows++ * ROW_COLS;
    r[0] = warp_wtime() - w->cnt.t_start;
    r[1] = gvt;
    r[2] = (double)w->cnt.processed;
    r[3] = (double)w->cnt.committed;
    r[4] = (double)w->cnt.rolled_back;
    r[5] = w->cnt.t.forward;
    r[6] = w->cnt.t.reverse;
    r[7] = w->cnt.t.queue;
    r[8] = w->cnt.t.net;
    r[9] = w->cnt.t.gvt;
    r[10] = w->cnt.t.fossil;
    r[11] = (double)(w->pool.in_use * w->pool.ev_size);
}

void round_report(warp_ctx *w, double gvt, uint64_t committed_all, uint64_t rolled_all, bool force)
{
    if (w->opt.engine_stats)
        add_row(w, gvt);
    if (w->rank != 0 || (!w->rep.progress && !w->rep.heartbeat))
        return;
    double now = warp_wtime();
    double el = now - w->cnt.t_start;
    double frac = w->opt.end > 0 ? gvt / w->opt.end : 0;
    if (frac > 1)
        frac = 1;
    double rate = el > 0 ? (double)committed_all / el : 0;
    double eff = committed_all ? 1.0 - (double)rolled_all / (double)committed_all : 1.0;
    double eta = frac > 0 ? el * (1 - frac) / frac : 0;
    /* A model that finishes before its end bound (a replay of 43 s once
     * showed an ETA of 34 h against end = 1s): no share, no ETA. */
    if (w->opt.end_is_bound)
        frac = eta = NAN;
    if (w->rep.progress && (force || now - w->rep.last_progress >= 0.25)) {
        w->rep.last_progress = now;
        if (w->opt.end_is_bound && gvt >= w->opt.end)
            fprintf(stderr, "\r[warp] done                    %8.3f M ev/s  eff %6.2f%%  elapsed %6.0f s ",
                    rate / 1e6, 100 * eff, el);
        else if (w->opt.end_is_bound)
            fprintf(stderr, "\r[warp] GVT %.6g (runs until done)  %8.3f M ev/s  eff %6.2f%%  elapsed %6.0f s ",
                    gvt, rate / 1e6, 100 * eff, el);
        else
            fprintf(stderr, "\r[warp] GVT %.6g / %.6g (%5.1f%%)  %8.3f M ev/s  eff %6.2f%%  ETA %6.0f s ",
                    gvt, w->opt.end, 100 * frac, rate / 1e6, 100 * eff, eta);
        fflush(stderr);
    }
    if (w->rep.heartbeat && (force || now - w->rep.last_heartbeat >= w->opt.heartbeat_s)) {
        w->rep.last_heartbeat = now;
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        /* Under an end that is only a bound the share and the ETA are
         * unknown: "-", not nan, for the scripts that read the file. */
        char done[32] = "-", left[32] = "-";
        if (!w->opt.end_is_bound) {
            snprintf(done, sizeof done, "%.1f%%", 100 * frac);
            snprintf(left, sizeof left, "%.0f s", eta);
        }
        fprintf(w->rep.heartbeat,
                "wall %.1f s  gvt %.9g  end %.9g  done %s  committed %" PRIu64
                "  rate %.0f ev/s  efficiency %.4f  event_memory %.1f MB  rss %.1f MB  eta %s\n",
                el, gvt, w->opt.end, done, committed_all, rate, eff,
                (double)(w->pool.in_use * w->pool.ev_size) / 1e6, ru.ru_maxrss / 1024.0, left);
        fflush(w->rep.heartbeat);
    }
}

void report_open(warp_ctx *w)
{
    if (w->rank == 0 && w->opt.heartbeat_s > 0) {
        const char *f = w->opt.heartbeat_file ? w->opt.heartbeat_file : "warp-heartbeat.log";
        w->rep.heartbeat = fopen(f, "w");
        if (!w->rep.heartbeat)
            warp_fatal(WARP_EXIT_USAGE, "--heartbeat-file=%s: cannot write the file", f);
    }
}

static void write_engine_stats(warp_ctx *w)
{
    /* Rank 0 gathers every rank's rows and the KPs' rollback counts, then
     * writes FILE and FILE's ".kps.csv" companion. */
    int *counts, *displs, *kcounts, *kdispls;
    double *all = coll_gatherv(w, w->rep.rows, (int)(w->rep.nrows * ROW_COLS), COLL_DOUBLE, &counts, &displs,
                               "--engine-stats");
    int nk = (int)w->nkps;
    uint64_t *kl = malloc(((size_t)nk + 1) * 2 * sizeof *kl);
    if (!kl)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory gathering --engine-stats");
    for (int k = 0; k < nk; k++) {
        kl[2 * k] = w->kps[k].rollbacks;
        kl[2 * k + 1] = w->kps[k].rolled_back;
    }
    uint64_t *kall = coll_gatherv(w, kl, 2 * nk, COLL_U64, &kcounts, &kdispls, "--engine-stats");
    if (w->rank == 0) {
        FILE *f = fopen(w->opt.engine_stats, "w");
        if (!f)
            stats_output_failed(w, "engine-stats", w->opt.engine_stats);
        fprintf(f, "rank,round,wall_s,gvt,processed,committed,rolled_back,forward_s,reverse_s,"
                   "queue_s,network_s,gvt_s,fossil_s,event_bytes\n");
        for (int i = 0; i < w->nranks; i++)
            for (int j = 0; j < counts[i] / ROW_COLS; j++) {
                const double *r = all + displs[i] + j * ROW_COLS;
                fprintf(f, "%d,%d,%.6f,%.9g,%.0f,%.0f,%.0f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.0f\n", i,
                        j, r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], r[11]);
            }
        int bad = ferror(f);
        if (fclose(f) || bad)
            stats_output_failed(w, "engine-stats", w->opt.engine_stats);
        char path[4096];
        snprintf(path, sizeof path, "%s.kps.csv", w->opt.engine_stats);
        f = fopen(path, "w");
        if (!f)
            stats_output_failed(w, "engine-stats", path);
        fprintf(f, "rank,kp,rollbacks,rolled_back_events\n");
        for (int i = 0; i < w->nranks; i++)
            for (int k = 0; k < kcounts[i] / 2; k++)
                fprintf(f, "%d,%d,%" PRIu64 ",%" PRIu64 "\n", i, k, kall[kdispls[i] + 2 * k],
                        kall[kdispls[i] + 2 * k + 1]);
        bad = ferror(f);
        if (fclose(f) || bad)
            stats_output_failed(w, "engine-stats", path);
    }
    free(counts);
    free(displs);
    free(all);
    free(kl);
    free(kcounts);
    free(kdispls);
    free(kall);
}

void report_close(warp_ctx *w, bool write)
{
    if (w->opt.engine_stats && write)
        write_engine_stats(w);
    free(w->rep.rows);
    w->rep.rows = NULL;
    w->rep.nrows = w->rep.cap_rows = 0;
    if (w->rep.heartbeat) {
        fclose(w->rep.heartbeat);
        w->rep.heartbeat = NULL;
    }
}
