/* test_graph.c — the task-graph representation, the zero-network timing
 * oracle, the generators (against closed forms), the native format round
 * trip and lazy loading. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "replay/critpath.h"
#include "replay/readers/native.h"
#include "replay/readers/readers.h"
#include "replay/taskgraph.h"

Test(taskgraph, edges_are_grouped_per_task_in_insertion_order)
{
    replay_rank r;
    replay_rank_begin(&r, 3);
    for (int i = 0; i < 4; i++)
        replay_add_task(&r, 10u * (unsigned)i, 0, 0, 0);
    replay_add_dep(&r, 3, 2, 0);
    replay_add_dep(&r, 1, 0, 1);
    replay_add_dep(&r, 3, 0, 0);
    replay_add_msg(&r, 2, 7, 100, 5);
    replay_add_msg(&r, 0, 1, 8, 9);
    replay_add_msg(&r, 2, 6, 200, 4);
    replay_err err;
    cr_assert_eq(replay_rank_end(&r, "t", &err), 0, "%s", err.msg);
    cr_assert_eq(r.ndeps, 3);
    cr_assert_eq(replay_dep_begin(&r, 1), 0);
    cr_assert_eq(r.tasks[1].dep_end, 1);
    cr_assert_eq(r.deps[0], 0 | REPLAY_DEP_START, "irequires must carry the start bit");
    cr_assert_eq(replay_dep_begin(&r, 3), 1);
    cr_assert_eq(r.deps[1], 2);
    cr_assert_eq(r.deps[2], 0);
    cr_assert_eq(r.msgs[0].dst, 1);
    cr_assert_eq(r.msgs[1].dst, 7);
    cr_assert_eq(r.msgs[2].bytes, 200);
    cr_assert_eq(replay_msg_begin(&r, 2), 1);
    cr_assert_eq(r.tasks[2].msg_end, 3);
    cr_assert_eq(replay_rank_bytes(&r), 48 + 4 * 32 + 3 * 4 + 3 * 16);
    replay_rank_free(&r);
}

Test(taskgraph, cycles_and_bad_indices_are_refused)
{
    replay_rank r;
    replay_err err;
    replay_rank_begin(&r, 0);
    for (int i = 0; i < 3; i++)
        replay_add_task(&r, 1, 0, 0, 0);
    replay_add_dep(&r, 0, 2, 0);
    replay_add_dep(&r, 1, 0, 0);
    replay_add_dep(&r, 2, 1, 1);
    cr_assert_neq(replay_rank_end(&r, "cyc", &err), 0);
    cr_assert(strstr(err.msg, "cycle"), "message: %s", err.msg);
    replay_rank_free(&r);

    replay_rank_begin(&r, 0);
    replay_add_task(&r, 1, 0, 0, 0);
    replay_add_dep(&r, 0, 5, 0);
    cr_assert_neq(replay_rank_end(&r, "idx", &err), 0);
    cr_assert(strstr(err.msg, "nonexistent task 5"), "message: %s", err.msg);
    replay_rank_free(&r);
}

/* Two ranks: rank 0 computes 100 then sends; rank 1 receives, then 50. */
Test(critpath, message_chain_adds_durations)
{
    replay_rank g[2];
    replay_err err;
    replay_rank_begin(&g[0], 0);
    replay_add_task(&g[0], 100, 0, 0, 0);
    replay_add_task(&g[0], 0, 0, 0, 0);
    replay_add_dep(&g[0], 1, 0, 0);
    replay_add_msg(&g[0], 1, 1, 64, 3);
    replay_rank_begin(&g[1], 1);
    replay_add_task(&g[1], 50, REPLAY_TRIGGERED, 0, 3);
    cr_assert_eq(replay_rank_end(&g[0], "g", &err), 0);
    cr_assert_eq(replay_rank_end(&g[1], "g", &err), 0);
    replay_timing t;
    uint64_t fin[2];
    replay_timing_run(g, 2, 1, &t, fin);
    cr_assert_eq(t.finish_ns, 150);
    cr_assert_eq(fin[0], 100);
    cr_assert_eq(fin[1], 150);
    cr_assert_eq(t.tasks_done, 3);
    cr_assert_eq(t.tasks_stuck, 0);
    replay_rank_free(&g[0]);
    replay_rank_free(&g[1]);
}

