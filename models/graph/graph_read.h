/* graph/graph_read.h — reads a network from a file: BookSim's anynet format
 * or a plain edge list, streaming (two passes over the file: the first
 * checks the syntax and counts, so that every array is sized, and the
 * memory estimated, before anything is allocated).
 *
 * anynet (BookSim's network_file): each line is a list of `kind id` pairs,
 * kind `router` or `node`. The first pair is the line's subject; every later
 * pair is joined to it: `router R node N ...` attaches terminal N to router
 * R, `router R router S` links routers R and S, `node N router R` attaches N
 * to R. A link named from both ends (or twice) is one link. Warpnet's
 * additions: `#` starts a comment, and `bandwidth=100Gbps` or `latency=50ns`
 * tokens after a pair set that link's bandwidth or latency (units as in run
 * files). Routers are 0 .. R-1 and nodes 0 .. N-1, every one named; a node
 * has one router.
 *
 * edges: each line `A B [BANDWIDTH] [LATENCY]` is one link between routers A
 * and B (two lines: two parallel links); terminals come from [graph]
 * terminals (T per router, terminal t on router t / T).
 *
 * Every error stops with "FILE:LINE: what is wrong; what to do" (exit 2). */
#ifndef GRAPH_READ_H
#define GRAPH_READ_H

#include <stdint.h>
#include <stdio.h>

typedef enum graph_format { GRAPH_ANYNET = 0, GRAPH_EDGES = 1 } graph_format;

/* One link between routers a < b (bandwidth/latency < 0: the default). */
typedef struct graph_link {
    uint64_t a, b;
    double bandwidth, latency;
    uint64_t line; /* where the file first named it */
} graph_link;

typedef struct graph_desc {
    uint64_t routers, nodes;
    uint64_t nlinks;
    graph_link *links;     /* sorted by (a, b), duplicates merged (anynet) */
    uint64_t *node_router; /* router of each node */
    double *node_bandwidth, *node_latency; /* per node (< 0: default) */
} graph_desc;

/* Reads `path` in `format` (terminals: edges' terminals per router) into g;
 * `max_bytes` bounds the memory the reader and the routing table (routers^2
 * bytes) will need, refused with the estimate before allocating. */
void graph_read(const char *path, graph_format format, uint64_t terminals, double max_bytes,
                graph_desc *g);
void graph_desc_free(graph_desc *g);
/* Reads f (named path) line by line, counting lines in *line, and calls
 * fn(ctx, tokens, count) for each line with tokens (blanks or commas
 * between them; `#` starts a comment); a read error or a NUL byte stops
 * the run. */
void graph_each_line(FILE *f, const char *path, uint64_t *line, void (*fn)(void *, char **, int),
                     void *ctx);

#endif
