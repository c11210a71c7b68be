/* coll.h — collective algorithms for the trace replay: one rank's share of
 * an allreduce, reduce-scatter, allgather, all-to-all, broadcast or reduce,
 * expanded into sends and triggered receives of its task graph with the
 * algorithm [collectives] chooses per operation (docs/ai-workloads.md):
 *   ring, tree (double binary tree), halving-doubling (Rabenseifner),
 *   direct (every pair at once), hierarchical(G[,INNER[,OUTER]])
 *   (INNER within groups of G consecutive members, OUTER across groups),
 * optionally cut into `chunks` pipelined chunks. Used by the gen:collective
 * generator, the Chakra reader, and the MPI readers when a key is given. */
#ifndef REPLAY_COLL_H
#define REPLAY_COLL_H

#include <stdint.h>

#include "replay/error.h"
#include "replay/taskgraph.h"

typedef enum coll_op {
    COLL_ALLREDUCE,
    COLL_REDUCE_SCATTER,
    COLL_ALLGATHER,
    COLL_ALLTOALL,
    COLL_BCAST,
    COLL_REDUCE,
    COLL_NOPS
} coll_op;

typedef enum coll_alg {
    COLL_ALG_DEFAULT, /* not chosen: the caller's default (coll_cfg_alg) */
    COLL_ALG_RING,
    COLL_ALG_TREE,
    COLL_ALG_HD,
    COLL_ALG_DIRECT,
    COLL_ALG_HIER,
} coll_alg;

typedef struct coll_choice {
    coll_alg alg;
    coll_alg inner, outer; /* COLL_ALG_HIER: within and across groups */
    uint32_t group;        /* COLL_ALG_HIER: members per group */
} coll_choice;

/* The [collectives] settings; all zero: nothing chosen, one chunk. */
typedef struct coll_cfg {
    coll_choice op[COLL_NOPS];
    uint32_t chunks; /* pipelined chunks per collective; 0 or 1: none */
} coll_cfg;

/* One call of a collective as one member sees it. `bytes`: allreduce,
 * reduce-scatter and all-to-all the input buffer, allgather the output
 * buffer, broadcast and reduce the message (docs/ai-workloads.md). */
typedef struct coll_call {
    coll_op op;
    uint32_t n, me, root;  /* communicator size, this member's and the root's positions */
    uint64_t bytes;
    int32_t base_tag;      /* coll_tag(); the expansion ORs in 16 bits of its own */
    int32_t (*world)(const void *arg, uint32_t pos); /* rank of the member at pos */
    const void *arg;
} coll_call;

/* The keys of [collectives], ending with NULL: the operations' names, then
 * "chunks". */
extern const char *const coll_keys[];

/* The operation named name ("allreduce", "reduce_scatter", ...), or -1. */
int coll_op_find(const char *name);

/* Name of an operation. */
const char *coll_op_name(coll_op op);

/* Sets key (one of coll_keys) to value in c; NULL, or why the value is
 * refused (an unknown algorithm, one that cannot do the operation, a
 * malformed hierarchical(...)). */
const char *coll_cfg_set(coll_cfg *c, const char *key, const char *value);

/* The algorithm for op: the one chosen, or dflt when none is. */
coll_choice coll_cfg_alg(const coll_cfg *c, coll_op op, coll_alg dflt);

/* The default algorithm of readers without one of their own: ring for the
 * reductions and gathers, direct for all-to-all, tree for broadcast/reduce. */
coll_alg coll_default_alg(coll_op op);

/* Base tag of collective number seq on communicator comm: a range of tags
 * no point-to-point or built-in MPI collective message uses. */
int32_t coll_tag(uint32_t comm, uint64_t seq);

/* Appends member k->me's share of the collective after task `after`
 * (UINT32_MAX: none) with algorithm a and `chunks` chunks; *end is the task
 * that ends it (`after` when this member has nothing to do). Every member
 * expanding the same call gets sends and receives that match one for one.
 * Returns 0, or -1 with err set (`place` names the input) when the
 * algorithm does not fit the communicator (a group size that does not
 * divide it). */
int coll_expand(replay_rank *r, const coll_call *k, coll_choice a, uint32_t chunks, uint32_t after,
                uint32_t *end, const char *place, replay_err *err);

#endif
