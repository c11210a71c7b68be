/* test_chakra.c — the Chakra execution-trace reader: ASTRA-sim's public
 * sample ETs load and run to the end on an ideal network with the
 * collective algorithm [collectives] chooses; traces built here byte by byte
 * map node for node (compute from duration or num_ops / flops_rate, send,
 * receive, data and control dependencies in any file order); and every
 * malformed input is refused with the file and what is wrong: a bad varint,
 * a truncated message, a missing rank file, an unknown node type, a missing
 * dependency, a cycle, work without a rate, a gzip file. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "replay/critpath.h"
#include "replay/readers/readers.h"

/* ---- a byte-by-byte protobuf writer ---------------------------------------- */

typedef struct pb {
    uint8_t b[4096];
    size_t n;
} pb;

static void put_varint(pb *p, uint64_t v)
{
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        p->b[p->n++] = (uint8_t)(c | (v ? 0x80 : 0));
    } while (v);
}

static void put_uint(pb *p, int field, uint64_t v)
{
    put_varint(p, (uint64_t)field << 3);
    put_varint(p, v);
}

static void put_bytes(pb *p, int field, const void *s, size_t n)
{
    put_varint(p, (uint64_t)field << 3 | 2);
    put_varint(p, n);
    memcpy(p->b + p->n, s, n);
    p->n += n;
}

static void put_str(pb *p, int field, const char *s) { put_bytes(p, field, s, strlen(s)); }

/* An int64 attribute (AttributeProto name = 1, int64_val = 9). */
static void put_attr(pb *p, const char *name, int64_t v)
{
    pb a = {.n = 0};
    put_str(&a, 1, name);
    put_uint(&a, 9, (uint64_t)v);
    put_bytes(p, 10, a.b, a.n);
}

/* A node: id, name, type, then what `more` adds. */
static pb node(uint64_t id, int type)
{
    pb p = {.n = 0};
    put_uint(&p, 1, id);
    char name[32];
    snprintf(name, sizeof name, "n%llu", (unsigned long long)id);
    put_str(&p, 2, name);
    put_uint(&p, 3, (uint64_t)type);
    return p;
}

/* A trace file: the metadata message, then the nodes, each framed. */
typedef struct et {
    uint8_t b[16384];
    size_t n;
} et;

static void frame(et *f, const pb *m)
{
    pb len = {.n = 0};
    put_varint(&len, m->n);
    memcpy(f->b + f->n, len.b, len.n);
    f->n += len.n;
    memcpy(f->b + f->n, m->b, m->n);
    f->n += m->n;
}

static et file_start(void)
{
    et f = {.n = 0};
    pb meta = {.n = 0};
    put_str(&meta, 1, "0.0.4");
    frame(&f, &meta);
    return f;
}

static void write_file(const char *dir, const char *name, const uint8_t *b, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *fp = fopen(path, "wb");
    cr_assert_not_null(fp, "cannot write %s", path);
    fwrite(b, 1, n, fp);
    fclose(fp);
}

static char *trace_path(const char *dir, const char *name)
{
    char *p = malloc(512);
    snprintf(p, 512, "%s/%s", dir, name);
    return p;
}

enum { META = 1, LOAD = 2, STORE = 3, COMP = 4, SEND = 5, RECV = 6, COLL = 7 };

/* ---- samples ----------------------------------------------------------------- */

static const char *const ops[] = {"all_reduce", "all_gather", "all_to_all", "reduce_scatter"};

Test(chakra, astra_sim_samples_replay_to_the_end)
{
    for (int k = 0; k < 4; k++) {
        char rel[128];
        snprintf(rel, sizeof rel, "tests/replay/chakra/%s.0.et", ops[k]);
        char *path = th_src(rel);
        replay_source *s = th_open(path, NULL);
        cr_assert_eq(s->nranks, 4, "%s: %d ranks", ops[k], s->nranks);
        cr_assert_str_eq(s->ops->format, "chakra");
        replay_rank *r = th_load_all(s);
        /* default algorithms: ring (2 (n-1) steps for allreduce, n-1 for the
         * gathers), direct for all-to-all (n-1 messages at once) */
        uint32_t want = k == 0 ? 6 : 3;
        uint64_t piece = 1048576 / 4;
        for (int q = 0; q < 4; q++) {
            cr_assert_eq(r[q].nmsgs, want, "%s rank %d: %u messages, want %u", ops[k], q, r[q].nmsgs, want);
            for (uint32_t m = 0; m < r[q].nmsgs; m++)
                cr_assert_eq(r[q].msgs[m].bytes, piece, "%s: a message of %llu bytes", ops[k],
                             (unsigned long long)r[q].msgs[m].bytes);
        }
        replay_timing t;
        replay_timing_run(r, 4, 1, &t, NULL);
        cr_assert_eq(t.tasks_stuck, 0, "%s: %llu tasks never ran", ops[k], (unsigned long long)t.tasks_stuck);
        cr_assert_eq(t.msgs_unmatched, 0);
        th_free_all(r, 4);
        replay_source_close(s);
        free(path);
    }
}

