/* test_dimemas.c — the Dimemas trace reader: the shipped traces
 * (tests/replay/dimemas/, numbers derived in its README.md) give the
 * expected tasks, compute time, messages and bytes per rank and the
 * expected zero-network times; non-blocking receives, waits and rendezvous
 * behave as documented; every collective expands into rounds that all match,
 * with the documented payloads; broken traces fail with FILE:LINE messages;
 * placement files in both forms. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "replay/readers/mpimap.h"
#include "replay/placement.h"

typedef struct counts {
    uint32_t tasks, msgs, ctrl;
    uint64_t compute, bytes;
} counts;

static counts count(const replay_rank *r)
{
    counts c = {.tasks = r->ntasks, .msgs = r->nmsgs};
    for (uint32_t i = 0; i < r->ntasks; i++)
        c.compute += r->tasks[i].dur_ns;
    for (uint32_t k = 0; k < r->nmsgs; k++) {
        c.bytes += r->msgs[k].bytes;
        c.ctrl += (r->msgs[k].tag & REPLAY_TAG_CTRL) != 0;
    }
    return c;
}

static replay_source *open_shipped(const char *name, const replay_opts *o)
{
    char rel[128];
    snprintf(rel, sizeof rel, "tests/replay/dimemas/%s", name);
    char *p = th_src(rel);
    replay_source *s = NULL;
    replay_err err = {{0}};
    cr_assert_eq(replay_source_open(p, NULL, o, &s, &err), 0, "%s: %s", p, err.msg);
    cr_assert_str_eq(s->ops->format, "dimemas", "%s: format guessed from the #DIMEMAS header", p);
    free(p);
    return s;
}

static replay_timing ideal(replay_source *s)
{
    replay_timing t;
    th_timing(s, NULL, &t);
    cr_assert_eq(t.tasks_stuck, 0, "%s: every task runs", s->path);
    cr_assert_eq(t.msgs_unmatched, 0, "%s: every message is received", s->path);
    return t;
}

Test(dimemas, pingpong_counts_and_time)
{
    replay_source *s = open_shipped("pingpong.dim", NULL);
    cr_assert_eq(s->nranks, 2);
    replay_rank *r = th_load_all(s);
    /* 4 iterations of (burst, send, recv) and (recv, burst, send). */
    const uint64_t compute[2] = {4 * 1500, 4 * 2500};
    for (int q = 0; q < 2; q++) {
        counts c = count(&r[q]);
        cr_assert_eq(c.tasks, 12, "rank %d: %u tasks", q, c.tasks);
        cr_assert_eq(c.compute, compute[q], "rank %d: compute %lu", q, (unsigned long)c.compute);
        cr_assert_eq(c.msgs, 4, "rank %d: %u messages", q, c.msgs);
        cr_assert_eq(c.bytes, 4 * 4096, "rank %d: %lu bytes", q, (unsigned long)c.bytes);
        cr_assert_eq(c.ctrl, 0, "4096 bytes are eager");
    }
    th_free_all(r, 2);
    cr_assert_eq(ideal(s).finish_ns, 4 * (1500 + 2500), "zero network: the bursts in turn");
    replay_source_close(s);
}

Test(dimemas, ring_counts_and_time)
{
    replay_source *s = open_shipped("ring.dim", NULL);
    cr_assert_eq(s->nranks, 4);
    replay_rank *r = th_load_all(s);
    for (int q = 0; q < 4; q++) {
        counts c = count(&r[q]);
        /* per iteration: burst, irecv, isend, wait, burst */
        cr_assert_eq(c.tasks, 2 * 5, "rank %d: %u tasks", q, c.tasks);
        cr_assert_eq(c.compute, 2 * ((uint64_t)(q + 1) * 1000 + 500), "rank %d: compute", q);
        cr_assert_eq(c.msgs, 2, "rank %d: messages", q);
        cr_assert_eq(c.bytes, 2 * 2048, "rank %d: bytes", q);
    }
    th_free_all(r, 4);
    /* Task 3 computes longest (4 us); its left neighbour's message is there
     * in time: 2 x (4 + 0.5) us. */
    cr_assert_eq(ideal(s).finish_ns, 2 * (4000 + 500));
    replay_source_close(s);
}

