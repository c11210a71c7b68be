/* graph/graph_routes.c — reads a routing table from a file (format in
 * graph_routes.h) line by line, then checks every walk it allows.
 * Invariant: after graph_routes_read every (router, destination) pair a
 * packet between two routers holding nodes can meet has ports leading to
 * routers, and every walk reaches its destination in max_hops <= NET_MAX_VCS
 * hops. Called by graph_topo.c's setup. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph/graph_read.h"
#include "graph/graph_routes.h"
#include "net/topology.h"
#include "warp.h"

/* What the reader keeps while it reads: the line of each pair's entry and
 * of each router's default, for the checks' messages. */
typedef struct rreader {
    const char *path;
    const graph_wiring *w;
    graph_routes *t;
    uint64_t line, nports, cap;
    uint32_t *pair_line;  /* routers x routers, 0: no line */
    uint32_t *def_start, *def_line;
    uint8_t *def_count;
    /* the walk checks' scratch (kept here, where a stop still holds it) */
    uint8_t *state;
    uint32_t *hops;
    uint64_t *stack;
    int32_t *next;
} rreader;

/* Stops at the current line: "FILE:LINE: what; fix". */
static void fail(const rreader *rd, const char *fix, const char *fmt, ...)
    __attribute__((format(printf, 3, 4), noreturn));
static void fail(const rreader *rd, const char *fix, const char *fmt, ...)
{
    char what[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    warp_fatal(WARP_EXIT_USAGE, "%s:%llu: %s; %s", rd->path, (unsigned long long)rd->line, what, fix);
}

static uint64_t number(const rreader *rd, const char *tok, const char *kind)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(tok, &end, 10);
    if (*tok < '0' || *tok > '9' || *end || errno) {
        char what[160];
        snprintf(what, sizeof what, "'%.40s' is not a %s number", tok, kind);
        warp_fatal(WARP_EXIT_USAGE, "%s:%llu: %s; write ROUTER DEST PORT [PORT ...] (DEST a router or *)",
                   rd->path, (unsigned long long)rd->line, what);
    }
    return v;
}

static int rising(const void *x, const void *y)
{
    int32_t a = *(const int32_t *)x, b = *(const int32_t *)y;
    return (a > b) - (a < b);
}

/* One entry `r dst|* p ...` (n >= 1 tokens). */
static void entry(void *ctx, char **tok, int n)
{
    rreader *rd = ctx;
    const graph_wiring *w = rd->w;
    uint64_t R = w->routers;
    if (n < 3)
        fail(rd, "write ROUTER DEST PORT [PORT ...] (DEST a router or *)",
             "a route needs a router, a destination and at least one port");
    uint64_t r = number(rd, tok[0], "router");
    if (r >= R)
        fail(rd, "name a router of [graph] file", "router %llu does not exist (routers are 0 .. %llu)",
             (unsigned long long)r, (unsigned long long)(R - 1));
    int dflt = !strcmp(tok[1], "*");
    uint64_t dst = dflt ? 0 : number(rd, tok[1], "destination router");
    if (!dflt && dst >= R)
        fail(rd, "name a router of [graph] file, or * for the default",
             "destination router %llu does not exist (routers are 0 .. %llu)", (unsigned long long)dst,
             (unsigned long long)(R - 1));
    if (!dflt && dst == r)
        fail(rd, "remove the line (at its destination's router a packet leaves on its node's port)",
             "router %llu routes to itself", (unsigned long long)r);
    uint32_t *seen = dflt ? &rd->def_line[r] : &rd->pair_line[r * R + dst];
    if (*seen && dflt)
        fail(rd, "give each entry once", "router %llu's default (*) is given on line %lu too",
             (unsigned long long)r, (unsigned long)*seen);
    if (*seen)
        fail(rd, "give each entry once", "router %llu to router %llu is given on line %lu too",
             (unsigned long long)r, (unsigned long long)dst, (unsigned long)*seen);
    if (n - 2 > 255)
        fail(rd, "list at most 255", "%d ports in one entry", n - 2);
    uint64_t deg = w->off[r + 1] - w->off[r], radix = deg + w->toff[r + 1] - w->toff[r];
    if (rd->nports + (uint64_t)n > UINT32_MAX)
        fail(rd, "give a shorter table (use * defaults)", "more than %lu ports in all",
             (unsigned long)UINT32_MAX);
    if (rd->nports + (uint64_t)n > rd->cap) {
        rd->cap = 2 * rd->cap + (uint64_t)n;
        rd->t->ports = warp_xrealloc(rd->t->ports, rd->cap * sizeof *rd->t->ports);
    }
    int32_t *ports = rd->t->ports + rd->nports;
    for (int i = 2; i < n; i++) {
        uint64_t p = number(rd, tok[i], "port");
        if (p >= radix)
            fail(rd, "give a port of that router", "router %llu has ports 0 .. %llu, not %llu",
                 (unsigned long long)r, (unsigned long long)(radix - 1), (unsigned long long)p);
        if (p >= deg)
            fail(rd, "list next-hop ports that lead to routers",
                 "port %llu of router %llu leads to a node, not to a router (its router ports are 0 .. %lld)",
                 (unsigned long long)p, (unsigned long long)r, (long long)deg - 1);
        ports[i - 2] = (int32_t)p;
    }
    qsort(ports, (size_t)(n - 2), sizeof *ports, rising);
    for (int i = 1; i < n - 2; i++)
        if (ports[i] == ports[i - 1])
            fail(rd, "list each port once", "port %d is listed twice", (int)ports[i]);
    *seen = rd->line > UINT32_MAX ? UINT32_MAX : (uint32_t)rd->line;
    if (dflt) {
        rd->def_start[r] = (uint32_t)rd->nports;
        rd->def_count[r] = (uint8_t)(n - 2);
    } else {
        rd->t->start[r * R + dst] = (uint32_t)rd->nports;
        rd->t->count[r * R + dst] = (uint8_t)(n - 2);
    }
    rd->nports += (uint64_t)(n - 2);
}

