/* coll.c — the collective algorithms of coll.h as steps of one member's
 * task graph: a step sends its messages in one task, then waits for its
 * receives; the next step needs them all. Chunks are independent lanes from
 * the same start, joined at the end, so the rank's FIFO pipelines them.
 * Invariant: the k-th message member A's expansion sends to B carries the
 * same tag as the k-th receive B's expansion posts from A (a per-peer
 * counter in the low 16 bits of the tag), because every algorithm orders
 * the messages of a pair the same way on both sides. Called through
 * coll_expand by gen.c, chakra.c and the MPI readers. */
#include <stdlib.h>
#include <string.h>

#include "replay/collectives/coll.h"
#include "warp_error.h"

#define NONE UINT32_MAX

/* Members i of a sub-communicator are positions base + i * stride. */
typedef struct view {
    uint32_t n, me, base, stride;
} view;

typedef struct em {
    replay_rank *r;
    const coll_call *k;
    uint32_t cur;       /* the lane's last task, NONE before its first */
    uint64_t *keys;     /* per (peer, direction) message counters: open addressing */
    uint32_t *cnt, cap, used;
    uint32_t *to, *from; /* step scratch, n entries */
    uint64_t *bytes;
} em;

static uint32_t at(const view *v, uint32_t i) { return v->base + i * v->stride; }

