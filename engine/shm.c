/* engine/shm.c — the on-node transport: ranks that share a node pass the
 * transport's aggregated records through single-producer single-consumer
 * byte rings in one MPI-3 shared window instead of MPI messages. A ring is
 * read in the order it was written (each sender's stream stays in order, as
 * transport.c needs), a record's bytes are published by a release store of
 * head and given back by a release store of tail. Never blocks: a record
 * that does not fit is refused and transport.c retries it. Where every
 * rank shares the node, a second window holds one slot per rank for GVT
 * rounds (shm_slots, gvt_shm.c). A window is used only once every rank of
 * the node has written all of its own segment (touch): otherwise MPI's
 * messages and reductions, or a clear stop under --transport=shm. */
#include "internal.h"

#include <setjmp.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

/* head and tail on lines of their own: each is written by one side only. */
struct shm_ring {
    _Atomic uint64_t head; /* bytes written, ever (the sender's) */
    char pad0[56];
    _Atomic uint64_t tail; /* bytes read, ever (the receiver's) */
    char pad1[56];
    char data[];
};

#define SHM_SKIP UINT64_MAX         /* a length word that says: wrap to the start */
#define SHM_RING_DEFAULT (256 << 10) /* 4 aggregation buffers of 64 KiB */
#define SHM_NODE_BUDGET (UINT64_C(256) << 20) /* every ring of a node, by default */

static uint64_t pad8(uint64_t n) { return (n + 7) & ~(uint64_t)7; }

/* A record is its length (8 bytes) then its bytes, padded to 8, never
 * split at the end of the ring: one that does not fit before the end
 * leaves a SHM_SKIP word and starts at 0. */
static bool fits(uint64_t cap, uint64_t head, uint64_t tail, uint64_t need)
{
    uint64_t room = cap - (head - tail), end = cap - head % cap;
    return need <= end ? need <= room : end + need <= room;
}

static uint64_t ring_bytes(uint64_t cap) { return sizeof(shm_ring) + cap; }

/* WARP_SHM_RING_BYTES (for tests): the ring's data bytes, at least two of
 * the largest records so that one always fits into an empty ring. By
 * default 256 KiB, less where a node's R x (R - 1) rings would take more
 * than 256 MiB (over 32 ranks on a node). */
static uint64_t ring_cap(size_t record_max, int nnode)
{
    uint64_t cap = SHM_RING_DEFAULT, rings = (uint64_t)nnode * (uint64_t)(nnode - 1);
    if (cap * rings > SHM_NODE_BUDGET)
        cap = SHM_NODE_BUDGET / rings;
    const char *env = getenv("WARP_SHM_RING_BYTES");
    if (env && *env) {
        char *end;
        unsigned long long v = strtoull(env, &end, 10);
        if (*end || !v)
            warp_fatal(WARP_EXIT_USAGE, "WARP_SHM_RING_BYTES=%s: expected a positive number of bytes", env);
        cap = v;
    }
    uint64_t least = 2 * (8 + pad8(record_max));
    if (cap < least)
        cap = least;
    return (cap + 63) & ~(uint64_t)63;
}

/* In rank r's segment the ring written by node rank s is its slot s,
 * skipping r's own. */
static uint64_t slot(int writer, int reader) { return (uint64_t)(writer < reader ? writer : writer - 1); }

/* A signal handler takes no argument, so touch's way back out of SIGBUS is
 * this one static; it is armed only inside touch, on the rank's one thread. */
static sigjmp_buf touch_jmp;

static void touch_bus(int sig)
{
    (void)sig;
    siglongjmp(touch_jmp, 1); /* no other work in the handler */
}

/* WARP_SHM_PROBE_FAIL=R (for tests): world rank R takes SIGBUS in its
 * touch of the rings' window; R:slots, of the slots' window. */
static bool probe_fails(const warp_ctx *w, bool slots)
{
    const char *env = getenv("WARP_SHM_PROBE_FAIL");
    if (!env || !*env)
        return false;
    char *end;
    long r = strtol(env, &end, 10);
    if (end == env || r < 0 || (*end && strcmp(end, ":slots")))
        warp_fatal(WARP_EXIT_USAGE, "WARP_SHM_PROBE_FAIL=%s: expected a rank, or a rank and :slots", env);
    return r == w->rank && slots == (*end != 0);
}

/* Writes zeros once over this rank's own segment, the first touch of each
 * page (which also places it near the rank), and says whether every page
 * could be backed: on a full or small /dev/shm the window's sparse file is
 * allocated all the same and the first write into a page raises SIGBUS. */
static bool touch(char *seg, uint64_t bytes, bool fail)
{
    struct sigaction on, old;
    memset(&on, 0, sizeof on);
    on.sa_handler = touch_bus;
    sigemptyset(&on.sa_mask);
    sigaction(SIGBUS, &on, &old);
    volatile bool ok = false;
    if (!sigsetjmp(touch_jmp, 1)) {
        if (fail)
            raise(SIGBUS);
        memset(seg, 0, bytes);
        ok = true;
    }
    sigaction(SIGBUS, &old, NULL);
    return ok;
}

