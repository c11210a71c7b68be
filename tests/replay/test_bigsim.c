/* test_bigsim.c — the BigSim reader: counts on the sample trace (skipped when
 * ../shared/traces is absent), a synthetic trace written in both byte orders,
 * both header versions and several log versions, and corrupt or truncated
 * files that must give one clear error and never crash. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "replay/readers/bigsim.h"

/* ---- a tiny BigSim writer ---------------------------------------------------- */

typedef struct bw {
    FILE *f;
    int big, logv;
} bw;

static void put(bw *w, const void *p, size_t n, int swap)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        fputc(b[swap ? n - 1 - i : i], w->f);
}
static void wi32(bw *w, int32_t v) { put(w, &v, 4, w->big); }
static void wi16(bw *w, int16_t v) { put(w, &v, 2, w->big); }
static void wf64(bw *w, double v) { put(w, &v, 8, w->big); }

static void header(bw *w, int version)
{
    unsigned char h[16] = {0x10, 0xEA, 0xBD, 0xF9, (unsigned char)version, 1, 2, 4, 8};
    int k = version == 1;
    if (k)
        h[9] = 16;
    h[9 + k] = w->big ? 0 : 1;
    h[10 + k] = 4;
    h[11 + k] = 8;
    h[12 + k] = w->big ? 0 : 1;
    h[13 + k] = 1;
    h[14 + k] = 8;
    fwrite(h, 1, 16, w->f);
}

typedef struct wmsg {
    int32_t id, dst_node;
    int16_t tid;
    int32_t size;
} wmsg;

static void task(bw *w, int32_t seq, int32_t mpe, int32_t mid, double exec, char flag, const char *name,
                 const wmsg *msgs, int nmsgs, const int32_t *back, int nback, int with_events)
{
    wi32(w, 7);
    wi32(w, seq);
    wi32(w, mpe);
    wi32(w, mid);
    if (w->logv >= 6) {
        uint16_t op = 0;
        uint32_t sz = 0xdeadbeef; /* garbage when op = 0 */
        put(w, &op, 2, w->big);
        put(w, &sz, 4, w->big);
    }
    if (w->logv >= 4)
        wi16(w, -1);
    double times[5] = {0, 0, 1e-3 * seq, exec, 1e-3 * seq + exec};
    for (int i = 0; i < 5; i++)
        wf64(w, times[i]);
    fputc(flag, w->f);
    char nm[20] = {0};
    strncpy(nm, name, 19);
    fwrite(nm, 1, 20, w->f);
    if (w->logv >= 2)
        for (int i = 0; i < (w->logv == 2 ? 3 : 4); i++)
            wi32(w, -1);
    wi32(w, nmsgs);
    for (int i = 0; i < nmsgs; i++) {
        wi32(w, msgs[i].id);
        wi32(w, msgs[i].dst_node);
        wf64(w, 0.5);
        wf64(w, 0.6);
        wi16(w, msgs[i].tid);
        wi32(w, msgs[i].size);
        if (w->logv > 0)
            wi32(w, 0);
    }
    wi32(w, with_events ? 2 : 0);
    if (with_events) {
        fputc(2, w->f);
        wf64(w, 1e-9);
        wi32(w, 6);
        fwrite("hello", 1, 6, w->f);
        fputc(1, w->f);
        wf64(w, 2e-9);
        wi32(w, 3);
    }
    wi32(w, nback);
    for (int i = 0; i < nback; i++)
        wi32(w, back[i]);
    wi32(w, 0);
}

/* 2 nodes x 2 worker threads = 4 PEs in 2 files. PE 0 task 0 is the start
 * event broadcasting message 100; every PE then runs: AMPI_x (triggered by
 * the broadcast, sends message 200+pe to PE pe+1), work (1 us, triggered by
 * the previous PE's message), msgep (5 us recorded, replayed as 0). */
