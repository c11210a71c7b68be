/* test_coll.c — the collective algorithms (models/replay/collectives): every
 * operation with every algorithm it accepts, on communicators of 1 to 17
 * members and with chunks, expands into graphs whose sends and receives
 * match one for one by (sender, receiver, tag) and that run to the end on an
 * ideal network; the [collectives] keys refuse what cannot run. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "replay/collectives/coll.h"
#include "replay/critpath.h"

typedef struct end3 {
    int32_t src, dst, tag;
} end3;

static int cmp3(const void *a, const void *b)
{
    const end3 *x = a, *y = b;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    return x->tag < y->tag ? -1 : x->tag > y->tag;
}

/* Members sit at world ranks 2 * pos + 1 of a world of 2n + 1, so a mix-up
 * of positions and ranks shows. */
static int32_t spread(const void *arg, uint32_t pos)
{
    (void)arg;
    return (int32_t)(2 * pos + 1);
}

/* Expands op with choice a on n members; checks matching and completion. */
static void check(coll_op op, const char *alg, uint32_t n, uint32_t chunks, uint64_t bytes)
{
    coll_cfg cfg = {0};
    const char *why = coll_cfg_set(&cfg, coll_op_name(op), alg);
    cr_assert_null(why, "%s = %s refused: %s", coll_op_name(op), alg, why);
    int32_t world = (int32_t)(2 * n + 1);
    replay_rank *r = calloc((size_t)world, sizeof *r);
    size_t ns = 0, nr = 0, cap = 1 << 16;
    end3 *sends = malloc(cap * sizeof *sends), *recvs = malloc(cap * sizeof *recvs);
    for (int32_t w = 0; w < world; w++) {
        replay_rank_begin(&r[w], w);
        uint32_t start = replay_add_task(&r[w], 1, 0, 0, 0);
        if (w % 2 == 1) {
            coll_call k = {.op = op, .n = n, .me = (uint32_t)(w / 2), .root = n / 2, .bytes = bytes,
                           .base_tag = coll_tag(3, 7), .world = spread};
            uint32_t end;
            replay_err err;
            cr_assert_eq(coll_expand(&r[w], &k, coll_cfg_alg(&cfg, op, COLL_ALG_RING), chunks, start, &end, "t",
                                     &err),
                         0, "%s %s n=%u: %s", coll_op_name(op), alg, n, err.msg);
            cr_assert(end != UINT32_MAX);
        }
        replay_err err;
        cr_assert_eq(replay_rank_end(&r[w], "t", &err), 0, "%s %s n=%u: %s", coll_op_name(op), alg, n, err.msg);
        for (uint32_t i = 0; i < r[w].ntasks; i++) {
            for (uint32_t m = replay_msg_begin(&r[w], i); m < r[w].tasks[i].msg_end; m++) {
                cr_assert_lt(ns, cap);
                sends[ns++] = (end3){w, r[w].msgs[m].dst, r[w].msgs[m].tag};
            }
            if (r[w].tasks[i].flags & REPLAY_TRIGGERED) {
                cr_assert_lt(nr, cap);
                recvs[nr++] = (end3){r[w].tasks[i].trig_src, w, r[w].tasks[i].trig_tag};
            }
        }
    }
    cr_assert_eq(ns, nr, "%s %s n=%u chunks=%u: %zu sends, %zu receives", coll_op_name(op), alg, n, chunks, ns, nr);
    qsort(sends, ns, sizeof *sends, cmp3);
    qsort(recvs, nr, sizeof *recvs, cmp3);
    for (size_t i = 0; i < ns; i++)
        cr_assert(!cmp3(&sends[i], &recvs[i]),
                  "%s %s n=%u chunks=%u: send %d->%d tag %#x has no receive of its own (receive %d->%d tag %#x)",
                  coll_op_name(op), alg, n, chunks, sends[i].src, sends[i].dst, sends[i].tag, recvs[i].src,
                  recvs[i].dst, recvs[i].tag);
    for (size_t i = 0; i < ns; i++)
        cr_assert(sends[i].src % 2 == 1 && sends[i].dst % 2 == 1, "a message left the communicator");
    replay_timing t;
    replay_timing_run(r, world, 1, &t, NULL);
    cr_assert_eq(t.tasks_stuck, 0, "%s %s n=%u chunks=%u: %llu tasks never ran", coll_op_name(op), alg, n, chunks,
                 (unsigned long long)t.tasks_stuck);
    cr_assert_eq(t.msgs_unmatched, 0);
    for (int32_t w = 0; w < world; w++)
        replay_rank_free(&r[w]);
    free(r);
    free(sends);
    free(recvs);
}