/* A node without usable shared memory for WHAT: --transport=shm stops; under
 * auto the caller keeps MPI. */
static void no_shared_memory(const warp_ctx *w, const char *what, uint64_t bytes, int nnode)
{
    if (w->opt.transport == WARP_TRANSPORT_SHM)
        warp_fatal(WARP_EXIT_RESOURCE,
                   "--transport=shm: the %llu bytes of shared memory for %s of this node's %d ranks could "
                   "not be allocated or backed (is /dev/shm full or small?); use --transport=mpi, or "
                   "enlarge /dev/shm (mount -o remount,size=... /dev/shm)",
                   (unsigned long long)bytes, what, nnode);
}

static bool want_rings(const warp_ctx *w, int nnode)
{
    if (w->opt.transport == WARP_TRANSPORT_MPI)
        return false;
    if (w->opt.transport == WARP_TRANSPORT_SHM && nnode < w->nranks)
        warp_fatal(WARP_EXIT_USAGE,
                   "--transport=shm: only %d of the %d ranks share this node; use --transport=auto "
                   "(shared memory on each node, MPI between nodes) or --transport=mpi",
                   nnode, w->nranks);
    return nnode > 1;
}

void shm_init(warp_ctx *w, size_t record_max)
{
    warp_shm *s = &w->tr.shm;
    memset(s, 0, sizeof *s);
    s->node = MPI_COMM_NULL;
    s->win = MPI_WIN_NULL;
    s->slots_win = MPI_WIN_NULL;
    MPI_Comm node;
    MPI_Comm_split_type(w->comm, MPI_COMM_TYPE_SHARED, w->rank, MPI_INFO_NULL, &node);
    int me, nnode;
    MPI_Comm_rank(node, &me);
    MPI_Comm_size(node, &nnode);
    if (!want_rings(w, nnode)) {
        MPI_Comm_free(&node);
        return;
    }
    s->node = node;
    /* The writer lays out records by the reader's size: all take the largest. */
    uint64_t cap = ring_cap(record_max, nnode);
    MPI_Allreduce(&cap, &s->cap, 1, MPI_UINT64_T, MPI_MAX, node);
    s->nin = nnode - 1;
    /* Each rank's segment in its own pages (near it on a NUMA node). */
    MPI_Info info;
    MPI_Info_create(&info);
    MPI_Info_set(info, "alloc_shared_noncontig", "true");
    char *base;
    /* A node without room for the window (a small /dev/shm) keeps MPI's
     * messages under auto: the error comes back rather than aborting, and
     * a page that cannot be backed is found here rather than by a SIGBUS
     * in mid-run. head and tail are set only once every rank agrees. */
    MPI_Comm_set_errhandler(node, MPI_ERRORS_RETURN);
    uint64_t bytes = ring_bytes(s->cap) * (uint64_t)s->nin;
    int made = MPI_Win_allocate_shared((MPI_Aint)bytes, 1, info, node, &base, &s->win) == MPI_SUCCESS;
    MPI_Info_free(&info);
    int ok = made && touch(base, bytes, probe_fails(w, false)), all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, node);
    if (!all) {
        if (made)
            MPI_Win_free(&s->win);
        MPI_Comm_free(&node);
        s->node = MPI_COMM_NULL;
        s->nin = 0;
        no_shared_memory(w, "the rings", bytes * (uint64_t)nnode, nnode);
        return;
    }
    s->out = calloc((size_t)w->nranks, sizeof *s->out);
    s->whead = calloc((size_t)w->nranks, sizeof *s->whead);
    s->wtail = calloc((size_t)w->nranks, sizeof *s->wtail);
    s->in = malloc((size_t)s->nin * sizeof *s->in);
    s->rtail = calloc((size_t)s->nin, sizeof *s->rtail);
    int *node_ranks = malloc((size_t)nnode * sizeof *node_ranks), *pe = malloc((size_t)nnode * sizeof *pe);
    if (!s->out || !s->whead || !s->wtail || !s->in || !s->rtail || !node_ranks || !pe)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for the shared-memory transport on rank %d", w->rank);
    for (int i = 0; i < s->nin; i++) {
        shm_ring *r = (shm_ring *)(base + (uint64_t)i * ring_bytes(s->cap));
        atomic_init(&r->head, 0);
        atomic_init(&r->tail, 0);
        s->in[i] = r;
    }
    MPI_Group gn, gw;
    MPI_Comm_group(node, &gn);
    MPI_Comm_group(w->comm, &gw);
    for (int i = 0; i < nnode; i++)
        node_ranks[i] = i;
    MPI_Group_translate_ranks(gn, nnode, node_ranks, gw, pe);
    MPI_Group_free(&gn);
    MPI_Group_free(&gw);
    for (int i = 0; i < nnode; i++) {
        if (i == me)
            continue;
        MPI_Aint size;
        int unit;
        char *peer;
        MPI_Win_shared_query(s->win, i, &size, &unit, &peer);
        s->out[pe[i]] = (shm_ring *)(peer + slot(me, i) * ring_bytes(s->cap));
    }
    free(node_ranks);
    free(pe);
    /* Every ring is empty before anyone writes into one. */
    atomic_thread_fence(memory_order_seq_cst);
    MPI_Barrier(node);
}