Test(critpath, one_task_at_a_time_serialises_independent_tasks)
{
    replay_rank g;
    replay_err err;
    replay_rank_begin(&g, 0);
    replay_add_task(&g, 100, 0, 0, 0);
    replay_add_task(&g, 200, 0, 0, 0);
    replay_add_task(&g, 30, 0, 0, 0);
    replay_add_dep(&g, 2, 0, 1); /* starts once task 0 has started */
    cr_assert_eq(replay_rank_end(&g, "g", &err), 0);
    replay_timing cp, fifo;
    replay_timing_run(&g, 1, 0, &cp, NULL);
    replay_timing_run(&g, 1, 1, &fifo, NULL);
    cr_assert_eq(cp.finish_ns, 200, "critical path is the longest task");
    cr_assert_eq(fifo.finish_ns, 330, "FIFO runs 100, 200, then 30");
    replay_rank_free(&g);
}

Test(critpath, missing_message_leaves_tasks_stuck)
{
    replay_rank g;
    replay_err err;
    replay_rank_begin(&g, 0);
    replay_add_task(&g, 5, REPLAY_TRIGGERED, 0, 1);
    replay_add_task(&g, 5, 0, 0, 0);
    replay_add_dep(&g, 1, 0, 0);
    cr_assert_eq(replay_rank_end(&g, "g", &err), 0);
    replay_timing t;
    replay_timing_run(&g, 1, 1, &t, NULL);
    cr_assert_eq(t.tasks_stuck, 2);
    cr_assert_eq(t.tasks_done, 0);
    replay_rank_free(&g);
}

static uint64_t ilog2(uint64_t n)
{
    uint64_t k = 0;
    while ((1ull << k) < n)
        k++;
    return k;
}

static void check_gen(const char *spec, uint64_t want, int32_t want_ranks)
{
    replay_source *s = th_open(spec, NULL);
    cr_assert_eq(s->nranks, want_ranks, "%s: ranks", spec);
    replay_timing cp, fifo;
    th_timing(s, &cp, &fifo);
    cr_assert_eq(cp.tasks_stuck, 0, "%s: stuck tasks", spec);
    cr_assert_eq(cp.msgs_unmatched, 0, "%s: unmatched messages", spec);
    cr_assert_eq(cp.finish_ns, want, "%s: critical path %lu, closed form %lu", spec,
                 (unsigned long)cp.finish_ns, (unsigned long)want);
    cr_assert_eq(fifo.finish_ns, want, "%s: ideal replay %lu, closed form %lu", spec,
                 (unsigned long)fifo.finish_ns, (unsigned long)want);
    replay_source_close(s);
}

/* Neighbours of grid coordinate c (0..p-1) along one dimension: 2 with
 * wrap-around, else 1 at an edge (0 for p = 1) and 2 inside. */
static int dim_neighbours(int64_t c, int64_t p, int periodic)
{
    return periodic ? 2 : (c > 0) + (c < p - 1);
}

/* Per rank of a stencil3d without allreduce: every iteration has a compute
 * task, a send task carrying one message per neighbour, a receive per
 * neighbour and a join: 3 + n tasks, n messages of `bytes` each, where n is
 * 6 (periodic) or the neighbours an open grid leaves. */
