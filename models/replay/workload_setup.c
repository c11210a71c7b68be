/* workload_setup.c — the replay workload's configuration: [job.N] sections
 * (trace, format, placement, ranks, iterations), [replay] parameters and
 * output files, the per-job report, and the net_workload_ops the network
 * layer finds by name. Invariant: every job rank sits on exactly one free
 * network rank; the configuration is read-only once setup returns (only the
 * per-process results table and output files are written, by finish/commit).
 * Called by the network layer through replay_workload. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/locality.h"
#include "replay/placement.h"
#include "warp_error.h"
#include "replay/workload_impl.h"

/* [sec] format: a reader of the table (or the message of one not built). */
static const char *job_format(warp_ini *ini, const char *sec, const char *trace)
{
    const char *f = warp_ini_string(ini, sec, "format", NULL);
    if (f && !replay_reader_find(f)) {
        replay_source *s;
        replay_err err;
        replay_source_open(trace, f, NULL, &s, &err);
        warp_ini_fail(ini, sec, "format", "%s", err.msg);
    }
    return f;
}

/* Lists the network ranks no job holds yet into a heap array; fails the
 * run when fewer than `need` are free. */
static uint64_t *free_ranks_of(warp_ini *ini, const rp_config *c, const char *sec, int32_t need,
                               uint64_t *nfree)
{
    uint64_t *free_ranks = warp_xcalloc(c->nranks, sizeof *free_ranks);
    *nfree = 0;
    for (uint64_t r = 0; r < c->nranks; r++)
        if (c->rank_job[r] < 0)
            free_ranks[(*nfree)++] = r;
    if (*nfree < (uint64_t)need)
        warp_ini_fail(ini, sec, "placement", "only %llu network ranks are free for %d job ranks",
                      (unsigned long long)*nfree, need);
    return free_ranks;
}

/* Rail-aware placement: `rails` puts job rank r on the next free network
 * rank of rail r mod P (the accelerators of a server, numbered alike in
 * every server, each on its own rail), `rail:L` every rank on rail L; so a
 * collective among ranks of one rail stays on its plane (docs/ai-workloads.md). */
static void place_rails(warp_ini *ini, rp_config *c, rp_job *job, int j, const char *sec, const char *how)
{
    int32_t P = c->rails;
    if (P < 2)
        warp_ini_fail(ini, sec, "placement", "%s needs a network with several NIC ports per node (rails: "
                      "[fattree] planes = 2 or more)", how);
    int64_t only = -1;
    if (how[4] == ':') {
        char *end;
        only = strtoll(how + 5, &end, 10);
        if (end == how + 5 || *end || only < 0 || only >= P)
            warp_ini_fail(ini, sec, "placement", "rail:%s: give a rail 0..%d", how + 5, P - 1);
    }
    uint64_t *next = warp_xcalloc((size_t)P, sizeof *next); /* next network rank to look at, per rail */
    for (int32_t r = 0; r < job->ranks; r++) {
        int32_t l = only >= 0 ? (int32_t)only : r % P;
        uint64_t *g = &next[l];
        while (*g < c->nranks && (c->rank_job[*g] >= 0 || c->rank_rail[*g] != l))
            (*g)++;
        if (*g >= c->nranks)
            warp_ini_fail(ini, sec, "placement", "%s: rail %d has no free network rank left for job rank %d "
                          "(%d ranks; %llu network ranks in all)", how, l, r, job->ranks,
                          (unsigned long long)c->nranks);
        job->global[r] = (*g)++;
        c->rank_job[job->global[r]] = j;
    }
    free(next);
}

/* Places job j's ranks on free network ranks: in order, at random, by
 * locality (locality.h: communicating ranks on nearby terminals, spread
 * evenly over the free ones so that every part of the network's partition
 * gets its share of the job), or as a placement file says (placement.h). */
