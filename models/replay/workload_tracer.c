/* workload_tracer.c — the replay workload's jobs from a TraceR directory:
 * `[workload] tracer_config = FILE` opens each job's trace as TraceR finds it
 * (a BigSim directory holding bgTrace, or an OTF2 anchor), checks its rank
 * count, and places its ranks by TraceR's global and job maps. Invariant: as
 * for [job.N] sections, every job rank sits on exactly one free network rank.
 * Called by rp_setup (workload_setup.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>
#include <string.h>

#include "warp_error.h"
#include "replay/workload_impl.h"

void rp_tracer_jobs(rp_config *c, const char *path, const replay_opts *o)
{
    replay_err err;
    c->tracer = warp_xcalloc(1, sizeof *c->tracer);
    if (replay_tracer_read(path, c->tracer, &err))
        warp_fatal(WARP_EXIT_USAGE, "%s", err.msg);
    const replay_tracer_config *t = c->tracer;
    c->njobs = t->njobs;
    c->jobs = warp_xcalloc((size_t)c->njobs, sizeof *c->jobs);
    uint64_t **place = warp_xcalloc((size_t)c->njobs, sizeof *place);
    for (int j = 0; j < c->njobs; j++) {
        rp_job *job = &c->jobs[j];
        job->trace = warp_xstrdup(t->jobs[j].trace);
        if (replay_source_open(job->trace, NULL, o, &job->src, &err))
            warp_fatal(WARP_EXIT_USAGE, "%s (job %d of %s)", err.msg, j, path);
        job->ranks = t->jobs[j].ranks;
        if (job->ranks != job->src->nranks)
            warp_fatal(WARP_EXIT_USAGE, "%s: job %d declares %d ranks but its trace %s has %d; fix the rank count",
                       path, j, job->ranks, job->trace, job->src->nranks);
        job->iterations = t->jobs[j].iterations;
        job->global = warp_xcalloc((size_t)job->ranks, sizeof *job->global);
        place[j] = job->global;
    }
    if (replay_tracer_placement(t, c->nranks, place, &err))
        warp_fatal(WARP_EXIT_USAGE, "%s", err.msg);
    free(place);
    for (int j = 0; j < c->njobs; j++)
        for (int32_t r = 0; r < c->jobs[j].ranks; r++) {
            uint64_t g = c->jobs[j].global[r];
            c->rank_job[g] = j;
            c->rank_local[g] = r;
        }
}
