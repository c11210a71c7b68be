/* helpers.c — helpers of the replay unit tests (helpers.h). Tests read the
 * sample traces from $top_srcdir/../shared/traces (or ../shared/traces from
 * the build tree) and skip when they are absent. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

char *th_write_temp(const char *suffix, const char *text)
{
    char tmpl[] = "/tmp/warpnet-replay-XXXXXX";
    int fd = mkstemp(tmpl);
    cr_assert(fd >= 0, "mkstemp failed");
    close(fd);
    unlink(tmpl);
    size_t n = strlen(tmpl) + strlen(suffix) + 1;
    char *path = malloc(n);
    snprintf(path, n, "%s%s", tmpl, suffix);
    FILE *f = fopen(path, "wb");
    cr_assert(f, "cannot create %s", path);
    fputs(text, f);
    fclose(f);
    return path;
}

char *th_temp_dir(void)
{
    char tmpl[] = "/tmp/warpnet-replay-dir-XXXXXX";
    cr_assert(mkdtemp(tmpl), "mkdtemp failed");
    return strdup(tmpl);
}

replay_source *th_open(const char *path, const char *format)
{
    replay_source *s = NULL;
    replay_err err = {{0}};
    int rc = replay_source_open(path, format, NULL, &s, &err);
    cr_assert_eq(rc, 0, "opening %s failed: %s", path, err.msg);
    return s;
}

const char *th_open_error(const char *path, const char *format)
{
    static replay_err err;
    replay_source *s = NULL;
    memset(&err, 0, sizeof err);
    int rc = replay_source_open(path, format, NULL, &s, &err);
    cr_assert_neq(rc, 0, "opening %s should have failed", path);
    cr_assert_null(s);
    return err.msg;
}

replay_rank *th_load_all(replay_source *s)
{
    replay_rank *r = calloc((size_t)s->nranks, sizeof *r);
    for (int32_t q = 0; q < s->nranks; q++) {
        replay_err err = {{0}};
        int rc = replay_source_load(s, q, &r[q], &err);
        cr_assert_eq(rc, 0, "loading rank %d of %s failed: %s", q, s->path, err.msg);
    }
    return r;
}

void th_free_all(replay_rank *r, int32_t n)
{
    for (int32_t q = 0; q < n; q++)
        replay_rank_free(&r[q]);
    free(r);
}

int th_try_load_all(replay_source *s, replay_err *err)
{
    for (int32_t q = 0; q < s->nranks; q++) {
        replay_rank r;
        if (replay_source_load(s, q, &r, err))
            return -1;
        replay_rank_free(&r);
    }
    return 0;
}

int th_same_graph(const replay_rank *a, const replay_rank *b)
{
    if (a->rank != b->rank || a->ntasks != b->ntasks || a->ndeps != b->ndeps || a->nmsgs != b->nmsgs)
        return 0;
    for (uint32_t i = 0; i < a->ntasks; i++) {
        const replay_task *x = &a->tasks[i], *y = &b->tasks[i];
        if (x->dur_ns != y->dur_ns || x->flags != y->flags || x->dep_end != y->dep_end ||
            x->msg_end != y->msg_end || x->cpu != y->cpu || x->nic != y->nic)
            return 0;
        if ((x->flags & REPLAY_TRIGGERED) && (x->trig_src != y->trig_src || x->trig_tag != y->trig_tag))
            return 0;
    }
    for (uint32_t k = 0; k < a->ndeps; k++)
        if (a->deps[k] != b->deps[k])
            return 0;
    for (uint32_t k = 0; k < a->nmsgs; k++)
        if (a->msgs[k].dst != b->msgs[k].dst || a->msgs[k].bytes != b->msgs[k].bytes ||
            a->msgs[k].tag != b->msgs[k].tag)
            return 0;
    return 1;
}

void th_timing(replay_source *s, replay_timing *cp, replay_timing *fifo)
{
    replay_rank *r = th_load_all(s);
    if (cp)
        replay_timing_run(r, s->nranks, 0, cp, NULL);
    if (fifo)
        replay_timing_run(r, s->nranks, 1, fifo, NULL);
    th_free_all(r, s->nranks);
}

const char *th_traces_dir(void)
{
    static char path[4096];
    const char *top = getenv("top_srcdir");
    const char *cands[] = {top, "..", "../..", "."};
    struct stat st;
    for (size_t i = 0; i < sizeof cands / sizeof cands[0]; i++) {
        if (!cands[i])
            continue;
        snprintf(path, sizeof path, "%s/../shared/traces", cands[i]);
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
            return path;
    }
    return NULL;
}

char *th_src(const char *rel)
{
    const char *top = getenv("top_srcdir");
    if (!top)
        top = ".";
    char *p = malloc(strlen(top) + strlen(rel) + 2);
    sprintf(p, "%s/%s", top, rel);
    return p;
}

char *th_sample(const char *rel)
{
    const char *t = th_traces_dir();
    if (!t)
        cr_skip_test("../shared/traces is absent: sample %s not available", rel);
    char *p = malloc(strlen(t) + strlen(rel) + 2);
    sprintf(p, "%s/%s", t, rel);
    if (access(p, R_OK) != 0)
        cr_skip_test("%s is absent", p);
    return p;
}