static void place_job(warp_ini *ini, rp_config *c, int j, const char *sec, uint64_t *next_linear,
                      uint64_t seed)
{
    rp_job *job = &c->jobs[j];
    const char *how = warp_ini_string(ini, sec, "placement", "linear");
    job->global = warp_xcalloc((size_t)job->ranks, sizeof *job->global);
    if (!strcmp(how, "linear")) {
        for (int32_t r = 0; r < job->ranks; r++) {
            while (*next_linear < c->nranks && c->rank_job[*next_linear] >= 0)
                (*next_linear)++;
            if (*next_linear >= c->nranks)
                warp_ini_fail(ini, sec, "placement", "the jobs need more ranks than the network's %llu "
                              "([network] ranks)", (unsigned long long)c->nranks);
            job->global[r] = (*next_linear)++;
            c->rank_job[job->global[r]] = j;
        }
    } else if (!strcmp(how, "rails") || !strncmp(how, "rail:", 5)) {
        place_rails(ini, c, job, j, sec, how);
    } else if (!strcmp(how, "locality")) {
        uint64_t nfree;
        uint64_t *free_ranks = free_ranks_of(ini, c, sec, job->ranks, &nfree);
        int32_t *order = warp_xcalloc((size_t)job->ranks, sizeof *order);
        replay_err err;
        if (replay_locality_order(job->src, order, &err))
            warp_fatal(WARP_EXIT_USAGE, "%s", err.msg);
        /* Network ranks follow the terminals' order, which keeps switches,
         * pods and groups contiguous: the i-th rank of the order takes the
         * free rank i/ranks of the way along. */
        for (int32_t i = 0; i < job->ranks; i++) {
            job->global[order[i]] = free_ranks[(uint64_t)i * nfree / (uint64_t)job->ranks];
            c->rank_job[job->global[order[i]]] = j;
        }
        free(order);
        free(free_ranks);
    } else if (!strcmp(how, "random")) {
        uint64_t nfree;
        uint64_t *free_ranks = free_ranks_of(ini, c, sec, job->ranks, &nfree);
        warp_rng rng = warp_rng_stream(seed, UINT64_MAX - 100 - (uint64_t)j);
        for (int32_t r = 0; r < job->ranks; r++) {
            uint64_t k = (uint64_t)warp_rng_integer(&rng, r, (int64_t)nfree - 1);
            uint64_t x = free_ranks[r];
            free_ranks[r] = free_ranks[k];
            free_ranks[k] = x;
            job->global[r] = free_ranks[r];
            c->rank_job[job->global[r]] = j;
        }
        free(free_ranks);
    } else {
        replay_err err;
        if (replay_read_placement(how, job->ranks, c->nranks, job->global, &err))
            warp_ini_fail(ini, sec, "placement", "%s", err.msg);
        for (int32_t r = 0; r < job->ranks; r++) {
            uint64_t g = job->global[r];
            if (c->rank_job[g] >= 0)
                warp_ini_fail(ini, sec, "placement", "%s places task %d on network rank %llu, which "
                              "job %d already uses", how, r, (unsigned long long)g, c->rank_job[g]);
            c->rank_job[g] = j;
        }
    }
    for (int32_t r = 0; r < job->ranks; r++)
        c->rank_local[job->global[r]] = r;
}

/* Opens [replay] KEY = PATH for this process's rows (PATH.P on process P of
 * several), with a CSV header; NULL when the key is absent. */
static FILE *open_output(warp_ini *ini, const net_model *net, const char *key, const char *header)
{
    const char *path = warp_ini_string(ini, "replay", key, NULL);
    if (!path)
        return NULL;
    int rank = warp_rank(net_engine(net)), n = warp_nranks(net_engine(net));
    char name[4096];
    if (n > 1)
        snprintf(name, sizeof name, "%s.%d", path, rank);
    else
        snprintf(name, sizeof name, "%s", path);
    FILE *f = fopen(name, "w");
    if (!f)
        warp_ini_fail(ini, "replay", key, "cannot create %s", name);
    fprintf(f, "%s\n", header);
    return f;
}

/* [replay] ranks_csv: its per-process name, checked writable now but
 * written only after a whole run (an interrupted one left a header-only
 * file, or truncated a previous run's): a file that did not exist is
 * created and removed again, one that did is left as it is. */
static void ranks_csv_check(warp_ini *ini, const net_model *net, rp_config *c)
{
    const char *path = warp_ini_string(ini, "replay", "ranks_csv", NULL);
    if (!path)
        return;
    int rank = warp_rank(net_engine(net)), n = warp_nranks(net_engine(net));
    int len = n > 1 ? snprintf(c->ranks_csv, sizeof c->ranks_csv, "%s.%d", path, rank)
                    : snprintf(c->ranks_csv, sizeof c->ranks_csv, "%s", path);
    if (len < 0 || (size_t)len >= sizeof c->ranks_csv)
        warp_ini_fail(ini, "replay", "ranks_csv", "the path is longer than %zu bytes", sizeof c->ranks_csv - 1);
    int existed = access(c->ranks_csv, F_OK) == 0;
    FILE *f = fopen(c->ranks_csv, "a");
    if (!f)
        warp_ini_fail(ini, "replay", "ranks_csv", "cannot create %s (%s)", c->ranks_csv, strerror(errno));
    fclose(f);
    if (!existed)
        remove(c->ranks_csv);
}

