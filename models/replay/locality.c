/* locality.c — placement = locality: orders a job's ranks by a recursive
 * bisection of its communication graph (locality.h). The graph is built
 * from every rank's sent messages, made symmetric, with a neighbour's edge
 * weight the KiB exchanged both ways. Called by workload_setup.c. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdlib.h>

#include "warp.h"
#include "replay/locality.h"
#include "replay/taskgraph.h"
#ifdef HAVE_METIS
#include <metis.h>
#endif

enum { LOCALITY_GROUP = 8 }; /* ranks per part of the bisection */

#ifdef HAVE_METIS
typedef struct comm_edge {
    int32_t a, b;
    uint64_t bytes;
} comm_edge;

static int edge_cmp(const void *x, const void *y)
{
    const comm_edge *p = x, *q = y;
    if (p->a != q->a)
        return p->a < q->a ? -1 : 1;
    return (p->b > q->b) - (p->b < q->b);
}

/* Every message of every rank as two directed edges (a to b and back). */
static comm_edge *comm_edges(replay_source *src, size_t *count, replay_err *err)
{
    size_t n = 0, cap = 1024;
    comm_edge *e = warp_xcalloc(cap, sizeof *e);
    for (int32_t r = 0; r < src->nranks; r++) {
        replay_rank g = {0};
        if (replay_source_load(src, r, &g, err)) {
            replay_rank_free(&g);
            free(e);
            return NULL;
        }
        for (uint32_t m = 0; m < g.nmsgs; m++) {
            int32_t d = g.msgs[m].dst;
            if (d == r || d < 0 || d >= src->nranks)
                continue;
            if (n + 2 > cap) {
                cap *= 2;
                e = warp_xrealloc(e, cap * sizeof *e);
            }
            e[n++] = (comm_edge){r, d, g.msgs[m].bytes};
            e[n++] = (comm_edge){d, r, g.msgs[m].bytes};
        }
        replay_rank_free(&g);
    }
    *count = n;
    return e;
}

/* KiB exchanged, at least 1, capped where METIS's 32-bit sums stay safe. */
static idx_t weight_of(uint64_t bytes)
{
    uint64_t k = bytes / 1024 + 1;
    return (idx_t)(k > (1u << 16) ? 1u << 16 : k);
}
#endif

int replay_locality_order(replay_source *src, int32_t *order, replay_err *err)
{
    int32_t n = src->nranks;
    for (int32_t r = 0; r < n; r++)
        order[r] = r;
#ifdef HAVE_METIS
    if (n < 2 * LOCALITY_GROUP)
        return 0;
    size_t ne = 0;
    comm_edge *e = comm_edges(src, &ne, err);
    if (!e)
        return -1;
    qsort(e, ne, sizeof *e, edge_cmp);
    /* CSR with parallel edges merged. */
    idx_t *xadj = warp_xcalloc((size_t)n + 1, sizeof *xadj);
    idx_t *adj = warp_xcalloc(ne + 1, sizeof *adj), *wgt = warp_xcalloc(ne + 1, sizeof *wgt);
    idx_t out = 0;
    uint64_t sum = 0;
    for (size_t i = 0; i < ne; i++) {
        sum += e[i].bytes;
        if (i + 1 < ne && e[i + 1].a == e[i].a && e[i + 1].b == e[i].b)
            continue;
        adj[out] = e[i].b;
        wgt[out++] = weight_of(sum);
        xadj[e[i].a + 1] = out;
        sum = 0;
    }
    for (int32_t r = 0; r < n; r++) /* ranks without edges: empty rows */
        if (xadj[r + 1] < xadj[r])
            xadj[r + 1] = xadj[r];
    free(e);
    idx_t nv = n, ncon = 1, parts = (n + LOCALITY_GROUP - 1) / LOCALITY_GROUP, cut = 0;
    idx_t opt[METIS_NOPTIONS];
    METIS_SetDefaultOptions(opt);
    opt[METIS_OPTION_SEED] = 1;
    opt[METIS_OPTION_NUMBERING] = 0;
    idx_t *where = warp_xcalloc((size_t)n, sizeof *where);
    int rc = METIS_PartGraphRecursive(&nv, &ncon, xadj, adj, NULL, NULL, wgt, &parts, NULL, NULL,
                                      opt, &cut, where);
    free(xadj);
    free(adj);
    free(wgt);
    if (rc == METIS_OK) {
        /* Counting sort by part: recursive bisection numbers the parts of
         * each half consecutively, so close parts are close in the graph. */
        idx_t *start = warp_xcalloc((size_t)parts + 1, sizeof *start);
        for (int32_t r = 0; r < n; r++)
            start[where[r] + 1]++;
        for (idx_t p = 0; p < parts; p++)
            start[p + 1] += start[p];
        for (int32_t r = 0; r < n; r++)
            order[start[where[r]]++] = r;
        free(start);
    }
    free(where);
#endif
    return 0;
}
