/* tests/fuzz/fuzz_trace.c — libFuzzer harness for the trace readers of
 * models/replay/ (BigSim, GOAL, Dimemas, native text and binary). One source,
 * built once per format with -DFUZZ_FORMAT=bigsim (or goal, native, dimemas) by
 * `make fuzz` (tests/fuzz/local.mk). The readers take paths, so each input is
 * written to a private temporary directory first. A BigSim input is several
 * files: the summary bgTrace, then bgTrace0, bgTrace1, ... separated by the
 * 8 bytes FUZZ_BIGSIM_SEP (tests/fuzz/mkseed_bigsim.py makes seeds).
 *
 * Checks, for every input: no crash, leak or sanitizer report; open and load
 * either succeed or fill one line naming the file ("PATH:LINE: ..." in the
 * text formats, "PATH: ... byte N" in the binary ones); a loaded rank
 * passes replay_rank_validate. */
#define _GNU_SOURCE /* memmem */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/readers/readers.h"
#include "replay/taskgraph.h"

#ifndef FUZZ_FORMAT
#error "build with -DFUZZ_FORMAT=bigsim (or goal, native, dimemas)"
#endif
#define FUZZ_STR2(x) #x
#define FUZZ_STR(x) FUZZ_STR2(x)
#define FORMAT FUZZ_STR(FUZZ_FORMAT)

#define FUZZ_BIGSIM_SEP "\n-file-\n"
#define FUZZ_MAX_FILES 64
#define FUZZ_MAX_RANKS 64 /* ranks loaded per input: enough to reach every file */

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char dir[256];
static int files_written; /* BigSim files of the previous input, to remove */

static void remove_dir(void)
{
    char p[320];
    for (int i = 0; i < FUZZ_MAX_FILES; i++) {
        snprintf(p, sizeof p, "%s/bgTrace%d", dir, i);
        unlink(p);
    }
    snprintf(p, sizeof p, "%s/bgTrace", dir);
    unlink(p);
    snprintf(p, sizeof p, "%s/trace", dir);
    unlink(p);
    rmdir(dir);
}

static void make_dir(void)
{
    if (dir[0])
        return;
    const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : getenv("TMPDIR");
    snprintf(dir, sizeof dir, "%s/warpnet-fuzz-XXXXXX", base ? base : "/tmp");
    if (!mkdtemp(dir)) {
        perror(dir);
        abort();
    }
    atexit(remove_dir);
}

static void write_file(const char *path, const uint8_t *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || (n && fwrite(p, 1, n, f) != n) || fclose(f) != 0) {
        perror(path);
        abort();
    }
}

/* Writes the input as the trace; returns the path to open (static). */
static const char *write_trace(const uint8_t *data, size_t size)
{
    static char path[320];
    if (strcmp(FORMAT, "bigsim") != 0) {
        snprintf(path, sizeof path, "%s/trace", dir);
        write_file(path, data, size);
        return path;
    }
    for (int i = 0; i < files_written; i++) {
        snprintf(path, sizeof path, "%s/bgTrace%d", dir, i);
        unlink(path);
    }
    const size_t seplen = sizeof FUZZ_BIGSIM_SEP - 1;
    const uint8_t *p = data, *end = data + size;
    int i = -1;
    while (i < FUZZ_MAX_FILES) {
        const uint8_t *q = memmem(p, (size_t)(end - p), FUZZ_BIGSIM_SEP, seplen);
        size_t n = q ? (size_t)(q - p) : (size_t)(end - p);
        if (i < 0)
            snprintf(path, sizeof path, "%s/bgTrace", dir);
        else
            snprintf(path, sizeof path, "%s/bgTrace%d", dir, i);
        write_file(path, p, n);
        i++;
        if (!q)
            break;
        p = q + seplen;
    }
    files_written = i;
    return dir;
}

/* A reader's message: one non-empty line that starts with the path; in the
 * text formats, with "PATH:LINE:". */
static void check_error(const replay_err *err, const char *path, int text)
{
    size_t n = strlen(path);
    assert(err->msg[0] && !strchr(err->msg, '\n'));
    assert(strncmp(err->msg, path, n) == 0);
    assert(err->msg[n] == ':' || err->msg[n] == '/');
    if (text && err->msg[n] == ':' && !(err->msg[n + 1] >= '0' && err->msg[n + 1] <= '9')) {
        fprintf(stderr, "text-format error without a line number: %s\n", err->msg);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    make_dir();
    const char *path = write_trace(data, size);
    replay_opts o = replay_opts_default();
    replay_opts_set(&o, "keep_init", size & 1 ? "1" : "0"); /* both BigSim start-skip paths */
    int text = !strcmp(FORMAT, "goal") || !strcmp(FORMAT, "dimemas") ||
               (!strcmp(FORMAT, "native") && (size < 8 || memcmp(data, "WNTRACE", 8) != 0));
    replay_source *s = NULL;
    replay_err err = {{0}};
    if (replay_source_open(path, FORMAT, &o, &s, &err) != 0) {
        check_error(&err, path, text);
        return 0;
    }
    assert(s->nranks > 0);
    for (int32_t r = 0; r < s->nranks && r < FUZZ_MAX_RANKS; r++) {
        replay_rank rk;
        memset(&rk, 0, sizeof rk);
        err.msg[0] = 0;
        if (replay_source_load(s, r, &rk, &err) != 0) {
            check_error(&err, path, text);
            continue;
        }
        replay_err verr = {{0}};
        if (replay_rank_validate(&rk, "loaded", &verr) != 0) {
            fprintf(stderr, "rank %d loaded but invalid: %s\n", r, verr.msg);
            abort();
        }
        replay_rank_free(&rk);
    }
    replay_source_close(s);
    return 0;
}
