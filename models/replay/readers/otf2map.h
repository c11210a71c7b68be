/* otf2map.h — the OTF2-to-task-graph mapping, separate from libotf2 so it
 * builds and is tested without it: the reader buffers one location's events
 * as o2_event records and o2_map_events turns them into the rank's graph
 * (FORMATS.md §3; tag encoding and collective algorithms in
 * docs/trace-format.md). */
#ifndef REPLAY_OTF2MAP_H
#define REPLAY_OTF2MAP_H

#include <stdint.h>

#include "replay/error.h"
#include "replay/readers/mpimap.h"
#include "replay/taskgraph.h"

enum o2_kind {
    O2_OTHER,      /* any non-MPI region enter/leave: only its time matters */
    O2_ENTER_MPI,  /* enter of an MPI_* region */
    O2_LEAVE_MPI,
    O2_SEND,       /* blocking send: peer, comm, tag, len */
    O2_ISEND,      /* + req */
    O2_ISEND_DONE, /* req */
    O2_IRECV_POST, /* req (source and tag come with its O2_IRECV_DONE) */
    O2_IRECV_DONE, /* peer, comm, tag, len, req */
    O2_RECV,       /* blocking receive: peer, comm, tag, len */
    O2_COLL,       /* collective end: op (OTF2_CollectiveOp), comm, peer = root, len = sent, len2 = received */
    O2_CANCELLED,  /* request cancelled: refused */
};

typedef struct o2_event {
    uint64_t time; /* timer ticks */
    uint64_t len, len2, req;
    uint32_t peer, comm, tag;
    uint8_t kind, op;
} o2_event;

typedef struct o2_evbuf {
    o2_event *ev;
    uint32_t n, cap;
} o2_evbuf;

/* Appends a copy of e. */
void o2_evbuf_push(o2_evbuf *b, const o2_event *e);

/* Collective operations (values of OTF2_CollectiveOp). */
enum {
    O2_BARRIER = 0, O2_BCAST = 1, O2_GATHER = 2, O2_GATHERV = 3, O2_SCATTER = 4, O2_SCATTERV = 5,
    O2_ALLGATHER = 6, O2_ALLGATHERV = 7, O2_ALLTOALL = 8, O2_ALLTOALLV = 9, O2_ALLTOALLW = 10,
    O2_ALLREDUCE = 11, O2_REDUCE = 12, O2_REDUCE_SCATTER = 13, O2_SCAN = 14, O2_EXSCAN = 15,
    O2_REDUCE_SCATTER_BLOCK = 16,
};

/* The tag layout shared with the other MPI mappings (mpimap.h). */
#define O2_TAG_COLL REPLAY_TAG_COLL
#define O2_TAG_CTRL REPLAY_TAG_CTRL
#define O2_CTRL_BYTES REPLAY_CTRL_BYTES

typedef struct o2_map_ctx {
    int32_t rank, nranks;
    uint64_t timer_res;   /* ticks per second */
    uint64_t eager_limit; /* point-to-point messages above it use rendezvous */
    /* Members of a communicator as world ranks; self = 1 for MPI_COMM_SELF-like
     * groups (members then empty). Returns -1 for an unknown communicator. */
    int (*members)(const void *arg, uint32_t comm, const uint64_t **members, uint32_t *n, int *self);
    const void *arg;
    const char *path; /* for messages */
    const coll_cfg *coll; /* [collectives] (NULL: the built-in algorithms) */
} o2_map_ctx;

/* Builds rank ctx->rank's graph from its events (in trace order). */
int o2_map_events(const o2_map_ctx *ctx, const o2_evbuf *b, replay_rank *out, replay_err *err);

#endif