static void check_stencil_counts(int64_t px, int64_t py, int64_t pz, int periodic)
{
    const int64_t iters = 3, bytes = 4321;
    char spec[160];
    snprintf(spec, sizeof spec, "gen:stencil3d:px=%ld,py=%ld,pz=%ld,iters=%ld,bytes=%ld,allreduce=0,periodic=%d",
             (long)px, (long)py, (long)pz, (long)iters, (long)bytes, periodic);
    replay_source *s = th_open(spec, NULL);
    cr_assert_eq(s->nranks, px * py * pz, "%s: ranks", spec);
    replay_rank *r = th_load_all(s);
    uint64_t total_msgs = 0;
    for (int32_t q = 0; q < s->nranks; q++) {
        int64_t x = q % px, y = q / px % py, z = q / (px * py);
        int64_t n = dim_neighbours(x, px, periodic) + dim_neighbours(y, py, periodic) +
                    dim_neighbours(z, pz, periodic);
        uint64_t sum = 0;
        for (uint32_t m = 0; m < r[q].nmsgs; m++)
            sum += r[q].msgs[m].bytes;
        cr_assert_eq(r[q].ntasks, (uint32_t)(iters * (3 + n)), "%s: rank %d tasks", spec, q);
        cr_assert_eq(r[q].nmsgs, (uint32_t)(iters * n), "%s: rank %d messages", spec, q);
        cr_assert_eq(sum, (uint64_t)(iters * n * bytes), "%s: rank %d bytes", spec, q);
        total_msgs += r[q].nmsgs;
    }
    /* whole grid: 2 (p_d - 1) links per line of dimension d when open, 2 p_d when periodic */
    int64_t lines = (periodic ? 2 * px : 2 * (px - 1)) * py * pz + (periodic ? 2 * py : 2 * (py - 1)) * px * pz +
                    (periodic ? 2 * pz : 2 * (pz - 1)) * px * py;
    cr_assert_eq(total_msgs, (uint64_t)(iters * lines), "%s: messages in all", spec);
    replay_timing cp, fifo;
    th_timing(s, &cp, &fifo);
    cr_assert_eq(cp.tasks_stuck, 0, "%s: stuck tasks", spec);
    cr_assert_eq(cp.msgs_unmatched, 0, "%s: unmatched messages", spec);
    th_free_all(r, s->nranks);
    replay_source_close(s);
}

Test(gen, stencil_counts_match_the_formula_periodic_and_open)
{
    check_stencil_counts(3, 4, 5, 1);
    check_stencil_counts(3, 4, 5, 0);
    check_stencil_counts(2, 1, 3, 1);
    check_stencil_counts(2, 1, 3, 0);
    check_stencil_counts(1, 1, 1, 0);
}

Test(gen, critical_paths_match_closed_forms)
{
    /* stencil: iters x (compute + log2(P) x reduce) */
    check_gen("gen:stencil3d:px=4,py=2,pz=2,iters=7,compute=1000,reduce=13", 7 * (1000 + ilog2(16) * 13), 16);
    check_gen("gen:stencil3d:px=1,py=2,pz=1,iters=3,compute=5,reduce=2", 3 * (5 + 1 * 2), 2);
    check_gen("gen:stencil3d:px=3,py=3,pz=3,iters=4,compute=77,allreduce=0", 4 * 77, 27);
    check_gen("gen:stencil2d:px=5,py=3,iters=6,compute=40", 6 * 40, 15);
    check_gen("gen:stencil2d:px=4,py=4,iters=2,compute=40,allreduce=1,reduce=3", 2 * (40 + 4 * 3), 16);
    /* ring allreduce: iters x 2(P-1) x combine; recursive doubling: iters x log2 P x combine */
    check_gen("gen:allreduce:ranks=9,ring=1,iters=3,reduce=11", 3 * 2 * 8 * 11, 9);
    check_gen("gen:allreduce:ranks=32,iters=5,reduce=7", 5 * 5 * 7, 32);
    /* pairwise all-to-all: iters x (P-1) x step */
    check_gen("gen:alltoall:ranks=6,iters=4,step=9", 4 * 5 * 9, 6);
}

