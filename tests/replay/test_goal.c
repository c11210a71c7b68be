/* test_goal.c — GOAL schedules: the grammar (comments, clauses, wildcards,
 * requires/irequires, labels), the graphs it yields for ping-pong and a
 * binomial broadcast, and syntax errors reported as FILE:LINE. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"

static const char pingpong[] =
    "// ping-pong between two ranks\n"
    "num_ranks 2\n"
    "rank 0 {\n"
    "  l1: send 1024b to 1 tag 7\n"
    "  l2: recv 8b from 1 tag 8   /* the reply */\n"
    "  l3: calc 500 cpu 1\n"
    "  l2 requires l1\n"
    "  l3 requires l2\n"
    "}\n"
    "rank 1 {\n"
    "  r1: recv 1024b from -1 tag -1\n"
    "  r2: send 8b to 0 tag 8 cpu 0 nic 1\n"
    "  r2 requires r1\n"
    "}\n";

Test(goal, ping_pong_graph)
{
    char *p = th_write_temp(".goal", pingpong);
    replay_source *s = th_open(p, NULL);
    cr_assert_str_eq(s->ops->format, "goal", "format guessed from .goal");
    cr_assert_eq(s->nranks, 2);
    replay_rank *r = th_load_all(s);
    cr_assert_eq(r[0].ntasks, 3);
    cr_assert_eq(r[0].nmsgs, 1);
    cr_assert_eq(r[0].msgs[0].dst, 1);
    cr_assert_eq(r[0].msgs[0].bytes, 1024);
    cr_assert_eq(r[0].msgs[0].tag, 7);
    cr_assert(r[0].tasks[1].flags & REPLAY_TRIGGERED);
    cr_assert_eq(r[0].tasks[1].trig_src, 1);
    cr_assert_eq(r[0].tasks[1].trig_tag, 8);
    cr_assert_eq(r[0].tasks[2].dur_ns, 500);
    cr_assert_eq(r[0].tasks[2].cpu, 1);
    cr_assert_eq(r[0].ndeps, 2);
    cr_assert_eq(r[0].deps[replay_dep_begin(&r[0], 1)], 0);
    cr_assert_eq(r[0].deps[replay_dep_begin(&r[0], 2)], 1);
    cr_assert_eq(r[1].tasks[0].trig_src, REPLAY_ANY, "-1 is any source");
    cr_assert_eq(r[1].tasks[0].trig_tag, REPLAY_ANY, "-1 is any tag");
    cr_assert_eq(r[1].tasks[1].nic, 1);
    replay_timing t;
    replay_timing_run(r, 2, 1, &t, NULL);
    cr_assert_eq(t.finish_ns, 500, "zero network time: only the calc counts");
    cr_assert_eq(t.tasks_done, 5);
    th_free_all(r, 2);
    replay_source_close(s);
    unlink(p);
    free(p);
}

/* Binomial broadcast from rank 0 over 4 ranks, as Schedgen writes it. */
static const char bcast4[] =
    "num_ranks 4\n"
    "rank 0 {\n l1: send 64b to 2 tag 0\n l2: send 64b to 1 tag 0\n l2 requires l1\n}\n"
    "rank 1 {\n l1: recv 64b from 0 tag 0\n l2: calc 10\n l2 requires l1\n}\n"
    "rank 2 {\n l1: recv 64b from 0 tag 0\n l2: send 64b to 3 tag 0\n l2 requires l1\n"
    " l3: calc 10\n l3 requires l1\n}\n"
    "rank 3 {\n l1: recv 64b from 2 tag 0\n l2: calc 10 l2 requires l1\n}\n";