/* Writes this process's ranks (their results are still its own: before the
 * sums of rp_reduce). */
static void ranks_csv_write(const rp_config *c)
{
    FILE *f = fopen(c->ranks_csv, "w");
    int bad = !f;
    if (f) {
        fprintf(f, "job,rank,finish_ns\n");
        for (uint64_t i = 0; i < c->nranks; i++)
            if (c->res[i].loaded)
                fprintf(f, "%d,%d,%.3f\n", c->rank_job[i], c->rank_local[i], c->res[i].finish - c->res[i].kickoff);
        bad = ferror(f);
        bad |= fclose(f) != 0;
    }
    if (bad)
        warp_fatal(WARP_EXIT_RESOURCE, "[replay] ranks_csv: cannot write %s (%s): free space or give another path",
                   c->ranks_csv, strerror(errno));
}

static void *rp_setup(warp_ini *ini, const net_model *net)
{
    rp_config *c = warp_xcalloc(1, sizeof *c);
    c->nranks = net_ranks(net);
    c->overhead_ns = warp_ini_time_ns(ini, "replay", "overhead", 0);
    c->loggp_S = net_eager_limit(net);
    c->loggops = c->loggp_S > 0;
    c->per_byte_ns = warp_ini_double(ini, "replay", "per_byte_ns", 0, 0, 1e9);
    c->memory_line = (int)warp_ini_int(ini, "replay", "memory_line", 0, 0, 1);
    if (c->overhead_ns < 0)
        warp_ini_fail(ini, "replay", "overhead", "must not be negative");
    ranks_csv_check(ini, net, c);
    const char *tl = warp_ini_string(ini, "replay", "timeline", NULL);
    if (tl && warp_checkpointing(net_engine(net)))
        warp_ini_fail(ini, "replay", "timeline", "is written while the run goes and cannot span a checkpoint "
                      "and restart: drop the timeline or --checkpoint/--restart");
    if (tl && (c->tl = replay_timeline_open(tl)) == NULL)
        c->timeline_f = open_output(ini, net, "timeline", "job,rank,task,start_ns,end_ns");
    c->timeline_ranks = (int32_t)warp_ini_int(ini, "replay", "timeline_ranks", 64, 1, INT32_MAX);
    replay_opts o;
    replay_opts_read(ini, &o);
    c->rank_job = warp_xcalloc(c->nranks, sizeof *c->rank_job);
    c->rank_local = warp_xcalloc(c->nranks, sizeof *c->rank_local);
    c->rails = net_nic_ports(net);
    if (c->rails > 1) {
        c->rank_rail = warp_xcalloc(c->nranks, sizeof *c->rank_rail);
        for (uint64_t r = 0; r < c->nranks; r++)
            c->rank_rail[r] = (uint8_t)(net_rank_terminal(net, r) % (uint64_t)c->rails);
    }
    for (uint64_t r = 0; r < c->nranks; r++)
        c->rank_job[r] = c->rank_local[r] = -1;
    char sec[32];
    const char *tracer = warp_ini_string(ini, "workload", "tracer_config", NULL);
    if (tracer) {
        if (warp_ini_has_section(ini, "job.0"))
            warp_ini_fail(ini, "workload", "tracer_config", "the jobs come from the tracer_config; "
                          "remove the [job.N] sections (or the tracer_config)");
        rp_tracer_jobs(c, tracer, &o);
        c->res = warp_xcalloc(c->nranks, sizeof *c->res);
        rp_capture_setup(ini, c);
    rp_phase_setup(c);
        replay_lp_type(&c->type);
        return c;
    }
    while (snprintf(sec, sizeof sec, "job.%d", c->njobs), warp_ini_has_section(ini, sec))
        c->njobs++;
    if (!c->njobs)
        warp_ini_fail(ini, "workload", "type", "replay needs at least one [job.0] section with trace = PATH");
    c->jobs = warp_xcalloc((size_t)c->njobs, sizeof *c->jobs);
    uint64_t next_linear = 0;
    uint64_t seed = (uint64_t)warp_ini_int(ini, "replay", "placement_seed", 1, 0, INT64_MAX);
    for (int j = 0; j < c->njobs; j++) {
        rp_job *job = &c->jobs[j];
        snprintf(sec, sizeof sec, "job.%d", j);
        const char *trace = warp_ini_string(ini, sec, "trace", NULL);
        if (!trace)
            warp_ini_fail(ini, sec, "trace", "missing; give the trace path (or gen:KIND:...)");
        job->trace = warp_xstrdup(trace);
        const char *f = job_format(ini, sec, trace);
        job->format = f ? warp_xstrdup(f) : NULL;
        replay_err err;
        if (replay_source_open(job->trace, job->format, &o, &job->src, &err))
            warp_fatal(WARP_EXIT_USAGE, "%s", err.msg);
        job->ranks = (int32_t)warp_ini_int(ini, sec, "ranks", job->src->nranks, 1, INT32_MAX);
        if (job->ranks != job->src->nranks)
            warp_ini_fail(ini, sec, "ranks", "the trace has %d ranks", job->src->nranks);
        job->iterations = (uint32_t)warp_ini_int(ini, sec, "iterations", 1, 1, 1 << 20);
        place_job(ini, c, j, sec, &next_linear, seed + (uint64_t)j);
    }
    c->res = warp_xcalloc(c->nranks, sizeof *c->res);
    rp_capture_setup(ini, c);
    rp_phase_setup(c);
    replay_lp_type(&c->type);
    return c;
}

