/* gen_mapreduce.c — the MapReduce generator (gen_mapreduce.h): a Hadoop
 * job on `workers` nodes in racks of `rack`, as docs/mapreduce.md describes
 * it: submission, task assignment, HDFS block reads (data-local, else
 * rack-local when rack_aware, else from the first replica), the shuffle
 * (every map to every reducer), reduce, the replicated output pipeline
 * and the commit notices. Invariant: every rank's graph is a pure function
 * of (spec, rank): the block placement and the task assignment are
 * recomputed identically by every load, so each message one rank sends is
 * received by exactly one task of its destination. Called by gen.c. */
#include <stdlib.h>
#include <string.h>

#include "replay/readers/gen_mapreduce.h"
#include "warp_error.h"

enum { P_SUBMIT, P_ASSIGN, P_READ, P_SHUFFLE, P_WRITE, P_COMMIT };
const char *const mr_phase_names[MR_PHASES] = {"submit", "assign", "read", "shuffle", "write", "commit"};

#define TAG(phase, i) ((int32_t)((uint32_t)(phase) << 24 | ((uint32_t)(i) & 0xffffffu)))
#define MIB 1048576.0

int mr_tag_phase(int32_t tag)
{
    int p = (int)((uint32_t)tag >> 24);
    return tag >= 0 && p < MR_PHASES ? p : -1;
}

/* Workers are ranks 0 .. W-1 (so a linear placement puts rack k of the job
 * on the network's rack k when the sizes agree), then the master, then the
 * client. */
int64_t mr_ranks(const mr_spec *m) { return m->workers + 2; }

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

/* ---- the job's layout, the same for every rank ------------------------------ */

typedef struct mr_plan {
    int64_t W, M, R, racks, bps;    /* workers, maps, reducers, racks, input blocks per map */
    int64_t input, split, blocks;   /* bytes; bytes per map; input blocks */
    int64_t *map_node;              /* per map: worker index */
    int64_t *src;                   /* per input block: the worker it is read from (-1: local) */
    int64_t reduce_in, out_blocks;  /* bytes per reducer in, output blocks per reducer */
} mr_plan;

static int64_t rack_of(const mr_spec *m, int64_t w) { return w / m->rack; }

static int64_t rack_size(const mr_spec *m, int64_t rk)
{
    int64_t left = m->workers - rk * m->rack;
    return left < m->rack ? left : m->rack;
}

/* Replica k (< replication) of block b: 0 anywhere, 1 on another rack (if
 * there is one), 2 on another node of replica 1's rack (HDFS's default). */
static int64_t replica(const mr_spec *m, int64_t racks, int64_t b, int k)
{
    uint64_t h = mix((uint64_t)m->seed * 0x100000001b3u ^ (uint64_t)b);
    int64_t r0 = (int64_t)(h % (uint64_t)m->workers);
    if (k == 0)
        return r0;
    int64_t rk = racks > 1 ? (rack_of(m, r0) + 1 + (int64_t)(mix(h) % (uint64_t)(racks - 1))) % racks
                           : rack_of(m, r0);
    int64_t n = rack_size(m, rk), first = rk * m->rack;
    int64_t r1 = first + (int64_t)(mix(h + 1) % (uint64_t)n);
    if (r1 == r0)
        r1 = first + (r1 - first + 1) % n;
    if (k == 1)
        return r1;
    int64_t r2 = first + (r1 - first + 1) % n;
    return r2 == r0 || r2 == r1 ? -1 : r2; /* a rack too small for a third replica */
}

static int holds(const mr_spec *m, int64_t racks, int64_t b, int64_t w)
{
    for (int k = 0; k < m->replication; k++)
        if (replica(m, racks, b, k) == w)
            return 1;
    return 0;
}

