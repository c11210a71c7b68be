/* test_otf2map.c — the OTF2 event-to-graph mapping on synthetic event lists
 * (no libotf2 needed): every collective expands into rounds whose messages
 * all match on communicators of several sizes; rendezvous and non-blocking
 * point-to-point complete; compute gaps become tasks; unsupported operations
 * are refused. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "replay/critpath.h"
#include "replay/readers/otf2map.h"

/* World communicator 0 of n ranks, communicator 1 = odd ranks. */
typedef struct world {
    uint64_t all[64], odd[32];
    uint32_t n, nodd;
} world;

static int members(const void *arg, uint32_t comm, const uint64_t **m, uint32_t *n, int *self)
{
    const world *w = arg;
    *self = comm == 2;
    if (comm == 0) {
        *m = w->all;
        *n = w->n;
    } else if (comm == 1) {
        *m = w->odd;
        *n = w->nodd;
    } else if (comm == 2) {
        *m = NULL;
        *n = 0;
    } else {
        return -1;
    }
    return 0;
}

static void setup_world(world *w, uint32_t n)
{
    memset(w, 0, sizeof *w);
    w->n = n;
    for (uint32_t i = 0; i < n; i++) {
        w->all[i] = i;
        if (i % 2)
            w->odd[w->nodd++] = i;
    }
}

typedef void (*events_fn)(o2_evbuf *b, int32_t rank, uint32_t n);

/* [collectives] of the next run_all (NULL: none), and the messages its
 * graphs send. */
static const coll_cfg *cur_cfg;
static uint64_t total_msgs;

/* Maps every rank's events and runs the zero-network timing. */
static replay_timing run_all(uint32_t n, events_fn fn, uint64_t eager)
{
    total_msgs = 0;
    world w;
    setup_world(&w, n);
    replay_rank *g = calloc(n, sizeof *g);
    for (uint32_t q = 0; q < n; q++) {
        o2_evbuf b = {0};
        fn(&b, (int32_t)q, n);
        o2_map_ctx c = {.rank = (int32_t)q, .nranks = (int32_t)n, .timer_res = 1000000000u,
                        .eager_limit = eager, .members = members, .arg = &w, .path = "synthetic",
                        .coll = cur_cfg};
        replay_err err;
        cr_assert_eq(o2_map_events(&c, &b, &g[q], &err), 0, "rank %u: %s", q, err.msg);
        total_msgs += g[q].nmsgs;
        free(b.ev);
    }
    replay_timing t;
    replay_timing_run(g, (int32_t)n, 1, &t, NULL);
    for (uint32_t q = 0; q < n; q++)
        replay_rank_free(&g[q]);
    free(g);
    return t;
}

static uint8_t cur_op;
static uint32_t cur_root;

static void coll_events(o2_evbuf *b, int32_t rank, uint32_t n)
{
    uint64_t t = 0;
    o2_event start = {.time = 0, .kind = O2_OTHER}; /* e.g. entering main: time starts here */
    o2_evbuf_push(b, &start);
    for (int rep = 0; rep < 3; rep++) {
        o2_event in = {.time = t += 10, .kind = O2_ENTER_MPI};
        o2_event e = {.time = t += 5, .kind = O2_COLL, .op = cur_op, .comm = 0, .peer = cur_root,
                      .len = 64ull * n, .len2 = 64};
        o2_event out = {.time = t += 5, .kind = O2_LEAVE_MPI};
        o2_evbuf_push(b, &in);
        o2_evbuf_push(b, &e);
        o2_evbuf_push(b, &out);
        if (rank % 2) { /* also a collective on the odd-ranks communicator, no gap */
            o2_event in2 = {.time = t, .kind = O2_ENTER_MPI};
            o2_event e2 = {.time = t += 1, .kind = O2_COLL, .op = cur_op, .comm = 1, .peer = 0,
                           .len = 64ull * n, .len2 = 64};
            o2_event out2 = {.time = t += 1, .kind = O2_LEAVE_MPI};
            o2_evbuf_push(b, &in2);
            o2_evbuf_push(b, &e2);
            o2_evbuf_push(b, &out2);
        }
    }
    o2_event end = {.time = t + 100, .kind = O2_OTHER};
    o2_evbuf_push(b, &end);
}