Test(gen, random_dag_completes_and_is_lazy)
{
    replay_source *s = th_open("gen:random:ranks=12,layers=40,seed=77,fanout=60", NULL);
    replay_timing cp, fifo;
    th_timing(s, &cp, &fifo);
    cr_assert_eq(cp.tasks_stuck, 0);
    cr_assert_eq(cp.msgs_unmatched, 0);
    cr_assert_geq(fifo.finish_ns, cp.finish_ns, "serialising can only delay");
    /* Loading a rank alone gives the same graph as loading all in order. */
    replay_rank *all = th_load_all(s);
    for (int32_t q = s->nranks - 1; q >= 0; q -= 5) {
        replay_rank one;
        replay_err err;
        cr_assert_eq(replay_source_load(s, q, &one, &err), 0);
        cr_assert(th_same_graph(&one, &all[q]), "rank %d differs when loaded alone", q);
        replay_rank_free(&one);
    }
    th_free_all(all, s->nranks);
    replay_source_close(s);
}

Test(gen, bad_parameters_are_refused)
{
    cr_assert(strstr(th_open_error("gen:stencil3d:px=3,py=1,pz=1", NULL), "power-of-two"));
    cr_assert(strstr(th_open_error("gen:stencil3d:foo=1", NULL), "unknown or malformed parameter 'foo=1'"));
    cr_assert(strstr(th_open_error("gen:stencil3d:px=0", NULL), "px = '0' is invalid"));
    cr_assert(strstr(th_open_error("gen:torus", NULL), "unknown generator 'torus'"));
}

static void round_trip(const char *spec, int binary)
{
    replay_source *s = th_open(spec, NULL);
    char *path = th_write_temp(binary ? ".wtb" : ".txt", "");
    replay_err err;
    cr_assert_eq(replay_native_write(path, binary, s, &err), 0, "%s", err.msg);
    replay_source *back = th_open(path, "native");
    cr_assert_eq(back->nranks, s->nranks);
    replay_rank *a = th_load_all(s), *b = th_load_all(back);
    for (int32_t q = 0; q < s->nranks; q++)
        cr_assert(th_same_graph(&a[q], &b[q]), "%s: rank %d differs after the %s round trip", spec, q,
                  binary ? "binary" : "text");
    th_free_all(a, s->nranks);
    th_free_all(b, back->nranks);
    replay_source_close(back);
    replay_source_close(s);
    unlink(path);
    free(path);
}

Test(native, text_and_binary_round_trips_are_exact)
{
    const char *specs[] = {"gen:random:ranks=9,layers=25,seed=5", "gen:stencil3d:px=2,py=2,pz=2,iters=3",
                           "gen:alltoall:ranks=5,iters=2,bytes=123456789012"};
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        round_trip(specs[i], 0);
        round_trip(specs[i], 1);
    }
}

Test(native, text_form_reads_wildcards_cpu_nic_and_irequires)
{
    char *p = th_write_temp(".txt", "warpnet-trace text 1\n# two ranks\nranks 2\n"
                                    "rank 0 2\n5 send=1:16:3 cpu=2 nic=1\n0 recv=-1:-1 ireq=0\n"
                                    "rank 1 1\n\n7 recv=0:3   # comment\n");
    replay_source *s = th_open(p, NULL);
    replay_rank *r = th_load_all(s);
    cr_assert_eq(r[0].tasks[0].cpu, 2);
    cr_assert_eq(r[0].tasks[0].nic, 1);
    cr_assert_eq(r[0].tasks[1].trig_src, REPLAY_ANY);
    cr_assert_eq(r[0].tasks[1].trig_tag, REPLAY_ANY);
    cr_assert_eq(r[0].deps[0], 0 | REPLAY_DEP_START);
    cr_assert_eq(r[1].tasks[0].dur_ns, 7);
    th_free_all(r, 2);
    replay_source_close(s);
    unlink(p);
    free(p);
}