static void plan_make(const mr_spec *m, mr_plan *p)
{
    memset(p, 0, sizeof *p);
    p->W = m->workers;
    p->M = m->mappers;
    p->R = m->reducers;
    p->racks = (m->workers + m->rack - 1) / m->rack;
    p->input = m->input ? m->input : m->mappers * m->block;
    p->split = (p->input + p->M - 1) / p->M;
    p->bps = (p->split + m->block - 1) / m->block;
    p->blocks = p->bps * p->M;
    p->map_node = warp_xcalloc((size_t)p->M, sizeof *p->map_node);
    p->src = warp_xcalloc((size_t)p->blocks, sizeof *p->src);
    int64_t *load = warp_xcalloc((size_t)p->W, sizeof *load), cap = (p->M + p->W - 1) / p->W;
    for (int64_t i = 0; i < p->M; i++) {
        int64_t b0 = i * p->bps, node = -1;
        for (int k = 0; k < m->replication && node < 0; k++) { /* data-local */
            int64_t w = replica(m, p->racks, b0, k);
            if (w >= 0 && load[w] < cap)
                node = w;
        }
        for (int k = 0; k < m->replication && node < 0 && m->rack_aware; k++) { /* rack-local */
            int64_t w = replica(m, p->racks, b0, k);
            if (w < 0)
                continue;
            int64_t rk = rack_of(m, w), n = rack_size(m, rk);
            for (int64_t j = 0; j < n && node < 0; j++) {
                int64_t x = rk * m->rack + (w - rk * m->rack + j) % n;
                if (load[x] < cap)
                    node = x;
            }
        }
        if (node < 0) { /* anywhere: the least loaded */
            node = 0;
            for (int64_t w = 1; w < p->W; w++)
                if (load[w] < load[node])
                    node = w;
        }
        load[node]++;
        p->map_node[i] = node;
        for (int64_t k = 0; k < p->bps; k++) {
            int64_t b = b0 + k, from = replica(m, p->racks, b, 0);
            if (holds(m, p->racks, b, node)) {
                from = -1;
            } else if (m->rack_aware) {
                for (int r = 1; r < m->replication; r++) {
                    int64_t w = replica(m, p->racks, b, r);
                    if (w >= 0 && rack_of(m, w) == rack_of(m, node))
                        from = w;
                }
            }
            p->src[b] = from;
        }
    }
    free(load);
    p->reduce_in = (p->input * m->shuffle / 100 + p->R - 1) / p->R;
    int64_t out = p->reduce_in * m->output / 100;
    p->out_blocks = out ? (out + m->block - 1) / m->block : 0;
}

static void plan_free(mr_plan *p)
{
    free(p->map_node);
    free(p->src);
}

/* Reducer j's worker and the pipeline of its output block b: A on another
 * rack, B on A's rack (-1 where the replication has no such hop). */
static int64_t reducer_node(const mr_plan *p, int64_t j) { return (j * p->W) / p->R; }

static void pipeline(const mr_spec *m, const mr_plan *p, int64_t j, int64_t b, int64_t *a, int64_t *bb)
{
    int64_t w = reducer_node(p, j);
    uint64_t h = mix((uint64_t)m->seed ^ mix((uint64_t)j << 32 | (uint64_t)b));
    *a = *bb = -1;
    if (m->replication < 2 || p->W < 2)
        return;
    int64_t rk = p->racks > 1 ? (rack_of(m, w) + 1 + (int64_t)(h % (uint64_t)(p->racks - 1))) % p->racks
                              : rack_of(m, w);
    int64_t n = rack_size(m, rk), first = rk * m->rack;
    *a = first + (int64_t)(mix(h) % (uint64_t)n);
    if (*a == w)
        *a = first + (*a - first + 1) % n;
    if (m->replication >= 3) {
        *bb = first + (*a - first + 1) % n;
        if (*bb == w || *bb == *a)
            *bb = -1;
    }
}

static uint64_t block_bytes(int64_t total, int64_t block, int64_t k)
{
    int64_t left = total - k * block;
    return (uint64_t)(left < block ? left : block);
}

/* ---- a rank's graph ------------------------------------------------------------ */

#define NONE UINT32_MAX

static uint32_t task(replay_rank *r, uint64_t dur, uint32_t after)
{
    uint32_t t = replay_add_task(r, dur, 0, 0, 0);
    if (after != NONE)
        replay_add_dep(r, t, after, 0);
    return t;
}