size_t shm_room(warp_ctx *w, int pe)
{
    warp_shm *s = &w->tr.shm;
    uint64_t h = s->whead[pe];
    uint64_t t = s->wtail[pe] = atomic_load_explicit(&s->out[pe]->tail, memory_order_acquire);
    uint64_t room = s->cap - (h - t), end = s->cap - h % s->cap;
    uint64_t here = end < room ? end : room, wrapped = room > end ? room - end : 0;
    uint64_t best = here > wrapped ? here : wrapped;
    return best > 8 ? (size_t)(best - 8) : 0;
}

bool shm_put(warp_ctx *w, int pe, const char *data, size_t len)
{
    warp_shm *s = &w->tr.shm;
    shm_ring *r = s->out[pe];
    uint64_t h = s->whead[pe], need = 8 + pad8(len);
    /* The tail as last read is enough most times: reading it anew is a
     * cache miss on a line the receiver writes. */
    if (!fits(s->cap, h, s->wtail[pe], need)) {
        s->wtail[pe] = atomic_load_explicit(&r->tail, memory_order_acquire);
        if (!fits(s->cap, h, s->wtail[pe], need))
            return false;
    }
    uint64_t o = h % s->cap;
    if (s->cap - o < need) {
        const uint64_t skip = SHM_SKIP;
        memcpy(r->data + o, &skip, 8);
        h += s->cap - o;
        o = 0;
    }
    const uint64_t n = len;
    memcpy(r->data + o, &n, 8);
    memcpy(r->data + o + 8, data, len);
    s->whead[pe] = h + need;
    w->cnt.ring_records++;
    atomic_store_explicit(&r->head, h + need, memory_order_release);
    return true;
}

void shm_poll(warp_ctx *w, void (*fn)(warp_ctx *, const char *, int))
{
    warp_shm *s = &w->tr.shm;
    for (int i = 0; i < s->nin; i++) {
        shm_ring *r = s->in[i];
        uint64_t t = s->rtail[i], h = atomic_load_explicit(&r->head, memory_order_acquire);
        while (t != h) {
            uint64_t o = t % s->cap, n;
            memcpy(&n, r->data + o, 8);
            if (n == SHM_SKIP) {
                t += s->cap - o;
                continue;
            }
            fn(w, r->data + o + 8, (int)n);
            t += 8 + pad8(n);
            /* Given back at once: the sender may be waiting for room. */
            atomic_store_explicit(&r->tail, t, memory_order_release);
        }
        s->rtail[i] = t;
    }
}

void **shm_slots(warp_ctx *w, size_t bytes)
{
    warp_shm *s = &w->tr.shm;
    int on_node = 0;
    if (s->node != MPI_COMM_NULL)
        MPI_Comm_size(s->node, &on_node);
    /* Every rank takes the same way: all on this node's rings, or none. */
    int ok = on_node == w->nranks, all;
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, w->comm);
    if (!all)
        return NULL;
    char *mine = NULL;
    int made = MPI_Win_allocate_shared((MPI_Aint)bytes, 1, MPI_INFO_NULL, s->node, &mine, &s->slots_win) ==
               MPI_SUCCESS; /* node's errors return (shm_init) */
    ok = made && touch(mine, bytes, probe_fails(w, true));
    MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_LAND, w->comm);
    if (!all) {
        if (made)
            MPI_Win_free(&s->slots_win);
        s->slots_win = MPI_WIN_NULL;
        no_shared_memory(w, "the GVT slots", bytes * (uint64_t)on_node, on_node);
        return NULL;
    }
    void **at = malloc((size_t)w->nranks * sizeof *at);
    int *node_of = malloc((size_t)w->nranks * sizeof *node_of);
    if (!at || !node_of)
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory for shared slots on rank %d", w->rank);
    int me;
    MPI_Comm_rank(s->node, &me);
    MPI_Allgather(&me, 1, MPI_INT, node_of, 1, MPI_INT, w->comm);
    for (int r = 0; r < w->nranks; r++) {
        MPI_Aint size;
        int unit;
        MPI_Win_shared_query(s->slots_win, node_of[r], &size, &unit, &at[r]);
    }
    free(node_of);
    atomic_thread_fence(memory_order_seq_cst);
    MPI_Barrier(w->comm); /* every slot is zero before anyone writes one */
    return at;
}

void shm_destroy(warp_ctx *w)
{
    warp_shm *s = &w->tr.shm;
    if (s->slots_win != MPI_WIN_NULL)
        MPI_Win_free(&s->slots_win);
    if (s->node != MPI_COMM_NULL) {
        MPI_Win_free(&s->win);
        MPI_Comm_free(&s->node);
    }
    free(s->out);
    free(s->whead);
    free(s->wtail);
    free(s->in);
    free(s->rtail);
    memset(s, 0, sizeof *s);
    s->node = MPI_COMM_NULL;
    s->slots_win = MPI_WIN_NULL;
}
