/* gen.c — procedural trace sources: 3-D and 2-D stencils (halo exchange plus
 * a recursive-doubling allreduce per iteration), allreduce (ring, recursive
 * doubling), all-to-all (pairwise exchange), any collective with the
 * algorithm [collectives] chooses (collectives/coll.h), a random layered
 * DAG and a MapReduce job (gen_mapreduce.c).
 * Invariant: load(r) is a pure function of (spec, r) computed on demand, so a
 * replay of any size needs no file and each LP builds only its own rank.
 * Spec: "gen:KIND:key=value,..." (see docs/trace-format.md for keys). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/gen.h"
#include "replay/readers/gen_mapreduce.h"
#include "replay/readers/source.h"
#include "warp_error.h"

enum gen_kind { G_STENCIL3D, G_STENCIL2D, G_ALLREDUCE, G_ALLTOALL, G_RANDOM, G_COLLECTIVE, G_MAPREDUCE };

typedef struct gen_param {
    const char *key;
    int64_t def, lo, hi;
    const char *help;
} gen_param;

/* Keys per kind; the values live in gen_spec.v in the same order. */
#define GEN_MAX_KEYS 14
typedef struct gen_kind_desc {
    const char *name;
    enum gen_kind kind;
    gen_param p[GEN_MAX_KEYS];
} gen_kind_desc;

#define BIG ((int64_t)1 << 40)
static const gen_kind_desc kinds[] = {
    {"stencil3d", G_STENCIL3D,
     {{"px", 4, 1, 1 << 20, "ranks along x"}, {"py", 4, 1, 1 << 20, "ranks along y"},
      {"pz", 4, 1, 1 << 20, "ranks along z"}, {"iters", 10, 1, 1 << 24, "iterations"},
      {"bytes", 8192, 0, BIG, "halo message bytes"}, {"compute", 100000, 0, BIG, "compute ns per iteration"},
      {"allreduce", 1, 0, 1, "1: allreduce after each halo exchange"},
      {"reduce", 0, 0, BIG, "ns per allreduce combine step"}, {"arbytes", 8, 0, BIG, "allreduce bytes"},
      {"periodic", 1, 0, 1, "1: wrap-around edges (6 neighbours), 0: open edges"}}},
    {"stencil2d", G_STENCIL2D,
     {{"px", 8, 1, 1 << 20, "ranks along x"}, {"py", 8, 1, 1 << 20, "ranks along y"},
      {"iters", 10, 1, 1 << 24, "iterations"}, {"bytes", 8192, 0, BIG, "halo message bytes"},
      {"compute", 100000, 0, BIG, "compute ns per iteration"},
      {"allreduce", 0, 0, 1, "1: allreduce after each halo exchange"},
      {"reduce", 0, 0, BIG, "ns per allreduce combine step"}, {"arbytes", 8, 0, BIG, "allreduce bytes"},
      {"periodic", 1, 0, 1, "1: wrap-around edges (4 neighbours), 0: open edges"}}},
    {"allreduce", G_ALLREDUCE,
     {{"ranks", 16, 1, 1 << 30, "ranks"}, {"iters", 1, 1, 1 << 24, "repetitions"},
      {"bytes", 1 << 20, 0, BIG, "vector bytes"}, {"ring", 0, 0, 1, "1: ring, 0: recursive doubling"},
      {"reduce", 1000, 0, BIG, "ns per combine step"}}},
    {"alltoall", G_ALLTOALL,
     {{"ranks", 16, 1, 1 << 20, "ranks"}, {"iters", 1, 1, 1 << 24, "repetitions"},
      {"bytes", 4096, 0, BIG, "bytes per pair"}, {"step", 0, 0, BIG, "ns per exchange step"}}},
    {"random", G_RANDOM,
     {{"ranks", 8, 1, 1 << 20, "ranks"}, {"layers", 20, 1, 1 << 20, "layers (tasks per rank)"},
      {"seed", 1, 0, INT64_MAX, "seed"}, {"maxdur", 10000, 1, BIG, "max task ns"},
      {"fanout", 50, 0, 100, "percent of tasks that send a message"},
      {"bytes", 1024, 0, BIG, "message bytes"}}},
    {"collective", G_COLLECTIVE,
     {{"op", 0, 0, COLL_NOPS - 1, "allreduce, reduce_scatter, allgather, alltoall, bcast or reduce"},
      {"ranks", 16, 1, 1 << 30, "ranks"}, {"iters", 1, 1, 1 << 24, "repetitions"},
      {"bytes", 1 << 20, 0, BIG, "bytes of the collective (docs/ai-workloads.md)"},
      {"root", 0, 0, (1 << 30) - 1, "root rank of bcast and reduce"},
      {"compute", 0, 0, BIG, "compute ns before each repetition"}}},
    {"mapreduce", G_MAPREDUCE, /* gen_mapreduce.c */
     {{"workers", 16, 1, 1 << 20, "worker nodes (ranks 0..workers-1; then the master, then the client)"},
      {"rack", 4, 1, 1 << 20, "workers per rack"}, {"mappers", 32, 1, 1 << 20, "map tasks"},
      {"reducers", 4, 1, 1 << 20, "reduce tasks"}, {"block", 1048576, 1, BIG, "HDFS block bytes"},
      {"input", 0, 0, BIG, "input bytes (0: mappers x block)"}, {"replication", 3, 1, 3, "HDFS replicas"},
      {"rack_aware", 1, 0, 1, "1: maps go rack-local when not data-local, and read the nearest replica"},
      {"map_ns", 1000000, 0, BIG, "map compute ns per MiB of input"},
      {"reduce_ns", 1000000, 0, BIG, "reduce compute ns per MiB of its input"},
      {"shuffle", 100, 0, 1000, "map output, percent of the input"},
      {"output", 100, 0, 1000, "job output, percent of the reduce input"},
      {"ctl", 512, 1, BIG, "control message bytes"}, {"seed", 1, 0, INT64_MAX, "block placement seed"}}},
};

