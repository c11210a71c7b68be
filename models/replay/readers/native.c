/* native.c — Warpnet's own trace format (docs/trace-format.md): a
 * line-oriented text form and a compact little-endian binary form, reader and
 * writer for both. Invariant: writing a source and reading it back yields the
 * same graphs, field for field; the binary reader seeks straight to one
 * rank's record through the index, the text reader through the rank-line
 * positions found at open. Called through replay_source_open and by
 * `warpnet-trace convert`. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/native.h"
#include "replay/readers/source.h"
#include "warp_error.h"

static const char BIN_MAGIC[8] = {'W', 'N', 'T', 'R', 'A', 'C', 'E', 0};
#define TEXT_MAGIC "warpnet-trace"
#define BIN_TASK_BYTES 32
#define BIN_RANK_HEAD 16

typedef struct native_file {
    int binary;
    long size;
    long *pos;   /* text: byte of each "rank" line; binary: record offsets (nranks + 1) */
    long *line;  /* text: its line number */
    FILE *fp;    /* opened at the first load and kept: a 512K-rank replay loads 512K records */
} native_file;

/* The trace file, opened once per source (per process) for all its loads. */
static FILE *nf_file(replay_source *s, replay_err *err)
{
    native_file *nf = s->impl;
    if (!nf->fp && !(nf->fp = fopen(s->path, "rb")))
        replay_errf(err, "%s: cannot open: %s; check the trace path", s->path, strerror(errno));
    return nf->fp;
}

/* ---- little-endian encoding ----------------------------------------------- */

static void put_le(uint8_t *b, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        b[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *b, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | b[i];
    return v;
}

/* ---- text reader ------------------------------------------------------------ */

/* Reads one line (without newline) into a growing buffer; 0 at end of file. */
static int read_line(FILE *f, char **buf, size_t *cap)
{
    size_t n = 0;
    int c;
    while ((c = getc(f)) != EOF && c != '\n') {
        if (n + 2 > *cap) {
            *cap = *cap ? 2 * *cap : 256;
            *buf = warp_xrealloc(*buf, *cap);
        }
        (*buf)[n++] = (char)c;
    }
    if (c == EOF && n == 0)
        return 0;
    if (!*buf) {
        *cap = 256;
        *buf = warp_xrealloc(NULL, *cap);
    }
    (*buf)[n] = 0;
    char *hash = strchr(*buf, '#');
    if (hash)
        *hash = 0;
    return 1;
}

static int blank(const char *s)
{
    return s[strspn(s, " \t\r")] == 0;
}

/* Parses one integer field; returns the position after it or NULL. */
static const char *num(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || errno == ERANGE || x < lo || x > hi)
        return NULL;
    *v = x;
    return end;
}

static const char *unum(const char *s, uint64_t *v)
{
    char *end;
    if (*s == '-')
        return NULL;
    errno = 0;
    unsigned long long x = strtoull(s, &end, 10);
    if (end == s || errno == ERANGE)
        return NULL;
    *v = x;
    return end;
}

/* Parses one task line into r; returns 0 or an error message. */
static const char *parse_task(char *line, replay_rank *r, int32_t nranks)
{
    char *save = NULL;
    char *w = strtok_r(line, " \t\r", &save);
    uint64_t dur;
    const char *e = unum(w, &dur);
    if (!e || *e)
        return "expected the task's duration in ns first";
    uint32_t t = replay_add_task(r, dur, 0, 0, 0);
    while ((w = strtok_r(NULL, " \t\r", &save))) {
        char *eq = strchr(w, '=');
        if (!eq)
            return "expected key=value fields (recv=, req=, ireq=, send=, cpu=, nic=, wait=)";
        *eq = 0;
        const char *v = eq + 1;
        int64_t a, b;
        uint64_t bytes;
        if (!strcmp(w, "recv")) {
            if (r->tasks[t].flags & REPLAY_TRIGGERED)
                return "a task has at most one recv=";
            if (!(v = num(v, -1, nranks - 1, &a)) || *v++ != ':' || !(v = num(v, -1, INT32_MAX, &b)) || *v)
                return "recv= needs SRC:TAG (SRC a rank or -1, TAG >= -1)";
            r->tasks[t].flags |= REPLAY_TRIGGERED;
            r->tasks[t].trig_src = (int32_t)a;
            r->tasks[t].trig_tag = (int32_t)b;
        } else if (!strcmp(w, "req") || !strcmp(w, "ireq")) {
            for (;;) {
                if (!(v = num(v, 0, (int64_t)t - 1 + (1LL << 31), &a)))
                    return "req=/ireq= need comma-separated task indices";
                replay_add_dep(r, t, (uint32_t)a, w[0] == 'i');
                if (!*v)
                    break;
                if (*v++ != ',')
                    return "req=/ireq= need comma-separated task indices";
            }
        } else if (!strcmp(w, "send")) {
            if (!(v = num(v, 0, nranks - 1, &a)) || *v++ != ':' || !(v = unum(v, &bytes)) ||
                *v++ != ':' || !(v = num(v, 0, INT32_MAX, &b)) || *v)
                return "send= needs DST:BYTES:TAG (DST an existing rank, TAG >= 0)";
            replay_add_msg(r, t, (int32_t)a, bytes, (int32_t)b);
        } else if (!strcmp(w, "cpu") || !strcmp(w, "nic")) {
            if (!(v = num(v, 0, 255, &a)) || *v)
                return "cpu=/nic= need a number 0..255";
            if (w[0] == 'c')
                r->tasks[t].cpu = (uint8_t)a;
            else
                r->tasks[t].nic = (uint8_t)a;
        } else if (!strcmp(w, "wait")) {
            if (strcmp(v, "1"))
                return "wait= takes 1 (the duration passes without the CPU)";
            r->tasks[t].flags |= REPLAY_WAIT;
        } else {
            return "unknown field (known: recv=, req=, ireq=, send=, cpu=, nic=, wait=)";
        }
    }
    return NULL;
}