/* Writes the walk stack[0..n-1] (then `last`, if not UINT64_MAX) as
 * "a -> b -> c" into buf. */
static void walk(char *buf, size_t size, const uint64_t *stack, uint64_t n, uint64_t last)
{
    size_t k = 0;
    buf[0] = 0;
    for (uint64_t i = 0; i <= n && k + 32 < size; i++) {
        uint64_t r = i < n ? stack[i] : last;
        if (r == UINT64_MAX)
            break;
        k += (size_t)snprintf(buf + k, size - k, "%s%llu", i ? " -> " : "", (unsigned long long)r);
    }
    if (k + 32 >= size)
        snprintf(buf + k, size - k, " ...");
}

/* The line to name for the entry of (r, dst). */
static unsigned long long line_of(const rreader *rd, uint64_t r, uint64_t dst)
{
    uint32_t l = rd->pair_line[r * rd->w->routers + dst];
    return l ? l : rd->def_line[r];
}

/* Depth-first over every walk the table allows towards dst from each router
 * holding nodes: hops[r] is the longest walk from r (state 2: known, 1: on
 * the current walk). */
static void check_dest(rreader *rd, uint64_t dst)
{
    uint8_t *state = rd->state;
    uint32_t *hops = rd->hops;
    uint64_t *stack = rd->stack;
    int32_t *next = rd->next;
    const graph_wiring *w = rd->w;
    graph_routes *t = rd->t;
    uint64_t R = w->routers;
    char path[512];
    memset(state, 0, R);
    state[dst] = 2;
    hops[dst] = 0;
    for (uint64_t src = 0; src < R; src++) {
        if (state[src] || w->toff[src + 1] == w->toff[src])
            continue;
        uint64_t depth = 0;
        stack[depth] = src;
        next[depth++] = 0;
        state[src] = 1;
        hops[src] = 0;
        while (depth) {
            uint64_t r = stack[depth - 1];
            int32_t n;
            const int32_t *ports = graph_routes_at(t, r, dst, &n);
            if (!n) {
                walk(path, sizeof path, stack, depth, UINT64_MAX);
                warp_fatal(WARP_EXIT_USAGE,
                           "%s: no route at router %llu to router %llu, which packets from router "
                           "%llu reach (%s); add a line `%llu %llu PORT` or a default `%llu * PORT`",
                           rd->path, (unsigned long long)r, (unsigned long long)dst,
                           (unsigned long long)src, path, (unsigned long long)r,
                           (unsigned long long)dst, (unsigned long long)r);
            }
            if (next[depth - 1] == n) { /* every branch done */
                state[r] = 2;
                depth--;
                if (depth) {
                    uint64_t up = stack[depth - 1];
                    hops[up] = hops[r] + 1 > hops[up] ? hops[r] + 1 : hops[up];
                }
                continue;
            }
            uint64_t q = w->to[w->off[r] + (uint64_t)ports[next[depth - 1]++]];
            if (state[q] == 2) {
                hops[r] = hops[q] + 1 > hops[r] ? hops[q] + 1 : hops[r];
                continue;
            }
            if (state[q] == 1) {
                walk(path, sizeof path, stack, depth, q);
                rd->line = line_of(rd, r, dst);
                warp_fatal(WARP_EXIT_USAGE,
                           "%s:%llu: the routes to router %llu loop (%s); make every walk reach router %llu",
                           rd->path, (unsigned long long)rd->line, (unsigned long long)dst, path,
                           (unsigned long long)dst);
            }
            state[q] = 1;
            hops[q] = 0;
            stack[depth] = q;
            next[depth++] = 0;
        }
        if (hops[src] > NET_MAX_VCS) {
            uint64_t n = 0;
            for (uint64_t r = src; r != dst && n < R; n++) { /* the longest walk */
                stack[n] = r;
                int32_t k;
                const int32_t *ports = graph_routes_at(t, r, dst, &k);
                for (int32_t i = 0; i < k; i++) {
                    uint64_t q = w->to[w->off[r] + (uint64_t)ports[i]];
                    if (hops[q] + 1 == hops[r]) {
                        r = q;
                        break;
                    }
                }
            }
            walk(path, sizeof path, stack, n, dst);
            warp_fatal(WARP_EXIT_USAGE,
                       "%s: packets from router %llu to router %llu may take %u router hops (%s), and "
                       "table routing takes a VC per hop to be deadlock-free, but a port has at most "
                       "%d VCs; give routes of at most %d hops",
                       rd->path, (unsigned long long)src, (unsigned long long)dst, hops[src], path,
                       NET_MAX_VCS, NET_MAX_VCS);
        }
        t->max_hops = hops[src] > t->max_hops ? hops[src] : t->max_hops;
    }
}