static uint32_t trailing_zeros(uint32_t v)
{
    uint32_t n = 0;
    while (!(v & 1)) {
        v >>= 1;
        n++;
    }
    return n;
}

Test(dimemas, stencil_counts_and_time)
{
    replay_source *s = open_shipped("stencil.dim", NULL);
    cr_assert_eq(s->nranks, 16);
    replay_rank *r = th_load_all(s);
    const uint32_t bcast_sends[4] = {1, 0, 2, 0}; /* binomial tree on row 0 from task 2 */
    for (uint32_t q = 0; q < 16; q++) {
        counts c = count(&r[q]);
        uint32_t bsend = q < 4 ? bcast_sends[q] : 0;
        uint32_t btasks = q == 2 ? 2 : q == 0 ? 2 : q < 4 ? 1 : 0;
        uint32_t vr = (q + 16 - 5) % 16; /* position relative to the reduction's root */
        uint32_t rtasks = vr ? trailing_zeros(vr) + 1 : 4;
        /* per iteration: burst, 4 irecvs, 2 control posts (96 KiB receives),
         * 4 isends, 4 waits, 4 allreduce rounds of a send and a receive */
        uint32_t tasks = 3 * (1 + 4 + 2 + 4 + 4 + 8) + 1 + btasks + rtasks;
        cr_assert_eq(c.tasks, tasks, "rank %u: %u tasks, expected %u", q, c.tasks, tasks);
        cr_assert_eq(c.compute, 3 * (10000 + 100 * (uint64_t)q) + 2000, "rank %u: compute", q);
        uint32_t msgs = 3 * (4 + 4 + 2) + bsend + (q != 5);
        cr_assert_eq(c.msgs, msgs, "rank %u: %u messages, expected %u", q, c.msgs, msgs);
        cr_assert_eq(c.ctrl, 3 * 2, "rank %u: a control message per 96 KiB receive", q);
        uint64_t bytes = 3 * (2 * 8192 + 2 * 98304 + 4 * 8 + 2 * REPLAY_CTRL_BYTES) + 1024 * bsend + 64 * (q != 5);
        cr_assert_eq(c.bytes, bytes, "rank %u: %lu bytes, expected %lu", q, (unsigned long)c.bytes,
                     (unsigned long)bytes);
    }
    th_free_all(r, 16);
    /* The allreduce makes every iteration last as long as the slowest
     * task's burst (task 15: 11.5 us); then 2 us. */
    cr_assert_eq(ideal(s).finish_ns, 3 * 11500 + 2000);
    replay_source_close(s);
}

Test(dimemas, eager_limit_decides_rendezvous)
{
    replay_opts o = replay_opts_default();
    cr_assert_null(replay_opts_set(&o, "eager_limit", "4095B")); /* 4096-byte ping-pong messages now use rendezvous */
    replay_source *s = open_shipped("pingpong.dim", &o);
    replay_rank *r = th_load_all(s);
    for (int q = 0; q < 2; q++) {
        counts c = count(&r[q]);
        cr_assert_eq(c.ctrl, 4, "rank %d: a control message per receive", q);
        cr_assert_eq(c.msgs, 8);
    }
    th_free_all(r, 2);
    cr_assert_eq(ideal(s).finish_ns, 4 * (1500 + 2500), "rendezvous costs no time without a network");
    replay_source_close(s);
}

/* Writes a 2-task trace: header, body; returns its path. */
static char *two_tasks(const char *body)
{
    char text[4096];
    snprintf(text, sizeof text, "#DIMEMAS:\"t\":0:2(1,1),1\nd:1:1:2:0:1\n%s", body);
    return th_write_temp(".dim", text);
}