static void write_synthetic(const char *dir, int big, int hdr, int logv)
{
    char path[512];
    snprintf(path, sizeof path, "%s/bgTrace", dir);
    bw w = {.f = fopen(path, "wb"), .big = big, .logv = logv};
    header(&w, hdr);
    int32_t sum[10] = {4, 2, 1, 1, 1, 2, 0, 0, 2, logv};
    for (int i = 0; i < 10; i++)
        wi32(&w, sum[i]);
    fclose(w.f);
    for (int file = 0; file < 2; file++) {
        snprintf(path, sizeof path, "%s/bgTrace%d", dir, file);
        w.f = fopen(path, "w+b");
        header(&w, hdr);
        wi32(&w, 2);
        long table = ftell(w.f);
        wi32(&w, 0);
        wi32(&w, 0);
        int32_t offs[2];
        for (int th = 0; th < 2; th++) {
            int32_t pe = file * 2 + th, next = (pe + 1) % 4, prev = (pe + 3) % 4;
            offs[th] = (int32_t)ftell(w.f);
            wi32(&w, 4);
            wmsg bc = {.id = 100, .dst_node = -1, .tid = -1, .size = 16};
            if (pe == 0)
                task(&w, 0, -1, -1, 2e-6, 1, "start", &bc, 1, NULL, 0, 0);
            else
                task(&w, 0, -1, -1, 2e-6, 0, "init", NULL, 0, NULL, 0, 0);
            wmsg m = {.id = 200 + pe, .dst_node = next / 2, .tid = (int16_t)(next % 2), .size = 64};
            int32_t b0[1] = {0}, b1[1] = {1}, b2[1] = {2};
            task(&w, 1, 0, 100, 3e-6, 0, "AMPI_Send", &m, 1, b0, 1, 0);
            task(&w, 2, prev, 200 + prev, 1e-6, 0, "work", NULL, 0, b1, 1, 1);
            task(&w, 3, -1, -1, 5e-6, 0, "msgep", NULL, 0, b2, 1, 0);
        }
        fseek(w.f, table, SEEK_SET);
        wi32(&w, offs[0]);
        wi32(&w, offs[1]);
        fclose(w.f);
    }
}

static void remove_dir(const char *dir)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    cr_assert_eq(system(cmd), 0);
}

Test(bigsim, synthetic_trace_in_every_layout_gives_the_same_graph)
{
    replay_rank *ref = NULL;
    const int logvs[] = {0, 2, 4, 6};
    for (int big = 0; big < 2; big++)
        for (int hdr = 0; hdr < 2; hdr++)
            for (size_t lv = 0; lv < 4; lv++) {
                char *dir = th_temp_dir();
                write_synthetic(dir, big, hdr, logvs[lv]);
                replay_source *s = th_open(dir, NULL);
                cr_assert_str_eq(s->ops->format, "bigsim");
                cr_assert_eq(s->nranks, 4);
                cr_assert_eq(replay_bigsim_start_msg(s), 100);
                replay_rank *r = th_load_all(s);
                for (int q = 0; q < 4; q++) {
                    cr_assert_eq(r[q].ntasks, 3, "init task skipped on PE %d", q);
                    cr_assert_eq(r[q].tasks[0].dur_ns, 100, "AMPI_ tasks take the overhead");
                    cr_assert_eq(r[q].tasks[0].flags, 0, "the first task's broadcast counts as arrived");
                    cr_assert_eq(r[q].nmsgs, 1);
                    cr_assert_eq(r[q].msgs[0].dst, (q + 1) % 4, "node/thread -> PE");
                    cr_assert_eq(r[q].msgs[0].tag, 200 + q);
                    cr_assert_eq(r[q].tasks[1].dur_ns, 1000);
                    cr_assert_eq(r[q].tasks[1].trig_src, (q + 3) % 4);
                    cr_assert_eq(r[q].tasks[2].dur_ns, 0, "msgep is zeroed");
                    replay_bigsim_counts c;
                    replay_err err;
                    cr_assert_eq(replay_bigsim_counts_of(s, q, &c, &err), 0);
                    cr_assert_eq(c.tasks, 4);
                    cr_assert_eq(c.first, 1);
                    cr_assert_eq(c.msg_entries, q == 0 ? 2 : 1);
                    cr_assert_eq(c.deps, 3);
                    if (ref)
                        cr_assert(th_same_graph(&r[q], &ref[q]), "big %d hdr %d log %d: PE %d differs", big,
                                  hdr, logvs[lv], q);
                }
                replay_timing t;
                replay_timing_run(r, 4, 1, &t, NULL);
                cr_assert_eq(t.finish_ns, 1100, "100 (AMPI) + 1000 (work)");
                cr_assert_eq(t.tasks_stuck, 0);
                if (!ref)
                    ref = r;
                else
                    th_free_all(r, 4);
                replay_source_close(s);
                remove_dir(dir);
                free(dir);
            }
    th_free_all(ref, 4);
}

