/* tests/fuzz/fuzz_chakra.c — libFuzzer harness for the Chakra reader's own
 * code (models/replay/readers/chakra.c and chakra_map.c): the message
 * framing (varint lengths), then the mapping of whatever nodes protobuf-c
 * decoded (types, ids, dependencies, attributes) onto a task graph.
 * protobuf-c itself is a Debian library, not instrumented here. Built by
 * `make fuzz` (tests/fuzz/local.mk) when the Chakra reader is built.
 *
 * Input: one rank's .et file; the world size is 1 + (first byte mod 8), and
 * the rank is 0. Checks, for every input: no crash, leak or sanitizer
 * report; the load either fails with one line naming the file or gives a
 * graph that passes replay_rank_validate. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/chakra.h"
#include "replay/taskgraph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PATH "fuzz.0.et"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ChakraProtoMsg__Node **nodes = NULL;
    size_t n = 0;
    replay_err err = {{0}};
    coll_cfg cfg = {0};
    cfg.chunks = size ? 1 + data[size - 1] % 3 : 1;
    if (ck_decode(data, size, PATH, &nodes, &n, &err) == 0) {
        replay_rank r;
        memset(&r, 0, sizeof r);
        ck_ctx c = {.rank = 0, .nranks = size ? 1 + data[0] % 8 : 1, .flops_per_ns = size % 2 ? 1e3 : 0,
                    .bytes_per_ns = size % 3 ? 100 : 0, .coll = &cfg, .path = PATH};
        if (ck_map_nodes(&c, nodes, n, &r, &err) == 0) {
            replay_err verr;
            assert(replay_rank_validate(&r, PATH, &verr) == 0);
            replay_rank_free(&r);
            ck_free_nodes(nodes, n);
            return 0;
        }
        ck_free_nodes(nodes, n);
    }
    assert(err.msg[0] && !strchr(err.msg, '\n'));
    assert(strncmp(err.msg, PATH ":", strlen(PATH) + 1) == 0);
    return 0;
}
