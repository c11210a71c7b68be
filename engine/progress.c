/* engine/progress.c — the progress line on rank 0's stderr: GVT as a fraction
 * of the end time, committed events/s, efficiency and ETA, redrawn at most
 * four times a second (when stderr is a terminal, or with --progress). */
#include "internal.h"

void progress_maybe(warp_ctx *w, double gvt, uint64_t committed_all, uint64_t rolled_all, bool force)
{
    if (!w->progress || w->rank != 0)
        return;
    double now = warp_wtime();
    if (!force && now - w->last_progress < 0.25)
        return;
    w->last_progress = now;
    double el = now - w->t_start;
    double frac = w->end > 0 ? gvt / w->end : 0;
    if (frac > 1)
        frac = 1;
    double rate = el > 0 ? (double)committed_all / el : 0;
    double eff = committed_all ? 1.0 - (double)rolled_all / (double)committed_all : 1.0;
    double eta = frac > 0 ? el * (1 - frac) / frac : 0;
    fprintf(stderr, "\r[warp] GVT %.6g / %.6g (%5.1f%%)  %8.3f M ev/s  eff %6.2f%%  ETA %6.0f s ",
            gvt, w->end, 100 * frac, rate / 1e6, 100 * eff, eta);
    fflush(stderr);
}