/* The ranks of all [job.N] sections: each job's `ranks`, else its trace's
 * (opened and closed again; errors wait for setup, which names them). */
static uint64_t rp_ranks_hint(warp_ini *ini)
{
    uint64_t total = 0;
    char sec[32];
    replay_opts o = replay_opts_default();
    for (int j = 0; snprintf(sec, sizeof sec, "job.%d", j), warp_ini_has_section(ini, sec); j++) {
        const char *given = warp_ini_get(ini, sec, "ranks"), *trace = warp_ini_get(ini, sec, "trace");
        replay_source *src;
        replay_err err;
        if (given && atoll(given) > 0) {
            total += (uint64_t)atoll(given);
        } else if (trace && !replay_source_open(trace, warp_ini_get(ini, sec, "format"), &o, &src, &err)) {
            total += (uint64_t)src->nranks;
            replay_source_close(src);
        } else {
            return 0;
        }
    }
    return total;
}

/* A network rank no job holds replays nothing. */
static int rp_rank_busy(const void *wl, uint64_t rank)
{
    return ((const rp_config *)wl)->rank_job[rank] >= 0;
}

/* A job's teardown. Its shape memo only borrows graphs of the process's
 * shape table (replay_graphs_free frees those): dropped here, with the job,
 * so that nothing outside the job reaches into it. */
static void rp_job_free(rp_job *j)
{
    replay_source_close(j->src);
    free(j->trace);
    free(j->format);
    free(j->global);
    free(j->cap_times);
    free(j->phase_t);
    memset(j->shape_memo, 0, sizeof j->shape_memo);
}

static void rp_destroy(void *wl)
{
    rp_config *c = wl;
    for (int j = 0; j < c->njobs; j++)
        rp_job_free(&c->jobs[j]);
    free(c->jobs);
    replay_graphs_free(c); /* after the jobs, whose memos borrowed its graphs */
    free(c->rank_job);
    free(c->rank_local);
    free(c->rank_rail);
    free(c->res);
    if (c->tracer) {
        replay_tracer_free(c->tracer);
        free(c->tracer);
    }
    if (c->timeline_f)
        fclose(c->timeline_f);
    replay_timeline_free(c->tl);
    free(c);
}

static const warp_lp_type *rp_type(const void *wl) { return &((const rp_config *)wl)->type; }

int replay_workload_job_result(const void *wl, int job, replay_job_result *out)
{
    const rp_config *c = wl;
    if (job < 0 || job >= c->njobs)
        return -1;
    memset(out, 0, sizeof *out);
    const rp_job *j = &c->jobs[job];
    for (int32_t r = 0; r < j->ranks; r++) {
        const rp_result *x = &c->res[j->global[r]];
        if (!x->loaded)
            continue;
        out->ranks_here++;
        double span = x->finish - x->kickoff;
        if (span > out->completion_ns)
            out->completion_ns = span;
        out->tasks_done += x->tasks;
        out->tasks_total += x->tasks_total;
        out->compute_ns += x->compute_ns;
        out->msgs += x->msgs;
        out->bytes += x->bytes;
    }
    out->ranks = j->ranks;
    return 0;
}