double graph_routes_bytes(uint64_t routers) { return 9.0 * (double)routers * (double)routers; }

void graph_routes_read(const char *path, const graph_wiring *w, graph_routes *t)
{
    uint64_t R = w->routers;
    memset(t, 0, sizeof *t);
    t->routers = R;
    FILE *f = fopen(path, "r");
    if (!f)
        warp_fatal(WARP_EXIT_USAGE, "%s: cannot open the routing table (%s); check [graph] routes", path,
                   strerror(errno));
    t->start = warp_xcalloc(R * R, sizeof *t->start);
    t->count = warp_xcalloc(R * R, 1);
    rreader rd = {.path = path, .w = w, .t = t};
    rd.pair_line = warp_xcalloc(R * R, sizeof *rd.pair_line);
    rd.def_start = warp_xcalloc(R, sizeof *rd.def_start);
    rd.def_line = warp_xcalloc(R, sizeof *rd.def_line);
    rd.def_count = warp_xcalloc(R, 1);
    graph_each_line(f, path, &rd.line, entry, &rd);
    fclose(f);
    if (!t->ports)
        t->ports = warp_xcalloc(1, sizeof *t->ports);
    for (uint64_t r = 0; r < R; r++) /* defaults fill the pairs without a line */
        for (uint64_t d = 0; d < R; d++)
            if (d != r && !t->count[r * R + d]) {
                t->start[r * R + d] = rd.def_start[r];
                t->count[r * R + d] = rd.def_count[r];
            }
    rd.state = warp_xcalloc(R, 1);
    rd.hops = warp_xcalloc(R, sizeof *rd.hops);
    rd.stack = warp_xcalloc(R + 1, sizeof *rd.stack);
    rd.next = warp_xcalloc(R + 1, sizeof *rd.next);
    for (uint64_t d = 0; d < R; d++)
        if (w->toff[d + 1] > w->toff[d])
            check_dest(&rd, d);
    free(rd.state);
    free(rd.hops);
    free(rd.stack);
    free(rd.next);
    free(rd.pair_line);
    free(rd.def_start);
    free(rd.def_line);
    free(rd.def_count);
}

void graph_routes_free(graph_routes *t)
{
    free(t->start);
    free(t->count);
    free(t->ports);
    memset(t, 0, sizeof *t);
}