Test(goal, binomial_broadcast_graph)
{
    char *p = th_write_temp(".goal", bcast4);
    replay_source *s = th_open(p, "goal");
    replay_rank *r = th_load_all(s);
    int want_tasks[4] = {2, 2, 3, 2}, want_msgs[4] = {2, 0, 1, 0};
    for (int q = 0; q < 4; q++) {
        cr_assert_eq(r[q].ntasks, (uint32_t)want_tasks[q], "rank %d tasks", q);
        cr_assert_eq(r[q].nmsgs, (uint32_t)want_msgs[q], "rank %d messages", q);
    }
    cr_assert_eq(r[0].msgs[0].dst, 2);
    cr_assert_eq(r[0].msgs[1].dst, 1);
    cr_assert_eq(r[3].tasks[0].trig_src, 2);
    cr_assert_eq(r[2].ndeps, 2);
    replay_timing cp, fifo;
    replay_timing_run(r, 4, 0, &cp, NULL);
    replay_timing_run(r, 4, 1, &fifo, NULL);
    cr_assert_eq(cp.finish_ns, 10);
    cr_assert_eq(fifo.finish_ns, 10);
    cr_assert_eq(fifo.tasks_stuck, 0);
    th_free_all(r, 4);
    replay_source_close(s);
    unlink(p);
    free(p);
}

Test(goal, irequires_waits_for_the_start_only)
{
    char *p = th_write_temp(".goal", "num_ranks 1\nrank 0 {\n a: calc 100\n b: calc 30\n b irequires a\n}\n");
    replay_source *s = th_open(p, NULL);
    replay_rank *r = th_load_all(s);
    cr_assert_eq(r[0].deps[0], 0 | REPLAY_DEP_START);
    replay_timing cp;
    replay_timing_run(r, 1, 0, &cp, NULL);
    cr_assert_eq(cp.finish_ns, 100, "b runs alongside a");
    th_free_all(r, 1);
    replay_source_close(s);
    unlink(p);
    free(p);
}

static void expect_goal_error(const char *text, int line, const char *want)
{
    char *p = th_write_temp(".goal", text);
    char place[600];
    snprintf(place, sizeof place, "%s:%d: ", p, line);
    replay_source *s = NULL;
    replay_err err = {{0}};
    int rc = replay_source_open(p, "goal", NULL, &s, &err);
    if (rc == 0) {
        rc = th_try_load_all(s, &err);
        replay_source_close(s);
    }
    cr_assert_neq(rc, 0, "should fail: %s", text);
    cr_assert(strncmp(err.msg, place, strlen(place)) == 0, "expected place '%s' in: %s", place, err.msg);
    cr_assert(strstr(err.msg, want), "expected '%s' in: %s", want, err.msg);
    unlink(p);
    free(p);
}

Test(goal, syntax_errors_name_file_and_line)
{
    expect_goal_error("num_ranks 1\nrank 0 {\n  l1: sned 4b to 0\n}\n", 3, "expected send, recv or calc after label");
    expect_goal_error("num_ranks 1\nrank 0 {\n l1: calc 5\n\n l1 requires l2\n}\n", 5, "label 'l2' is not defined");
    expect_goal_error("num_ranks 1\nrank 0 {\n l1: calc 5\n l2 requires l1\n l2: calc 1\n}\n", 4,
                      "label 'l2' is not defined");
    expect_goal_error("num_ranks 2\nrank 0 {\n}\nrank 0 {\n}\n", 4, "rank block 0 out of order");
    expect_goal_error("num_ranks 2\nrank 0 {\n}\n", 4, "file ends after 1 rank blocks");
    expect_goal_error("num_ranks 1\nrank 0 {\n a: send 4b to 0 cpu 1 tag 2\n}\n", 3, "clause 'tag' out of place");
    expect_goal_error("num_ranks 1\nrank 0 {\n a: calc 4 tag 1\n}\n", 3, "calc takes no 'tag' clause");
    expect_goal_error("num_ranks 1\nrank 0 {\n a: send 4b to 5\n}\n", 3, "destination rank '5' is out of range");
    expect_goal_error("num_ranks 1\n/* open\nrank 0 {\n}\n", 2, "unterminated /* comment");
    expect_goal_error("num_ranks 1\nrank 0 {\n a: calc 5\n", 4, "(missing '}')");
    expect_goal_error("num_ranks 1\nrank 0 {\n a: calc 5\n a: calc 6\n}\n", 4, "defined twice");
    expect_goal_error("num_ranks 1\nrank 0 {\n a: calc 1\n b: calc 1\n a requires b\n b requires a\n}\n", 2,
                      "dependency cycle");
    expect_goal_error("ranks 1\n", 1, "expected 'num_ranks N' first");
}
