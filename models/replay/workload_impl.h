/* workload_impl.h — what the replay workload's two halves share: the
 * configuration built by workload_setup.c (jobs, placement, outputs) and the
 * LP type implemented by workload.c. Private to models/replay. */
#ifndef REPLAY_WORKLOAD_IMPL_H
#define REPLAY_WORKLOAD_IMPL_H

#include <stdio.h>

#include "replay/readers/readers.h"
#include "replay/timeline.h"
#include "replay/tracer_config.h"
#include "replay/workload.h"

typedef struct rp_job {
    char *trace, *format;
    replay_source *src;
    int32_t ranks;
    uint32_t iterations;
    uint64_t *global; /* job rank -> network rank */
    /* This process's graph of each shape class the source names
     * (replay_source_shape_class): later ranks of a class take it as is,
     * without being built, hashed and compared. Borrowed from
     * rp_config.shapes; cleared by the job's teardown (rp_job_free). */
    const struct rp_graph *shape_memo[REPLAY_SHAPE_CLASSES];
    /* A packet capture's messages: simulated send, arrival, noted
     * (capture_stats.c); NULL for other traces. */
    double *cap_times;
    /* A source with phases: per phase, max of -send and max of arrival
     * (phase_stats.c); NULL for others. Written by commit. */
    double *phase_t;
} rp_job;

/* Committed per-rank results, filled by finish on the owning process. */
typedef struct rp_result {
    double kickoff, finish;
    uint64_t tasks, tasks_total, compute_ns, msgs, bytes;
    int loaded;
    /* Where an unfinished rank stands at the end (rp_finish): */
    uint64_t moving;              /* a task or send of its own was still under way */
    uint64_t sent, arrived, acks_sent, acks_got; /* messages and rendezvous notices */
    uint64_t wait_kind;           /* RP_WAIT_* */
    uint64_t wait_task;           /* the task it waits in */
    int64_t wait_src, wait_tag;   /* RP_WAIT_RECV: the message it waits for; RP_WAIT_ACK: src = receiver */
} rp_result;

enum { RP_WAIT_NONE, RP_WAIT_RECV, RP_WAIT_ACK, RP_WAIT_DEPS };

typedef struct rp_config {
    rp_job *jobs;
    int njobs;
    uint64_t nranks;
    int32_t *rank_job, *rank_local; /* network rank -> job, job rank (-1: idle) */
    int32_t rails;                  /* NIC ports per terminal: rail of rank r = terminal(r) mod rails */
    uint8_t *rank_rail;             /* network rank -> its rail, when rails > 1 (placement = rails, rail:L) */
    double overhead_ns, per_byte_ns;
    int loggops; /* loggp network: charge LogGOPS CPU time (see above) */
    uint64_t loggp_S; /* its eager limit: rendezvous above it is not modelled */
    char ranks_csv[4096]; /* job,rank,finish_ns rows, written after a whole run (rp_reduce); "": none */
    char flows_csv[4096], messages_csv[4096]; /* capture statistics (capture_stats.c); "": none */
    FILE *timeline_f; /* job,rank,task,start_ns,end_ns rows, written by commit */
    replay_timeline *tl; /* timeline = FILE.json / FILE.prv: records kept by commit */
    int32_t timeline_ranks;
    rp_result *res;
    replay_tracer_config *tracer; /* [workload] tracer_config: its jobs' M/S/T directives */
    warp_lp_type type;
    /* Filled while the LPs initialise, read-only afterwards (workload.c):
     * the task graphs, one per distinct shape of this process's ranks, in
     * a hash table; the ranks' progress arrays, carved from large zeroed
     * blocks. Both freed by rp_destroy through replay_graphs_free. */
    struct rp_graph **shapes;
    uint64_t nshapes, shapes_cap, shaped_ranks;
    uint64_t graph_bytes, progress_bytes, tasks_held; /* for the report (replay_graphs_line) */
    int memory_line;  /* [replay] memory_line = 1: print them */
    char **blocks;
    size_t nblocks, block_left;
    char *block_cur;
} rp_config;

/* Builds c->jobs from [workload] tracer_config = path (TraceR's job file and
 * rank maps); stops with one message naming the file on any error. */
void rp_tracer_jobs(rp_config *c, const char *path, const replay_opts *o);

/* Fills t with the replay LP type (handlers of workload.c). */
void replay_lp_type(warp_lp_type *t);

/* Prints this process's task-graph memory: shapes for ranks, bytes per
 * rank and per task of the graphs and of the progress arrays. */
void replay_graphs_line(const rp_config *c, FILE *f);

/* Frees the shared task graphs and progress blocks of c (workload.c). It
 * touches no job: each job's shape memo borrows these graphs and is the
 * job's to drop (rp_destroy frees the jobs first). */
void replay_graphs_free(rp_config *c);

/* Every key of [replay] that a reader declares, from the run file into o
 * (after replay_opts_default); a bad value stops naming the key
 * (reader_opts.c). */
void replay_opts_read(warp_ini *ini, replay_opts *o);
/* Packet captures (capture_stats.c): the per-message arrays of the jobs
 * whose trace is a capture and the CSV keys; noting a committed arrival;
 * the sums over processes and the CSVs (rank 0); the report's lines. */
void rp_capture_setup(warp_ini *ini, rp_config *c);
void rp_capture_note(const rp_config *c, int32_t job, int32_t tag, double t_send, double t_arrive);
void rp_capture_reduce(const rp_config *c, const warp_ctx *w);
void rp_capture_report(const rp_config *c, int j, FILE *f);

/* Phases of structured sources (phase_stats.c): the per-job arrays, noting
 * a committed arrival, the maxima over processes, the report's lines. */
void rp_phase_setup(rp_config *c);
void rp_phase_note(const rp_config *c, int32_t job, int32_t tag, double t_send, double t_arrive);
void rp_phase_reduce(const rp_config *c, const warp_ctx *w);
void rp_phase_report(const rp_config *c, int j, FILE *f);

/* The replay's mem_hint (net.h): its graphs, progress arrays and bursts,
 * measured on a few loaded ranks of each job (sizing.c). */
void replay_mem_hint(warp_ini *ini, const net_model *net, net_workload_mem *m);

#endif
