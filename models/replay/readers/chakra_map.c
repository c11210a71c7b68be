/* chakra_map.c — one rank's Chakra nodes as its task graph
 * (docs/ai-workloads.md): compute and memory nodes become timed tasks, send
 * and receive nodes a message and a triggered task, collective nodes the
 * sends and receives of the algorithm [collectives] chooses; data and
 * control dependencies both become dependencies on the node's end.
 * Invariant: nodes are emitted in a topological order (ready nodes in file
 * order), so every dependency names an earlier task; a node the mapping
 * cannot honour stops the load with its id and name, never a wrong graph.
 * Called by chakra.c's load and the Chakra fuzzer. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/chakra.h"
#include "replay/readers/keymap.h"
#include "replay/readers/mpimap.h"
#include "warp_error.h"

typedef ChakraProtoMsg__Node node;
typedef ChakraProtoMsg__AttributeProto attr;

typedef struct ck_map {
    const ck_ctx *c;
    replay_err *err;
    replay_rank *r;
    uint64_t coll_seq;
} ck_map;

static int node_fail(ck_map *m, const node *nd, const char *fmt, const char *what)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, what);
    return replay_errf(m->err, "%s: node %" PRIu64 " (%.60s): %s", m->c->path, nd->id, nd->name ? nd->name : "",
                       msg);
}

static const attr *find_attr(const node *nd, const char *name)
{
    for (size_t i = 0; i < nd->n_attr; i++)
        if (nd->attr[i] && nd->attr[i]->name && !strcmp(nd->attr[i]->name, name))
            return nd->attr[i];
    return NULL;
}

/* An attribute's value as a number (any scalar numeric or bool case);
 * 0 when it has one, -1 when it is a list, string or bytes. */
static int attr_number(const attr *a, double *out)
{
    switch (a->value_case) {
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_DOUBLE_VAL: *out = a->double_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_FLOAT_VAL: *out = a->float_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT32_VAL: *out = a->int32_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_INT64_VAL: *out = (double)a->int64_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT32_VAL: *out = a->uint32_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_UINT64_VAL: *out = (double)a->uint64_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SINT32_VAL: *out = a->sint32_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SINT64_VAL: *out = (double)a->sint64_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_FIXED32_VAL: *out = a->fixed32_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_FIXED64_VAL: *out = (double)a->fixed64_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SFIXED32_VAL: *out = a->sfixed32_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_SFIXED64_VAL: *out = (double)a->sfixed64_val; return 0;
    case CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_BOOL_VAL: *out = a->bool_val; return 0;
    default: return -1;
    }
}

/* Integer attribute `name` in [lo, hi]: 1 found, 0 absent (dflt), -1 bad
 * (err set). */
static int int_attr(ck_map *m, const node *nd, const char *name, int64_t lo, int64_t hi, int64_t *out)
{
    const attr *a = find_attr(nd, name);
    double v;
    if (!a)
        return 0;
    if (attr_number(a, &v) || v != floor(v) || v < (double)lo || v > (double)hi) {
        char what[120];
        snprintf(what, sizeof what, "%s must be a whole number in %" PRId64 "..%" PRId64, name, lo, hi);
        return node_fail(m, nd, "%s", what);
    }
    *out = (int64_t)v;
    return 1;
}

/* A compute or memory node's time: the trace's duration, else work / rate. */
static int timed(ck_map *m, const node *nd, const char *work_key, double rate, const char *rate_key, uint64_t *ns)
{
    *ns = nd->duration_micros * 1000;
    if (nd->duration_micros > UINT64_MAX / 1000)
        return node_fail(m, nd, "%s", "duration_micros overflows 64-bit nanoseconds");
    const attr *a = find_attr(nd, work_key);
    double work;
    if (nd->duration_micros || !a)
        return 0;
    if (attr_number(a, &work) || !(work >= 0) || work > 1e30)
        return node_fail(m, nd, "%s is not a number >= 0", work_key);
    if (rate <= 0) {
        char what[160];
        snprintf(what, sizeof what, "no duration, only %s: give [replay] %s to turn it into time", work_key, rate_key);
        return node_fail(m, nd, "%s", what);
    }
    *ns = (uint64_t)llround(work / rate);
    return 0;
}

static int32_t world_id(const void *arg, uint32_t pos)
{
    (void)arg;
    return (int32_t)pos;
}

/* Chakra's CollectiveCommType as a coll.h operation; -1: not one. */
static int coll_op_of(int64_t t)
{
    switch (t) {
    case CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__ALL_REDUCE:
    case CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__BARRIER: return COLL_ALLREDUCE;
    case CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__REDUCE: return COLL_REDUCE;
    case CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__ALL_GATHER: return COLL_ALLGATHER;
    case CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__BROADCAST: return COLL_BCAST;
    case CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__ALL_TO_ALL: return COLL_ALLTOALL;
    case CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__REDUCE_SCATTER:
    case CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__REDUCE_SCATTER_BLOCK: return COLL_REDUCE_SCATTER;
    default: return -1;
    }
}