typedef struct gen_spec {
    const gen_kind_desc *d;
    int64_t v[GEN_MAX_KEYS];
} gen_spec;

static int64_t val(const gen_spec *g, const char *key)
{
    for (int i = 0; i < GEN_MAX_KEYS && g->d->p[i].key; i++)
        if (!strcmp(g->d->p[i].key, key))
            return g->v[i];
    return 0; /* every caller names a key of its own kind */
}

static uint64_t mix(uint64_t x)
{
    x += 0x9e3779b97f4a7c15u;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
    return x ^ (x >> 31);
}

static uint64_t hash3(uint64_t seed, uint64_t a, uint64_t b)
{
    return mix(mix(mix(seed) ^ a) ^ b);
}

/* ---- building blocks --------------------------------------------------------- */

/* Adds a send task (after `after`, if any) and returns it. */
static uint32_t send_task(replay_rank *r, uint32_t after, int32_t dst, uint64_t bytes, int32_t tag)
{
    uint32_t s = replay_add_task(r, 0, 0, 0, 0);
    if (after != UINT32_MAX)
        replay_add_dep(r, s, after, 0);
    replay_add_msg(r, s, dst, bytes, tag);
    return s;
}

/* Adds a receive task of dur ns triggered by (src, tag), after `after`. */
static uint32_t recv_task(replay_rank *r, uint32_t after, int32_t src, int32_t tag, uint64_t dur)
{
    uint32_t t = replay_add_task(r, dur, REPLAY_TRIGGERED, src, tag);
    if (after != UINT32_MAX)
        replay_add_dep(r, t, after, 0);
    return t;
}

/* Recursive-doubling allreduce among n ranks (n a power of two) after task
 * `after`; round k exchanges with rank ^ 2^k using tag base + k. Returns the
 * last task. */
static uint32_t allreduce_recdbl(replay_rank *r, uint32_t after, int32_t n, uint64_t bytes,
                                 uint64_t combine, int32_t base)
{
    uint32_t last = after;
    for (int32_t k = 0; (1 << k) < n; k++) {
        int32_t peer = r->rank ^ (1 << k);
        uint32_t s = send_task(r, last, peer, bytes, base + k);
        last = recv_task(r, s, peer, base + k, combine);
    }
    return last;
}

/* Ring allreduce (reduce-scatter then allgather): 2(n-1) steps, each sends
 * bytes/n to the right and receives from the left; tags base + step. */
