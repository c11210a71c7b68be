/* engine/collective.c — what models and host programs need from MPI, on the
 * engine's own communicator: reductions and gathers of model results onto
 * rank 0, and the communicator itself for host programs (warp_mpi.h).
 * Models call these after warp_run, never in handlers. */
#include "internal.h"

#include <stdlib.h>

#include "warp_mpi.h"

MPI_Comm warp_comm(const warp_ctx *w) { return w->comm; }

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