static uint64_t ideal_of(const char *body, const replay_opts *o)
{
    char *p = two_tasks(body);
    replay_source *s = NULL;
    replay_err err = {{0}};
    cr_assert_eq(replay_source_open(p, NULL, o, &s, &err), 0, "%s", err.msg);
    uint64_t t = ideal(s).finish_ns;
    replay_source_close(s);
    unlink(p);
    free(p);
    return t;
}

Test(dimemas, nonblocking_receives)
{
    /* irecv, 1 us burst, wait: the 0.5 us message arrives during the burst */
    cr_assert_eq(ideal_of("1:0:0:0.0000005\n2:0:0:1:-1:64:3:1:0\n"
                          "3:1:0:0:-1:64:3:1:1\n1:1:0:0.000001\n3:1:0:0:-1:64:3:1:2\n", NULL), 1000);
    /* a wait with no irecv is a blocking receive */
    cr_assert_eq(ideal_of("1:0:0:0.0000005\n2:0:0:1:-1:64:3:1:0\n"
                          "3:1:0:0:-1:64:3:1:2\n1:1:0:0.000001\n", NULL), 1500);
    /* an irecv never waited for still takes its message */
    cr_assert_eq(ideal_of("1:0:0:0.0000005\n2:0:0:1:-1:64:3:1:0\n"
                          "3:1:0:0:-1:64:3:1:1\n1:1:0:0.0000001\n", NULL), 500);
    /* waits take irecvs of the same source and tag oldest first: the first
     * wait has the message sent at 0, the second the one sent at 2 us */
    cr_assert_eq(ideal_of("2:0:0:1:-1:8:3:1:0\n1:0:0:0.000002\n2:0:0:1:-1:8:3:1:0\n"
                          "3:1:0:0:-1:8:3:1:1\n3:1:0:0:-1:8:3:1:1\n3:1:0:0:-1:8:3:1:2\n"
                          "1:1:0:0.000001\n3:1:0:0:-1:8:3:1:2\n", NULL), 2000);
}

Test(dimemas, rendezvous_sends)
{
    /* Task 1 posts its receive after 3 us. A blocking rendezvous send waits
     * for it; an immediate one lets task 0 go on. */
    const char *blocking = "2:0:0:1:-1:1048576:0:1:0\n1:0:0:0.000001\n1:1:0:0.000003\n3:1:0:0:-1:1048576:0:1:0\n";
    const char *immediate = "2:0:0:1:-1:1048576:0:1:2\n1:0:0:0.000001\n1:1:0:0.000003\n3:1:0:0:-1:1048576:0:1:0\n";
    cr_assert_eq(ideal_of(blocking, NULL), 4000);
    cr_assert_eq(ideal_of(immediate, NULL), 3000);
    /* 100 bytes with synchronism 1: eager by size, rendezvous by the trace's flag */
    const char *flagged = "2:0:0:1:-1:100:0:1:1\n1:0:0:0.000001\n1:1:0:0.000003\n3:1:0:0:-1:100:0:1:0\n";
    cr_assert_eq(ideal_of(flagged, NULL), 3000);
    replay_opts o = replay_opts_default();
    cr_assert_null(replay_opts_set(&o, "dimemas_rendezvous", "trace"));
    cr_assert_eq(ideal_of(flagged, &o), 4000);
    /* the receiver follows its sender's choice even when its own size says otherwise */
    const char *mismatch = "2:0:0:1:-1:1048576:0:1:0\n1:0:0:0.000001\n1:1:0:0.000003\n3:1:0:0:-1:0:0:1:0\n";
    cr_assert_eq(ideal_of(mismatch, NULL), 4000);
}

/* ---- collectives ------------------------------------------------------------ */

#define NT 6
/* Communicator 2: tasks 4, 1, 3 in that order (positions 0, 1, 2). */
static const int sub[3] = {4, 1, 3};

