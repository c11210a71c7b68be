/* mpimap.c — the chain, wire tags and collective algorithms of mpimap.h.
 * Invariant: every member of a communicator that expands the same collective
 * (same algorithm, n, root, base tag) produces sends and receives that match
 * one for one, round by round; an operation [collectives] names goes to
 * collectives/coll.c instead. Called by otf2map.c and dimemas.c. */
#include "replay/readers/mpimap.h"

uint32_t replay_chain_task(replay_chain *c, uint64_t dur, int trig, int32_t src, int32_t tag)
{
    uint32_t t = replay_chain_branch(c, dur, trig, src, tag);
    c->last = t;
    return t;
}

uint32_t replay_chain_branch(replay_chain *c, uint64_t dur, int trig, int32_t src, int32_t tag)
{
    uint32_t t = replay_add_task(c->r, dur, trig ? REPLAY_TRIGGERED : 0, src, tag);
    if (c->last != REPLAY_CHAIN_EMPTY)
        replay_add_dep(c->r, t, c->last, 0);
    return t;
}

int32_t replay_wire_tag(uint32_t comm, uint32_t tag, uint64_t seq)
{
    return (int32_t)(((comm & 31u) << 24) | ((tag & 0xffffu) << 8) | (uint32_t)(seq & 0xffu));
}

uint64_t replay_wire_key(int32_t peer, uint32_t comm, uint32_t tag)
{
    return (uint64_t)(uint32_t)peer | (uint64_t)(comm & 31u) << 32 | (uint64_t)(tag & 0xffffu) << 37;
}

int32_t replay_coll_tag(uint32_t comm, uint64_t seq)
{
    return REPLAY_TAG_COLL | (int32_t)((comm & 31u) << 24) | (int32_t)((seq & 0xffffu) << 8);
}

static void csend(replay_chain *c, const replay_coll *k, uint32_t pos, uint64_t bytes, uint32_t round)
{
    uint32_t t = replay_chain_task(c, 0, 0, 0, 0);
    replay_add_msg(c->r, t, k->world(k->arg, pos), bytes, k->base_tag | (int32_t)(round & 0xffu));
}

static void crecv(replay_chain *c, const replay_coll *k, uint32_t pos, uint32_t round)
{
    replay_chain_task(c, 0, 1, k->world(k->arg, pos), k->base_tag | (int32_t)(round & 0xffu));
}

/* Binomial tree broadcast from root (positions relative to root). */
static void bcast_tree(replay_chain *c, const replay_coll *k, uint32_t root, uint32_t round)
{
    uint32_t n = k->n, vr = (k->me + n - root) % n, mask = 1;
    while (mask < n) {
        if (vr & mask) {
            crecv(c, k, (vr - mask + root) % n, round);
            break;
        }
        mask <<= 1;
    }
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (vr + mask < n)
            csend(c, k, (vr + mask + root) % n, k->bytes, round);
}

/* Binomial tree reduction to root. */
static void reduce_tree(replay_chain *c, const replay_coll *k, uint32_t root, uint32_t round)
{
    uint32_t n = k->n, vr = (k->me + n - root) % n;
    for (uint32_t mask = 1; mask < n; mask <<= 1) {
        if (!(vr & mask)) {
            if ((vr | mask) < n)
                crecv(c, k, ((vr | mask) + root) % n, round);
        } else {
            csend(c, k, ((vr & ~mask) + root) % n, k->bytes, round);
            break;
        }
    }
}

static void allreduce(replay_chain *c, const replay_coll *k)
{
    uint32_t n = k->n;
    if ((n & (n - 1)) == 0) {
        for (uint32_t b = 0; (1u << b) < n; b++) {
            csend(c, k, k->me ^ (1u << b), k->bytes, 16 + b);
            crecv(c, k, k->me ^ (1u << b), 16 + b);
        }
        return;
    }
    reduce_tree(c, k, 0, 1);
    bcast_tree(c, k, 0, 2);
}

void replay_coll_expand(replay_chain *c, const replay_coll *k)
{
    uint32_t n = k->n, me = k->me, root = k->root;
    switch (k->alg) {
    case REPLAY_COLL_ALLREDUCE: allreduce(c, k); break;
    case REPLAY_COLL_BCAST: bcast_tree(c, k, root, 0); break;
    case REPLAY_COLL_REDUCE: reduce_tree(c, k, root, 0); break;
    case REPLAY_COLL_GATHER:
        if (me != root)
            csend(c, k, root, k->bytes, 0);
        else
            for (uint32_t i = 0; i < n; i++)
                if (i != root)
                    crecv(c, k, i, 0);
        break;
    case REPLAY_COLL_SCATTER:
        if (me == root) {
            for (uint32_t i = 0; i < n; i++)
                if (i != root)
                    csend(c, k, i, k->bytes, 0);
        } else {
            crecv(c, k, root, 0);
        }
        break;
    case REPLAY_COLL_RING:
        for (uint32_t s = 0; s + 1 < n; s++) {
            csend(c, k, (me + 1) % n, k->bytes, s);
            crecv(c, k, (me + n - 1) % n, s);
        }
        break;
    case REPLAY_COLL_ALLTOALL:
        for (uint32_t s = 1; s < n; s++) {
            csend(c, k, (me + s) % n, k->bytes, s);
            crecv(c, k, (me + n - s) % n, s);
        }
        break;
    case REPLAY_COLL_SCAN:
        if (me > 0)
            crecv(c, k, me - 1, 0);
        if (me + 1 < n)
            csend(c, k, me + 1, k->bytes, 0);
        break;
    }
}

int replay_coll_expand_as(replay_chain *c, const replay_coll *k, const coll_cfg *cfg, int op, uint64_t bytes,
                          uint32_t comm, uint64_t seq, const char *place, replay_err *err)
{
    if (op < 0 || !cfg || cfg->op[op].alg == COLL_ALG_DEFAULT) {
        replay_coll_expand(c, k);
        return 0;
    }
    coll_call call = {.op = (coll_op)op, .n = k->n, .me = k->me, .root = k->root, .bytes = bytes,
                      .base_tag = coll_tag(comm, seq), .world = k->world, .arg = k->arg};
    uint32_t end;
    if (coll_expand(c->r, &call, cfg->op[op], cfg->chunks, c->last, &end, place, err))
        return -1;
    c->last = end; /* coll.h's "no task" is the empty chain's mark */
    return 0;
}