Test(bigsim, keep_init_and_overhead_options)
{
    char *dir = th_temp_dir();
    write_synthetic(dir, 0, 1, 6);
    replay_opts o = replay_opts_default();
    cr_assert_null(replay_opts_set(&o, "keep_init", "1"));
    cr_assert_null(replay_opts_set(&o, "ampi_overhead", "7ns"));
    replay_source *s;
    replay_err err;
    cr_assert_eq(replay_source_open(dir, "bigsim", &o, &s, &err), 0, "%s", err.msg);
    replay_rank *r = th_load_all(s);
    cr_assert_eq(r[0].ntasks, 4);
    cr_assert_eq(r[0].tasks[0].dur_ns, 2000);
    cr_assert_eq(r[0].nmsgs, 5, "the broadcast reaches all 4 PEs");
    cr_assert_eq(r[1].tasks[1].dur_ns, 7);
    cr_assert(r[1].tasks[1].flags & REPLAY_TRIGGERED);
    replay_timing t;
    replay_timing_run(r, 4, 1, &t, NULL);
    cr_assert_eq(t.tasks_stuck, 0);
    cr_assert_eq(t.finish_ns, 2000 + 7 + 1000);
    th_free_all(r, 4);
    replay_source_close(s);
    remove_dir(dir);
    free(dir);
}

/* ---- the sample trace ------------------------------------------------------------ */

static char *sample_dir(void)
{
    return th_sample("bigsim-jacobi2d-32");
}

Test(bigsim, sample_counts_and_matching)
{
    char *dir = sample_dir();
    replay_source *s = th_open(dir, NULL);
    cr_assert_eq(s->nranks, 32);
    uint64_t tasks = 0, entries = 0, kept = 0, loaded = 0, halo = 0, triggered = 0;
    replay_rank *r = th_load_all(s);
    for (int32_t q = 0; q < 32; q++) {
        replay_bigsim_counts c;
        replay_err err;
        cr_assert_eq(replay_bigsim_counts_of(s, q, &c, &err), 0, "%s", err.msg);
        tasks += c.tasks;
        entries += c.msg_entries;
        kept += c.kept;
        cr_assert_eq(c.kept, c.tasks - c.first);
        cr_assert_eq(r[q].ntasks, c.kept, "PE %d", q);
        cr_assert_gt(c.first, 0, "PE %d: the initialisation phase is skipped", q);
        loaded += r[q].ntasks;
        for (uint32_t k = 0; k < r[q].nmsgs; k++)
            halo += r[q].msgs[k].bytes == 432;
        for (uint32_t i = 0; i < r[q].ntasks; i++)
            triggered += (r[q].tasks[i].flags & REPLAY_TRIGGERED) != 0;
    }
    cr_assert_eq(tasks, 6941, "task records in the sample");
    cr_assert_eq(entries, 1279, "message entries in the sample");
    cr_assert(kept > 5500 && kept < 5700, "about 5,600 tasks after the start skip, got %lu", (unsigned long)kept);
    cr_assert_eq(loaded, kept);
    cr_assert_gt(halo, 0, "432-byte halo messages");
    /* Every message-triggered task receives its message: zero-network replay
     * runs every task and leaves no message unmatched. */
    replay_timing t;
    replay_timing_run(r, 32, 1, &t, NULL);
    cr_assert_eq(t.tasks_stuck, 0);
    cr_assert_eq(t.msgs_unmatched, 0);
    cr_assert_eq(t.tasks_done, kept);
    cr_assert_gt(triggered, 0);
    th_free_all(r, 32);
    replay_source_close(s);
    free(dir);
}

/* Copies the sample into a temp dir; returns the copy. */
static char *copy_sample(void)
{
    char *src = sample_dir();
    char *dir = th_temp_dir();
    char cmd[2048];
    snprintf(cmd, sizeof cmd, "cp '%s'/bgTrace* '%s'/ && chmod u+w '%s'/*", src, dir, dir);
    cr_assert_eq(system(cmd), 0);
    free(src);
    return dir;
}

static long read_file(const char *path, unsigned char **data)
{
    FILE *f = fopen(path, "rb");
    cr_assert(f);
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *data = malloc((size_t)n);
    cr_assert_eq(fread(*data, 1, (size_t)n, f), (size_t)n);
    fclose(f);
    return n;
}

static void write_file(const char *path, const unsigned char *data, long n)
{
    FILE *f = fopen(path, "wb");
    cr_assert(f);
    fwrite(data, 1, (size_t)n, f);
    fclose(f);
}