static uint64_t expected_msgs(int op, uint64_t m)
{
    switch (op) {
    case 0:
    case 11: {
        uint64_t lg = 0;
        while ((1u << lg) < m)
            lg++;
        return (m & (m - 1)) == 0 ? m * lg : 2 * (m - 1);
    }
    case 6: case 7: case 8: case 9: case 12: case 13: case 15: return m * (m - 1);
    default: return m - 1;
    }
}

static uint64_t expected_payload(int op, uint64_t m)
{
    const uint64_t sent = 800, recvd = 1600; /* what every member records */
    switch (op) {
    case 0: return 0;
    case 2: case 3: case 8: return sent;
    case 4: case 5: case 9: case 15: return sent / m;
    case 6: case 7: return recvd / m;
    case 12: case 13: return recvd;
    default: return recvd; /* the larger of the two */
    }
}

/* Every member of communicator comm (1: all NT tasks, 2: sub) calls op
 * once, rooted at position 1 of the communicator. */
static void check_collective(int op, int comm)
{
    int members[NT], m = 0;
    for (int t = 0; t < NT; t++)
        members[t] = t;
    if (comm == 2)
        memcpy(members, sub, sizeof sub), m = 3;
    else
        m = NT;
    int root = members[1];
    char text[8192];
    int len = snprintf(text, sizeof text, "#DIMEMAS:\"c\":0:%d(1,1,1,1,1,1),2\nd:1:1:6:0:1:2:3:4:5\n"
                       "d:1:2:3:4:1:3\n", NT);
    for (int t = 0; t < NT; t++) {
        int member = 0;
        for (int i = 0; i < m; i++)
            member |= members[i] == t;
        len += snprintf(text + len, sizeof text - (size_t)len, "1:%d:0:0.000000001\n", t);
        if (member)
            len += snprintf(text + len, sizeof text - (size_t)len, "10:%d:0:%d:%d:%d:0:800:1600\n", t, op,
                            comm, op == 10 ? root : t == root);
    }
    char *p = th_write_temp(".dim", text);
    replay_source *s = th_open(p, "dimemas");
    replay_rank *r = th_load_all(s);
    uint64_t msgs = 0, bytes = 0;
    for (int q = 0; q < NT; q++) {
        counts c = count(&r[q]);
        msgs += c.msgs;
        bytes += c.bytes;
    }
    th_free_all(r, NT);
    cr_assert_eq(msgs, expected_msgs(op, (uint64_t)m), "op %d on %d members: %lu messages", op, m,
                 (unsigned long)msgs);
    cr_assert_eq(bytes, msgs * expected_payload(op, (uint64_t)m), "op %d on %d members: %lu bytes", op, m,
                 (unsigned long)bytes);
    replay_timing t = ideal(s);
    cr_assert_eq(t.finish_ns, 1, "op %d: all rounds match with zero network time", op);
    replay_source_close(s);
    unlink(p);
    free(p);
}

Test(dimemas, every_collective_matches_with_documented_payloads)
{
    for (int op = 0; op <= 15; op++) {
        check_collective(op, 1);
        check_collective(op, 2);
    }
}

/* ---- errors ------------------------------------------------------------------- */

typedef struct bad {
    const char *text;
    int line;
    const char *what;
} bad;

#define H2 "#DIMEMAS:\"t\":0:2(1,1),1\nd:1:1:2:0:1\n"