static uint64_t ceil_div(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

/* The next tag between this member and world rank peer (dir 0: to it). */
static int32_t next_tag(em *e, int32_t peer, int dir)
{
    if (2 * (e->used + 1) > e->cap) {
        uint32_t ocap = e->cap;
        uint64_t *okeys = e->keys;
        uint32_t *ocnt = e->cnt;
        e->cap = ocap ? 2 * ocap : 64;
        e->keys = warp_xcalloc(e->cap, sizeof *e->keys);
        e->cnt = warp_xcalloc(e->cap, sizeof *e->cnt);
        for (uint32_t i = 0; i < ocap; i++)
            if (okeys[i]) {
                uint32_t j = (uint32_t)(okeys[i] * 0x9e3779b97f4a7c15u >> 32) & (e->cap - 1);
                while (e->keys[j])
                    j = (j + 1) & (e->cap - 1);
                e->keys[j] = okeys[i];
                e->cnt[j] = ocnt[i];
            }
        free(okeys);
        free(ocnt);
    }
    uint64_t key = ((uint64_t)(uint32_t)peer << 1 | (uint64_t)dir) + 1; /* 0 marks a free slot */
    uint32_t j = (uint32_t)(key * 0x9e3779b97f4a7c15u >> 32) & (e->cap - 1);
    while (e->keys[j] && e->keys[j] != key)
        j = (j + 1) & (e->cap - 1);
    if (!e->keys[j]) {
        e->keys[j] = key;
        e->used++;
    }
    return e->k->base_tag | (int32_t)(e->cnt[j]++ & 0xffffu);
}

static void after(em *e, uint32_t t, uint32_t dep)
{
    if (dep != NONE)
        replay_add_dep(e->r, t, dep, 0);
}

static uint32_t join(em *e, const uint32_t *ends, uint32_t n)
{
    uint32_t j = replay_add_task(e->r, 0, 0, 0, 0);
    for (uint32_t i = 0; i < n; i++)
        after(e, j, ends[i]);
    return j;
}

/* Sends to[0..nsend) (communicator positions, bytes each) in one task, then
 * receives from from[0..nrecv). */
static void step(em *e, uint32_t nsend, const uint32_t *to, const uint64_t *bytes, uint32_t nrecv,
                 const uint32_t *from)
{
    const coll_call *k = e->k;
    uint32_t cur = e->cur;
    if (nsend) {
        uint32_t s = replay_add_task(e->r, 0, 0, 0, 0);
        after(e, s, cur);
        for (uint32_t i = 0; i < nsend; i++) {
            int32_t w = k->world(k->arg, to[i]);
            replay_add_msg(e->r, s, w, bytes[i], next_tag(e, w, 0));
        }
        cur = s;
    }
    uint32_t first = e->r->ntasks;
    for (uint32_t i = 0; i < nrecv; i++) {
        int32_t w = k->world(k->arg, from[i]);
        uint32_t t = replay_add_task(e->r, 0, REPLAY_TRIGGERED, w, next_tag(e, w, 1));
        after(e, t, cur);
    }
    if (nrecv == 1) {
        cur = first;
    } else if (nrecv > 1) {
        uint32_t j = replay_add_task(e->r, 0, 0, 0, 0);
        for (uint32_t i = 0; i < nrecv; i++)
            replay_add_dep(e->r, j, first + i, 0);
        cur = j;
    }
    e->cur = cur;
}

/* One send (to position `to`, NONE: none) and one receive (`from`). */
static void step1(em *e, uint32_t to, uint64_t bytes, uint32_t from)
{
    step(e, to != NONE, &to, &bytes, from != NONE, &from);
}

/* ---- ring ------------------------------------------------------------------------ */

/* n - 1 steps of bytes/n to the right, from the left: a reduce-scatter or
 * an allgather. */
static void ring_pass(em *e, const view *v, uint64_t bytes)
{
    uint64_t piece = ceil_div(bytes, v->n);
    for (uint32_t s = 0; s + 1 < v->n; s++)
        step1(e, at(v, (v->me + 1) % v->n), piece, at(v, (v->me + v->n - 1) % v->n));
}

/* A broadcast pipeline from member root down the ring (reduce: up it). */
static void ring_chain(em *e, const view *v, uint32_t root, uint64_t bytes, int up)
{
    uint32_t n = v->n, vr = (v->me + n - root) % n;
    uint32_t prev = at(v, (v->me + n - 1) % n), next = at(v, (v->me + 1) % n);
    if (up) {
        if (vr + 1 < n)
            step1(e, NONE, 0, next);
        if (vr > 0)
            step1(e, prev, bytes, NONE);
    } else {
        if (vr > 0)
            step1(e, NONE, 0, prev);
        if (vr + 1 < n)
            step1(e, next, bytes, NONE);
    }
}

/* ---- recursive halving-doubling -------------------------------------------------- */

/* Rabenseifner's halving (reduce-scatter) and doubling (allgather) among the
 * largest power of two p <= n; the first 2(n - p) members pair up first, the
 * even one handing its data to the odd one and getting the result back. */
static void halving_doubling(em *e, const view *v, uint64_t bytes, int rs, int ag, coll_op op)
{
    uint32_t n = v->n, me = v->me, p = 1;
    while (p * 2 <= n)
        p *= 2;
    uint32_t extra = n - p, vme;
    uint64_t piece = ceil_div(bytes, n);
    uint64_t pre = op == COLL_ALLGATHER ? piece : bytes, post = op == COLL_REDUCE_SCATTER ? piece : bytes;
    if (me < 2 * extra) {
        if (me % 2 == 0) {
            step1(e, at(v, me + 1), pre, NONE);
            step1(e, NONE, 0, at(v, me + 1));
            return;
        }
        step1(e, NONE, 0, at(v, me - 1));
        vme = me / 2;
    } else {
        vme = me - extra;
    }
#define REAL(x) ((x) < extra ? 2 * (x) + 1 : (x) + extra)
    if (rs)
        for (uint32_t d = p / 2; d >= 1; d /= 2)
            step1(e, at(v, REAL(vme ^ d)), ceil_div(bytes * d, p), at(v, REAL(vme ^ d)));
    if (ag)
        for (uint32_t d = 1; d < p; d *= 2)
            step1(e, at(v, REAL(vme ^ d)), ceil_div(bytes * d, p), at(v, REAL(vme ^ d)));
#undef REAL
    if (me < 2 * extra)
        step1(e, at(v, me - 1), post, NONE);
}

/* ---- trees ----------------------------------------------------------------------- */

/* NCCL's binary tree over 0..n-1 (root 0): parent and children, -1 = none. */
static void btree(int32_t n, int32_t rank, int32_t *up, int32_t *d0, int32_t *d1)
{
    int32_t bit = 1;
    while (bit < n && !(bit & rank))
        bit <<= 1;
    if (rank == 0) {
        *up = *d0 = -1;
        *d1 = n > 1 ? bit >> 1 : -1;
        return;
    }
    int32_t u = (rank ^ bit) | (bit << 1);
    *up = u >= n ? rank ^ bit : u;
    int32_t low = bit >> 1;
    *d0 = low ? rank - low : -1;
    while (low && rank + low >= n)
        low >>= 1;
    *d1 = low ? rank + low : -1;
}

/* Tree t (0, 1) of NCCL's double binary tree: the second is the first
 * mirrored (n even) or shifted by one (n odd), so most inner nodes of one
 * are leaves of the other. Members are indices into v. */
static void dtree(int32_t n, int32_t me, int t, int32_t *up, int32_t *d0, int32_t *d1)
{
    if (!t) {
        btree(n, me, up, d0, d1);
        return;
    }
    int32_t x = n % 2 ? (me + n - 1) % n : n - 1 - me;
    btree(n, x, up, d0, d1);
    int32_t *m[3] = {up, d0, d1};
    for (int i = 0; i < 3; i++)
        if (*m[i] >= 0)
            *m[i] = n % 2 ? (*m[i] + 1) % n : n - 1 - *m[i];
}

/* One tree's reduction to its root (reduce), broadcast from it (bcast), or
 * both (allreduce); tree index x is view member (x + rot) mod n. */
static void tree_pass(em *e, const view *v, int32_t up, int32_t d0, int32_t d1, uint32_t rot, uint64_t bytes,
                      int reduce, int bcast)
{
    uint32_t kids[2], nk = 0;
    uint64_t b[2] = {bytes, bytes};
    if (d0 >= 0)
        kids[nk++] = at(v, ((uint32_t)d0 + rot) % v->n);
    if (d1 >= 0)
        kids[nk++] = at(v, ((uint32_t)d1 + rot) % v->n);
    uint32_t parent = up >= 0 ? at(v, ((uint32_t)up + rot) % v->n) : NONE;
    if (reduce && nk)
        step(e, 0, NULL, NULL, nk, kids);
    if (parent != NONE)
        step1(e, reduce ? parent : NONE, bytes, bcast ? parent : NONE);
    if (bcast && nk)
        step(e, nk, kids, b, 0, NULL);
}

/* Allreduce over both trees at once, half the data each. */
static void double_tree(em *e, const view *v, uint64_t bytes)
{
    uint32_t start = e->cur, ends[2];
    for (int t = 0; t < 2; t++) {
        int32_t up, d0, d1;
        e->cur = start;
        dtree((int32_t)v->n, (int32_t)v->me, t, &up, &d0, &d1);
        tree_pass(e, v, up, d0, d1, 0, t ? bytes - bytes / 2 : bytes / 2, 1, 1);
        ends[t] = e->cur;
    }
    e->cur = join(e, ends, 2);
}

/* ---- direct ---------------------------------------------------------------------- */

/* Every member sends `bytes` to every other and receives from every other;
 * to_root: only to the root (a reduce), from_root: only from it (a bcast). */
static void direct(em *e, const view *v, uint64_t bytes, uint32_t root, int to_root, int from_root)
{
    uint32_t ns = 0, nr = 0;
    /* in the order me + 1, me + 2, ...: at any moment the members send to
     * distinct receivers (a permutation), as a pairwise schedule would */
    for (uint32_t s = 1; s < v->n; s++) {
        uint32_t i = (v->me + s) % v->n;
        if (!from_root || v->me == root)
            if (!to_root || i == root) {
                e->to[ns] = at(v, i);
                e->bytes[ns++] = bytes;
            }
        if (!to_root || v->me == root)
            if (!from_root || i == root)
                e->from[nr++] = at(v, i);
    }
    /* receives in the order their senders send to this member */
    for (uint32_t a = 0, b = nr ? nr - 1 : 0; a < b; a++, b--) {
        uint32_t t = e->from[a];
        e->from[a] = e->from[b];
        e->from[b] = t;
    }
    step(e, ns, e->to, e->bytes, nr, e->from);
}

/* ---- one algorithm on one view --------------------------------------------------- */

static int run(em *e, const view *v, coll_op op, coll_choice a, uint64_t bytes, const char *place,
               replay_err *err);

static int hierarchical(em *e, const view *v, coll_op op, coll_choice a, uint64_t bytes, const char *place,
                        replay_err *err)
{
    uint32_t g = a.group;
    if (v->n % g)
        return replay_errf(err, "%s: [collectives] %s = hierarchical(%u, ...) needs a communicator of a multiple of %u members, "
                           "not %u; change the group size", place, coll_op_name(op), g, g, v->n);
    view in = {g, v->me % g, at(v, v->me / g * g), v->stride};
    view out = {v->n / g, v->me / g, at(v, v->me % g), v->stride * g};
    coll_choice ci = {.alg = a.inner}, co = {.alg = a.outer};
    uint64_t share = ceil_div(bytes, g);
    if (op != COLL_ALLGATHER && run(e, &in, COLL_REDUCE_SCATTER, ci, bytes, place, err))
        return -1;
    if (run(e, &out, op, co, share, place, err))
        return -1;
    if (op != COLL_REDUCE_SCATTER && run(e, &in, COLL_ALLGATHER, ci, bytes, place, err))
        return -1;
    return 0;
}

static int run(em *e, const view *v, coll_op op, coll_choice a, uint64_t bytes, const char *place,
               replay_err *err)
{
    if (v->n < 2)
        return 0;
    uint32_t root = e->k->root % v->n;
    int32_t up, d0, d1;
    switch (a.alg) {
    case COLL_ALG_HIER: return hierarchical(e, v, op, a, bytes, place, err);
    case COLL_ALG_RING:
        if (op == COLL_ALLREDUCE || op == COLL_REDUCE_SCATTER)
            ring_pass(e, v, bytes);
        if (op == COLL_ALLREDUCE || op == COLL_ALLGATHER)
            ring_pass(e, v, bytes);
        if (op == COLL_ALLTOALL)
            for (uint32_t s = 1; s < v->n; s++)
                step1(e, at(v, (v->me + s) % v->n), ceil_div(bytes, v->n), at(v, (v->me + v->n - s) % v->n));
        if (op == COLL_BCAST || op == COLL_REDUCE)
            ring_chain(e, v, root, bytes, op == COLL_REDUCE);
        return 0;
    case COLL_ALG_HD:
        halving_doubling(e, v, bytes, op != COLL_ALLGATHER, op != COLL_REDUCE_SCATTER, op);
        return 0;
    case COLL_ALG_TREE:
        if (op == COLL_ALLREDUCE) {
            double_tree(e, v, bytes);
            return 0;
        }
        btree((int32_t)v->n, (int32_t)((v->me + v->n - root) % v->n), &up, &d0, &d1);
        tree_pass(e, v, up, d0, d1, root, bytes, op == COLL_REDUCE, op == COLL_BCAST);
        return 0;
    case COLL_ALG_DIRECT:
    case COLL_ALG_DEFAULT:
        switch (op) {
        case COLL_ALLREDUCE:
            direct(e, v, ceil_div(bytes, v->n), 0, 0, 0);
            direct(e, v, ceil_div(bytes, v->n), 0, 0, 0);
            break;
        case COLL_REDUCE_SCATTER:
        case COLL_ALLGATHER:
        case COLL_ALLTOALL: direct(e, v, ceil_div(bytes, v->n), 0, 0, 0); break;
        case COLL_BCAST: direct(e, v, bytes, root, 0, 1); break;
        case COLL_REDUCE: direct(e, v, bytes, root, 1, 0); break;
        default: break;
        }
        return 0;
    }
    return 0;
}

int coll_expand(replay_rank *r, const coll_call *k, coll_choice a, uint32_t chunks, uint32_t start,
                uint32_t *end, const char *place, replay_err *err)
{
    *end = start;
    if (k->n < 2)
        return 0;
    if (a.alg == COLL_ALG_DEFAULT)
        a.alg = coll_default_alg(k->op);
    if (chunks < 1)
        chunks = 1;
    em e = {.r = r, .k = k};
    e.to = warp_xcalloc(k->n, sizeof *e.to);
    e.from = warp_xcalloc(k->n, sizeof *e.from);
    e.bytes = warp_xcalloc(k->n, sizeof *e.bytes);
    uint32_t *ends = warp_xcalloc(chunks, sizeof *ends);
    view v = {k->n, k->me, 0, 1};
    int rc = 0;
    for (uint32_t c = 0; c < chunks && !rc; c++) {
        e.cur = start;
        uint64_t b = k->bytes / chunks + (c < k->bytes % chunks);
        rc = run(&e, &v, k->op, a, b, place, err);
        ends[c] = e.cur;
    }
    if (!rc)
        *end = chunks == 1 ? ends[0] : join(&e, ends, chunks);
    free(ends);
    free(e.to);
    free(e.from);
    free(e.bytes);
    free(e.keys);
    free(e.cnt);
    return rc;
}