/* The collective of nd after task `start`; *end gets its last task. */
static int collective(ck_map *m, const node *nd, uint32_t start, uint32_t *end)
{
    int64_t type = -1, size = 0;
    int got = int_attr(m, nd, "comm_type", 0, 1 << 30, &type);
    if (got < 0)
        return -1;
    if (!got)
        return node_fail(m, nd, "%s", "collective node without a comm_type attribute");
    int op = coll_op_of(type);
    if (op < 0)
        return node_fail(m, nd, "%s", type == CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__GATHER ||
                                              type == CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__SCATTER
                                          ? "GATHER and SCATTER collectives are not supported"
                                          : "comm_type is not a Chakra CollectiveCommType (0..9)");
    if ((got = int_attr(m, nd, "comm_size", 0, INT64_MAX / 2, &size)) < 0)
        return -1;
    if (!got && type != CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__BARRIER)
        return node_fail(m, nd, "%s", "collective node without a comm_size attribute");
    const attr *pg = find_attr(nd, "pg_name");
    if (pg && pg->value_case == CHAKRA_PROTO_MSG__ATTRIBUTE_PROTO__VALUE_STRING_VAL && pg->string_val &&
        pg->string_val[0] && strcmp(pg->string_val, "0"))
        return node_fail(m, nd, "process group '%.40s': only collectives over every rank (no pg_name, or \"0\") "
                         "are supported", pg->string_val);
    if (type == CHAKRA_PROTO_MSG__COLLECTIVE_COMM_TYPE__BARRIER)
        size = 0;
    coll_call k = {.op = (coll_op)op, .n = (uint32_t)m->c->nranks, .me = (uint32_t)m->c->rank,
                   .bytes = (uint64_t)size, .base_tag = coll_tag(0, m->coll_seq++), .world = world_id};
    char place[300];
    snprintf(place, sizeof place, "%s: node %" PRIu64, m->c->path, nd->id);
    coll_choice a = coll_cfg_alg(m->c->coll, (coll_op)op, coll_default_alg((coll_op)op));
    return coll_expand(m->r, &k, a, m->c->coll ? m->c->coll->chunks : 1, start, end, place, m->err);
}

/* A send's or receive's peer and tag. */
static int p2p(ck_map *m, const node *nd, const char *peer_key, int32_t *peer, int32_t *tag, uint64_t *bytes)
{
    int64_t p = 0, t = 0, b = 0;
    int got = int_attr(m, nd, peer_key, 0, m->c->nranks - 1, &p);
    if (got < 0)
        return -1;
    if (!got) {
        char what[80];
        snprintf(what, sizeof what, "no %s attribute", peer_key);
        return node_fail(m, nd, "%s", what);
    }
    if (int_attr(m, nd, "comm_tag", 0, INT32_MAX, &t) < 0 || int_attr(m, nd, "comm_size", 0, INT64_MAX / 2, &b) < 0)
        return -1;
    *peer = (int32_t)p;
    *tag = (int32_t)(t & (REPLAY_TAG_CTRL - 1)); /* below the collectives' tag range */
    *bytes = (uint64_t)b;
    return 0;
}

/* Emits node i: its tasks after the ends of its dependencies; end[i] = its last task. */
static int emit(ck_map *m, const node *nd, const uint32_t *deps, uint32_t ndeps, uint32_t *end)
{
    uint64_t ns = 0, bytes;
    int32_t peer, tag;
    uint32_t t;
    switch ((int)nd->type) {
    case CHAKRA_PROTO_MSG__NODE_TYPE__METADATA_NODE: t = replay_add_task(m->r, 0, 0, 0, 0); break;
    case CHAKRA_PROTO_MSG__NODE_TYPE__COMP_NODE:
        if (timed(m, nd, "num_ops", m->c->flops_per_ns, "flops_rate", &ns))
            return -1;
        t = replay_add_task(m->r, ns, 0, 0, 0);
        break;
    case CHAKRA_PROTO_MSG__NODE_TYPE__MEM_LOAD_NODE:
    case CHAKRA_PROTO_MSG__NODE_TYPE__MEM_STORE_NODE:
        if (timed(m, nd, "tensor_size", m->c->bytes_per_ns, "memory_bandwidth", &ns))
            return -1;
        t = replay_add_task(m->r, ns, 0, 0, 0);
        break;
    case CHAKRA_PROTO_MSG__NODE_TYPE__COMM_SEND_NODE:
        if (p2p(m, nd, "comm_dst", &peer, &tag, &bytes))
            return -1;
        t = replay_add_task(m->r, 0, 0, 0, 0);
        replay_add_msg(m->r, t, peer, bytes, tag);
        break;
    case CHAKRA_PROTO_MSG__NODE_TYPE__COMM_RECV_NODE:
        if (p2p(m, nd, "comm_src", &peer, &tag, &bytes))
            return -1;
        t = replay_add_task(m->r, 0, REPLAY_TRIGGERED, peer, tag);
        break;
    case CHAKRA_PROTO_MSG__NODE_TYPE__COMM_COLL_NODE:
        t = replay_add_task(m->r, 0, 0, 0, 0);
        for (uint32_t k = 0; k < ndeps; k++)
            replay_add_dep(m->r, t, deps[k], 0);
        return collective(m, nd, t, end);
    default: {
        char what[40];
        snprintf(what, sizeof what, "%d", (int)nd->type);
        return node_fail(m, nd, "type %s is not a node type this reader knows (METADATA, MEM_LOAD, MEM_STORE, "
                         "COMP, COMM_SEND, COMM_RECV, COMM_COLL: 1..7)", what);
    }
    }
    for (uint32_t k = 0; k < ndeps; k++)
        replay_add_dep(m->r, t, deps[k], 0);
    *end = t;
    return 0;
}

