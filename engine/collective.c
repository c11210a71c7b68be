/* engine/collective.c — every collective of the engine, on its own
 * communicator: the engine's own (coll_*: statistics, conservative windows,
 * checkpoints, agreeing on the configuration), reductions and gathers of
 * model results onto rank 0, and the communicator for host programs
 * (warp_mpi.h). Every rank calls each in the same order; models call theirs
 * after warp_run, never in handlers. Point-to-point is transport.c's. */
#include "internal.h"
#include "warp_hash.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "warp_mpi.h"

MPI_Comm warp_comm(const warp_ctx *w) { return w->comm; }

/* ---- the engine's own ------------------------------------------------------- */

static MPI_Datatype coll_mpi_type(coll_type t)
{
    switch (t) {
    case COLL_U64: return MPI_UINT64_T;
    case COLL_I64: return MPI_INT64_T;
    case COLL_DOUBLE: return MPI_DOUBLE;
    }
    return MPI_DATATYPE_NULL;
}

/* Whether this node has more ranks than cores (asked once: it cannot change
 * during a run). */
static bool cores_shared(const warp_ctx *w)
{
    static long cores;
    if (!cores)
        cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 && w->on_node > cores;
}

void coll_allreduce(const warp_ctx *w, const void *in, void *out, int n, coll_type t, coll_op op)
{
    MPI_Op mop = op == COLL_SUM ? MPI_SUM : op == COLL_MAX ? MPI_MAX : MPI_MIN;
    if (!cores_shared(w)) {
        MPI_Allreduce(in == out ? MPI_IN_PLACE : in, out, n, coll_mpi_type(t), mop, w->comm);
        return;
    }
    /* MPICH's blocking reductions spin: with more ranks than cores a spinning
     * rank held the core its peer needed to arrive, and cons, two reductions
     * a window, took 53 s on 4 ranks of 2 cores against 2 s on 2 (issue 53).
     * Tested between yields, the wait gives the core away. */
    MPI_Request req;
    MPI_Iallreduce(in == out ? MPI_IN_PLACE : in, out, n, coll_mpi_type(t), mop, w->comm, &req);
    for (int done = 0;;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        sched_yield();
    }
}

void coll_bcast(const warp_ctx *w, void *buf, size_t bytes)
{
    MPI_Bcast(buf, (int)bytes, MPI_BYTE, 0, w->comm);
}

void coll_barrier(const warp_ctx *w) { MPI_Barrier(w->comm); }

void coll_gather(const warp_ctx *w, const void *mine, size_t bytes, void *all)
{
    MPI_Gather(mine, (int)bytes, MPI_BYTE, all, (int)bytes, MPI_BYTE, 0, w->comm);
}

void *coll_gatherv(const warp_ctx *w, const void *buf, int n, coll_type t, int **counts, int **displs,
                   const char *what)
{
    MPI_Datatype type = coll_mpi_type(t);
    size_t size = 8; /* every coll_type is 8 bytes */
    void *all = NULL;
    *counts = *displs = NULL;
    if (w->rank == 0) {
        *counts = malloc((size_t)w->nranks * sizeof **counts);
        *displs = malloc((size_t)w->nranks * sizeof **displs);
    }
    MPI_Gather(&n, 1, MPI_INT, *counts, 1, MPI_INT, 0, w->comm);
    if (w->rank == 0) {
        int total = 0;
        for (int i = 0; i < w->nranks; i++) {
            (*displs)[i] = total;
            total += (*counts)[i];
        }
        all = malloc(((size_t)total + 1) * size);
        if (!all || !*counts || !*displs)
            warp_fatal(WARP_EXIT_RESOURCE, "out of memory gathering %s", what);
    }
    MPI_Gatherv(buf, n, type, all, *counts, *displs, type, 0, w->comm);
    return all;
}

/* ---- model results -------------------------------------------------------------- */