static uint32_t recv(replay_rank *r, int32_t src, int32_t tag, uint32_t after)
{
    uint32_t t = replay_add_task(r, 0, REPLAY_TRIGGERED, src, tag);
    if (after != NONE)
        replay_add_dep(r, t, after, 0);
    return t;
}

static int32_t rank_of_worker(int64_t w) { return (int32_t)w; }

/* Worker w's map tasks: assignment, block reads, compute, shuffle sends. */
static void worker_maps(const mr_spec *m, const mr_plan *p, int64_t w, replay_rank *r)
{
    uint64_t ctl = (uint64_t)m->ctl;
    const int32_t master = (int32_t)p->W;
    for (int64_t i = 0; i < p->M; i++) {
        if (p->map_node[i] != w)
            continue;
        uint32_t go = recv(r, master, TAG(P_ASSIGN, i), NONE);
        uint32_t *got = warp_xcalloc((size_t)p->bps, sizeof *got);
        for (int64_t k = 0; k < p->bps; k++) {
            int64_t b = i * p->bps + k;
            if (p->src[b] < 0) { /* a local replica: the disk read is part of the map's work */
                got[k] = go;
                continue;
            }
            uint32_t ask = task(r, 0, go);
            replay_add_msg(r, ask, rank_of_worker(p->src[b]), ctl, TAG(P_READ, 2 * b));
            got[k] = recv(r, rank_of_worker(p->src[b]), TAG(P_READ, 2 * b + 1), ask);
        }
        int64_t mine = p->input - i * p->split < p->split ? p->input - i * p->split : p->split;
        uint32_t map = task(r, (uint64_t)((double)(mine > 0 ? mine : 0) * (double)m->map_ns / MIB), NONE);
        for (int64_t k = 0; k < p->bps; k++)
            replay_add_dep(r, map, got[k], 0);
        free(got);
        /* Map i serves reducer i mod R first, then the next ones: the
         * shuffle's fetchers spread over the maps instead of all asking
         * one map (or one reducer taking every first partition) at once. */
        uint32_t out = task(r, 0, map);
        for (int64_t k = 0; k < p->R; k++)
            replay_add_msg(r, out, rank_of_worker(reducer_node(p, (i + k) % p->R)),
                           (uint64_t)(p->reduce_in / p->M), TAG(P_SHUFFLE, i));
    }
    /* Blocks others read from here. */
    for (int64_t b = 0; b < p->blocks; b++)
        if (p->src[b] == w) {
            int32_t reader = rank_of_worker(p->map_node[b / p->bps]);
            uint32_t ask = recv(r, reader, TAG(P_READ, 2 * b), NONE);
            uint32_t give = task(r, 0, ask);
            replay_add_msg(r, give, reader, block_bytes(p->split, m->block, b % p->bps), TAG(P_READ, 2 * b + 1));
        }
}

/* Worker w's reducers: shuffle receives, reduce, the output pipeline, the
 * commit notice; and the pipeline hops other reducers' blocks take here. */