static void expect_native_error(const char *text, const char *want)
{
    char *p = th_write_temp(".txt", text);
    replay_source *s = NULL;
    replay_err err = {{0}};
    int rc = replay_source_open(p, "native", NULL, &s, &err);
    if (rc == 0) {
        rc = th_try_load_all(s, &err);
        replay_source_close(s);
    }
    cr_assert_neq(rc, 0, "'%s' should fail", text);
    cr_assert(strstr(err.msg, want), "expected '%s' in: %s", want, err.msg);
    unlink(p);
    free(p);
}

Test(native, text_errors_name_file_and_line)
{
    expect_native_error("warpnet-trace text 1\nranks 1\nrank 0 1\n5 send=3:1:1\n", ":4: send= needs");
    expect_native_error("warpnet-trace text 1\nranks 1\nrank 0 2\n5\n", "file ends after 1 of the 2 tasks");
    expect_native_error("warpnet-trace text 1\nranks 2\nrank 0 0\n", "file ends after 1 of 2 rank blocks");
    expect_native_error("warpnet-trace text 1\nranks 1\nrank 0 1\n5 req=0\n", "depends on itself");
    expect_native_error("hello\n", ":1: expected 'warpnet-trace text 1'");
}

Test(native, corrupt_binary_is_refused_without_crash)
{
    replay_source *s = th_open("gen:random:ranks=4,layers=10,seed=9", NULL);
    char *path = th_write_temp(".wtb", "");
    replay_err err;
    cr_assert_eq(replay_native_write(path, 1, s, &err), 0);
    replay_source_close(s);
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    unsigned char *data = malloc((size_t)size);
    fseek(f, 0, SEEK_SET);
    cr_assert_eq(fread(data, 1, (size_t)size, f), (size_t)size);
    fclose(f);
    srand(1234);
    int failures = 0;
    for (int trial = 0; trial < 300; trial++) {
        long cut = trial < 150 ? rand() % size : size;
        unsigned char *copy = malloc((size_t)size);
        memcpy(copy, data, (size_t)size);
        if (trial >= 150) /* flip one byte */
            copy[rand() % size] ^= (unsigned char)(1 + rand() % 255);
        f = fopen(path, "wb");
        fwrite(copy, 1, (size_t)cut, f);
        fclose(f);
        free(copy);
        replay_source *c = NULL;
        int rc = replay_source_open(path, "native", NULL, &c, &err);
        if (rc == 0) {
            rc = th_try_load_all(c, &err);
            replay_source_close(c);
        }
        if (rc) {
            failures++;
            cr_assert(strstr(err.msg, path) && !strchr(err.msg, '\n'), "error must name the file: %s", err.msg);
        }
    }
    cr_assert_geq(failures, 150, "every truncation must be detected (%d failures)", failures);
    free(data);
    unlink(path);
    free(path);
}

Test(taskgraph, repeat_chains_copies_through_a_join)
{
    replay_source *s = th_open("gen:stencil2d:px=3,py=2,iters=2,compute=70", NULL);
    replay_rank *r = th_load_all(s);
    uint32_t n0 = r[0].ntasks, m0 = r[0].nmsgs;
    replay_err err;
    for (int32_t q = 0; q < s->nranks; q++)
        cr_assert_eq(replay_rank_repeat(&r[q], 3, "t", &err), 0, "%s", err.msg);
    cr_assert_eq(r[0].ntasks, 3 * n0 + 2, "three copies and two joins");
    cr_assert_eq(r[0].nmsgs, 3 * m0);
    replay_timing t;
    replay_timing_run(r, s->nranks, 1, &t, NULL);
    cr_assert_eq(t.tasks_stuck, 0);
    cr_assert_eq(t.finish_ns, 3 * 2 * 70, "three times the single-copy critical path");
    th_free_all(r, s->nranks);
    replay_source_close(s);
}