static int text_load(replay_source *s, int32_t rank, replay_rank *out, replay_err *err)
{
    native_file *nf = s->impl;
    FILE *f = nf_file(s, err);
    if (!f)
        return -1;
    char *buf = NULL;
    size_t cap = 0;
    long line = nf->line[rank];
    int rc = -1;
    replay_rank_begin(out, rank);
    if (fseek(f, nf->pos[rank], SEEK_SET) != 0 || !read_line(f, &buf, &cap)) {
        replay_errf(err, "%s:%ld: cannot re-read rank %d; was the file changed?", s->path, line, rank);
        goto out;
    }
    int64_t r, ntasks;
    const char *p = buf + strspn(buf, " \t");
    p = num(p + 4, 0, INT32_MAX, &r);
    p = p ? num(p, 0, INT32_MAX, &ntasks) : NULL;
    if (!p || r != rank) {
        replay_errf(err, "%s:%ld: expected 'rank %d NTASKS'", s->path, line, rank);
        goto out;
    }
    while (out->ntasks < (uint64_t)ntasks) {
        line++;
        if (!read_line(f, &buf, &cap)) {
            replay_errf(err, "%s:%ld: file ends after %u of the %" PRId64 " tasks of rank %d", s->path,
                        line, out->ntasks, ntasks, rank);
            goto out;
        }
        if (blank(buf))
            continue;
        if (strncmp(buf + strspn(buf, " \t"), "rank", 4) == 0) {
            replay_errf(err, "%s:%ld: rank %d announces %" PRId64 " tasks but has %u", s->path,
                        line, rank, ntasks, out->ntasks);
            goto out;
        }
        const char *msg = parse_task(buf, out, s->nranks);
        if (msg) {
            replay_errf(err, "%s:%ld: %s", s->path, line, msg);
            goto out;
        }
    }
    char place[600];
    snprintf(place, sizeof place, "%s:%ld", s->path, nf->line[rank]);
    rc = replay_rank_end(out, place, err);
out:
    free(buf);
    if (rc)
        replay_rank_free(out);
    return rc;
}

