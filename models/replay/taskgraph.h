/* taskgraph.h — the in-memory task graph of ONE simulated rank, as every trace
 * reader produces it and the replay consumes it.
 *
 * A task: optionally waits for one message (its trigger), needs its backward
 * dependencies (finished, or only started for GOAL's irequires), then runs for
 * dur_ns and sends its messages when it starts.
 *
 * Memory per rank (documented in docs/trace-format.md):
 *   32 bytes per task (replay_task), 4 bytes per dependency (CSR), 16 bytes per
 *   sent message (CSR), plus a fixed 48-byte header. A 3-D stencil rank of
 *   k iterations (6 sends, 6 receives, compute, allreduce rounds) stays a few
 *   kilobytes per iteration. */
#ifndef REPLAY_TASKGRAPH_H
#define REPLAY_TASKGRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "replay/error.h"

/* A dependency word: index of an earlier-declared task of the same rank, with
 * REPLAY_DEP_START set when only the start of that task is required
 * (GOAL's irequires). Indices are therefore limited to 2^31 - 1 per rank. */
#define REPLAY_DEP_START 0x80000000u
#define REPLAY_DEP_INDEX(d) ((d) & 0x7fffffffu)

/* Wildcards of a trigger (GOAL's -1). */
#define REPLAY_ANY (-1)

/* replay_task.flags */
enum {
    REPLAY_TRIGGERED = 1u << 0, /* waits for a message matching (trig_src, trig_tag) */
    REPLAY_WAIT = 1u << 1,      /* dur_ns passes without the rank's CPU (a timer: captures' gaps);
                                 * never triggered, sends nothing */
};

typedef struct replay_task {
    uint64_t dur_ns;   /* compute time once started */
    int32_t trig_src;  /* sender rank of the trigger, or REPLAY_ANY */
    int32_t trig_tag;  /* tag of the trigger, or REPLAY_ANY */
    uint32_t dep_end;  /* deps of task i: deps[i ? tasks[i-1].dep_end : 0 .. dep_end) */
    uint32_t msg_end;  /* msgs of task i: same scheme over msgs */
    uint8_t flags;     /* REPLAY_TRIGGERED */
    uint8_t cpu;       /* GOAL cpu clause (0 otherwise) */
    uint8_t nic;       /* GOAL nic clause (0 otherwise) */
    uint8_t unused;
} replay_task;

typedef struct replay_msg {
    uint64_t bytes;
    int32_t dst;  /* destination rank */
    int32_t tag;  /* matched against the receiver's trig_tag */
} replay_msg;

/* One rank's graph. While building, pending edges live in the b_* arrays;
 * replay_rank_end() turns them into the CSR arrays. */
typedef struct replay_rank {
    int32_t rank;
    uint32_t ntasks, ndeps, nmsgs;
    replay_task *tasks;
    uint32_t *deps;
    replay_msg *msgs;
    /* builder scratch (empty after replay_rank_end) */
    uint32_t cap_tasks, b_ndeps, b_cap_deps, b_nmsgs, b_cap_msgs;
    uint32_t *b_dep_task;  /* task owning pending dependency k */
    uint32_t *b_dep_val;   /* its dependency word */
    uint32_t *b_msg_task;  /* task owning pending message k */
    replay_msg *b_msg;
} replay_rank;

/* Starts an empty graph for `rank` (any previous content must be freed). */
void replay_rank_begin(replay_rank *r, int32_t rank);

/* Sizes the builder for about ntasks tasks, ndeps dependencies and nmsgs
 * messages (a hint: more still grow the arrays), so a reader that knows
 * its counts builds the graph without reallocating. */
void replay_rank_reserve(replay_rank *r, uint32_t ntasks, uint32_t ndeps, uint32_t nmsgs);

/* Appends a task; returns its index. trig_src/trig_tag matter only with
 * REPLAY_TRIGGERED in flags. */
uint32_t replay_add_task(replay_rank *r, uint64_t dur_ns, uint8_t flags,
                         int32_t trig_src, int32_t trig_tag);

/* Adds a dependency of `task` on `dep` (start_only: GOAL irequires); edges may
 * be added in any order until replay_rank_end. */
void replay_add_dep(replay_rank *r, uint32_t task, uint32_t dep, int start_only);

/* Adds a message that `task` sends when it starts. */
void replay_add_msg(replay_rank *r, uint32_t task, int32_t dst, uint64_t bytes, int32_t tag);

/* Freezes the graph into CSR form; checks dependency indices and the absence
 * of cycles. Returns 0, or -1 with err set (`place` names the input). */
int replay_rank_end(replay_rank *r, const char *place, replay_err *err);

/* Checks a frozen graph (CSR bounds, flags, dependency indices, no cycle);
 * used by readers that decode CSR arrays directly. */
int replay_rank_validate(const replay_rank *r, const char *place, replay_err *err);

/* Releases all memory of r (safe on a zeroed or already freed rank). */
void replay_rank_free(replay_rank *r);

/* First dependency / message index of task i (CSR row start). */
static inline uint32_t replay_dep_begin(const replay_rank *r, uint32_t i)
{
    return i ? r->tasks[i - 1].dep_end : 0;
}
static inline uint32_t replay_msg_begin(const replay_rank *r, uint32_t i)
{
    return i ? r->tasks[i - 1].msg_end : 0;
}

/* The reverse of a frozen graph's dependency lists, in CSR form: the
 * dependants of task d are (*out)[(*out_end)[d] .. (*out_end)[d+1]), in task
 * order, each a task index with REPLAY_DEP_START when it needs only d's
 * start. Both arrays are heap; the caller frees them. */
void replay_rank_dependants(const replay_rank *r, uint32_t **out_end, uint32_t **out);

/* Replaces a frozen graph by `times` copies in sequence (TraceR's
 * iterations): between copies a zero-length join task requires every task of
 * the previous copy that nothing depends on, and the tasks without
 * dependencies of the next copy require the join. Returns 0, or -1 when the
 * result would exceed 2^31 tasks. */
int replay_rank_repeat(replay_rank *r, uint32_t times, const char *place, replay_err *err);

/* Bytes the frozen graph occupies (what docs/trace-format.md promises). */
size_t replay_rank_bytes(const replay_rank *r);

#endif
