/* coll_cfg.c — the [collectives] settings of coll.h: parsing an algorithm
 * name per operation, the defaults, and the collective tag range.
 * Invariant: a coll_cfg only ever holds a choice its operation can run
 * (coll_cfg_set refuses the others), so expansion never meets one.
 * Called by the replay's reader settings (reader_opts.c) and the tests. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/collectives/coll.h"
#include "replay/readers/mpimap.h"

const char *const coll_keys[] = {"allreduce", "reduce_scatter", "allgather", "alltoall",
                                 "bcast", "reduce", "chunks", NULL};

static const char *const alg_names[] = {"", "ring", "tree", "halving-doubling", "direct", "hierarchical"};

int coll_op_find(const char *name)
{
    for (int i = 0; i < COLL_NOPS; i++)
        if (!strcmp(coll_keys[i], name))
            return i;
    return -1;
}

const char *coll_op_name(coll_op op) { return coll_keys[op]; }

/* Whether op runs with alg (hierarchical: for the reductions and gathers). */
static int fits(coll_op op, coll_alg alg)
{
    switch (op) {
    case COLL_ALLREDUCE: return 1;
    case COLL_REDUCE_SCATTER:
    case COLL_ALLGATHER: return alg != COLL_ALG_TREE;
    case COLL_ALLTOALL: return alg == COLL_ALG_RING || alg == COLL_ALG_DIRECT;
    default: return alg == COLL_ALG_RING || alg == COLL_ALG_TREE || alg == COLL_ALG_DIRECT;
    }
}

/* The flat algorithm named by s[0..len), or COLL_ALG_DEFAULT. */
static coll_alg flat_alg(const char *s, size_t len)
{
    for (int a = COLL_ALG_RING; a < COLL_ALG_HIER; a++)
        if (strlen(alg_names[a]) == len && !strncmp(alg_names[a], s, len))
            return (coll_alg)a;
    return COLL_ALG_DEFAULT;
}

static size_t trim(const char **s, size_t len)
{
    while (len && (**s == ' ' || **s == '\t'))
        (*s)++, len--;
    while (len && ((*s)[len - 1] == ' ' || (*s)[len - 1] == '\t'))
        len--;
    return len;
}

/* hierarchical(G[,INNER[,OUTER]]) into ch; NULL or why not. */
static const char *parse_hier(coll_op op, const char *args, coll_choice *ch)
{
    static char why[160];
    const char *close = strchr(args, ')');
    if (!close || close[1])
        return "hierarchical needs its arguments in parentheses: hierarchical(G[,INNER[,OUTER]])";
    const char *part[3];
    size_t len[3];
    int n = 0;
    for (const char *p = args; n < 3;) {
        size_t l = strcspn(p, ",)");
        part[n] = p;
        len[n] = l;
        n++;
        if (p[l] != ',')
            break;
        p += l + 1;
    }
    if (part[n - 1] + len[n - 1] != close)
        return "hierarchical takes at most three arguments: hierarchical(G[,INNER[,OUTER]])";
    len[0] = trim(&part[0], len[0]);
    char *end;
    unsigned long g = strtoul(part[0], &end, 10);
    if (end == part[0] || end != part[0] + len[0] || g < 1 || g > 1u << 30)
        return "hierarchical(G, ...): G, the members per group, must be a whole number >= 1";
    ch->group = (uint32_t)g;
    ch->inner = ch->outer = COLL_ALG_RING;
    for (int i = 1; i < n; i++) {
        len[i] = trim(&part[i], len[i]);
        coll_alg a = flat_alg(part[i], len[i]);
        /* inside groups: the reduce-scatter and allgather halves; across:
         * the operation itself on the groups' shares */
        coll_op sub = i == 1 && op == COLL_ALLREDUCE ? COLL_REDUCE_SCATTER : op;
        if (a == COLL_ALG_DEFAULT || !fits(sub, a)) {
            snprintf(why, sizeof why, "hierarchical's %s algorithm '%.*s' is not one of %s", i == 1 ? "inner" : "outer",
                     (int)len[i], part[i],
                     sub == COLL_ALLREDUCE ? "ring, tree, halving-doubling, direct" : "ring, halving-doubling, direct");
            return why;
        }
        *(i == 1 ? &ch->inner : &ch->outer) = a;
    }
    return NULL;
}

static const char *parse_alg(coll_op op, const char *v, coll_choice *ch)
{
    static char why[200];
    memset(ch, 0, sizeof *ch);
    size_t len = strlen(v);
    len = trim(&v, len);
    if (len > 13 && !strncmp(v, "hierarchical(", 13)) {
        if (op == COLL_ALLTOALL || op == COLL_BCAST || op == COLL_REDUCE) {
            snprintf(why, sizeof why, "hierarchical is for allreduce, reduce_scatter and allgather, not %s",
                     coll_op_name(op));
            return why;
        }
        ch->alg = COLL_ALG_HIER;
        char args[96];
        if (len - 13 >= sizeof args)
            return "hierarchical(...) is too long";
        memcpy(args, v + 13, len - 13);
        args[len - 13] = 0;
        return parse_hier(op, args, ch);
    }
    ch->alg = flat_alg(v, len);
    if (ch->alg == COLL_ALG_DEFAULT || !fits(op, ch->alg)) {
        static const char *const usable[] = {
            "ring, tree, halving-doubling, direct or hierarchical(G[,INNER[,OUTER]])",
            "ring, halving-doubling, direct or hierarchical(G[,INNER[,OUTER]])",
            "ring, halving-doubling, direct or hierarchical(G[,INNER[,OUTER]])",
            "ring (pairwise exchange) or direct", "ring (a pipeline), tree or direct",
            "ring (a pipeline), tree or direct"};
        snprintf(why, sizeof why, "'%.*s' is not an algorithm for %s; use %s", (int)len, v, coll_op_name(op),
                 usable[op]);
        return why;
    }
    return NULL;
}

const char *coll_cfg_set(coll_cfg *c, const char *key, const char *value)
{
    if (!value)
        return "needs a value";
    if (!strcmp(key, "chunks")) {
        char *end;
        unsigned long v = strtoul(value, &end, 10);
        if (end == value || *end || v < 1 || v > 65536)
            return "must be a whole number of chunks in 1..65536";
        c->chunks = (uint32_t)v;
        return NULL;
    }
    int op = coll_op_find(key);
    if (op < 0)
        return "is not a key of [collectives]; use allreduce, reduce_scatter, allgather, alltoall, bcast, "
               "reduce or chunks";
    coll_choice ch;
    const char *why = parse_alg((coll_op)op, value, &ch);
    if (!why)
        c->op[op] = ch;
    return why;
}

coll_alg coll_default_alg(coll_op op)
{
    return op == COLL_ALLTOALL ? COLL_ALG_DIRECT : op == COLL_BCAST || op == COLL_REDUCE ? COLL_ALG_TREE
                                                                                          : COLL_ALG_RING;
}

coll_choice coll_cfg_alg(const coll_cfg *c, coll_op op, coll_alg dflt)
{
    if (c && c->op[op].alg != COLL_ALG_DEFAULT)
        return c->op[op];
    return (coll_choice){.alg = dflt};
}

int32_t coll_tag(uint32_t comm, uint64_t seq)
{
    return REPLAY_TAG_COLL | REPLAY_TAG_CTRL | (int32_t)((comm & 31u) << 24) | (int32_t)((seq & 0xffu) << 16);
}
