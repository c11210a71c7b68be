/* engine/gvt_shm.c — a GVT round's reduction through shared memory, for
 * ranks that all share one node: each rank publishes its part in its own
 * slot and every rank combines all slots itself, instead of an
 * MPI_Iallreduce whose completion waits on every rank's progress calls.
 * Called by gvt.c (start_reduction, gvt_step); the slots are shm.c's
 * (shm_slots), so this file calls no MPI. The invariant: every rank starts
 * the same reductions in the same order (they are collective), so reduction
 * k is the k-th publication of every slot. */
#include "internal.h"

#include <stdatomic.h>
#include <stdlib.h>

/* A slot: the sequence number of the last reduction published and two
 * message buffers, k & 1 holding reduction k. Two are enough: a rank
 * publishes k + 2 only after it has seen every rank publish k + 1, and a
 * rank publishes k + 1 only once it has read all of k. Own cache lines, so
 * that polling one rank's slot does not steal another's. */
typedef struct gvt_slot {
    _Alignas(64) _Atomic uint64_t seq;
    _Alignas(64) struct gvt_round_msg msg[2];
} gvt_slot;

void gvt_shm_init(warp_ctx *w)
{
    warp_gvt *g = &w->gvt;
    g->shm_seq = 0;
    g->slots = w->nranks > 1 ? shm_slots(w, sizeof(gvt_slot)) : NULL;
}

void gvt_shm_start(warp_ctx *w)
{
    warp_gvt *g = &w->gvt;
    uint64_t k = ++g->shm_seq;
    gvt_slot *s = g->slots[w->rank];
    s->msg[k & 1] = g->in;
    atomic_store_explicit(&s->seq, k, memory_order_release);
}

bool gvt_shm_test(warp_ctx *w)
{
    warp_gvt *g = &w->gvt;
    uint64_t k = g->shm_seq;
    for (int r = 0; r < w->nranks; r++)
        if (atomic_load_explicit(&((gvt_slot *)g->slots[r])->seq, memory_order_acquire) < k)
            return false;
    /* Every rank combines the same slots in the same order: the same result
     * everywhere, as the MPI reduction gives. */
    struct gvt_round_msg out = ((gvt_slot *)g->slots[0])->msg[k & 1];
    for (int r = 1; r < w->nranks; r++)
        gvt_msg_combine(&out, &((gvt_slot *)g->slots[r])->msg[k & 1]);
    g->out = out;
    w->cnt.gvt_shared++;
    return true;
}

void gvt_shm_destroy(warp_ctx *w)
{
    free(w->gvt.slots); /* the window is shm.c's */
    w->gvt.slots = NULL;
}
