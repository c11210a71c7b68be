/* chakra.h — the Chakra execution-trace reader's two halves: the file
 * framing (chakra.c: NAME.RANK.et files, a varint length before each
 * protobuf message) and the mapping of one rank's decoded nodes onto its
 * task graph (chakra_map.c), which the tests and the fuzzer drive apart. */
#ifndef REPLAY_CHAKRA_H
#define REPLAY_CHAKRA_H

#include <stddef.h>
#include <stdint.h>

#include "et_def.pb-c.h"
#include "replay/collectives/coll.h"
#include "replay/error.h"
#include "replay/taskgraph.h"

typedef struct ck_ctx {
    int32_t rank, nranks;
    double flops_per_ns; /* [replay] flops_rate (0: not given) */
    double bytes_per_ns; /* [replay] memory_bandwidth (0: not given) */
    const coll_cfg *coll; /* [collectives] (NULL: the defaults) */
    const char *path;     /* the rank's file, for messages */
} ck_ctx;

/* Builds rank ctx->rank's graph from its nodes (in file order) into out:
 * begun, filled and frozen. Returns 0, or -1 with err set naming the node. */
int ck_map_nodes(const ck_ctx *ctx, ChakraProtoMsg__Node *const *nodes, size_t n, replay_rank *out,
                 replay_err *err);

/* Decodes one rank file's bytes: the GlobalMetadata message, then the nodes
 * (*nodes: heap, free with ck_free_nodes). Returns 0, or -1 with err set
 * ("PATH: ... at byte N"). */
int ck_decode(const uint8_t *buf, size_t len, const char *path, ChakraProtoMsg__Node ***nodes, size_t *n,
              replay_err *err);

/* Frees what ck_decode returned. */
void ck_free_nodes(ChakraProtoMsg__Node **nodes, size_t n);

#endif
