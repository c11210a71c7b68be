/* capture_stats.c — captured against simulated times of a replayed packet
 * capture (capture.h): each message's simulated send and arrival, noted
 * when its arrival commits, summed over processes, then reported per flow
 * (completion time captured vs simulated) and written as CSV on request
 * ([replay] flows_csv, messages_csv). Invariant: a message's times are
 * noted once (its first arrival: the first copy when iterations > 1), by
 * the one LP that receives it, so the sums over processes are the times.
 * Called by workload.c (commit) and workload_setup.c (setup, reduce, report);
 * the CSVs are written by rank 0 in the reduce. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/capture.h"
#include "replay/workload_impl.h"
#include "warp_error.h"

/* Per message: simulated send, arrival, and 1 once noted. */
enum { CS_SEND, CS_ARRIVE, CS_SEEN, CS_N };

void rp_capture_setup(warp_ini *ini, rp_config *c)
{
    for (int j = 0; j < c->njobs; j++) {
        rp_job *job = &c->jobs[j];
        const replay_capture *cap = job->src && job->src->ops->capture ? job->src->ops->capture(job->src) : NULL;
        if (cap)
            job->cap_times = warp_xcalloc((size_t)CS_N * cap->nmsgs + 1, sizeof *job->cap_times);
    }
    static const char *keys[] = {"flows_csv", "messages_csv"};
    for (int k = 0; k < 2; k++) {
        const char *path = warp_ini_string(ini, "replay", keys[k], NULL);
        int any = 0;
        for (int j = 0; j < c->njobs; j++)
            any |= c->jobs[j].cap_times != NULL;
        if (path && !any)
            warp_ini_fail(ini, "replay", keys[k], "needs a job whose trace is a packet capture (format = pcap)");
        snprintf(k ? c->messages_csv : c->flows_csv, sizeof c->flows_csv, "%s", path ? path : "");
    }
}

void rp_capture_note(const rp_config *c, int32_t job, int32_t tag, double t_send, double t_arrive)
{
    double *t = c->jobs[job].cap_times;
    if (!t || tag < 0 || (uint32_t)tag >= c->jobs[job].src->ops->capture(c->jobs[job].src)->nmsgs ||
        t[CS_N * (size_t)tag + CS_SEEN] != 0)
        return;
    t[CS_N * (size_t)tag + CS_SEND] = t_send;
    t[CS_N * (size_t)tag + CS_ARRIVE] = t_arrive;
    t[CS_N * (size_t)tag + CS_SEEN] = 1;
}

static void write_csvs(const rp_config *c);

void rp_capture_reduce(const rp_config *c, const warp_ctx *w)
{
    for (int j = 0; j < c->njobs && warp_nranks(w) > 1; j++)
        if (c->jobs[j].cap_times)
            warp_reduce_to_root(w, c->jobs[j].cap_times,
                                (uint64_t)CS_N * c->jobs[j].src->ops->capture(c->jobs[j].src)->nmsgs,
                                WARP_TYPE_DOUBLE, WARP_OP_SUM);
    if (warp_rank(w) == 0)
        write_csvs(c);
}

typedef struct flow_times {
    double first, last; /* simulated first send, last arrival */
    uint64_t arrived;
} flow_times;

static flow_times *flows_of(const rp_job *job, const replay_capture *cap)
{
    flow_times *f = warp_xcalloc(cap->nflows + 1, sizeof *f);
    for (uint32_t i = 0; i < cap->nmsgs; i++) {
        const double *t = job->cap_times + CS_N * (size_t)i;
        flow_times *x = &f[cap->msgs[i].flow];
        if (!t[CS_SEEN])
            continue;
        if (!x->arrived || t[CS_SEND] < x->first)
            x->first = t[CS_SEND];
        if (!x->arrived || t[CS_ARRIVE] > x->last)
            x->last = t[CS_ARRIVE];
        x->arrived++;
    }
    return f;
}

static FILE *csv_open(const char *path, const char *key)
{
    FILE *f = fopen(path, "w");
    if (!f)
        warp_fatal(WARP_EXIT_RESOURCE, "[replay] %s: cannot write %s (%s): free space or give another path", key,
                   path, strerror(errno));
    return f;
}