Test(chakra, collectives_take_the_algorithm_collectives_chooses)
{
    char *path = th_src("tests/replay/chakra/all_reduce.2.et");
    replay_opts o = replay_opts_default();
    cr_assert_null(coll_cfg_set(&o.coll, "allreduce", "halving-doubling"));
    replay_source *s;
    replay_err err;
    cr_assert_eq(replay_source_open(path, "chakra", &o, &s, &err), 0, "%s", err.msg);
    replay_rank *r = th_load_all(s);
    for (int q = 0; q < 4; q++) /* 2 log2(4) exchanges: 512 KiB, 256 KiB, 256 KiB, 512 KiB */
        cr_assert_eq(r[q].nmsgs, 4, "rank %d: %u messages", q, r[q].nmsgs);
    cr_assert_eq(r[0].msgs[0].bytes, 524288);
    cr_assert_eq(r[0].msgs[1].bytes, 262144);
    th_free_all(r, 4);
    replay_source_close(s);
    free(path);
}

/* ---- hand-built traces ------------------------------------------------------------ */

/* Two ranks: rank 0 computes 3 us then sends 100 B (tag 5) to rank 1 and
 * receives the answer, its nodes in the file in the reverse order of their
 * dependencies (receive, send, compute); rank 1 receives, computes num_ops
 * 4e6 (at flops_rate 1e12: 4 us), answers. */
static char *pingpong(void)
{
    char *dir = th_temp_dir();
    et f = file_start();
    pb n = node(30, RECV); /* listed first: needs node 20 */
    put_uint(&n, 5, 20);
    put_attr(&n, "comm_src", 1);
    put_attr(&n, "comm_tag", 6);
    put_attr(&n, "comm_size", 100);
    frame(&f, &n);
    n = node(20, SEND); /* before the compute it waits for */
    put_uint(&n, 4, 10); /* a control dependency */
    put_attr(&n, "comm_dst", 1);
    put_attr(&n, "comm_tag", 5);
    put_attr(&n, "comm_size", 100);
    frame(&f, &n);
    n = node(10, COMP);
    put_uint(&n, 7, 3);
    frame(&f, &n);
    write_file(dir, "pp.0.et", f.b, f.n);
    f = file_start();
    n = node(1, RECV);
    put_attr(&n, "comm_src", 0);
    put_attr(&n, "comm_tag", 5);
    put_attr(&n, "comm_size", 100);
    frame(&f, &n);
    n = node(2, COMP);
    put_uint(&n, 5, 1);
    pb a = {.n = 0};
    put_str(&a, 1, "num_ops");
    put_uint(&a, 9, 4000000);
    put_bytes(&n, 10, a.b, a.n);
    frame(&f, &n);
    n = node(3, SEND);
    put_uint(&n, 5, 2);
    put_attr(&n, "comm_dst", 0);
    put_attr(&n, "comm_tag", 6);
    put_attr(&n, "comm_size", 100);
    frame(&f, &n);
    write_file(dir, "pp.1.et", f.b, f.n);
    return dir;
}

Test(chakra, nodes_map_to_tasks_in_dependency_order)
{
    char *dir = pingpong();
    char *path = trace_path(dir, "pp");
    replay_opts o = replay_opts_default();
    cr_assert_null(replay_opts_set(&o, "flops_rate", "1e12"));
    replay_source *s;
    replay_err err;
    cr_assert_eq(replay_source_open(path, NULL, &o, &s, &err), 0, "%s", err.msg);
    cr_assert_eq(s->nranks, 2);
    replay_rank *r = th_load_all(s);
    /* rank 0: compute, send, receive (the receive, first in the file, comes last) */
    cr_assert_eq(r[0].ntasks, 3);
    cr_assert_eq(r[0].tasks[0].dur_ns, 3000);
    cr_assert_eq(r[0].nmsgs, 1);
    cr_assert_eq(r[0].msgs[0].dst, 1);
    cr_assert_eq(r[0].msgs[0].tag, 5);
    cr_assert_eq(r[0].msgs[0].bytes, 100);
    cr_assert(r[0].tasks[2].flags & REPLAY_TRIGGERED);
    cr_assert_eq(r[0].tasks[2].trig_src, 1);
    cr_assert_eq(r[0].tasks[2].trig_tag, 6);
    cr_assert_eq(r[1].tasks[1].dur_ns, 4000, "num_ops 4e6 at 1e12 FLOP/s is 4000 ns, not %llu",
                 (unsigned long long)r[1].tasks[1].dur_ns);
    replay_timing t;
    replay_timing_run(r, 2, 1, &t, NULL);
    cr_assert_eq(t.tasks_stuck, 0);
    cr_assert_eq(t.finish_ns, 7000, "3 us + 4 us on an ideal network, not %llu", (unsigned long long)t.finish_ns);
    th_free_all(r, 2);
    replay_source_close(s);
    free(path);
    free(dir);
}