static int text_open(FILE *f, const char *path, native_file *nf, int32_t *nranks, replay_err *err)
{
    char *buf = NULL;
    size_t cap = 0;
    long line = 0, at;
    int rc = -1;
    int64_t n = -1, version;
    int32_t next = 0;
    int seen_magic = 0;
    rewind(f);
    for (;;) {
        at = ftell(f);
        if (!read_line(f, &buf, &cap))
            break;
        line++;
        if (blank(buf))
            continue;
        const char *p = buf + strspn(buf, " \t");
        if (!seen_magic) {
            seen_magic = 1;
            const char *q = strncmp(p, TEXT_MAGIC " text", 18) == 0 ? num(p + 18, 1, 1, &version) : NULL;
            if (!q || !blank(q)) {
                replay_errf(err, "%s:%ld: expected 'warpnet-trace text 1' (a native text trace)",
                            path, line);
                goto out;
            }
            continue;
        }
        if (n < 0) {
            const char *q = strncmp(p, "ranks", 5) == 0 ? num(p + 5, 1, INT32_MAX, &n) : NULL;
            if (!q || !blank(q)) {
                replay_errf(err, "%s:%ld: expected 'ranks N'", path, line);
                goto out;
            }
            if (n > nf->size / 8) { /* each rank needs a "rank R T" line */
                replay_errf(err, "%s:%ld: 'ranks %" PRId64 "' but the file (%ld bytes) cannot hold "
                            "that many rank blocks; the file is truncated or corrupt", path, line, n,
                            nf->size);
                goto out;
            }
            nf->pos = warp_xcalloc((size_t)n + 1, sizeof *nf->pos);
            nf->line = warp_xcalloc((size_t)n + 1, sizeof *nf->line);
            continue;
        }
        if (strncmp(p, "rank", 4) == 0 && (p[4] == ' ' || p[4] == '\t')) {
            int64_t r;
            if (!num(p + 4, 0, INT32_MAX, &r) || r != next) {
                replay_errf(err, "%s:%ld: rank line out of order (expected 'rank %d NTASKS')", path,
                            line, next);
                goto out;
            }
            if (next >= n) {
                replay_errf(err, "%s:%ld: more rank blocks than 'ranks %" PRId64 "'", path, line, n);
                goto out;
            }
            nf->pos[next] = at;
            nf->line[next] = line;
            next++;
        }
    }
    if (n < 0 || next != n) {
        replay_errf(err, "%s:%ld: file ends after %d of %" PRId64 " rank blocks", path, line, next,
                    n < 0 ? (int64_t)0 : n);
        goto out;
    }
    *nranks = (int32_t)n;
    rc = 0;
out:
    free(buf);
    return rc;
}

/* ---- binary reader ---------------------------------------------------------- */

static int bin_load(replay_source *s, int32_t rank, replay_rank *out, replay_err *err)
{
    native_file *nf = s->impl;
    long at = nf->pos[rank], len = nf->pos[rank + 1] - at;
    FILE *f = nf_file(s, err);
    if (!f)
        return -1;
    uint8_t *b = NULL;
    int rc = -1;
    replay_rank_begin(out, rank);
    b = warp_xrealloc(NULL, len ? (size_t)len : 1); /* read over whole: not cleared */
    if (fseek(f, at, SEEK_SET) != 0 || fread(b, 1, (size_t)len, f) != (size_t)len) {
        replay_errf(err, "%s: truncated record of rank %d at byte %ld (file ends at %ld)", s->path,
                    rank, at, nf->size);
        goto out;
    }
    if (len < BIN_RANK_HEAD) {
        replay_errf(err, "%s: record of rank %d at byte %ld has %ld bytes, less than its %d-byte "
                    "head; the file is corrupt", s->path, rank, at, len, BIN_RANK_HEAD);
        goto out;
    }
    uint64_t nt = get_le(b, 4), nd = get_le(b + 4, 4), nm = get_le(b + 8, 4);
    if ((uint64_t)len != BIN_RANK_HEAD + nt * BIN_TASK_BYTES + nd * 4 + nm * 16) {
        replay_errf(err, "%s: record of rank %d at byte %ld has %ld bytes, but its counts (%" PRIu64
                    " tasks, %" PRIu64 " deps, %" PRIu64 " messages) need %" PRIu64 "; the file is corrupt",
                    s->path, rank, at, len, nt, nd, nm, BIN_RANK_HEAD + nt * BIN_TASK_BYTES + nd * 4 + nm * 16);
        goto out;
    }
    out->ntasks = out->cap_tasks = (uint32_t)nt;
    out->ndeps = (uint32_t)nd;
    out->nmsgs = (uint32_t)nm;
    out->tasks = warp_xcalloc(nt, sizeof *out->tasks);
    out->deps = warp_xrealloc(NULL, (nd ? nd : 1) * sizeof *out->deps); /* decoded over whole */
    out->msgs = warp_xrealloc(NULL, (nm ? nm : 1) * sizeof *out->msgs);
    const uint8_t *p = b + BIN_RANK_HEAD;
    for (uint64_t i = 0; i < nt; i++, p += BIN_TASK_BYTES) {
        replay_task *t = &out->tasks[i];
        t->dur_ns = get_le(p, 8);
        t->trig_src = (int32_t)get_le(p + 8, 4);
        t->trig_tag = (int32_t)get_le(p + 12, 4);
        t->dep_end = (uint32_t)get_le(p + 16, 4);
        t->msg_end = (uint32_t)get_le(p + 20, 4);
        t->flags = p[24];
        t->cpu = p[25];
        t->nic = p[26];
    }
    for (uint64_t k = 0; k < nd; k++, p += 4)
        out->deps[k] = (uint32_t)get_le(p, 4);
    for (uint64_t k = 0; k < nm; k++, p += 16) {
        out->msgs[k].bytes = get_le(p, 8);
        out->msgs[k].dst = (int32_t)get_le(p + 8, 4);
        out->msgs[k].tag = (int32_t)get_le(p + 12, 4);
        if (out->msgs[k].dst < 0 || out->msgs[k].dst >= s->nranks) {
            replay_errf(err, "%s: rank %d: message %" PRIu64 " goes to rank %d of only %d; the file "
                        "is corrupt", s->path, rank, k, out->msgs[k].dst, s->nranks);
            goto out;
        }
    }
    char place[600];
    snprintf(place, sizeof place, "%s: record at byte %ld", s->path, at);
    rc = replay_rank_validate(out, place, err);
out:
    free(b);
    if (rc)
        replay_rank_free(out);
    return rc;
}