static double rp_finished_at(const void *wl)
{
    const rp_config *c = wl;
    double last = 0;
    for (uint64_t i = 0; i < c->nranks; i++) {
        const rp_result *x = &c->res[i];
        if (!x->loaded)
            continue;
        if (x->tasks < x->tasks_total)
            return 0;
        last = x->finish > last ? x->finish : last;
    }
    return last;
}

/* Every rank's results live on the one process that ran it and are zero
 * elsewhere, so a sum over processes gathers them all on process 0. */
/* Collective: the timeline's records meet on process 0, which writes them. */
static void write_timeline(const rp_config *c, const warp_ctx *w)
{
    replay_tl_job *jobs = warp_xcalloc((size_t)c->njobs, sizeof *jobs);
    for (int j = 0; j < c->njobs; j++)
        jobs[j] = (replay_tl_job){c->jobs[j].trace, c->jobs[j].ranks, c->jobs[j].global};
    const char *why = NULL;
    int rc = replay_timeline_write(c->tl, w, jobs, c->njobs, c->timeline_ranks, &why);
    free(jobs);
    if (rc)
        warp_fatal(WARP_EXIT_USAGE, "[replay] timeline = %s: %s; give a writable path",
                   replay_timeline_path(c->tl), why);
}

/* The per-rank results as integers, for the sums over processes. */
#define RP_U64 13
static void result_u64(rp_result *x, uint64_t *u, int store)
{
    uint64_t *f[RP_U64] = {&x->tasks, &x->tasks_total, &x->compute_ns, &x->msgs, &x->bytes, &x->moving,
                           &x->sent, &x->arrived, &x->acks_sent, &x->acks_got, &x->wait_kind, &x->wait_task,
                           NULL};
    uint64_t loaded = (uint64_t)x->loaded;
    f[RP_U64 - 1] = &loaded;
    for (int k = 0; k < RP_U64; k++) {
        if (store)
            *f[k] = u[k];
        else
            u[k] = *f[k];
    }
    x->loaded = (int)loaded;
}

static void rp_reduce(const void *wl, const net_model *net)
{
    const rp_config *c = wl;
    const warp_ctx *w = net_engine(net);
    rp_capture_reduce(c, w);
    rp_phase_reduce(c, w);
    if (c->tl)
        write_timeline(c, w);
    if (c->ranks_csv[0])
        ranks_csv_write(c);
    if (warp_nranks(w) == 1)
        return;
    uint64_t n = c->nranks;
    double *d = warp_xcalloc(4 * n, sizeof *d);
    uint64_t *u = warp_xcalloc(RP_U64 * n, sizeof *u);
    for (uint64_t i = 0; i < n; i++) {
        rp_result *x = &c->res[i];
        /* Signed values travel as doubles: exact, and zero on every other process. */
        double v[4] = {x->kickoff, x->finish, (double)x->wait_src, (double)x->wait_tag};
        memcpy(d + 4 * i, v, sizeof v);
        result_u64(x, u + RP_U64 * i, 0);
    }
    warp_reduce_to_root(w, u, RP_U64 * n, WARP_TYPE_U64, WARP_OP_SUM);
    warp_reduce_to_root(w, d, 4 * n, WARP_TYPE_DOUBLE, WARP_OP_SUM);
    if (warp_rank(w) == 0)
        for (uint64_t i = 0; i < n; i++) {
            rp_result *x = &c->res[i];
            x->kickoff = d[4 * i];
            x->finish = d[4 * i + 1];
            x->wait_src = (int64_t)d[4 * i + 2];
            x->wait_tag = (int64_t)d[4 * i + 3];
            result_u64(x, u + RP_U64 * i, 1);
        }
    free(d);
    free(u);
}