/* Opens and loads everything; returns 0 or -1 with err. */
static int open_load(const char *dir, replay_err *err)
{
    replay_source *s = NULL;
    if (replay_source_open(dir, "bigsim", NULL, &s, err))
        return -1;
    int rc = th_try_load_all(s, err);
    replay_source_close(s);
    return rc;
}

Test(bigsim, truncation_at_random_offsets_is_reported)
{
    char *dir = copy_sample();
    char path[600];
    snprintf(path, sizeof path, "%s/bgTrace1", dir);
    unsigned char *data;
    long n = read_file(path, &data);
    srand(42);
    for (int trial = 0; trial < 60; trial++) {
        long cut = trial == 0 ? 0 : trial == 1 ? n - 1 : rand() % n;
        write_file(path, data, cut);
        replay_err err = {{0}};
        cr_assert_neq(open_load(dir, &err), 0, "truncation at %ld of %ld went unnoticed", cut, n);
        cr_assert(strstr(err.msg, "bgTrace1"), "error must name the file: %s", err.msg);
        cr_assert(strstr(err.msg, "truncated") || strstr(err.msg, "corrupt") || strstr(err.msg, "outside"),
                  "cut at %ld: %s", cut, err.msg);
    }
    write_file(path, data, n);
    replay_err err;
    cr_assert_eq(open_load(dir, &err), 0, "restored file must load: %s", err.msg);
    free(data);
    remove_dir(dir);
    free(dir);
}

Test(bigsim, random_byte_corruption_never_crashes)
{
    char *dir = copy_sample();
    char path[600];
    snprintf(path, sizeof path, "%s/bgTrace2", dir);
    unsigned char *data;
    long n = read_file(path, &data);
    unsigned char *copy = malloc((size_t)n);
    srand(7);
    int failed = 0;
    for (int trial = 0; trial < 80; trial++) {
        memcpy(copy, data, (size_t)n);
        for (int k = 0; k < 4; k++)
            copy[16 + rand() % (n - 16)] = (unsigned char)rand();
        write_file(path, copy, n);
        replay_err err = {{0}};
        if (open_load(dir, &err)) {
            failed++;
            cr_assert(strstr(err.msg, "bgTrace2") && !strchr(err.msg, '\n'), "%s", err.msg);
        }
    }
    cr_assert_gt(failed, 0, "some corruptions must be detected");
    free(copy);
    free(data);
    remove_dir(dir);
    free(dir);
}

static void expect_patch_error(const char *file, long at, unsigned char byte, const char *want)
{
    char *dir = copy_sample();
    char path[600];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    unsigned char *data;
    long n = read_file(path, &data);
    data[at] = byte;
    write_file(path, data, n);
    replay_err err = {{0}};
    cr_assert_neq(open_load(dir, &err), 0);
    cr_assert(strstr(err.msg, want) && strstr(err.msg, file), "expected '%s' naming %s in: %s", want, file, err.msg);
    free(data);
    remove_dir(dir);
    free(dir);
}

Test(bigsim, bad_headers_and_summaries_are_refused)
{
    expect_patch_error("bgTrace", 0, 0x11, "wrong magic");
    expect_patch_error("bgTrace0", 3, 0x00, "wrong magic");
    expect_patch_error("bgTrace3", 4, 2, "header version 2");
    expect_patch_error("bgTrace1", 7, 8, "unsupported type sizes");
    expect_patch_error("bgTrace2", 10, 7, "byte order codes");
    expect_patch_error("bgTrace", 16 + 9 * 4, 9, "log version 9");      /* summary: log version */
    expect_patch_error("bgTrace", 16 + 8 * 4, 5, "holds 8 PEs");         /* 5 files announced */
    expect_patch_error("bgTrace0", 16, 9, "holds 9 PEs");                /* nlocal */
    expect_patch_error("bgTrace0", 16 + 4 + 3, 0x7f, "outside the file"); /* an offset */
}

Test(bigsim, missing_files_are_named)
{
    char *dir = copy_sample();
    char path[600];
    snprintf(path, sizeof path, "%s/bgTrace3", dir);
    unlink(path);
    replay_err err;
    cr_assert_neq(open_load(dir, &err), 0);
    cr_assert(strstr(err.msg, "bgTrace3: missing"), "%s", err.msg);
    snprintf(path, sizeof path, "%s/bgTrace", dir);
    unlink(path);
    cr_assert_neq(open_load(dir, &err), 0);
    cr_assert(strstr(err.msg, "cannot open the BigSim summary"), "%s", err.msg);
    remove_dir(dir);
    free(dir);
}
