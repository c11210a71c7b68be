/* tests/fuzz/fuzz_stop.c — runs a reader that stops through warp_fatal
 * inside a harness (fuzz_stop.h). Invariant: while a reader runs, every
 * block it holds from the malloc family and every file it holds open is in
 * the lists below, so a stop releases exactly what the reader held. The
 * linker's --wrap (FUZZ_STOP_WRAP) routes the calls here; tracking is per
 * thread, so libFuzzer's own threads pass straight through. */
#define _GNU_SOURCE /* getline, ssize_t */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "fuzz_stop.h"
#include "warp_error.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
void __real_free(void *p);
FILE *__real_fopen(const char *path, const char *mode);
int __real_fclose(FILE *f);
ssize_t __real_getline(char **line, size_t *cap, FILE *f);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
void __wrap_free(void *p);
FILE *__wrap_fopen(const char *path, const char *mode);
int __wrap_fclose(FILE *f);
ssize_t __wrap_getline(char **line, size_t *cap, FILE *f);

/* What the running reader holds (a handful of blocks: a linear list). */
typedef struct held {
    void **p;
    size_t n, cap;
} held;

static _Thread_local int armed;
static held blocks, files;
static jmp_buf *landing;
static const char *want_path;

static void hold(held *h, void *p)
{
    if (!p)
        return;
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 64;
        h->p = __real_realloc(h->p, h->cap * sizeof *h->p);
        if (!h->p)
            abort();
    }
    h->p[h->n++] = p;
}

static void let_go(held *h, void *p)
{
    for (size_t i = h->n; p && i-- > 0;)
        if (h->p[i] == p) {
            h->p[i] = h->p[--h->n];
            return;
        }
}

void *__wrap_malloc(size_t n)
{
    void *p = __real_malloc(n);
    if (armed)
        hold(&blocks, p);
    return p;
}

void *__wrap_calloc(size_t n, size_t size)
{
    void *p = __real_calloc(n, size);
    if (armed)
        hold(&blocks, p);
    return p;
}

void *__wrap_realloc(void *p, size_t n)
{
    void *q = __real_realloc(p, n);
    if (armed && q) {
        let_go(&blocks, p);
        hold(&blocks, q);
    }
    return q;
}

void __wrap_free(void *p)
{
    if (armed)
        let_go(&blocks, p);
    __real_free(p);
}

FILE *__wrap_fopen(const char *path, const char *mode)
{
    FILE *f = __real_fopen(path, mode);
    if (armed)
        hold(&files, f);
    return f;
}

int __wrap_fclose(FILE *f)
{
    if (armed)
        let_go(&files, f);
    return __real_fclose(f);
}

/* getline grows its buffer inside the C library: the block it leaves. */
ssize_t __wrap_getline(char **line, size_t *cap, FILE *f)
{
    if (armed)
        let_go(&blocks, *line);
    ssize_t n = __real_getline(line, cap, f);
    if (armed)
        hold(&blocks, *line);
    return n;
}

static char file_path[256];

static void remove_file(void) { unlink(file_path); }

const char *fuzz_stop_file(const uint8_t *data, size_t size)
{
    if (!file_path[0]) {
        const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
        snprintf(file_path, sizeof file_path, "%s/warpnet-fuzz-%ld.in", base, (long)getpid());
        atexit(remove_file);
    }
    FILE *f = __real_fopen(file_path, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || __real_fclose(f) != 0) {
        perror(file_path);
        abort();
    }
    return file_path;
}

/* The message names the file: "PATH:LINE: " or "PATH: ", and gives a fix
 * after "; ". */
static int names_file(const char *msg)
{
    size_t n = strlen(want_path);
    if (strncmp(msg, want_path, n) != 0 || msg[n] != ':')
        return 0;
    const char *s = msg + n + 1;
    if (*s >= '0' && *s <= '9') {
        s += strspn(s, "0123456789");
        if (*s++ != ':')
            return 0;
    }
    return *s == ' ' && strstr(s, "; ") != NULL;
}

static void stop(int code, const char *line, size_t len)
{
    const char *prog = "warpnet: ";
    armed = 0;
    if (code != WARP_EXIT_USAGE || len < strlen(prog) + 2 || strlen(line) != len ||
        strchr(line, '\n') != line + len - 1 || strncmp(line, prog, strlen(prog)) != 0 ||
        !names_file(line + strlen(prog))) {
        fprintf(stderr, "bad fatal stop (exit code %d): %s", code, line);
        abort();
    }
    if (getenv("FUZZ_STOP_SHOW"))
        fputs(line, stderr);
    longjmp(*landing, 1);
}

int fuzz_stop_run(const char *path, void (*fn)(void *), void *arg)
{
    jmp_buf here;
    warp_set_program_name("warpnet");
    warp_set_fatal_stop(stop);
    want_path = path;
    landing = &here;
    blocks.n = files.n = 0;
    if (setjmp(here) == 0) {
        armed = 1;
        fn(arg);
        armed = 0;
        if (files.n) {
            fprintf(stderr, "the reader returned with %zu file(s) still open\n", files.n);
            abort();
        }
        blocks.n = 0; /* what is left is the reader's result, the caller's now */
        return 0;
    }
    /* Stopped: release what the reader held, as the exit would have. */
    for (size_t i = 0; i < files.n; i++)
        __real_fclose(files.p[i]);
    for (size_t i = 0; i < blocks.n; i++)
        __real_free(blocks.p[i]);
    blocks.n = files.n = 0;
    return 1;
}