static void rp_report(const void *wl, const net_model *net, FILE *f)
{
    const rp_config *c = wl;
    for (int j = 0; j < c->njobs; j++) {
        replay_job_result r;
        replay_workload_job_result(wl, j, &r);
        double busy = r.ranks_here && r.completion_ns > 0 ? (double)r.compute_ns / ((double)r.ranks_here * r.completion_ns) : 0;
        fprintf(f, "replay job %d: %s, %d ranks\n", j, c->jobs[j].trace, r.ranks);
        /* A job cut off by the end time has no completion time: its last
         * task's end would be a number a script takes for one. */
        if (r.tasks_done == r.tasks_total)
            fprintf(f, "  completion_ns  %.3f\n", r.completion_ns);
        else
            fprintf(f, "  completion_ns  none: cut off at the end time %.6g ns before %llu of its tasks ran\n",
                    warp_end_time(net_engine(net)), (unsigned long long)(r.tasks_total - r.tasks_done));
        fprintf(f, "  tasks          %llu of %llu\n  compute        %.1f%% of "
                   "rank time (%llu ns), waiting the rest\n  messages       %llu (%llu bytes)\n",
                (unsigned long long)r.tasks_done, (unsigned long long)r.tasks_total,
                100.0 * (busy > 1 ? 1 : busy), (unsigned long long)r.compute_ns,
                (unsigned long long)r.msgs, (unsigned long long)r.bytes);
        if (r.tasks_done != r.tasks_total)
            fprintf(f, "  WARNING: %llu tasks never ran: the figures above cover the replay up to the end time "
                       "only; give a later [engine] end, or none, to replay to completion\n",
                    (unsigned long long)(r.tasks_total - r.tasks_done));
        rp_capture_report(c, j, f);
        rp_phase_report(c, j, f);
    }
    /* Asked for only ([replay] memory_line = 1): the figures are process
     * 0's own, and reports are compared across process counts. */
    if (c->memory_line)
        replay_graphs_line(c, f);
}

/* Appends to why what network rank i waits on (RP_WAIT_*). */
static size_t describe_wait(const rp_config *c, uint64_t i, const char *sep, char *why, size_t len, size_t cap)
{
    const rp_result *x = &c->res[i];
    char what[160];
    switch (x->wait_kind) {
    case RP_WAIT_RECV:
        if (x->wait_src == REPLAY_ANY && x->wait_tag == REPLAY_ANY)
            snprintf(what, sizeof what, "a message from any rank with any tag");
        else if (x->wait_src == REPLAY_ANY)
            snprintf(what, sizeof what, "a message from any rank with tag %lld", (long long)x->wait_tag);
        else if (x->wait_tag == REPLAY_ANY)
            snprintf(what, sizeof what, "a message from rank %lld", (long long)x->wait_src);
        else
            snprintf(what, sizeof what, "a message from rank %lld with tag %lld", (long long)x->wait_src,
                     (long long)x->wait_tag);
        break;
    case RP_WAIT_ACK:
        snprintf(what, sizeof what, "rank %lld to receive its rendezvous send", (long long)x->wait_src);
        break;
    default:
        snprintf(what, sizeof what, "%lld unfinished dependencies", (long long)x->wait_src);
        break;
    }
    int k = snprintf(why + len, cap - len, "%sjob %d rank %d task %llu waits for %s", sep,
                     c->rank_job[i], c->rank_local[i], (unsigned long long)x->wait_task, what);
    return k < 0 || (size_t)k >= cap - len ? cap - 1 : len + (size_t)k;
}

/* Whole when every task ran. Otherwise the end time cut the replay off
 * (something was still moving: a task, a send, a message or a rendezvous
 * notice in flight) or nothing could move any more: a deadlock, named by
 * the ranks it blocks and what they wait on. */