static uint32_t allreduce_ring(replay_rank *r, uint32_t after, int32_t n, uint64_t bytes,
                               uint64_t combine, int32_t base)
{
    uint32_t last = after;
    int32_t right = (r->rank + 1) % n, left = (r->rank + n - 1) % n;
    uint64_t chunk = (bytes + (uint64_t)n - 1) / (uint64_t)n;
    for (int32_t s = 0; n > 1 && s < 2 * (n - 1); s++) {
        uint32_t st = send_task(r, last, right, chunk, base + s);
        last = recv_task(r, st, left, base + s, combine);
    }
    return last;
}

/* Halo exchange with the neighbours nb[dir] (dir = 2 x dimension + (0: -, 1:
 * +); -1 where an open edge has none); returns a task after all receives.
 * The message towards direction dir carries tag base + (dir ^ 1): the
 * direction seen from the receiver, so duplicate neighbours on small
 * periodic grids stay distinct. */
static uint32_t halo(replay_rank *r, uint32_t after, const int32_t *nb, int ndir, uint64_t bytes,
                     int32_t base)
{
    uint32_t s = replay_add_task(r, 0, 0, 0, 0);
    if (after != UINT32_MAX)
        replay_add_dep(r, s, after, 0);
    for (int d = 0; d < ndir; d++)
        if (nb[d] >= 0)
            replay_add_msg(r, s, nb[d], bytes, base + (d ^ 1));
    uint32_t recvs[6];
    int nrecv = 0;
    for (int d = 0; d < ndir; d++)
        if (nb[d] >= 0)
            recvs[nrecv++] = recv_task(r, s, nb[d], base + d, 0);
    uint32_t join = replay_add_task(r, 0, 0, 0, 0);
    if (!nrecv) /* a lone rank of an open grid: keep the iteration's order */
        replay_add_dep(r, join, s, 0);
    for (int k = 0; k < nrecv; k++)
        replay_add_dep(r, join, recvs[k], 0);
    return join;
}

static int is_pow2(int64_t n)
{
    return n > 0 && (n & (n - 1)) == 0;
}

/* ---- kinds -------------------------------------------------------------------- */

static void gen_stencil(const gen_spec *g, int32_t rank, replay_rank *r, int dims)
{
    int64_t px = val(g, "px"), py = val(g, "py"), pz = dims == 3 ? val(g, "pz") : 1;
    int32_t n = (int32_t)(px * py * pz);
    int32_t x = (int32_t)(rank % px), y = (int32_t)(rank / px % py), z = (int32_t)(rank / (px * py));
    int32_t nb[6];
    int nnb = 0;
    int64_t c[3] = {x, y, z}, p[3] = {px, py, pz};
    int periodic = val(g, "periodic") != 0;
    for (int d = 0; d < dims; d++)
        for (int s = -1; s <= 1; s += 2) {
            int64_t cc[3] = {c[0], c[1], c[2]};
            cc[d] += s;
            if (!periodic && (cc[d] < 0 || cc[d] >= p[d])) {
                nb[nnb++] = -1; /* an open edge: no neighbour that way */
                continue;
            }
            cc[d] = (cc[d] + p[d]) % p[d];
            nb[nnb++] = (int32_t)(cc[0] + px * (cc[1] + py * cc[2]));
        }
    /* The graph's size is known: one allocation per array instead of
     * growth by doubling (setup of 2^19 ranks spent its time there). Per
     * iteration: compute, send, a receive per neighbour, join, and two
     * tasks per allreduce round. */
    int64_t nrecv = 0, rounds = 0, iters = val(g, "iters");
    for (int d = 0; d < nnb; d++)
        nrecv += nb[d] >= 0;
    while (val(g, "allreduce") && ((int64_t)1 << rounds) < n)
        rounds++;
    int64_t tasks = iters * (3 + nrecv + 2 * rounds);
    if (tasks < 0x7fffffff)
        replay_rank_reserve(r, (uint32_t)tasks, (uint32_t)(iters * (3 + 2 * nrecv + 2 * rounds)),
                            (uint32_t)(iters * (nrecv + rounds)));
    /* The parameters once, not by name per iteration (a string search). */
    uint64_t compute = (uint64_t)val(g, "compute"), bytes = (uint64_t)val(g, "bytes");
    uint64_t arbytes = (uint64_t)val(g, "arbytes"), reduce = (uint64_t)val(g, "reduce");
    int allreduce = val(g, "allreduce") != 0;
    uint32_t last = UINT32_MAX;
    for (int64_t it = 0; it < iters; it++) {
        int32_t base = (int32_t)(it * 64);
        uint32_t comp = replay_add_task(r, compute, 0, 0, 0);
        if (last != UINT32_MAX)
            replay_add_dep(r, comp, last, 0);
        last = halo(r, comp, nb, nnb, bytes, base);
        if (allreduce)
            last = allreduce_recdbl(r, last, n, arbytes, reduce, base + 16);
    }
}