void warp_reduce_to_root(const warp_ctx *w, void *buf, uint64_t n, warp_type t, warp_op op)
{
    if (w->nranks == 1)
        return;
    MPI_Datatype dt = MPI_DOUBLE;
    size_t size = 8;
    switch (t) {
    case WARP_TYPE_U32: dt = MPI_UINT32_T, size = 4; break;
    case WARP_TYPE_U64: dt = MPI_UINT64_T, size = 8; break;
    case WARP_TYPE_FLOAT: dt = MPI_FLOAT, size = 4; break;
    case WARP_TYPE_DOUBLE: dt = MPI_DOUBLE, size = 8; break;
    }
    MPI_Op mop = op == WARP_OP_MAX ? MPI_MAX : MPI_SUM;
    const uint64_t chunk = UINT64_C(1) << 24; /* MPI counts are int */
    for (uint64_t i = 0; i < n; i += chunk) {
        int k = (int)(n - i < chunk ? n - i : chunk);
        char *p = (char *)buf + i * size;
        if (w->rank == 0)
            MPI_Reduce(MPI_IN_PLACE, p, k, dt, mop, 0, w->comm);
        else
            MPI_Reduce(p, NULL, k, dt, mop, 0, w->comm);
    }
}

void *warp_gather_to_root(const warp_ctx *w, const void *mine, uint64_t n, size_t size,
                          uint64_t *total, const char *too_big)
{
    uint64_t bytes = n * size;
    if ((size_t)bytes > (size_t)INT32_MAX)
        warp_fatal(WARP_EXIT_RESOURCE, "%s", too_big);
    uint64_t *all = w->rank ? NULL : warp_xcalloc((size_t)w->nranks, sizeof *all);
    MPI_Gather(&bytes, 1, MPI_UINT64_T, all, 1, MPI_UINT64_T, 0, w->comm);
    int *counts = NULL, *displs = NULL;
    uint64_t sum = 0;
    if (!w->rank) {
        counts = warp_xcalloc((size_t)w->nranks, sizeof *counts);
        displs = warp_xcalloc((size_t)w->nranks, sizeof *displs);
        for (int i = 0; i < w->nranks; i++) {
            if (sum + all[i] > (uint64_t)INT32_MAX)
                warp_fatal(WARP_EXIT_RESOURCE, "%s", too_big);
            displs[i] = (int)sum;
            counts[i] = (int)all[i];
            sum += all[i];
        }
    }
    char *buf = w->rank ? NULL : warp_xcalloc(sum ? sum : 1, 1);
    MPI_Gatherv(mine, (int)bytes, MPI_BYTE, buf, counts, displs, MPI_BYTE, 0, w->comm);
    free(all);
    free(counts);
    free(displs);
    *total = size ? sum / size : 0;
    return buf;
}

/* ---- warp_agree_config -------------------------------------------------------- */

/* Orders "key=value" strings by key, then value. */
static int setting_cmp(const void *a, const void *b)
{
    const char *x = *(const char *const *)a, *y = *(const char *const *)b;
    size_t kx = strcspn(x, "="), ky = strcspn(y, "=");
    int c = strncmp(x, y, kx < ky ? kx : ky);
    if (c)
        return c;
    if (kx != ky)
        return kx < ky ? -1 : 1;
    return strcmp(x, y);
}

/* The first key (in key order) whose setting differs between the sorted
 * lists a (rank 0's) and b (this rank's), written "key=value" with b's
 * value ("key" alone: unset here) into rec; "" when they agree. */
static void first_difference(char *const *a, size_t na, char *const *b, size_t nb, char *rec,
                             size_t cap)
{
    size_t i = 0, j = 0;
    rec[0] = '\0';
    while (i < na || j < nb) {
        int c = i == na ? 1 : j == nb ? -1 : setting_cmp(&a[i], &b[j]);
        size_t ka = i < na ? strcspn(a[i], "=") : 0, kb = j < nb ? strcspn(b[j], "=") : 0;
        if (c == 0) {
            i++, j++;
            continue;
        }
        if (i < na && j < nb && ka == kb && !strncmp(a[i], b[j], ka)) {
            snprintf(rec, cap, "%s", b[j]); /* same key, other value */
        } else if (c < 0) {
            snprintf(rec, cap, "%.*s", (int)ka, a[i]); /* rank 0 has it, we do not */
        } else {
            snprintf(rec, cap, "%s", b[j]); /* we have it, rank 0 does not */
        }
        return;
    }
}

/* The value part of a record for the message ("unset" when absent). */
static const char *value_of(const char *rec)
{
    const char *eq = strchr(rec, '=');
    return eq ? eq + 1 : "(unset)";
}

enum { AGREE_REC = 512 };