static int rp_verdict(const void *wl, const net_model *net, int end_given, char *why, size_t cap)
{
    const rp_config *c = wl;
    uint64_t left = 0, total = 0, moving = 0, sent = 0, arrived = 0, acks = 0, acked = 0, blocked = 0;
    for (uint64_t i = 0; i < c->nranks; i++) {
        const rp_result *x = &c->res[i];
        if (!x->loaded)
            continue;
        total += x->tasks_total;
        left += x->tasks_total - x->tasks;
        blocked += x->tasks < x->tasks_total;
        moving += x->moving;
        sent += x->sent;
        arrived += x->arrived;
        acks += x->acks_sent;
        acked += x->acks_got;
    }
    if (!left)
        return 0;
    if (moving || sent != arrived || acks != acked) {
        if (end_given)
            return 0; /* the report's WARNING says how many tasks never ran */
        snprintf(why, cap, "replay: %llu of %llu tasks had not run at the end time %.6g ns; give a later "
                 "[engine] end, or none to run until every task has completed",
                 (unsigned long long)left, (unsigned long long)total, warp_end_time(net_engine(net)));
        return WARP_EXIT_USAGE;
    }
    int k = snprintf(why, cap, "replay deadlock: %llu of %llu tasks never ran, %llu ranks blocked: ",
                     (unsigned long long)left, (unsigned long long)total, (unsigned long long)blocked);
    size_t len = k > 0 && (size_t)k < cap ? (size_t)k : cap - 1;
    uint64_t shown = 0;
    for (uint64_t i = 0; i < c->nranks && shown < 3; i++)
        if (c->res[i].loaded && c->res[i].tasks < c->res[i].tasks_total)
            len = describe_wait(c, i, shown++ ? "; " : "", why, len, cap);
    if (blocked > shown)
        snprintf(why + len, cap - len, "; and %llu more", (unsigned long long)(blocked - shown));
    len = strlen(why);
    snprintf(why + len, cap - len, " (the trace is inconsistent, or its sends block: rendezvous above the "
             "eager limit)");
    return WARP_EXIT_USAGE;
}

/* LogGOPS rendezvous: the receiver's match ends the sender's task through an
 * acknowledgement sent straight to the sender's LP, with no delay (the
 * model charges no network time for it), so no lookahead bounds it. */
static const char *rp_no_lookahead(const void *wl)
{
    const rp_config *c = wl;
    return c->loggops ? "acknowledges rendezvous sends (LogGOPS, above the eager limit) straight "
                        "to the sender with no delay"
                      : NULL;
}

/* The smallest packet of every job's trace, where each trace can tell
 * without being loaded (gen: traces); a tracer_config rewrites sizes, so
 * it is not asked. */
static uint64_t rp_min_packet(const void *wl, uint64_t packet_size)
{
    const rp_config *c = wl;
    uint64_t m = UINT64_MAX;
    if (c->tracer || !c->njobs)
        return 0;
    for (int j = 0; j < c->njobs; j++) {
        const replay_source *s = c->jobs[j].src;
        uint64_t b = s && s->ops->min_packet ? s->ops->min_packet(s, packet_size) : 0;
        if (!b)
            return 0;
        m = b < m ? b : m;
    }
    return m;
}

static const warp_key rp_workload_keys[] = {
    {"tracer_config", WARP_KEY_FILE, "(none)", NULL,
     "a TraceR job file: its jobs instead of [job.N] sections (docs/trace-format.md)"},
    {0},
};

/* The readers' keys (replay_reader.keys) are declared here too: a reader
 * key missing from this table stops every replay (replay_opts_read reads
 * them all). */
static const warp_key rp_replay_keys[] = {
    {"overhead", WARP_KEY_TIME, "0ns", ">= 0", "CPU time per message sent, before the task ends"},
    {"per_byte_ns", WARP_KEY_REAL, "0", "0..1e9", "copy cost per byte sent, in ns"},
    {"ampi_overhead", WARP_KEY_TIME, "100ns", ">= 0", "BigSim: duration of AMPI_* bookkeeping tasks"},
    {"keep_init", WARP_KEY_FLAG, "no", "yes | no", "BigSim: keep the initialisation phase TraceR skips"},
    {"eager_limit", WARP_KEY_SIZE, "64KiB", ">= 0", "OTF2, Dimemas: messages above it use rendezvous"},
    {"dimemas_rendezvous", WARP_KEY_CHOICE, "size", "size | trace",
     "Dimemas: rendezvous by eager_limit, or where the send record says so"},
    {"pcap_mode", WARP_KEY_CHOICE, "causal", "causal | open-loop",
     "pcap: replies wait for the data they answer, or every message leaves at its captured time"},
    {"pcap_map", WARP_KEY_FILE, "(one rank per address)", NULL, "pcap: endpoint map, lines 'ADDRESS[:PORT] RANK'"},
    {"pcap_coalesce", WARP_KEY_TIME, "1ms", ">= 0", "pcap: longest gap between segments of one message"},
    {"flops_rate", WARP_KEY_REAL, "(none)", "> 0",
     "Chakra: FLOP/s of compute nodes that give num_ops but no duration"},
    {"memory_bandwidth", WARP_KEY_RATE, "(none)", "> 0",
     "Chakra: rate of memory nodes that give tensor_size but no duration"},
    {"placement_seed", WARP_KEY_COUNT, "1", ">= 0", "seed of placement = random (job j: seed + j)"},
    {"ranks_csv", WARP_KEY_FILE, "(none)", NULL, "job,rank,finish_ns of every rank (FILE.P per process P)"},
    {"timeline", WARP_KEY_FILE, "(none)", NULL,
     "committed tasks: CSV, FILE.json (Chrome/Perfetto) or FILE.prv (Paraver)"},
    {"timeline_ranks", WARP_KEY_COUNT, "64", ">= 1", "the timeline's job ranks below this"},
    {"flows_csv", WARP_KEY_FILE, "(none)", NULL,
     "pcap: captured and simulated completion time per flow (docs/pcap-replay.md)"},
    {"messages_csv", WARP_KEY_FILE, "(none)", NULL, "pcap: captured and simulated times per message"},
    {"memory_line", WARP_KEY_COUNT, "0", "0..1", "1: print the task graphs' memory after the run"},
    {0},
};