static void csv_close(FILE *f, const char *path, const char *key)
{
    if (ferror(f) | fclose(f))
        warp_fatal(WARP_EXIT_RESOURCE, "[replay] %s: cannot write %s: free space or give another path", key, path);
}

/* flows_csv and messages_csv (rank 0, after rp_capture_reduce). */
static void write_csvs(const rp_config *c)
{
    FILE *ff = c->flows_csv[0] ? csv_open(c->flows_csv, "flows_csv") : NULL;
    FILE *fm = c->messages_csv[0] ? csv_open(c->messages_csv, "messages_csv") : NULL;
    if (ff)
        fprintf(ff, "job,flow,name,messages,bytes,captured_fct_ns,simulated_fct_ns,arrived\n");
    if (fm)
        fprintf(fm, "job,message,flow,prev,src,dst,bytes,reply,captured_first_ns,captured_last_ns,"
                    "simulated_send_ns,simulated_arrival_ns\n");
    for (int j = 0; j < c->njobs; j++) {
        const rp_job *job = &c->jobs[j];
        if (!job->cap_times)
            continue;
        const replay_capture *cap = job->src->ops->capture(job->src);
        flow_times *ft = flows_of(job, cap);
        for (uint32_t k = 0; ff && k < cap->nflows; k++) {
            const replay_capture_flow *x = &cap->flows[k];
            if (!x->msgs)
                continue;
            fprintf(ff, "%d,%u,%s,%llu,%llu,%lld,", j, k, x->name, (unsigned long long)x->msgs,
                    (unsigned long long)x->bytes, (long long)(x->t_last - x->t_first));
            if (ft[k].arrived)
                fprintf(ff, "%.3f,%llu\n", ft[k].last - ft[k].first, (unsigned long long)ft[k].arrived);
            else
                fprintf(ff, ",0\n");
        }
        for (uint32_t i = 0; fm && i < cap->nmsgs; i++) {
            const replay_capture_msg *m = &cap->msgs[i];
            const double *t = job->cap_times + CS_N * (size_t)i;
            fprintf(fm, "%d,%u,%u,%d,%d,%d,%llu,%d,%lld,%lld,", j, i, m->flow, m->prev, m->src, m->dst,
                    (unsigned long long)m->bytes, m->reply, (long long)m->t_first, (long long)m->t_last);
            if (t[CS_SEEN])
                fprintf(fm, "%.3f,%.3f\n", t[CS_SEND], t[CS_ARRIVE]);
            else
                fprintf(fm, ",\n");
        }
        free(ft);
    }
    if (ff)
        csv_close(ff, c->flows_csv, "flows_csv");
    if (fm)
        csv_close(fm, c->messages_csv, "messages_csv");
}

void rp_capture_report(const rp_config *c, int j, FILE *f)
{
    const rp_job *job = &c->jobs[j];
    if (!job->cap_times)
        return;
    const replay_capture *cap = job->src->ops->capture(job->src);
    flow_times *ft = flows_of(job, cap);
    uint64_t n = 0, whole = 0;
    double sum = 0, lo = 0, hi = 0;
    for (uint32_t k = 0; k < cap->nflows; k++) {
        const replay_capture_flow *x = &cap->flows[k];
        if (!x->msgs)
            continue;
        n++;
        if (ft[k].arrived != x->msgs || x->t_last <= x->t_first)
            continue; /* unfinished, or one instant: no ratio */
        double r = (ft[k].last - ft[k].first) / (double)(x->t_last - x->t_first);
        lo = whole && lo < r ? lo : r;
        hi = whole && hi > r ? hi : r;
        sum += r;
        whole++;
    }
    fprintf(f, "  capture        %u hosts, %llu flows with data, %u messages; %llu retransmitted segments, "
               "%llu pure ACKs (%llu duplicate) not replayed\n",
            cap->hosts, (unsigned long long)n, cap->nmsgs, (unsigned long long)cap->retrans_segments,
            (unsigned long long)cap->pure_acks, (unsigned long long)cap->dup_acks);
    if (whole)
        fprintf(f, "  flow_fct_ratio simulated/captured over %llu flows: mean %.4f, min %.4f, max %.4f\n",
                (unsigned long long)whole, sum / (double)whole, lo, hi);
    free(ft);
}
