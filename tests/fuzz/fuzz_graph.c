/* tests/fuzz/fuzz_graph.c — libFuzzer harness for the network file reader
 * of [graph] file (models/graph/graph_read.c): BookSim anynet files and
 * edge lists. Built by `make fuzz` (tests/fuzz/local.mk); the reader stops
 * through warp_fatal, which fuzz_stop.c turns into a checked longjmp.
 *
 * Input: one byte choosing the format (even: anynet, odd: edges) and the
 * edge list's terminals per router (1 + bits 1-3), then the file.
 *
 * Checks, for every input: no crash, leak or sanitizer report; a file with a
 * NUL byte is refused (the rest of its line is not lost unseen); a rejection
 * is one line, exit code 2, "PATH:LINE: what; fix" or "PATH: what; fix"; an
 * accepted network has routers and nodes, every node on a router that
 * exists, links between distinct routers sorted by their ends (anynet: each
 * pair once), bandwidths > 0 and latencies >= 0 or the default (< 0). */
#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_stop.h"
#include "graph/graph_read.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Small enough that no accepted file gets near libFuzzer's memory limit. */
#define MAX_BYTES (64.0 * 1024 * 1024)

typedef struct call {
    const char *path;
    graph_format format;
    uint64_t terminals;
    graph_desc g;
} call;

static void read_graph(void *arg)
{
    call *c = arg;
    graph_read(c->path, c->format, c->terminals, MAX_BYTES, &c->g);
}

static void check(const call *c)
{
    const graph_desc *g = &c->g;
    assert(g->routers > 0 && g->nodes > 0);
    if (c->format == GRAPH_EDGES)
        assert(g->nodes == g->routers * c->terminals);
    for (uint64_t t = 0; t < g->nodes; t++) {
        assert(g->node_router[t] < g->routers);
        assert(c->format == GRAPH_ANYNET || g->node_router[t] == t / c->terminals);
        assert(g->node_bandwidth[t] > 0 || g->node_bandwidth[t] == -1);
        assert(g->node_latency[t] >= 0 || g->node_latency[t] == -1);
    }
    for (uint64_t i = 0; i < g->nlinks; i++) {
        const graph_link *l = &g->links[i], *k = i ? l - 1 : NULL;
        assert(l->a < l->b && l->b < g->routers && l->line > 0);
        assert(!k || k->a < l->a || (k->a == l->a && k->b <= l->b));
        assert(!k || c->format == GRAPH_EDGES || k->a != l->a || k->b != l->b);
        assert(l->bandwidth > 0 || l->bandwidth == -1);
        assert(l->latency >= 0 || l->latency == -1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    call c = {.format = data[0] & 1 ? GRAPH_EDGES : GRAPH_ANYNET,
              .terminals = 1 + ((data[0] >> 1) & 7)};
    c.path = fuzz_stop_file(data + 1, size - 1);
    if (fuzz_stop_run(c.path, read_graph, &c) == 0) {
        assert(!memchr(data + 1, 0, size - 1)); /* a NUL byte is refused, never skipped */
        check(&c);
        graph_desc_free(&c.g);
    }
    return 0;
}