Test(otf2map, every_collective_matches_on_any_size)
{
    const uint8_t ops[] = {O2_BARRIER, O2_BCAST, O2_GATHER, O2_GATHERV, O2_SCATTER, O2_SCATTERV,
                           O2_ALLGATHER, O2_ALLGATHERV, O2_ALLTOALL, O2_ALLTOALLV, O2_ALLTOALLW,
                           O2_ALLREDUCE, O2_REDUCE, O2_REDUCE_SCATTER, O2_SCAN, O2_EXSCAN,
                           O2_REDUCE_SCATTER_BLOCK};
    const uint32_t sizes[] = {1, 2, 3, 5, 8, 13};
    for (size_t i = 0; i < sizeof ops; i++)
        for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
            cur_op = ops[i];
            cur_root = sizes[k] > 2 ? 2 : 0;
            replay_timing t = run_all(sizes[k], coll_events, 65536);
            cr_assert_eq(t.tasks_stuck, 0, "op %u on %u ranks: %lu tasks stuck", ops[i], sizes[k],
                         (unsigned long)t.tasks_stuck);
            cr_assert_eq(t.msgs_unmatched, 0, "op %u on %u ranks: unmatched messages", ops[i], sizes[k]);
            /* compute: a gap of 10 before each of the 3 calls, 100 at the end;
             * collectives take no time on an ideal network */
            cr_assert_eq(t.finish_ns, 3 * 10 + 100, "op %u on %u ranks: finish %lu", ops[i], sizes[k],
                         (unsigned long)t.finish_ns);
        }
}

Test(otf2map, collectives_take_the_algorithm_collectives_chooses)
{
    const uint8_t ops[] = {O2_BCAST, O2_ALLGATHER, O2_ALLGATHERV, O2_ALLTOALL, O2_ALLTOALLV, O2_ALLTOALLW,
                           O2_ALLREDUCE, O2_REDUCE, O2_REDUCE_SCATTER, O2_REDUCE_SCATTER_BLOCK};
    const coll_op op_of[] = {COLL_BCAST, COLL_ALLGATHER, COLL_ALLGATHER, COLL_ALLTOALL, COLL_ALLTOALL,
                             COLL_ALLTOALL, COLL_ALLREDUCE, COLL_REDUCE, COLL_REDUCE_SCATTER, COLL_REDUCE_SCATTER};
    const char *const algs[] = {"ring", "tree", "halving-doubling", "direct", "hierarchical(2)"};
    const uint32_t sizes[] = {2, 3, 8, 13};
    for (size_t i = 0; i < sizeof ops; i++)
        for (size_t a = 0; a < sizeof algs / sizeof algs[0]; a++)
            for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                coll_cfg cfg = {0};
                /* the key of the operation under test; an algorithm it refuses leaves the built-in */
                int accepted = coll_cfg_set(&cfg, coll_op_name(op_of[i]), algs[a]) == NULL;
                cfg.chunks = 2;
                cur_op = ops[i];
                cur_root = sizes[k] > 2 ? 2 : 0;
                if (strstr(algs[a], "hierarchical") && sizes[k] % 2)
                    continue;
                cur_cfg = NULL;
                run_all(sizes[k], coll_events, 65536);
                uint64_t builtin = total_msgs;
                cur_cfg = &cfg;
                replay_timing t = run_all(sizes[k], coll_events, 65536);
                cur_cfg = NULL;
                cr_assert_eq(t.tasks_stuck, 0, "op %u %s on %u ranks: %lu tasks stuck", ops[i], algs[a], sizes[k],
                             (unsigned long)t.tasks_stuck);
                cr_assert_eq(t.msgs_unmatched, 0, "op %u %s on %u ranks: unmatched messages", ops[i], algs[a],
                             sizes[k]);
                cr_assert_eq(t.finish_ns, 3 * 10 + 100);
                /* 2 chunks: a chosen algorithm's messages are not the built-in's */
                if (accepted)
                    cr_assert_neq(total_msgs, builtin, "op %u %s on %u ranks: the built-in algorithm ran", ops[i],
                                  algs[a], sizes[k]);
                else
                    cr_assert_eq(total_msgs, builtin, "op %u %s on %u ranks: not the built-in", ops[i], algs[a],
                                 sizes[k]);
            }
}

/* Ranks pair up (r, r^1): Isend + Irecv + waits, and blocking Send/Recv,
 * with messages both below and above the eager limit. */