static const bad bads[] = {
    {"", 1, "empty file"},
    {"hello\n", 1, "not a Dimemas trace"},
    {"#DIMEMAS:\"t\":0:2(1,2),1\n", 1, "task 1 has 2 threads; only one thread per task"},
    {"#DIMEMAS:\"t\":0:2(1),1\n", 1, "the thread list names 1 tasks, the task count is 2"},
    {"#DIMEMAS:\"t\":1,XXXXXXXXXXXXXXX:2(1,1),1\n", 1, "prv2dim did not finish writing this trace"},
    {H2 "7:0:0:1\n", 3, "unknown record type 7"},
    {H2 "11:0:0:0.5\n", 3, "unsupported (GPU burst) record type 11"},
    {H2 "1:5:0:0.1\n", 3, "task '5' does not exist (the header declares 2 tasks, 0..1)"},
    {H2 "1:0:1:0.1\n", 3, "thread '1' of task 0 does not exist"},
    {H2 "1:0:0:-2\n", 3, "CPU burst duration '-2' is not a number of seconds"},
    {H2 "2:0:0:9:-1:10:1:1:0\n", 3, "destination task '9' does not exist"},
    {H2 "2:0:0:1:-1:10\n", 3, "send record needs 8 or 9 fields"},
    {H2 "3:1:0:0:-1:10:1:1:5\n", 3, "receive type '5' is not 0 (recv), 1 (irecv) or 2 (wait)"},
    {H2 "1:0:0:0.1\n1:1:0:0.1", 4, "the last line has no newline; the file looks truncated"},
    {H2 "1:0:0:0.1\n2:0:0:1:-1:10:5:1:0\n1:1:0:0.1\n", 4,
     "task 0 sends 1 messages to task 1 (communicator 1, tag 5) but task 1 receives 0"},
    {H2 "1:0:0:0.1\n3:1:0:0:-1:10:5:1:0\n", 4,
     "task 1 receives 1 messages from task 0 (communicator 1, tag 5) but task 0 sends 0"},
    {H2 "1:0:0:0.1\n1:1:0:0.1\n1:0:0:0.1\n", 5, "records of task 0 resume after those of task 1"},
    {H2 "10:0:0:11:3:0:0:8:8\n", 3, "MPI_Allreduce on communicator 3, which no d:1 line defines"},
    {H2 "10:0:0:11:1:0:0:8:8\n10:1:0:0:1:0:0:0:0\n", 4,
     "collective 1 of task 1 on communicator 1 is MPI_Barrier, but MPI_Allreduce at line 3"},
    {H2 "10:0:0:11:1:0:0:8:8\n1:1:0:0.1\n", 3,
     "task 1 makes 0 collectives on communicator 1, another member makes 1; the first it misses is this MPI_Allreduce"},
    {H2 "10:0:0:1:1:0:0:8:8\n10:1:0:1:1:0:0:8:8\n", 3, "no member of communicator 1 is the root of this MPI_Bcast"},
    {H2 "10:0:0:1:1:1:0:8:8\n10:1:0:1:1:1:0:8:8\n", 4, "MPI_Bcast number 1 on communicator 1 has two roots"},
    {H2 "10:0:0:27:1:0:0:8:8\n", 3, "non-blocking collective MPI_Iallreduce (op 27) is not supported"},
    {H2 "10:0:0:11:1:0:0:8:8:0\n", 3, "collective synchronism 0 (non-blocking start) is not supported"},
    {H2 "1:0:0:0.1\n", 3, "task 1 has no records; the file may be truncated"},
    {H2 "1:0:0:0.1\nd:1:2:1:0\n", 4, "definition after the first record (line 3)"},
    {H2 "d:9:1\n", 3, "unknown definition type 9"},
    {"#DIMEMAS:\"t\":0:2(1,1),1\nd:1:1:3:0:1:1\n", 2, "communicator 1: size '3' is not 1..2"},
    {"#DIMEMAS:\"t\":0:2(1,1),1\nd:1:1:2:0:0\n", 2, "communicator 1 lists task 0 twice"},
    {"#DIMEMAS:\"t\":1,9999:2(1,1),1\n1:0:0:0.1\n1:1:0:0.1\n", 1,
     "the header places the offsets table at byte 9999, but the file has no s: lines"},
    {"#DIMEMAS:\"t\":1,40:2(1,1),1\n1:0:0:0.1\n1:1:0:0.1\ns:0:5\ns:1:40\n", 4,
     "offsets table places task 0 at byte 5, but its records start at byte 27"},
    {H2 "1:0:0:0.1\ns:0:36\n1:1:0:0.1\n", 5, "record after the offsets table (line 4)"},
};