static void gen_allreduce(const gen_spec *g, int32_t rank, replay_rank *r)
{
    int32_t n = (int32_t)val(g, "ranks");
    uint32_t last = UINT32_MAX;
    (void)rank;
    for (int64_t it = 0; it < val(g, "iters"); it++) {
        int32_t base = (int32_t)(it * (2 * (int64_t)n + 64));
        uint32_t start = replay_add_task(r, 0, 0, 0, 0);
        if (last != UINT32_MAX)
            replay_add_dep(r, start, last, 0);
        last = val(g, "ring") ? allreduce_ring(r, start, n, (uint64_t)val(g, "bytes"), (uint64_t)val(g, "reduce"), base)
                              : allreduce_recdbl(r, start, n, (uint64_t)val(g, "bytes"), (uint64_t)val(g, "reduce"), base);
    }
}

static void gen_alltoall(const gen_spec *g, int32_t rank, replay_rank *r)
{
    int32_t n = (int32_t)val(g, "ranks");
    uint32_t last = UINT32_MAX;
    for (int64_t it = 0; it < val(g, "iters"); it++) {
        int32_t base = (int32_t)(it * (int64_t)n);
        uint32_t start = replay_add_task(r, 0, 0, 0, 0);
        if (last != UINT32_MAX)
            replay_add_dep(r, start, last, 0);
        last = start;
        for (int32_t k = 1; k < n; k++) {
            uint32_t s = send_task(r, last, (rank + k) % n, (uint64_t)val(g, "bytes"), base + k);
            last = recv_task(r, s, (rank + n - k) % n, base + k, (uint64_t)val(g, "step"));
        }
    }
}

static int32_t world_id(const void *arg, uint32_t pos)
{
    (void)arg;
    return (int32_t)pos;
}

/* iters x (compute, then the collective with [collectives]' algorithm). */
static int gen_collective(const gen_spec *g, const coll_cfg *cfg, int32_t rank, replay_rank *r,
                          const char *place, replay_err *err)
{
    coll_op op = (coll_op)val(g, "op");
    coll_call k = {.op = op, .n = (uint32_t)val(g, "ranks"), .me = (uint32_t)rank,
                   .root = (uint32_t)val(g, "root"), .bytes = (uint64_t)val(g, "bytes"), .world = world_id};
    coll_choice a = coll_cfg_alg(cfg, op, coll_default_alg(op));
    uint32_t last = UINT32_MAX;
    for (int64_t it = 0; it < val(g, "iters"); it++) {
        uint32_t t = replay_add_task(r, (uint64_t)val(g, "compute"), 0, 0, 0);
        if (last != UINT32_MAX)
            replay_add_dep(r, t, last, 0);
        k.base_tag = coll_tag(0, (uint64_t)it);
        if (coll_expand(r, &k, a, cfg->chunks, t, &last, place, err))
            return -1;
    }
    return 0;
}

/* Layer l of rank a sends to rank dst(a, l) at layer l + 1 when chosen. */
static int random_sends(const gen_spec *g, int32_t a, int64_t l, int32_t *dst)
{
    int64_t n = val(g, "ranks");
    uint64_t h = hash3((uint64_t)val(g, "seed"), (uint64_t)a, (uint64_t)l);
    if (n < 2 || l + 1 >= val(g, "layers") || (int64_t)(h % 100) >= val(g, "fanout"))
        return 0;
    *dst = (int32_t)((a + 1 + (int64_t)((h >> 8) % (uint64_t)(n - 1))) % n);
    return 1;
}