/* Opens dir/NAME (written by the caller) and expects load of some rank to
 * fail with `want` in the message. */
static void expect_load_error(const char *dir, const char *name, const char *want)
{
    char *path = trace_path(dir, name);
    replay_source *s = th_open(path, "chakra");
    replay_err err;
    cr_assert_eq(th_try_load_all(s, &err), -1, "%s loaded", name);
    cr_assert(strstr(err.msg, want), "%s: '%s' lacks '%s'", name, err.msg, want);
    replay_source_close(s);
    free(path);
}

static void write_one(const char *dir, const char *name, const et *f)
{
    char file[128];
    snprintf(file, sizeof file, "%s.0.et", name);
    write_file(dir, file, f->b, f->n);
}

Test(chakra, malformed_files_are_refused_with_the_place)
{
    char *dir = th_temp_dir();
    et f = file_start();
    uint8_t bad[11];
    memset(bad, 0xff, sizeof bad);
    memcpy(f.b + f.n, bad, sizeof bad);
    f.n += sizeof bad;
    write_one(dir, "varint", &f);
    expect_load_error(dir, "varint", "message 1 at byte 8: its length is not a valid varint");

    f = file_start();
    pb n = node(1, COMP);
    frame(&f, &n);
    f.n -= 3;
    write_one(dir, "trunc", &f);
    expect_load_error(dir, "trunc", "claims");

    f = file_start();
    n = node(7, 42);
    frame(&f, &n);
    write_one(dir, "type", &f);
    expect_load_error(dir, "type", "node 7 (n7): type 42 is not a node type");

    f = file_start();
    n = node(1, COMP);
    put_uint(&n, 5, 99);
    frame(&f, &n);
    write_one(dir, "dep", &f);
    expect_load_error(dir, "dep", "depends on node 99, which the file does not have");

    f = file_start();
    n = node(1, COMP);
    put_uint(&n, 5, 2);
    frame(&f, &n);
    n = node(2, COMP);
    put_uint(&n, 4, 1);
    frame(&f, &n);
    write_one(dir, "cycle", &f);
    expect_load_error(dir, "cycle", "its dependencies form a cycle");

    f = file_start();
    n = node(1, COMP);
    put_attr(&n, "num_ops", 1000);
    frame(&f, &n);
    write_one(dir, "rate", &f);
    expect_load_error(dir, "rate", "give [replay] flops_rate");

    f = file_start();
    n = node(1, COLL);
    put_attr(&n, "comm_type", 3);
    put_attr(&n, "comm_size", 64);
    frame(&f, &n);
    write_one(dir, "gather", &f);
    expect_load_error(dir, "gather", "GATHER and SCATTER collectives are not supported");

    f = file_start();
    n = node(1, SEND);
    put_attr(&n, "comm_dst", 5);
    frame(&f, &n);
    write_one(dir, "peer", &f);
    expect_load_error(dir, "peer", "comm_dst must be a whole number in 0..0");

    uint8_t gz[] = {0x1f, 0x8b, 8, 0};
    write_file(dir, "gz.0.et", gz, sizeof gz);
    expect_load_error(dir, "gz", "gzip-compressed");
    free(dir);
}

Test(chakra, a_missing_rank_file_is_named)
{
    char *dir = th_temp_dir();
    et f = file_start();
    write_file(dir, "m.0.et", f.b, f.n);
    write_file(dir, "m.2.et", f.b, f.n);
    char *path = trace_path(dir, "m.0.et");
    const char *msg = th_open_error(path, "chakra");
    cr_assert(strstr(msg, "rank 1's file is missing") && strstr(msg, "m.1.et"), "%s", msg);
    free(path);
    path = trace_path(dir, "none");
    msg = th_open_error(path, "chakra");
    cr_assert(strstr(msg, "no Chakra rank files"), "%s", msg);
    free(path);
    free(dir);
}