static void p2p_events(o2_evbuf *b, int32_t rank, uint32_t n)
{
    (void)n;
    uint32_t peer = (uint32_t)(rank ^ 1);
    uint64_t t = 0;
    o2_event start = {.time = 0, .kind = O2_OTHER};
    o2_evbuf_push(b, &start);
    for (int k = 0; k < 4; k++) {
        uint64_t len = k % 2 ? 1000 : 100; /* eager limit 500 in the test */
        /* .time holds the gap to the previous event until the loop turns it
         * into a time (side effects inside an initializer list are unsequenced) */
        o2_event ev[] = {
            {.time = 7, .kind = O2_ENTER_MPI},
            {.time = 1, .kind = O2_IRECV_POST, .req = 10 + (uint64_t)k},
            {.time = 1, .kind = O2_LEAVE_MPI},
            {.time = 1, .kind = O2_ENTER_MPI},
            {.time = 1, .kind = O2_ISEND, .peer = peer, .comm = 0, .tag = 5, .len = len, .req = 20 + (uint64_t)k},
            {.time = 1, .kind = O2_LEAVE_MPI},
            {.time = 3, .kind = O2_ENTER_MPI},
            {.time = 1, .kind = O2_ISEND_DONE, .req = 20 + (uint64_t)k},
            {.time = 1, .kind = O2_IRECV_DONE, .peer = peer, .comm = 0, .tag = 5, .len = len, .req = 10 + (uint64_t)k},
            {.time = 1, .kind = O2_LEAVE_MPI},
        };
        for (size_t i = 0; i < sizeof ev / sizeof ev[0]; i++) {
            t += ev[i].time;
            ev[i].time = t;
            o2_evbuf_push(b, &ev[i]);
        }
        /* blocking: even ranks send first, odd ranks receive first */
        o2_event in = {.time = t += 2, .kind = O2_ENTER_MPI};
        o2_event s = {.time = t += 1, .kind = O2_SEND, .peer = peer, .comm = 0, .tag = 6, .len = len};
        o2_event r = {.time = t += 1, .kind = O2_RECV, .peer = peer, .comm = 0, .tag = 6, .len = len};
        o2_event out = {.time = t += 1, .kind = O2_LEAVE_MPI};
        o2_event first = rank % 2 ? r : s, second = rank % 2 ? s : r;
        first.time = s.time;
        second.time = r.time;
        o2_evbuf_push(b, &in);
        o2_evbuf_push(b, &first);
        o2_evbuf_push(b, &second);
        o2_evbuf_push(b, &out);
    }
}

Test(otf2map, point_to_point_eager_and_rendezvous_complete)
{
    replay_timing t = run_all(4, p2p_events, 500);
    cr_assert_eq(t.tasks_stuck, 0);
    cr_assert_eq(t.msgs_unmatched, 0);
    /* per iteration, time outside MPI regions: 7 + 1 + 3 + 2 = 13 ns */
    cr_assert_eq(t.finish_ns, 4 * 13);
}

static void bad_events(o2_evbuf *b, int32_t rank, uint32_t n)
{
    (void)rank, (void)n;
    o2_event e = {.time = 1, .kind = O2_COLL, .op = 17, .comm = 0};
    o2_evbuf_push(b, &e);
}

Test(otf2map, unsupported_operations_are_refused)
{
    world w;
    setup_world(&w, 2);
    o2_evbuf b = {0};
    bad_events(&b, 0, 2);
    o2_map_ctx c = {.rank = 0, .nranks = 2, .timer_res = 1000, .eager_limit = 10, .members = members,
                    .arg = &w, .path = "x.otf2"};
    replay_rank g;
    replay_err err;
    cr_assert_neq(o2_map_events(&c, &b, &g, &err), 0);
    cr_assert(strstr(err.msg, "x.otf2: rank 0, event 0") && strstr(err.msg, "not supported"), "%s", err.msg);
    b.n = 0;
    o2_event cancel = {.time = 1, .kind = O2_CANCELLED, .req = 3};
    o2_evbuf_push(&b, &cancel);
    cr_assert_neq(o2_map_events(&c, &b, &g, &err), 0);
    cr_assert(strstr(err.msg, "cancelled"), "%s", err.msg);
    b.n = 0;
    o2_event orphan = {.time = 1, .kind = O2_IRECV_POST, .req = 3};
    o2_evbuf_push(&b, &orphan);
    cr_assert_neq(o2_map_events(&c, &b, &g, &err), 0);
    cr_assert(strstr(err.msg, "never completes"), "%s", err.msg);
    free(b.ev);
}