static void gen_random(const gen_spec *g, int32_t rank, replay_rank *r)
{
    int64_t n = val(g, "ranks"), layers = val(g, "layers");
    uint64_t seed = (uint64_t)val(g, "seed");
    uint32_t *layer_task = warp_xcalloc((size_t)layers, sizeof *layer_task);
    for (int64_t l = 0; l < layers; l++) {
        uint64_t h = hash3(seed ^ 0x5bd1e995u, (uint64_t)rank, (uint64_t)l);
        /* receives of messages sent to this rank by layer l - 1 */
        uint32_t nrecv = 0, first_recv = r->ntasks;
        for (int32_t a = 0; l > 0 && a < n; a++) {
            int32_t d;
            if (random_sends(g, a, l - 1, &d) && d == rank) {
                recv_task(r, l > 1 ? layer_task[l - 2] : UINT32_MAX, a, (int32_t)(l - 1), 0);
                nrecv++;
            }
        }
        uint32_t t = replay_add_task(r, 1 + h % (uint64_t)val(g, "maxdur"), 0, 0, 0);
        layer_task[l] = t;
        if (l > 0)
            replay_add_dep(r, t, layer_task[l - 1], 0);
        if (l > 1 && (h >> 20) % 3 == 0) /* an extra, redundant edge further back */
            replay_add_dep(r, t, layer_task[(h >> 24) % (uint64_t)(l - 1)], 0);
        for (uint32_t k = 0; k < nrecv; k++)
            replay_add_dep(r, t, first_recv + k, 0);
        int32_t d;
        if (random_sends(g, rank, l, &d))
            replay_add_msg(r, t, d, (uint64_t)val(g, "bytes"), (int32_t)l);
    }
    free(layer_task);
}

/* The mapreduce kind's keys. */
static mr_spec mr_of(const gen_spec *g)
{
    return (mr_spec){.workers = val(g, "workers"), .rack = val(g, "rack"), .mappers = val(g, "mappers"),
                     .reducers = val(g, "reducers"), .block = val(g, "block"), .input = val(g, "input"),
                     .replication = val(g, "replication"), .rack_aware = val(g, "rack_aware"),
                     .map_ns = val(g, "map_ns"), .reduce_ns = val(g, "reduce_ns"), .shuffle = val(g, "shuffle"),
                     .output = val(g, "output"), .ctl = val(g, "ctl"), .seed = val(g, "seed")};
}

/* ---- source --------------------------------------------------------------------- */

static int gen_load(replay_source *s, int32_t rank, replay_rank *out, replay_err *err)
{
    const gen_spec *g = s->impl;
    replay_rank_begin(out, rank);
    switch (g->d->kind) {
    case G_STENCIL3D: gen_stencil(g, rank, out, 3); break;
    case G_STENCIL2D: gen_stencil(g, rank, out, 2); break;
    case G_ALLREDUCE: gen_allreduce(g, rank, out); break;
    case G_ALLTOALL: gen_alltoall(g, rank, out); break;
    case G_RANDOM: gen_random(g, rank, out); break;
    case G_COLLECTIVE:
        if (gen_collective(g, &s->coll, rank, out, s->path, err)) {
            replay_rank_free(out);
            return -1;
        }
        break;
    case G_MAPREDUCE: {
        mr_spec m = mr_of(g);
        mr_build(&m, rank, out);
        break;
    }
    }
    if (replay_rank_end(out, s->path, err)) {
        replay_rank_free(out);
        return -1;
    }
    return 0;
}

static void gen_close(replay_source *s)
{
    free(s->impl);
}

/* A stencil rank's graph differs from another's only in its neighbours,
 * and those (as offsets from the rank, mod the ranks) only in whether it
 * is at the low or high edge of each dimension: two bits a dimension. The
 * allreduce's partners depend on the rank's bits, so it has no classes. */