static const char *const algs[COLL_NOPS][6] = {
    {"ring", "tree", "halving-doubling", "direct", "hierarchical(2)", "hierarchical(2, halving-doubling, tree)"},
    {"ring", "halving-doubling", "direct", "hierarchical(2,direct,ring)"},
    {"ring", "halving-doubling", "direct", "hierarchical(2, ring, halving-doubling)"},
    {"ring", "direct"},
    {"ring", "tree", "direct"},
    {"ring", "tree", "direct"},
};

Test(coll, every_algorithm_matches_its_messages_one_for_one)
{
    for (int op = 0; op < COLL_NOPS; op++)
        for (int a = 0; a < 6 && algs[op][a]; a++)
            for (uint32_t n = 1; n <= 17; n++) {
                if (strstr(algs[op][a], "hierarchical") && n % 2)
                    continue;
                check((coll_op)op, algs[op][a], n, 1, 4096);
                check((coll_op)op, algs[op][a], n, 3, 1000);
            }
}

Test(coll, hierarchical_refuses_a_group_that_does_not_divide)
{
    coll_cfg cfg = {0};
    cr_assert_null(coll_cfg_set(&cfg, "allreduce", "hierarchical(4)"));
    replay_rank r;
    replay_rank_begin(&r, 0);
    coll_call k = {.op = COLL_ALLREDUCE, .n = 6, .me = 0, .bytes = 60, .world = spread};
    uint32_t end;
    replay_err err;
    cr_assert_eq(coll_expand(&r, &k, coll_cfg_alg(&cfg, COLL_ALLREDUCE, COLL_ALG_RING), 1, UINT32_MAX, &end,
                             "x.ini", &err),
                 -1);
    cr_assert(strstr(err.msg, "multiple of 4 members, not 6"), "%s", err.msg);
    replay_rank_free(&r);
}

Test(coll, keys_refuse_what_cannot_run)
{
    coll_cfg cfg = {0};
    const char *why = coll_cfg_set(&cfg, "alltoall", "tree");
    cr_assert(why && strstr(why, "not an algorithm for alltoall"), "%s", why ? why : "accepted");
    why = coll_cfg_set(&cfg, "allreduce", "rings");
    cr_assert(why && strstr(why, "'rings'"), "%s", why ? why : "accepted");
    why = coll_cfg_set(&cfg, "allreduce", "hierarchical(0)");
    cr_assert(why && strstr(why, "G, the members per group"), "%s", why ? why : "accepted");
    why = coll_cfg_set(&cfg, "allreduce", "hierarchical(4,tree)");
    cr_assert(why && strstr(why, "inner algorithm 'tree'"), "%s", why ? why : "accepted");
    why = coll_cfg_set(&cfg, "bcast", "hierarchical(2)");
    cr_assert(why && strstr(why, "not bcast"), "%s", why ? why : "accepted");
    why = coll_cfg_set(&cfg, "chunks", "0");
    cr_assert(why != NULL);
    cr_assert_null(coll_cfg_set(&cfg, "allreduce", " hierarchical( 8 , direct , tree ) "));
    cr_assert_eq(cfg.op[COLL_ALLREDUCE].alg, COLL_ALG_HIER);
    cr_assert_eq(cfg.op[COLL_ALLREDUCE].group, 8);
    cr_assert_eq(cfg.op[COLL_ALLREDUCE].inner, COLL_ALG_DIRECT);
    cr_assert_eq(cfg.op[COLL_ALLREDUCE].outer, COLL_ALG_TREE);
}

Test(coll, ring_allreduce_has_the_textbook_shape)
{
    /* 2(n - 1) steps of bytes/n to the right neighbour, per member */
    replay_rank r;
    replay_rank_begin(&r, 5);
    coll_call k = {.op = COLL_ALLREDUCE, .n = 8, .me = 2, .bytes = 8000, .world = spread};
    uint32_t end;
    replay_err err;
    cr_assert_eq(coll_expand(&r, &k, (coll_choice){.alg = COLL_ALG_RING}, 1, UINT32_MAX, &end, "t", &err), 0);
    cr_assert_eq(replay_rank_end(&r, "t", &err), 0, "%s", err.msg);
    cr_assert_eq(r.nmsgs, 14);
    for (uint32_t m = 0; m < r.nmsgs; m++) {
        cr_assert_eq(r.msgs[m].dst, 7, "message %u goes to %d, not the right neighbour 7", m, r.msgs[m].dst);
        cr_assert_eq(r.msgs[m].bytes, 1000);
    }
    replay_rank_free(&r);
}
