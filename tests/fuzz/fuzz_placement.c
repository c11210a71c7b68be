/* tests/fuzz/fuzz_placement.c — libFuzzer harness for the placement file
 * reader of --partition=file:PATH (models/net/partition_parse.c), checked
 * against a network given by its name, counts and graph hash, as
 * net_partition_read gives them. Built by `make fuzz` (tests/fuzz/local.mk);
 * the reader stops through warp_fatal, which fuzz_stop.c turns into a
 * checked longjmp.
 *
 * Input: one byte choosing the network (a "torus" of 1 + (bits 0-3)
 * routers, twice as many nodes, graph 0123456789abcdef) and the run's rank
 * count (bits 4-7; 0 and 1: a sequential run, which takes any rank count),
 * then the file.
 *
 * Checks, for every input: no crash, leak or sanitizer report; a file with a
 * NUL byte is refused (the rest of its line is not lost unseen); a rejection
 * is one line, exit code 2, "PATH:LINE: what; fix"; an accepted placement
 * puts every router on a rank below the run's rank count (the router count
 * in a sequential run: every rank holds one) and, on several ranks, leaves
 * no rank empty. */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_stop.h"
#include "net/partition_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

typedef struct call {
    const char *path;
    net_partition_want want;
    uint32_t parts;
    uint32_t *part;
} call;

static void read_placement(void *arg)
{
    call *c = arg;
    c->part = net_partition_parse(c->path, &c->want, c->parts);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    uint64_t routers = 1 + (data[0] & 15);
    call c = {.want = {"torus", routers, 2 * routers, UINT64_C(0x0123456789abcdef)},
              .parts = data[0] >> 4};
    c.path = fuzz_stop_file(data + 1, size - 1);
    if (fuzz_stop_run(c.path, read_placement, &c) == 0) {
        assert(!memchr(data + 1, 0, size - 1)); /* a NUL byte is refused, never skipped */
        uint32_t held[16] = {0}, below = c.parts > 1 ? c.parts : (uint32_t)routers;
        for (uint64_t r = 0; r < routers; r++) {
            assert(c.part[r] < below);
            held[c.part[r]]++;
        }
        for (uint32_t k = 0; c.parts > 1 && k < c.parts; k++)
            assert(held[k] > 0);
        free(c.part);
    }
    return 0;
}