static int gen_shape_class(const replay_source *s, int32_t rank)
{
    const gen_spec *g = s->impl;
    if ((g->d->kind != G_STENCIL3D && g->d->kind != G_STENCIL2D) || val(g, "allreduce"))
        return -1;
    int64_t p[3] = {val(g, "px"), val(g, "py"), g->d->kind == G_STENCIL3D ? val(g, "pz") : 1};
    int64_t c[3] = {rank % p[0], rank / p[0] % p[1], rank / (p[0] * p[1])};
    int cls = 0;
    for (int d = 0; d < 3; d++)
        cls |= ((c[d] == 0) | (c[d] == p[d] - 1) << 1) << 2 * d;
    return cls;
}

/* The last packet of a message of `bytes` (0 travels as 1). */
static uint64_t last_packet(uint64_t bytes, uint64_t packet_size)
{
    if (!bytes)
        return 1;
    return bytes % packet_size ? bytes % packet_size : packet_size;
}

/* Each kind sends messages of one or two sizes, all known from its keys. */
static uint64_t gen_min_packet(const replay_source *s, uint64_t packet_size)
{
    const gen_spec *g = s->impl;
    uint64_t bytes = (uint64_t)val(g, "bytes"), m;
    switch (g->d->kind) {
    case G_STENCIL3D:
    case G_STENCIL2D:
        m = last_packet(bytes, packet_size);
        if (val(g, "allreduce")) {
            uint64_t a = last_packet((uint64_t)val(g, "arbytes"), packet_size);
            m = a < m ? a : m;
        }
        return m;
    case G_MAPREDUCE: /* partitions and block tails come in any size */
        return 1;
    case G_ALLREDUCE:
        if (val(g, "ring")) /* chunks of bytes / ranks, rounded up */
            bytes = (bytes + (uint64_t)val(g, "ranks") - 1) / (uint64_t)val(g, "ranks");
        return last_packet(bytes, packet_size);
    case G_COLLECTIVE: /* pieces of bytes / ranks and less: the source cannot tell */
        return 0;
    default:
        return last_packet(bytes, packet_size);
    }
}

static const replay_phases mr_phases = {MR_PHASES, mr_phase_names, mr_tag_phase};

static const replay_phases *gen_phases(const replay_source *s)
{
    return ((const gen_spec *)s->impl)->d->kind == G_MAPREDUCE ? &mr_phases : NULL;
}

static const replay_source_ops gen_ops = {"gen", gen_load, gen_close, gen_shape_class, gen_min_packet, NULL,
                                          gen_phases};

static int64_t nranks_of(const gen_spec *g)
{
    switch (g->d->kind) {
    case G_STENCIL3D: return val(g, "px") * val(g, "py") * val(g, "pz");
    case G_STENCIL2D: return val(g, "px") * val(g, "py");
    case G_MAPREDUCE: {
        mr_spec m = mr_of(g);
        return mr_ranks(&m);
    }
    default: return val(g, "ranks");
    }
}