/* Node index of dependency id, or fails naming both. */
static int dep_index(ck_map *m, replay_keymap *ids, const node *nd, uint64_t id, uint32_t *out)
{
    uint64_t *slot = replay_keymap_get(ids, id, 0, 0);
    if (!slot) {
        char what[80];
        snprintf(what, sizeof what, "%" PRIu64, id);
        return node_fail(m, nd, "depends on node %s, which the file does not have", what);
    }
    *out = (uint32_t)(*slot - 1);
    return 0;
}

int ck_map_nodes(const ck_ctx *ctx, ChakraProtoMsg__Node *const *nodes, size_t n, replay_rank *out,
                 replay_err *err)
{
    ck_map m = {.c = ctx, .err = err, .r = out};
    replay_rank_begin(out, ctx->rank);
    if (n >= 0x7fffffffu) {
        replay_rank_free(out);
        return replay_errf(err, "%s: %zu nodes; a rank holds at most 2^31 - 1", ctx->path, n);
    }
    replay_keymap ids = {0};
    uint32_t *indeg = warp_xcalloc(n + 1, sizeof *indeg), *out_end = warp_xcalloc(n + 2, sizeof *out_end);
    uint32_t *order = warp_xcalloc(n + 1, sizeof *order), *end = warp_xcalloc(n + 1, sizeof *end);
    uint32_t *outs = NULL, *deps = NULL, cap_deps = 0;
    int rc = -1;
    for (size_t i = 0; i < n; i++) {
        uint64_t *slot = replay_keymap_get(&ids, nodes[i]->id, 0, 1);
        if (*slot) {
            node_fail(&m, nodes[i], "%s", "a second node with this id");
            goto out;
        }
        *slot = i + 1;
    }
    /* dependants in CSR form: out_end[j + 1] counts, then prefix sums */
    for (size_t pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < n; i++) {
            const node *nd = nodes[i];
            for (size_t k = 0; k < nd->n_ctrl_deps + nd->n_data_deps; k++) {
                uint64_t id = k < nd->n_ctrl_deps ? nd->ctrl_deps[k] : nd->data_deps[k - nd->n_ctrl_deps];
                uint32_t j = 0;
                if (dep_index(&m, &ids, nd, id, &j))
                    goto out;
                if (pass == 0) {
                    out_end[j + 2]++;
                    indeg[i]++;
                } else {
                    outs[out_end[j + 1]++] = (uint32_t)i;
                }
            }
        }
        if (pass == 0) {
            for (size_t j = 0; j < n; j++)
                out_end[j + 2] += out_end[j + 1];
            outs = warp_xcalloc((size_t)out_end[n + 1] + 1, sizeof *outs);
        }
    }
    /* Kahn's order, ready nodes first come first */
    size_t head = 0, tail = 0;
    for (size_t i = 0; i < n; i++)
        if (!indeg[i])
            order[tail++] = (uint32_t)i;
    while (head < tail) {
        uint32_t i = order[head++];
        for (uint32_t k = out_end[i]; k < out_end[i + 1]; k++)
            if (--indeg[outs[k]] == 0)
                order[tail++] = outs[k];
    }
    if (tail < n) {
        for (size_t i = 0; i < n; i++)
            if (indeg[i]) {
                node_fail(&m, nodes[i], "%s", "its dependencies form a cycle");
                goto out;
            }
    }
    for (size_t o = 0; o < n; o++) {
        const node *nd = nodes[order[o]];
        uint32_t nd_deps = (uint32_t)(nd->n_ctrl_deps + nd->n_data_deps);
        if (nd_deps > cap_deps) {
            cap_deps = nd_deps;
            free(deps);
            deps = warp_xcalloc(cap_deps, sizeof *deps);
        }
        for (uint32_t k = 0; k < nd_deps; k++) {
            uint64_t id = k < nd->n_ctrl_deps ? nd->ctrl_deps[k] : nd->data_deps[k - nd->n_ctrl_deps];
            uint32_t j = 0;
            dep_index(&m, &ids, nd, id, &j); /* found in the first pass */
            deps[k] = end[j];
        }
        if (emit(&m, nd, deps, nd_deps, &end[order[o]]))
            goto out;
    }
    rc = replay_rank_end(out, ctx->path, err);
out:
    if (rc)
        replay_rank_free(out);
    replay_keymap_free(&ids);
    free(indeg);
    free(out_end);
    free(order);
    free(end);
    free(outs);
    free(deps);
    return rc;
}
