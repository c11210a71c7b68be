/* graph/graph_routes.h — a routing table read from a file for a network
 * read from a file ([graph] routes = FILE).
 *
 * Format: one entry per line, `ROUTER DEST PORT [PORT ...]`: at router
 * ROUTER a packet for a node of router DEST leaves on one of the listed
 * ports (ports of ROUTER that lead to routers; several: ECMP per message, or
 * the least occupied with routing = adaptive). DEST `*` is ROUTER's default
 * for every destination without its own line. `#` starts a comment.
 *
 * At setup every walk the table allows, from each router holding nodes to
 * each other one, must reach its destination without a loop and within
 * NET_MAX_VCS router hops (a VC class per hop keeps it deadlock-free);
 * otherwise the run is refused naming the pair, the walk and the line. */
#ifndef GRAPH_ROUTES_H
#define GRAPH_ROUTES_H

#include <stdint.h>

/* The wiring the table is checked against (graph_topo.c's compressed
 * rows): router r's router ports are 0 .. off[r+1]-off[r]-1, port p leading
 * to router to[off[r] + p]; its node ports follow, toff[r+1]-toff[r] of them. */
typedef struct graph_wiring {
    uint64_t routers;
    const uint64_t *off, *to, *toff;
} graph_wiring;

typedef struct graph_routes {
    uint64_t routers;
    uint32_t *start; /* routers x routers: first of the pair's ports in ports[] */
    uint8_t *count;  /* routers x routers: how many (0 where no walk needs it) */
    int32_t *ports;  /* each entry's ports, rising */
    uint32_t max_hops; /* the longest walk between two routers holding nodes */
} graph_routes;

/* Bytes the table of `routers` routers takes while it is read and checked. */
double graph_routes_bytes(uint64_t routers);
/* Reads and checks `path` against w (errors stop the run, exit 2). */
void graph_routes_read(const char *path, const graph_wiring *w, graph_routes *t);
void graph_routes_free(graph_routes *t);
/* The candidate ports of router r for destination router dst (*n of them). */
static inline const int32_t *graph_routes_at(const graph_routes *t, uint64_t r, uint64_t dst, int32_t *n)
{
    uint64_t i = r * t->routers + dst;
    *n = t->count[i];
    return t->ports + t->start[i];
}

#endif