static int gen_open(const char *spec, const void *opts, replay_source **out, replay_err *err)
{
    const char *p = strncmp(spec, "gen:", 4) == 0 ? spec + 4 : spec;
    size_t klen = strcspn(p, ":");
    gen_spec *g = warp_xcalloc(1, sizeof *g);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strlen(kinds[i].name) == klen && !strncmp(kinds[i].name, p, klen))
            g->d = &kinds[i];
    if (!g->d) {
        free(g);
        return replay_errf(err, "%s: unknown generator '%.*s'; use stencil3d, stencil2d, allreduce, "
                           "alltoall, collective, random or mapreduce", spec, (int)klen, p);
    }
    for (int i = 0; i < GEN_MAX_KEYS && g->d->p[i].key; i++)
        g->v[i] = g->d->p[i].def;
    p += klen;
    if (*p == ':')
        p++;
    while (*p) {
        size_t len = strcspn(p, ",");
        const char *eq = memchr(p, '=', len);
        int found = 0;
        for (int i = 0; eq && i < GEN_MAX_KEYS && g->d->p[i].key; i++) {
            const gen_param *q = &g->d->p[i];
            if (strlen(q->key) != (size_t)(eq - p) || strncmp(q->key, p, (size_t)(eq - p)))
                continue;
            char *end;
            errno = 0;
            long long v = strtoll(eq + 1, &end, 10);
            /* the collective's op by name too: its number is coll.h's */
            const char *const *names = g->d->kind == G_COLLECTIVE && !strcmp(q->key, "op") ? coll_keys : NULL;
            for (int64_t j = 0; names && j <= q->hi; j++)
                if (strlen(names[j]) == (size_t)(p + len - eq - 1) &&
                    !strncmp(names[j], eq + 1, (size_t)(p + len - eq - 1))) {
                    v = j;
                    end = (char *)(p + len);
                }
            if (end == eq + 1 || end != p + len || errno == ERANGE || v < q->lo || v > q->hi) {
                free(g);
                return replay_errf(err, "%s: %s = '%.*s' is invalid; give %s in %" PRId64
                                   "..%" PRId64 " (%s)", spec, q->key, (int)(p + len - eq - 1), eq + 1,
                                   names ? "a name or its number" : "an integer", q->lo, q->hi, q->help);
            }
            g->v[i] = v;
            found = 1;
        }
        if (!found) {
            char known[256] = "";
            for (int i = 0; i < GEN_MAX_KEYS && g->d->p[i].key; i++)
                snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "",
                         g->d->p[i].key);
            replay_errf(err, "%s: unknown or malformed parameter '%.*s' for %s; known keys: %s", spec,
                        (int)len, p, g->d->name, known);
            free(g);
            return -1;
        }
        p += len;
        if (*p == ',')
            p++;
    }
    int64_t n = nranks_of(g);
    if (n < 1 || n > INT32_MAX) {
        free(g);
        return replay_errf(err, "%s: %" PRId64 " ranks is out of range (1..2^31-1)", spec, n);
    }
    int64_t root = g->d->kind == G_COLLECTIVE ? val(g, "root") : 0;
    if (root >= n) {
        free(g);
        return replay_errf(err, "%s: root = %" PRId64 " is not one of the %" PRId64 " ranks; give a root below "
                           "ranks", spec, root, n);
    }
    if (g->d->kind == G_MAPREDUCE) {
        mr_spec m = mr_of(g);
        const char *why = mr_check(&m);
        if (why) {
            free(g);
            return replay_errf(err, "%s: %s", spec, why);
        }
    }
    int needs_pow2 = (g->d->kind == G_STENCIL3D || g->d->kind == G_STENCIL2D) ? val(g, "allreduce") != 0
                     : g->d->kind == G_ALLREDUCE ? !val(g, "ring") : 0;
    if (needs_pow2 && !is_pow2(n)) {
        free(g);
        return replay_errf(err, "%s: recursive doubling needs a power-of-two rank count, not %" PRId64
                           "; change the sizes, use ring=1, or allreduce=0", spec, n);
    }
    int64_t tags = g->d->kind == G_ALLREDUCE ? val(g, "iters") * (2 * n + 64)
                 : g->d->kind == G_ALLTOALL ? val(g, "iters") * n : 0;
    if (tags > INT32_MAX) {
        free(g);
        return replay_errf(err, "%s: iters x ranks too large for 32-bit message tags; "
                           "use fewer iterations", spec);
    }
    *out = replay_source_new(&gen_ops, spec, NULL, 0, (int32_t)n, g);
    return 0;
}

const char *replay_gen_help(void)
{
    return "generators (gen:KIND:key=value,...):\n"
           "  stencil3d px py pz iters bytes compute allreduce reduce arbytes periodic\n"
           "  stencil2d px py iters bytes compute allreduce reduce arbytes periodic\n"
           "  allreduce ranks iters bytes ring reduce\n"
           "  alltoall  ranks iters bytes step\n"
           "  random    ranks layers seed maxdur fanout bytes\n"
           "  collective op ranks iters bytes root compute ([collectives] picks the algorithm)\n"
           "  mapreduce workers rack mappers reducers block input replication rack_aware map_ns reduce_ns\n"
           "            shuffle output ctl seed\n";
}

/* A generator spec, gen:KIND:key=value,... */
static int gen_sniff(const char *path) { return strncmp(path, "gen:", 4) == 0 ? 4 : 0; }

const replay_reader replay_reader_gen = {
    .name = "gen",
    .sniff = gen_sniff,
    .open = gen_open,
};
