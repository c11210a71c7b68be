/* phase_stats.c — per-phase times of a structured trace (a source whose
 * replay_source_ops.phases names the phase of each message tag, as the
 * MapReduce generator does): each phase's first send and last arrival
 * among the messages committed, combined over processes, and printed in
 * the job's report. Invariant: the two numbers per phase are maxima (of
 * -send and of arrival), so any order of commits and any partition give
 * the same. Called by workload.c (commit) and workload_setup.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "replay/workload_impl.h"
#include "warp_error.h"

void rp_phase_setup(rp_config *c)
{
    for (int j = 0; j < c->njobs; j++) {
        rp_job *job = &c->jobs[j];
        const replay_phases *ph = job->src && job->src->ops->phases ? job->src->ops->phases(job->src) : NULL;
        if (!ph)
            continue;
        job->phase_t = warp_xcalloc(2 * (size_t)ph->n, sizeof *job->phase_t);
        for (int p = 0; p < 2 * ph->n; p++)
            job->phase_t[p] = -HUGE_VAL;
    }
}

void rp_phase_note(const rp_config *c, int32_t job, int32_t tag, double t_send, double t_arrive)
{
    const rp_job *J = &c->jobs[job];
    if (!J->phase_t)
        return;
    int p = J->src->ops->phases(J->src)->of_tag(tag);
    if (p < 0)
        return;
    if (-t_send > J->phase_t[2 * p])
        J->phase_t[2 * p] = -t_send;
    if (t_arrive > J->phase_t[2 * p + 1])
        J->phase_t[2 * p + 1] = t_arrive;
}

void rp_phase_reduce(const rp_config *c, const warp_ctx *w)
{
    for (int j = 0; j < c->njobs && warp_nranks(w) > 1; j++)
        if (c->jobs[j].phase_t)
            warp_reduce_to_root(w, c->jobs[j].phase_t, 2 * (uint64_t)c->jobs[j].src->ops->phases(c->jobs[j].src)->n,
                                WARP_TYPE_DOUBLE, WARP_OP_MAX);
}

void rp_phase_report(const rp_config *c, int j, FILE *f)
{
    const rp_job *job = &c->jobs[j];
    if (!job->phase_t)
        return;
    const replay_phases *ph = job->src->ops->phases(job->src);
    for (int p = 0; p < ph->n; p++) {
        double a = -job->phase_t[2 * p], b = job->phase_t[2 * p + 1];
        if (isinf(b))
            fprintf(f, "  phase %-8s no messages\n", ph->names[p]);
        else
            fprintf(f, "  phase %-8s %.3f .. %.3f ns (%.3f ns)\n", ph->names[p], a, b, b - a);
    }
}