static int bin_open(FILE *f, const char *path, native_file *nf, int32_t *nranks, replay_err *err)
{
    uint8_t h[16];
    if (fseek(f, 0, SEEK_SET) != 0 || fread(h, 1, 16, f) != 16)
        return replay_errf(err, "%s: truncated header (file has %ld bytes)", path, nf->size);
    uint32_t version = (uint32_t)get_le(h + 8, 4), n = (uint32_t)get_le(h + 12, 4);
    if (version != 1)
        return replay_errf(err, "%s: binary trace version %u is not supported (only 1)", path, version);
    if (n == 0 || n > INT32_MAX || 16 + ((long)n + 1) * 8 > nf->size)
        return replay_errf(err, "%s: %u ranks announced but the file (%ld bytes) cannot hold their "
                           "index; the file is truncated or corrupt", path, n, nf->size);
    nf->pos = warp_xcalloc((size_t)n + 1, sizeof *nf->pos);
    long prev = 16 + ((long)n + 1) * 8;
    for (uint32_t r = 0; r <= n; r++) {
        uint8_t b[8];
        if (fread(b, 1, 8, f) != 8)
            return replay_errf(err, "%s: truncated index", path);
        uint64_t v = get_le(b, 8);
        if (v < (uint64_t)prev || v > (uint64_t)nf->size || (r == n && v != (uint64_t)nf->size))
            return replay_errf(err, "%s: index entry %u (byte %" PRIu64 ") is out of order or beyond "
                               "the file end (%ld); the file is truncated or corrupt", path, r, v, nf->size);
        nf->pos[r] = (long)v;
        prev = (long)v;
    }
    *nranks = (int32_t)n;
    return 0;
}

/* ---- source ----------------------------------------------------------------- */

static void native_close(replay_source *s)
{
    native_file *nf = s->impl;
    if (nf->fp)
        fclose(nf->fp);
    free(nf->pos);
    free(nf->line);
    free(nf);
}

static const replay_source_ops text_ops = {"native", text_load, native_close, NULL, NULL, NULL, NULL};
static const replay_source_ops bin_ops = {"native", bin_load, native_close, NULL, NULL, NULL, NULL};

static int native_open(const char *path, const void *opts, replay_source **out, replay_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return replay_errf(err, "%s: cannot open: %s; check the trace path", path, strerror(errno));
    native_file *nf = warp_xcalloc(1, sizeof *nf);
    char head[16] = {0};
    size_t got = fread(head, 1, sizeof head, f);
    fseek(f, 0, SEEK_END);
    nf->size = ftell(f);
    int32_t n = 0;
    int rc;
    if (got >= 8 && memcmp(head, BIN_MAGIC, 8) == 0) {
        nf->binary = 1;
        rc = bin_open(f, path, nf, &n, err);
    } else {
        rc = text_open(f, path, nf, &n, err);
    }
    fclose(f);
    if (rc) {
        native_close(&(replay_source){.impl = nf});
        return -1;
    }
    *out = replay_source_new(nf->binary ? &bin_ops : &text_ops, path, NULL, 0, n, nf);
    return 0;
}

/* ---- writers ---------------------------------------------------------------- */