Test(dimemas, broken_traces_name_file_and_line)
{
    for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
        char *p = th_write_temp(".dim", bads[i].text);
        const char *msg = th_open_error(p, "dimemas");
        char head[300];
        snprintf(head, sizeof head, "%s:%d: ", p, bads[i].line);
        cr_expect(strncmp(msg, head, strlen(head)) == 0, "case %zu: '%s' should start with '%s'", i, msg, head);
        cr_expect(strstr(msg, bads[i].what), "case %zu: '%s' should say '%s'", i, msg, bads[i].what);
        cr_expect(!strchr(msg, '\n'), "case %zu: one line", i);
        unlink(p);
        free(p);
    }
}

Test(dimemas, offsets_table_checked_only_when_the_header_points_at_it)
{
    /* header offsets field 0: a stale table is ignored, as Dimemas ignores it */
    char *p = th_write_temp(".dim", "#DIMEMAS:\"t\":0:2(1,1),1\n1:0:0:0.1\n1:1:0:0.1\ns:0:5\ns:1:7\n");
    replay_source *s = th_open(p, NULL);
    cr_assert_eq(s->nranks, 2);
    replay_source_close(s);
    unlink(p);
    free(p);
}

Test(dimemas, nul_byte_is_refused)
{
    char *p = th_write_temp(".dim", H2 "1:0:0:0.1\n1:1:0:0.1\n");
    FILE *f = fopen(p, "ab");
    fwrite("1:1\0:0\n", 1, 7, f);
    fclose(f);
    const char *msg = th_open_error(p, NULL);
    cr_assert(strstr(msg, ":5: NUL byte in the line"), "%s", msg);
    unlink(p);
    free(p);
}

/* ---- placement files ------------------------------------------------------------- */

static const char *placement(const char *text, int32_t ranks, uint64_t nranks, uint64_t *g)
{
    static replay_err err;
    char *p = th_write_temp(".map", text);
    memset(&err, 0, sizeof err);
    int rc = replay_read_placement(p, ranks, nranks, g, &err);
    unlink(p);
    free(p);
    return rc ? err.msg : NULL;
}

Test(dimemas, placement_file_forms)
{
    uint64_t g[4];
    const char *e = placement("# task node\n2 7\n0 3\n\n3 0   # last\n1 4\n", 4, 8, g);
    cr_assert_null(e, "%s", e);
    cr_assert(g[0] == 3 && g[1] == 4 && g[2] == 7 && g[3] == 0, "pairs in any order");
    e = placement("5\n6\n1\n2\n", 4, 8, g);
    cr_assert_null(e, "%s", e);
    cr_assert(g[0] == 5 && g[1] == 6 && g[2] == 1 && g[3] == 2, "one network rank per line");
    const struct {
        const char *text, *what;
    } errs[] = {
        {"0 1\n1 1\n2 2\n3 3\n", ":2: node 1 already holds task 0"},
        {"0 1\n0 2\n", ":2: task 0 is placed twice"},
        {"0 1\n9 2\n", ":2: task 9 does not exist (the job has 4 ranks"},
        {"0 8\n", ":1: node 8 is not a network rank (0..7"},
        {"0 1\n2\n", ":2: expected TASK NODE (the file lists task-node pairs)"},
        {"0 1 2\n", ":1: expected one network rank, or a TASK NODE pair"},
        {"0 x\n", ":1: expected one network rank, or a TASK NODE pair"},
        {"0 1\n1 2\n", ": no node for task 2 (the job has 4 ranks; the file places 2)"},
        {"1\n2\n3\n4\n5\n", ":5: more entries than the job's 4 ranks"},
    };
    for (size_t i = 0; i < sizeof errs / sizeof errs[0]; i++) {
        e = placement(errs[i].text, 4, 8, g);
        cr_assert(e && strstr(e, errs[i].what), "case %zu: '%s' should say '%s'", i, e ? e : "(accepted)",
                  errs[i].what);
    }
}