static const warp_key rp_job_keys[] = {
    {"trace", WARP_KEY_TEXT, "(required)", "PATH | gen:KIND:key=value,...", "the job's trace"},
    {"format", WARP_KEY_CHOICE, "(guessed from the path or the first bytes)",
     "bigsim | otf2 | goal | native | gen | dimemas | pcap | chakra", "the trace's format"},
    {"placement", WARP_KEY_TEXT, "linear", "linear | random | locality | rails | rail:L | FILE",
     "the job's ranks on network ranks (a file: one network rank per line, or TASK NODE pairs)"},
    {"ranks", WARP_KEY_COUNT, "(the trace's)", "1..2^31-1", "checked against the trace"},
    {"iterations", WARP_KEY_COUNT, "1", "1..2^20", "times the trace runs"},
    {0},
};

/* [collectives] (collectives/coll.h): read by replay_opts_read. */
static const warp_key rp_collective_keys[] = {
    {"allreduce", WARP_KEY_TEXT, "(the format's; gen, Chakra: ring)",
     "ring | tree | halving-doubling | direct | hierarchical(G[,INNER[,OUTER]])", "allreduce algorithm"},
    {"reduce_scatter", WARP_KEY_TEXT, "(the format's; gen, Chakra: ring)",
     "ring | halving-doubling | direct | hierarchical(G[,INNER[,OUTER]])", "reduce-scatter algorithm"},
    {"allgather", WARP_KEY_TEXT, "(the format's; gen, Chakra: ring)",
     "ring | halving-doubling | direct | hierarchical(G[,INNER[,OUTER]])", "allgather algorithm"},
    {"alltoall", WARP_KEY_CHOICE, "(the format's; gen, Chakra: direct)", "direct | ring", "all-to-all algorithm"},
    {"bcast", WARP_KEY_CHOICE, "(the format's; gen, Chakra: tree)", "tree | ring | direct", "broadcast algorithm"},
    {"reduce", WARP_KEY_CHOICE, "(the format's; gen, Chakra: tree)", "tree | ring | direct", "reduce algorithm"},
    {"chunks", WARP_KEY_COUNT, "1", "1..65536", "pipelined chunks per collective of a chosen algorithm"},
    {0},
};

static const warp_key_group rp_groups[] = {
    {"workload", "type = replay: trace replay", rp_workload_keys, NULL, "type", "replay"},
    {"replay", "trace replay: costs, trace readers, outputs", rp_replay_keys, "workload", "type", "replay"},
    {"job.N", "one job of a replay (N = 0, 1, ...)", rp_job_keys, "workload", "type", "replay"},
    {"collectives", "collective algorithms per operation (docs/ai-workloads.md)", rp_collective_keys, "workload",
     "type", "replay"},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

const net_workload_ops replay_workload = {
    .name = "replay",
    .keys = rp_groups,
    .setup = rp_setup,
    .destroy = rp_destroy,
    .lp_type = rp_type,
    .reduce = rp_reduce,
    .report = rp_report,
    .verdict = rp_verdict,
    .finished_at = rp_finished_at,
    .ranks_hint = rp_ranks_hint,
    .mem_hint = replay_mem_hint,
    .rank_busy = rp_rank_busy,
    .runs_to_completion = 1,
    .no_lookahead = rp_no_lookahead,
    .min_packet = rp_min_packet,
};