static void write_text_rank(FILE *f, const replay_rank *r)
{
    fprintf(f, "rank %d %u\n", r->rank, r->ntasks);
    for (uint32_t i = 0; i < r->ntasks; i++) {
        const replay_task *t = &r->tasks[i];
        fprintf(f, "%" PRIu64, t->dur_ns);
        if (t->flags & REPLAY_TRIGGERED)
            fprintf(f, " recv=%d:%d", t->trig_src, t->trig_tag);
        for (int start = 0; start < 2; start++) {
            int any = 0;
            for (uint32_t k = replay_dep_begin(r, i); k < t->dep_end; k++)
                if (((r->deps[k] & REPLAY_DEP_START) != 0) == start)
                    fprintf(f, "%s%u", any++ ? "," : start ? " ireq=" : " req=", REPLAY_DEP_INDEX(r->deps[k]));
        }
        for (uint32_t k = replay_msg_begin(r, i); k < t->msg_end; k++)
            fprintf(f, " send=%d:%" PRIu64 ":%d", r->msgs[k].dst, r->msgs[k].bytes, r->msgs[k].tag);
        if (t->cpu)
            fprintf(f, " cpu=%u", t->cpu);
        if (t->nic)
            fprintf(f, " nic=%u", t->nic);
        if (t->flags & REPLAY_WAIT)
            fputs(" wait=1", f);
        fputc('\n', f);
    }
}

static int write_bin_rank(FILE *f, const replay_rank *r)
{
    uint8_t h[BIN_RANK_HEAD] = {0}, b[BIN_TASK_BYTES];
    put_le(h, r->ntasks, 4);
    put_le(h + 4, r->ndeps, 4);
    put_le(h + 8, r->nmsgs, 4);
    int ok = fwrite(h, 1, sizeof h, f) == sizeof h;
    for (uint32_t i = 0; ok && i < r->ntasks; i++) {
        const replay_task *t = &r->tasks[i];
        memset(b, 0, sizeof b);
        put_le(b, t->dur_ns, 8);
        put_le(b + 8, (uint32_t)t->trig_src, 4);
        put_le(b + 12, (uint32_t)t->trig_tag, 4);
        put_le(b + 16, t->dep_end, 4);
        put_le(b + 20, t->msg_end, 4);
        b[24] = t->flags;
        b[25] = t->cpu;
        b[26] = t->nic;
        ok = fwrite(b, 1, BIN_TASK_BYTES, f) == BIN_TASK_BYTES;
    }
    for (uint32_t k = 0; ok && k < r->ndeps; k++) {
        put_le(b, r->deps[k], 4);
        ok = fwrite(b, 1, 4, f) == 4;
    }
    for (uint32_t k = 0; ok && k < r->nmsgs; k++) {
        put_le(b, r->msgs[k].bytes, 8);
        put_le(b + 8, (uint32_t)r->msgs[k].dst, 4);
        put_le(b + 12, (uint32_t)r->msgs[k].tag, 4);
        ok = fwrite(b, 1, 16, f) == 16;
    }
    return ok ? 0 : -1;
}

int replay_native_write(const char *path, int binary, replay_source *src, replay_err *err)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return replay_errf(err, "%s: cannot create: %s", path, strerror(errno));
    int32_t n = src->nranks;
    uint64_t *index = NULL;
    int rc = -1;
    if (binary) {
        uint8_t h[16] = {0};
        memcpy(h, BIN_MAGIC, 8);
        put_le(h + 8, 1, 4);
        put_le(h + 12, (uint32_t)n, 4);
        index = warp_xcalloc((size_t)n + 1, sizeof *index);
        fwrite(h, 1, 16, f);
        fseek(f, 16 + ((long)n + 1) * 8, SEEK_SET);
    } else {
        fprintf(f, TEXT_MAGIC " text 1\n# converted from %s (%s)\nranks %d\n", src->path,
                src->ops->format, n);
    }
    for (int32_t q = 0; q < n; q++) {
        replay_rank r;
        if (replay_source_load(src, q, &r, err))
            goto out;
        if (binary) {
            index[q] = (uint64_t)ftell(f);
            if (write_bin_rank(f, &r)) {
                replay_rank_free(&r);
                rc = replay_errf(err, "%s: write failed: %s", path, strerror(errno));
                goto out;
            }
        } else {
            write_text_rank(f, &r);
        }
        replay_rank_free(&r);
    }
    if (binary) {
        index[n] = (uint64_t)ftell(f);
        fseek(f, 16, SEEK_SET);
        for (int32_t q = 0; q <= n; q++) {
            uint8_t b[8];
            put_le(b, index[q], 8);
            fwrite(b, 1, 8, f);
        }
    }
    rc = 0;
out:
    free(index);
    if (ferror(f) && rc == 0)
        rc = replay_errf(err, "%s: write failed: %s", path, strerror(errno));
    if (fclose(f) != 0 && rc == 0)
        rc = replay_errf(err, "%s: write failed: %s", path, strerror(errno));
    return rc;
}

/* Anything no other reader claims: the native format (text or binary). */
static int native_sniff(const char *path) { return 1; }

const replay_reader replay_reader_native = {
    .name = "native",
    .sniff = native_sniff,
    .open = native_open,
};
