/* tracer_config.h — TraceR's job file (`tracer_config`) and rank maps, read as
 * TraceR reads them, for `[workload] tracer_config = FILE`:
 *
 *   GLOBAL_MAP | NA
 *   NJOBS
 *   TRACE MAP|NA RANKS ITERATIONS        (one line per job)
 *   [M JOB LIMIT BY | S JOB SIZE BY | T LIMIT_S BY_S ...]   (optional)
 *
 * The global map is a binary file of native ints (global rank, local rank,
 * job) per server; a job map holds the global rank of each local rank. Paths
 * are taken relative to the directory of the tracer_config (TraceR opens them
 * from its working directory, which is that directory in its examples). */
#ifndef REPLAY_TRACER_CONFIG_H
#define REPLAY_TRACER_CONFIG_H

#include <stdint.h>

#include "replay/error.h"
#include "replay/taskgraph.h"

typedef struct replay_tracer_subst {
    uint64_t size, by; /* S: messages of exactly `size` bytes become `by` */
} replay_tracer_subst;

typedef struct replay_tracer_job {
    char *trace;         /* resolved path of the trace (BigSim directory, OTF2 anchor) */
    char *map;           /* resolved path of the job map, NULL for NA */
    int32_t ranks;
    uint32_t iterations;
    int64_t size_limit;  /* M: messages of at least size_limit bytes ... (-1: none) */
    uint64_t size_by;    /* ... become size_by bytes */
    replay_tracer_subst *subst; /* S directives, in file order */
    int nsubst;
} replay_tracer_job;

typedef struct replay_tracer_config {
    char *path;           /* the tracer_config itself, for messages */
    char *global_map;     /* resolved path, NULL for NA (TraceR's linear default) */
    replay_tracer_job *jobs;
    int njobs;
    int64_t time_limit_ns; /* T: tasks of at least this duration ... (-1: none) */
    uint64_t time_by_ns;   /* ... take this duration instead */
} replay_tracer_config;

/* Reads a tracer_config. Returns 0, or -1 with err naming the file, line and
 * field (and what would fix it). */
int replay_tracer_read(const char *path, replay_tracer_config *out, replay_err *err);

/* Fills place[j][r] with the global (network) rank of rank r of job j from
 * the maps, or linearly (job after job) when the global map is NA. Checks
 * that every global rank is below nranks, used once, and that the global map
 * and the job maps agree. place[j] must hold jobs[j].ranks entries. */
int replay_tracer_placement(const replay_tracer_config *c, uint64_t nranks, uint64_t **place,
                            replay_err *err);

/* Applies job j's M/S directives and the T directive to a loaded rank graph. */
void replay_tracer_apply(const replay_tracer_config *c, int job, replay_rank *g);

/* Releases everything replay_tracer_read allocated. */
void replay_tracer_free(replay_tracer_config *c);

#endif
