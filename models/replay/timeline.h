/* timeline.h — the replay's timeline for trace viewers: `[replay] timeline =
 * FILE.json` writes Chrome/Perfetto trace-event JSON (one track per
 * application rank, tasks as slices, messages as flow arrows from send to
 * arrival), `FILE.prv` a Paraver trace with FILE.pcf and FILE.row (states
 * running / waiting / receiving, an event per task kind, a communication
 * record per message). Commit handlers add what committed on their process;
 * after the run every process hands its records to process 0, which sorts
 * them (so the files do not depend on the number of processes) and writes
 * the files. Any other timeline path keeps the CSV of workload_setup.c. */
#ifndef REPLAY_TIMELINE_H
#define REPLAY_TIMELINE_H

#include <stdint.h>

#include "warp.h"

/* What a slice was: from the task's trigger and messages, or a LogGOPS
 * receive overhead. */
typedef enum replay_tl_kind {
    REPLAY_TL_COMPUTE = 1,
    REPLAY_TL_SEND = 2,
    REPLAY_TL_RECV = 3,
    REPLAY_TL_RECV_SEND = 4,
    REPLAY_TL_RX = 5,
} replay_tl_kind;

typedef struct replay_timeline replay_timeline;

/* What the writer needs to know of one job. */
typedef struct replay_tl_job {
    const char *trace;
    int32_t ranks;           /* job ranks; ranks >= the limit are not drawn */
    const uint64_t *global;  /* job rank -> network rank (track ids) */
} replay_tl_job;

/* A timeline for path when it ends in .json or .prv (else NULL: the CSV). */
replay_timeline *replay_timeline_open(const char *path);

/* Records a committed task (or receive overhead) of job rank `rank`. */
void replay_timeline_slice(replay_timeline *t, int32_t job, int32_t rank, uint32_t task,
                           replay_tl_kind kind, double start, double end);

/* Records a committed arrival: src sent `bytes` at `sent`, dst got them at `arrived`. */
void replay_timeline_msg(replay_timeline *t, int32_t job, int32_t src, int32_t dst, uint64_t bytes,
                         int64_t tag, double sent, double arrived);

/* Collective: gathers every process's records on process 0, which writes the
 * files. Returns 0, or -1 on process 0 when a file cannot be written (then
 * nothing is left under the final names); why gets the reason. */
int replay_timeline_write(replay_timeline *t, const warp_ctx *w, const replay_tl_job *jobs, int njobs,
                          int32_t ranks_limit, const char **why);

/* The path it writes. */
const char *replay_timeline_path(const replay_timeline *t);

void replay_timeline_free(replay_timeline *t);

#endif
