/* tests/fuzz/fuzz_routes.c — libFuzzer harness for the routing table
 * reader of [graph] routes (models/graph/graph_routes.c), checked against a
 * fixed wiring built here. Built by `make fuzz` (tests/fuzz/local.mk); the
 * reader stops through warp_fatal, which fuzz_stop.c turns into a checked
 * longjmp.
 *
 * Input: one byte choosing the wiring, then the table. Even: the leaf-spine
 * of examples/configs/leafspine-8x4.anynet (leaves 0-7 with 4 nodes each
 * reach spines 8-11 on ports 0-3; spine S reaches leaf L on port L). Odd: a
 * ring of 12 (port 0 of router r leads to r - 1, port 1 to r + 1), a node
 * on every router but 3, 7 and 11, so walks can loop and run past
 * NET_MAX_VCS hops.
 *
 * Checks, for every input: no crash, leak or sanitizer report; a file with a
 * NUL byte is refused (the rest of its line is not lost unseen); a rejection
 * is one line, exit code 2, "PATH:LINE: what; fix" or "PATH: what; fix"; in
 * an accepted table every walk from a router holding nodes to another one
 * meets only entries whose ports lead to routers, and reaches its
 * destination within max_hops <= NET_MAX_VCS hops (followed here
 * independently of the reader's depth-first check). */
#include <assert.h>
#include <stdint.h>
#include <string.h>

#include "fuzz_stop.h"
#include "graph/graph_routes.h"
#include "net/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_R 12

typedef struct wiring {
    uint64_t off[MAX_R + 1], to[MAX_R * 8], toff[MAX_R + 1];
    graph_wiring w;
} wiring;

static void leaf_spine(wiring *x)
{
    uint64_t e = 0;
    for (uint64_t r = 0; r < 12; r++) {
        x->off[r] = e;
        x->toff[r] = r < 8 ? 4 * r : 32;
        for (uint64_t p = 0; p < (r < 8 ? 4 : 8); p++)
            x->to[e++] = r < 8 ? 8 + p : p;
    }
    x->off[12] = e;
    x->toff[12] = 32;
}

static void ring(wiring *x)
{
    uint64_t t = 0;
    for (uint64_t r = 0; r < 12; r++) {
        x->off[r] = 2 * r;
        x->to[2 * r] = (r + 11) % 12;
        x->to[2 * r + 1] = (r + 1) % 12;
        x->toff[r] = t;
        t += r % 4 != 3;
    }
    x->off[12] = 24;
    x->toff[12] = t;
}

typedef struct call {
    const char *path;
    const graph_wiring *w;
    graph_routes t;
} call;

static void read_routes(void *arg)
{
    call *c = arg;
    graph_routes_read(c->path, c->w, &c->t);
}

static int has_nodes(const graph_wiring *w, uint64_t r) { return w->toff[r + 1] > w->toff[r]; }

/* Every walk from src to dst, one hop at a time as a set of routers. */
static void check_pair(const graph_routes *t, const graph_wiring *w, uint64_t src, uint64_t dst)
{
    uint8_t at[MAX_R] = {0}, next[MAX_R];
    at[src] = 1;
    for (uint32_t hop = 0;; hop++) {
        int any = 0;
        memset(next, 0, sizeof next);
        for (uint64_t r = 0; r < w->routers; r++) {
            if (!at[r] || r == dst)
                continue;
            any = 1;
            int32_t n;
            const int32_t *ports = graph_routes_at(t, r, dst, &n);
            assert(n > 0);
            for (int32_t i = 0; i < n; i++) {
                assert(ports[i] >= 0 && (uint64_t)ports[i] < w->off[r + 1] - w->off[r]);
                next[w->to[w->off[r] + (uint64_t)ports[i]]] = 1;
            }
        }
        if (!any)
            break;
        assert(hop < t->max_hops);
        memcpy(at, next, sizeof at);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static wiring wirings[2];
    if (!wirings[0].w.routers) {
        leaf_spine(&wirings[0]);
        ring(&wirings[1]);
        for (int i = 0; i < 2; i++)
            wirings[i].w = (graph_wiring){12, wirings[i].off, wirings[i].to, wirings[i].toff};
    }
    if (size < 1)
        return 0;
    call c = {.w = &wirings[data[0] & 1].w};
    c.path = fuzz_stop_file(data + 1, size - 1);
    if (fuzz_stop_run(c.path, read_routes, &c) == 0) {
        assert(!memchr(data + 1, 0, size - 1)); /* a NUL byte is refused, never skipped */
        assert(c.t.routers == c.w->routers && c.t.max_hops <= NET_MAX_VCS);
        for (uint64_t s = 0; s < c.w->routers; s++)
            for (uint64_t d = 0; d < c.w->routers; d++)
                if (s != d && has_nodes(c.w, s) && has_nodes(c.w, d))
                    check_pair(&c.t, c.w, s, d);
        graph_routes_free(&c.t);
    }
    return 0;
}