static void worker_reduces(const mr_spec *m, const mr_plan *p, int64_t w, replay_rank *r)
{
    uint64_t ctl = (uint64_t)m->ctl;
    const int32_t master = (int32_t)p->W;
    for (int64_t j = 0; j < p->R; j++) {
        if (reducer_node(p, j) != w)
            continue;
        uint32_t go = recv(r, master, TAG(P_ASSIGN, p->M + j), NONE);
        uint32_t red = task(r, (uint64_t)((double)p->reduce_in * (double)m->reduce_ns / MIB), go);
        for (int64_t i = 0; i < p->M; i++)
            replay_add_dep(r, red, recv(r, rank_of_worker(p->map_node[i]), TAG(P_SHUFFLE, i), NONE), 0);
        uint32_t done = task(r, 0, red);
        int64_t out = p->reduce_in * m->output / 100;
        for (int64_t b = 0; b < p->out_blocks; b++) {
            int64_t a, bb;
            pipeline(m, p, j, b, &a, &bb);
            if (a < 0)
                continue; /* one replica: written locally */
            int32_t tag = TAG(P_WRITE, 4 * (j * p->out_blocks + b));
            uint32_t put = task(r, 0, red);
            replay_add_msg(r, put, rank_of_worker(a), block_bytes(out, m->block, b), tag);
            replay_add_dep(r, done, recv(r, rank_of_worker(a), tag + 3, put), 0);
        }
        uint32_t tell = task(r, 0, done);
        replay_add_msg(r, tell, master, ctl, TAG(P_COMMIT, j));
    }
    for (int64_t j = 0; j < p->R; j++) {
        int64_t out = p->reduce_in * m->output / 100;
        int32_t writer = rank_of_worker(reducer_node(p, j));
        for (int64_t b = 0; b < p->out_blocks; b++) {
            int64_t a, bb;
            pipeline(m, p, j, b, &a, &bb);
            int32_t tag = TAG(P_WRITE, 4 * (j * p->out_blocks + b));
            if (a == w) { /* first hop: store, forward, pass the ack back */
                uint32_t in = recv(r, writer, tag, NONE), acked = in;
                if (bb >= 0) {
                    uint32_t fwd = task(r, 0, in);
                    replay_add_msg(r, fwd, rank_of_worker(bb), block_bytes(out, m->block, b), tag + 1);
                    acked = recv(r, rank_of_worker(bb), tag + 2, fwd);
                }
                uint32_t ack = task(r, 0, acked);
                replay_add_msg(r, ack, writer, ctl, tag + 3);
            }
            if (bb == w) { /* second hop: store and acknowledge */
                uint32_t in = recv(r, rank_of_worker(a), tag + 1, NONE);
                uint32_t ack = task(r, 0, in);
                replay_add_msg(r, ack, rank_of_worker(a), ctl, tag + 2);
            }
        }
    }
}

void mr_build(const mr_spec *m, int32_t rank, replay_rank *r)
{
    mr_plan p;
    plan_make(m, &p);
    uint64_t ctl = (uint64_t)m->ctl;
    const int32_t master = (int32_t)p.W, client = (int32_t)p.W + 1;
    if (rank == client) {
        uint32_t sub = task(r, 0, NONE);
        replay_add_msg(r, sub, master, ctl, TAG(P_SUBMIT, 0));
        recv(r, master, TAG(P_COMMIT, p.R), sub);
    } else if (rank == master) {
        uint32_t sub = recv(r, client, TAG(P_SUBMIT, 0), NONE);
        uint32_t as = task(r, 0, sub);
        for (int64_t i = 0; i < p.M; i++)
            replay_add_msg(r, as, rank_of_worker(p.map_node[i]), ctl, TAG(P_ASSIGN, i));
        for (int64_t j = 0; j < p.R; j++)
            replay_add_msg(r, as, rank_of_worker(reducer_node(&p, j)), ctl, TAG(P_ASSIGN, p.M + j));
        uint32_t fin = task(r, 0, as);
        for (int64_t j = 0; j < p.R; j++)
            replay_add_dep(r, fin, recv(r, rank_of_worker(reducer_node(&p, j)), TAG(P_COMMIT, j), NONE), 0);
        replay_add_msg(r, fin, client, ctl, TAG(P_COMMIT, p.R));
    } else {
        worker_maps(m, &p, rank, r);
        worker_reduces(m, &p, rank, r);
    }
    plan_free(&p);
}

const char *mr_check(const mr_spec *m)
{
    if (m->rack > m->workers)
        return "rack (nodes per rack) exceeds workers";
    if (m->reducers > m->workers)
        return "more reducers than workers (one reducer slot per node)";
    int64_t input = m->input ? m->input : m->mappers * m->block;
    int64_t split = (input + m->mappers - 1) / m->mappers;
    int64_t blocks = m->mappers * ((split + m->block - 1) / m->block);
    int64_t reduce_in = (input * m->shuffle / 100 + m->reducers - 1) / m->reducers;
    int64_t out_blocks = (reduce_in * m->output / 100 + m->block - 1) / m->block;
    if (2 * blocks >= (1 << 24) || 4 * m->reducers * out_blocks >= (1 << 24) || m->mappers + m->reducers >= (1 << 24))
        return "too many blocks for the message tags (2^23 input, 2^22 output); raise block";
    return NULL;
}
