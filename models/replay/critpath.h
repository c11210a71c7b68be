/* critpath.h — the reference timing of a whole task graph with zero network
 * time and zero overheads, computed sequentially and independently of the
 * engine: the critical path (every rank may run any number of tasks at once)
 * and the ideal replay (each rank runs one task at a time from a FIFO of
 * ready tasks, TraceR's rule). Used by `warpnet-trace info` and by tests that
 * check the replay on an ideal network. */
#ifndef REPLAY_CRITPATH_H
#define REPLAY_CRITPATH_H

#include <stdint.h>

#include "replay/taskgraph.h"

typedef struct replay_timing {
    uint64_t finish_ns;       /* max over ranks of the last task's end */
    uint64_t tasks_done;      /* tasks that ran */
    uint64_t tasks_stuck;     /* tasks that never ran (missing message or cycle across ranks) */
    uint64_t msgs_unmatched;  /* messages no task ever received */
    uint64_t msgs_bad_dst;    /* messages to ranks outside the graph (dropped) */
} replay_timing;

/* Simulates the graph of ranks[0..nranks) (ranks[i].rank must be i).
 * serialize = 0: critical path; 1: one task at a time per rank (FIFO).
 * rank_finish, if non-NULL, receives each rank's last end time.
 * Receives match messages MPI-like: a triggered task is posted once its
 * dependencies are met and takes the first matching unexpected message;
 * an arriving message takes the first matching posted task. */
void replay_timing_run(const replay_rank *ranks, int32_t nranks, int serialize,
                       replay_timing *out, uint64_t *rank_finish);

#endif
