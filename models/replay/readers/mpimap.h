/* mpimap.h — what the mappings of MPI traces (OTF2, Dimemas) share: a
 * rank's task chain, the wire-tag layout that makes message matching exact,
 * and the expansion of collectives into point-to-point rounds (algorithms in
 * docs/trace-format.md). */
#ifndef REPLAY_MPIMAP_H
#define REPLAY_MPIMAP_H

#include <stdint.h>

#include "replay/collectives/coll.h"
#include "replay/taskgraph.h"

/* Tag layout (31 bits): bit 30 collective, bit 29 rendezvous control; then
 * 5 bits communicator, 16 bits tag (or collective sequence), 8 bits sequence
 * (or round). */
#define REPLAY_TAG_COLL (1 << 30)
#define REPLAY_TAG_CTRL (1 << 29)
#define REPLAY_CTRL_BYTES 8 /* size of a rendezvous control message */

/* A rank's graph built as one chain in trace order: each chain task requires
 * the one before. */
typedef struct replay_chain {
    replay_rank *r;
    uint32_t last; /* REPLAY_CHAIN_EMPTY before the first task */
} replay_chain;
#define REPLAY_CHAIN_EMPTY UINT32_MAX

/* Appends a task to the chain (triggered by (src, tag) when trig); returns it. */
uint32_t replay_chain_task(replay_chain *c, uint64_t dur, int trig, int32_t src, int32_t tag);

/* A task that requires the chain's last task but does not extend the chain
 * (non-blocking work that completes on its own); returns it. */
uint32_t replay_chain_branch(replay_chain *c, uint64_t dur, int trig, int32_t src, int32_t tag);

/* Wire tag of message number seq of (comm, tag) between two ranks. */
int32_t replay_wire_tag(uint32_t comm, uint32_t tag, uint64_t seq);

/* Key of the per-(peer, comm, tag) sequence counters, aliased exactly as
 * the wire tag aliases (comm mod 32, tag mod 65536). */
uint64_t replay_wire_key(int32_t peer, uint32_t comm, uint32_t tag);

/* Base tag of collective number seq on comm; round r's messages carry base | r. */
int32_t replay_coll_tag(uint32_t comm, uint64_t seq);

/* How a collective travels. */
enum replay_coll_alg {
    REPLAY_COLL_ALLREDUCE, /* recursive doubling (power-of-two n), else reduce + bcast trees to/from 0 */
    REPLAY_COLL_BCAST,     /* binomial tree from root */
    REPLAY_COLL_REDUCE,    /* binomial tree to root */
    REPLAY_COLL_GATHER,    /* every other member sends to root */
    REPLAY_COLL_SCATTER,   /* root sends to every other member */
    REPLAY_COLL_RING,      /* n - 1 steps: send right, receive from the left */
    REPLAY_COLL_ALLTOALL,  /* pairwise exchange, n - 1 steps */
    REPLAY_COLL_SCAN,      /* linear chain 0 -> 1 -> ... -> n - 1 */
};

typedef struct replay_coll {
    enum replay_coll_alg alg;
    uint32_t n, me, root;  /* communicator size, positions of this rank and the root */
    uint64_t bytes;        /* payload of each message */
    int32_t base_tag;      /* replay_coll_tag */
    /* World rank of the member at position pos. */
    int32_t (*world)(const void *arg, uint32_t pos);
    const void *arg;
} replay_coll;

/* Appends this rank's share of the collective to the chain: one task per
 * send, one triggered task per receive, in the algorithm's order. */
void replay_coll_expand(replay_chain *c, const replay_coll *k);

/* Expands call number seq on communicator comm with the algorithm cfg
 * ([collectives]) chooses for op, `bytes` being its size as coll.h counts
 * it, when cfg chooses one (op < 0: an operation coll.h lacks); else with
 * k's built-in algorithm. Returns 0, or -1 with err set (place: the input). */
int replay_coll_expand_as(replay_chain *c, const replay_coll *k, const coll_cfg *cfg, int op, uint64_t bytes,
                          uint32_t comm, uint64_t seq, const char *place, replay_err *err);

#endif