void warp_agree_config(const warp_ctx *w, const char *const *items, size_t n)
{
    char eng[32][80];
    size_t ne = warp_options_settings(w, eng, 32);
    size_t total = n + ne;
    char **mine = warp_xcalloc(total ? total : 1, sizeof *mine);
    for (size_t i = 0; i < n; i++)
        mine[i] = (char *)items[i];
    for (size_t i = 0; i < ne; i++)
        mine[n + i] = eng[i];
    qsort(mine, total, sizeof *mine, setting_cmp);
    uint64_t h = WARP_FNV1A_INIT;
    for (size_t i = 0; i < total; i++)
        h = warp_fnv1a(h, mine[i], strlen(mine[i]) + 1);
    if (w->nranks == 1) {
        free(mine);
        return;
    }
    uint64_t hv[2] = {h, ~h}; /* max of h and of ~h: min and max agree iff all do */
    MPI_Allreduce(MPI_IN_PLACE, hv, 2, MPI_UINT64_T, MPI_MAX, w->comm);
    if (hv[0] == ~hv[1]) {
        free(mine);
        return;
    }

    /* They differ: rank 0's list to all, each rank finds its first
     * difference, rank 0 names the smallest key and who differs on it. */
    uint64_t len = 0;
    for (size_t i = 0; i < total; i++)
        len += strlen(mine[i]) + 1;
    MPI_Bcast(&len, 1, MPI_UINT64_T, 0, w->comm);
    char *buf = warp_xcalloc(len + 1, 1);
    if (w->rank == 0)
        for (size_t i = 0, at = 0; i < total; i++) {
            size_t l = strlen(mine[i]) + 1;
            memcpy(buf + at, mine[i], l);
            at += l;
        }
    MPI_Bcast(buf, (int)len, MPI_CHAR, 0, w->comm);
    size_t n0 = 0;
    for (uint64_t at = 0; at < len; at += strlen(buf + at) + 1)
        n0++;
    char **zero = warp_xcalloc(n0 ? n0 : 1, sizeof *zero);
    for (uint64_t at = 0, i = 0; at < len; at += strlen(buf + at) + 1)
        zero[i++] = buf + at;
    char rec[AGREE_REC];
    first_difference(zero, n0, mine, total, rec, sizeof rec);
    char *all = w->rank ? NULL : warp_xcalloc((size_t)w->nranks, AGREE_REC);
    MPI_Gather(rec, AGREE_REC, MPI_CHAR, all, AGREE_REC, MPI_CHAR, 0, w->comm);
    char msg[1024] = "";
    if (w->rank == 0) {
        const char *key = NULL;
        size_t klen = 0;
        for (int r = 1; r < w->nranks; r++) {
            const char *x = all + (size_t)r * AGREE_REC;
            size_t kx = strcspn(x, "=");
            if (x[0] && (!key || setting_cmp(&x, &key) < 0))
                key = x, klen = kx;
        }
        char ranks[160] = "", zval[160] = "(unset)";
        int shown = 0, more = 0;
        for (int r = 1; r < w->nranks; r++) {
            const char *x = all + (size_t)r * AGREE_REC;
            if (strcspn(x, "=") != klen || strncmp(x, key, klen))
                continue;
            size_t l = strlen(ranks);
            if (shown < 3)
                snprintf(ranks + l, sizeof ranks - l, "%s%s on rank %d", shown ? ", " : "",
                         value_of(x), r), shown++;
            else
                more++;
        }
        for (size_t i = 0; i < total; i++)
            if (strcspn(mine[i], "=") == klen && !strncmp(mine[i], key, klen))
                snprintf(zval, sizeof zval, "%s", value_of(mine[i]));
        char more_s[48] = "";
        if (more)
            snprintf(more_s, sizeof more_s, " and %d more rank%s", more, more > 1 ? "s" : "");
        snprintf(msg, sizeof msg, "configuration differs across ranks: %.*s is %s on rank 0 but %s%s; "
                 "start every rank with the same run file, options and trace files",
                 (int)klen, key, zval, ranks, more_s);
    }
    free(all);
    free(zero);
    free(buf);
    /* Every rank knows: leave together, so the launcher reports our code. */
    warp_stop_all(w, WARP_EXIT_USAGE, "%s", msg);
}
