/* bigsim.c — reader of BigSim traces (bgTrace + bgTraceN), FORMATS.md §1.
 * Invariant: every byte is read through a bounds-checked cursor, so a corrupt
 * or truncated file yields one message naming file, PE, record and byte, never
 * a crash. open() reads the summary, every file's header and offset table and
 * PE 0's timeline (for the start-event skip); load(pe) reads only that PE's
 * timeline. Called through replay_source_open. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/bigsim.h"
#include "replay/readers/source.h"
#include "warp_error.h"
#include "warp_ini.h"

/* The reader's options (its keys below). */
typedef struct bigsim_opts {
    uint64_t ampi_overhead_ns; /* duration of AMPI_* bookkeeping tasks (TraceR's soft delay) */
    int keep_init;             /* 1 keeps the initialisation phase TraceR skips */
} bigsim_opts;

#define BS_MAGIC 0xF9BDEA10u /* bytes 10 EA BD F9 read little-endian */
#define BS_MAX_LOG_VERSION 6

typedef struct bs_layout {
    int int_swap;   /* integers need byte swapping */
    int float_swap; /* doubles need byte swapping */
} bs_layout;

typedef struct bs_file {
    char *path;
    bs_layout lay;
    long size;
    int32_t nlocal;
    int32_t *offsets; /* per local PE */
} bs_file;

typedef struct bs_trace {
    int32_t total_pes, num_wth, num_nodes, nfiles, log_version;
    bs_file *files;  /* nfiles once open; while opening, the first nfiles_read */
    int32_t nfiles_read;
    int32_t skip_msg_id; /* msgID of the start broadcast, -1 if none */
} bs_trace;

/* A bounds-checked reading position in one file. */
typedef struct bs_cur {
    FILE *f;
    const bs_file *file;
    long pos;
} bs_cur;

static int host_little(void)
{
    const uint16_t one = 1;
    return *(const uint8_t *)&one == 1;
}

static void swap_bytes(void *p, size_t n)
{
    uint8_t *b = p;
    for (size_t i = 0; i < n / 2; i++) {
        uint8_t t = b[i];
        b[i] = b[n - 1 - i];
        b[n - 1 - i] = t;
    }
}

/* Reads n raw bytes; 0 on short read (the caller reports the context). */
static int cur_raw(bs_cur *c, void *dst, size_t n)
{
    if (c->pos + (long)n > c->file->size)
        return 0;
    if (fread(dst, 1, n, c->f) != n)
        return 0;
    c->pos += (long)n;
    return 1;
}

static int cur_int(bs_cur *c, void *dst, size_t n)
{
    if (!cur_raw(c, dst, n))
        return 0;
    if (c->file->lay.int_swap)
        swap_bytes(dst, n);
    return 1;
}

static int cur_i32(bs_cur *c, int32_t *v) { return cur_int(c, v, 4); }
static int cur_i16(bs_cur *c, int16_t *v) { return cur_int(c, v, 2); }

static int cur_f64(bs_cur *c, double *v)
{
    if (!cur_raw(c, v, 8))
        return 0;
    if (c->file->lay.float_swap)
        swap_bytes(v, 8);
    return 1;
}

static int cur_skip(bs_cur *c, long n)
{
    if (n < 0 || c->pos + n > c->file->size)
        return 0;
    if (fseek(c->f, c->pos + n, SEEK_SET) != 0)
        return 0;
    c->pos += n;
    return 1;
}

static int cur_seek(bs_cur *c, long at)
{
    if (at < 0 || at > c->file->size || fseek(c->f, at, SEEK_SET) != 0)
        return 0;
    c->pos = at;
    return 1;
}

static int open_file(bs_cur *c, const bs_file *file, replay_err *err)
{
    c->file = file;
    c->pos = 0;
    c->f = fopen(file->path, "rb");
    if (!c->f)
        return replay_errf(err, "%s: cannot open: %s; check the trace directory", file->path,
                           strerror(errno));
    return 0;
}

/* Checks the 16-byte header and fills lay. */
static int read_header(bs_cur *c, bs_layout *lay, replay_err *err)
{
    const char *p = c->file->path;
    uint8_t h[16];
    if (!cur_raw(c, h, 16))
        return replay_errf(err, "%s: truncated header (file has %ld bytes, the header needs 16); "
                           "the file is not a complete BigSim trace", p, c->file->size);
    if (!(h[0] == 0x10 && h[1] == 0xEA && h[2] == 0xBD && h[3] == 0xF9))
        return replay_errf(err, "%s: wrong magic %02x %02x %02x %02x at byte 0 (expected 10 ea bd f9); "
                           "not a BigSim trace file", p, h[0], h[1], h[2], h[3]);
    int ver = h[4];
    if (ver != 0 && ver != 1)
        return replay_errf(err, "%s: header version %d at byte 4 is not supported (only 0 and 1)", p, ver);
    /* Field positions differ only by the int128 size byte of version 1. */
    int k = ver == 1 ? 1 : 0;
    int sz_char = h[5], sz_short = h[6], sz_int = h[7];
    int int_order = h[9 + k], sz_float = h[10 + k], sz_double = h[11 + k], float_order = h[12 + k];
    if (sz_char != 1 || sz_short != 2 || sz_int != 4 || sz_double != 8 || sz_float != 4)
        return replay_errf(err, "%s: unsupported type sizes (char %d, short %d, int %d, float %d, "
                           "double %d; need 1, 2, 4, 4, 8); re-record the trace on a common ABI",
                           p, sz_char, sz_short, sz_int, sz_float, sz_double);
    if (int_order > 1 || float_order > 1)
        return replay_errf(err, "%s: byte order codes %d/%d in the header are invalid (0 big, 1 little)",
                           p, int_order, float_order);
    int little = host_little();
    lay->int_swap = int_order != little;
    lay->float_swap = float_order != little;
    return 0;
}

static long file_size(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    long n = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        n = ftell(f);
    fclose(f);
    return n;
}

static char *join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = warp_xcalloc(n, 1);
    snprintf(p, n, "%s/%s", dir, name);
    return p;
}

/* Number of PEs stored in file e: nodes e, e+E, ... times numWth. */
static int32_t pes_in_file(const bs_trace *t, int32_t e)
{
    int32_t nodes = t->num_nodes / t->nfiles + (e < t->num_nodes % t->nfiles ? 1 : 0);
    return nodes * t->num_wth;
}

/* ---- one timeline ---------------------------------------------------------- */

/* Names whose duration TraceR sets to zero (MPI bookkeeping of AMPI/BigSim). */
static const char *const zero_names[] = {
    "AMPI_START", "AMPI_generic", "AMPI_Recv", "AMPI_Irecv", "AMPI_SEND", "AMPI_SEND_END",
    "ATAReq_wait", "RECV_RESUME", "SPLIT_RESUME", "PROBE_RESUME", "IPROBE_RESUME", "msgep",
    "GroupReduce", "start-broadcast", "split-broadcast", "end-broadcast", "AMPI_WAIT",
    "AMPI_WAITALL", "AMPI_BgSetEndEvent", "AMPI_BgLoopToStart",
};

static uint64_t task_duration(const char *name, double exec_s, const bigsim_opts *o)
{
    for (size_t i = 0; i < sizeof zero_names / sizeof zero_names[0]; i++)
        if (strcmp(name, zero_names[i]) == 0)
            return 0;
    if (strncmp(name, "AMPI_", 5) == 0)
        return o->ampi_overhead_ns;
    if (!(exec_s > 0)) /* negative, zero or NaN */
        return 0;
    double ns = exec_s * 1e9;
    return ns >= 1.8e19 ? UINT64_MAX : (uint64_t)llround(ns);
}

/* One decoded message entry, with its destination as PE range(s). */
typedef struct bs_msg {
    int32_t id, dst_node, size;
    int16_t tid;
} bs_msg;

/* Expands a message entry into PE destinations and adds them to task ti. */
static int add_msg_dests(const bs_trace *t, replay_rank *r, uint32_t ti, const bs_msg *m, int emit)
{
    int32_t first_node, last_node, except = -1;
    if (m->dst_node >= 0) {
        first_node = last_node = m->dst_node;
    } else if (m->dst_node == -1) {
        first_node = 0;
        last_node = t->num_nodes - 1;
    } else if (m->dst_node <= -100) {
        except = -100 - m->dst_node;
        first_node = 0;
        last_node = t->num_nodes - 1;
    } else {
        return -1;
    }
    if (!emit)
        return 0;
    for (int32_t n = first_node; n <= last_node; n++) {
        if (n == except)
            continue;
        int32_t t0 = m->tid >= 0 ? m->tid : 0, t1 = m->tid >= 0 ? m->tid : t->num_wth - 1;
        for (int32_t th = t0; th <= t1; th++)
            replay_add_msg(r, ti, n * t->num_wth + th, (uint64_t)m->size, m->id);
    }
    return 0;
}

/* Reports a task record that runs past the end of its file. */
static int trunc_rec(replay_err *err, const bs_file *f, int32_t i, int32_t pe, long rec, const char *what,
                     long at)
{
    return replay_errf(err, "%s: truncated task record %d of PE %d at byte %ld (file ends at %ld; "
                       "%s at byte %ld)", f->path, i, pe, rec, f->size, what, at);
}

/* Reading one PE's timeline: where it is, what it fills, what went wrong. */
typedef struct bs_reader {
    const bs_trace *t;
    const bigsim_opts *o;
    const bs_file *file;
    bs_cur c;
    int32_t pe;
    replay_rank *r;             /* NULL: only count */
    replay_bigsim_counts *cnt;
    int32_t *start_msg;         /* PE 0 when opening: the start broadcast's message, else NULL */
    int32_t count;              /* task records */
    int32_t first;              /* first kept record; -1 until the start skip finds it */
    replay_err *err;
} bs_reader;

/* One task record as far as the replay needs it. */
typedef struct bs_task {
    long rec;                   /* byte where the record starts */
    int32_t i, mpe, mid, nmsgs;
    double times[5];
    char flag, name[21];
    int keep;                   /* after the start skip */
    uint32_t ti;                /* its task in r, when kept */
} bs_task;

/* Seeks to the PE's timeline and reads its record count. */
static int timeline_header(bs_reader *b, int32_t local)
{
    const bs_file *file = b->file;
    long off = file->offsets[local];
    if (off < 16 || !cur_seek(&b->c, off))
        return replay_errf(b->err, "%s: offset %ld of PE %d (local index %d) lies outside the file "
                           "(%ld bytes); the offset table is corrupt", file->path, off, b->pe, local,
                           file->size);
    if (!cur_i32(&b->c, &b->count))
        return replay_errf(b->err, "%s: truncated timeline header of PE %d at byte %ld (file ends "
                           "at %ld)", file->path, b->pe, off, file->size);
    /* A task record takes at least 90 bytes; more records than fit is corruption. */
    if (b->count < 0 || (long)b->count > (file->size - b->c.pos) / 90 + 1)
        return replay_errf(b->err, "%s: PE %d claims %d task records at byte %ld but only %ld bytes "
                           "follow; the file is truncated or corrupt", file->path, b->pe, b->count,
                           off, file->size - b->c.pos);
    return 0;
}

/* Reads a record's fixed fields (up to its message count) and checks them. */
static int task_fields(bs_reader *b, bs_task *k)
{
    bs_cur *c = &b->c;
    int v = b->t->log_version;
    int32_t ep, seqno;
    uint16_t mpi_op;
    uint32_t mpi_size;
    int16_t charm_ep;
    int ok = cur_i32(c, &ep) && cur_i32(c, &seqno) && cur_i32(c, &k->mpe) && cur_i32(c, &k->mid);
    if (ok && v >= 6)
        ok = cur_int(c, &mpi_op, 2) && cur_int(c, &mpi_size, 4);
    if (ok && v >= 4)
        ok = cur_i16(c, &charm_ep);
    for (int j = 0; ok && j < 5; j++)
        ok = cur_f64(c, &k->times[j]);
    ok = ok && cur_raw(c, &k->flag, 1) && cur_raw(c, k->name, 20);
    if (ok && v >= 2)
        ok = cur_skip(c, v == 2 ? 12 : 16);
    ok = ok && cur_i32(c, &k->nmsgs);
    if (!ok)
        return trunc_rec(b->err, b->file, k->i, b->pe, k->rec, "its fixed fields end", c->pos);
    k->name[20] = 0;
    const char *fp = b->file->path;
    if (seqno != k->i)
        return replay_errf(b->err, "%s: task record %d of PE %d at byte %ld has seqno %d (expected "
                           "%d); the timeline is corrupt", fp, k->i, b->pe, k->rec, seqno, k->i);
    if (k->mpe >= b->t->total_pes || (k->mpe >= 0 && k->mid < 0))
        return replay_errf(b->err, "%s: task record %d of PE %d at byte %ld is triggered by message "
                           "%d of PE %d, outside the %d PEs of the trace", fp, k->i, b->pe, k->rec,
                           k->mid, k->mpe, b->t->total_pes);
    if (k->nmsgs < 0)
        return replay_errf(b->err, "%s: task record %d of PE %d at byte %ld has a negative message "
                           "count (%d); the file is corrupt", fp, k->i, b->pe, k->rec, k->nmsgs);
    if ((long)k->nmsgs > (b->file->size - c->pos) / 30)
        return trunc_rec(b->err, b->file, k->i, b->pe, k->rec, "its message entries start", c->pos);
    return 0;
}

/* Applies the start skip to the record and adds it to r when kept. */
static int keep_task(bs_reader *b, bs_task *k)
{
    const bigsim_opts *o = b->o;
    int skip = !o->keep_init && b->t->skip_msg_id >= 0;
    /* The start skip: tasks before the one the start broadcast triggers are done. */
    if (b->first < 0 && k->mpe == 0 && k->mid == b->t->skip_msg_id)
        b->first = k->i;
    k->keep = b->first >= 0;
    if (k->keep) {
        b->cnt->kept++;
        if (b->r) {
            int trig = k->mpe >= 0 && !(k->i == b->first && skip);
            k->ti = replay_add_task(b->r, task_duration(k->name, k->times[3], o),
                                    trig ? REPLAY_TRIGGERED : 0, k->mpe, k->mid);
        }
    }
    if (b->start_msg && (k->flag & 1) && *b->start_msg < 0 && k->nmsgs == 0)
        return replay_errf(b->err, "%s: the start event (task record %d of PE %d) sends no message; "
                           "cannot locate the end of initialisation (use keep_init)", b->file->path,
                           k->i, b->pe);
    return 0;
}

/* Reads the record's message entries and adds the kept ones' destinations. */
static int task_messages(bs_reader *b, const bs_task *k)
{
    const bs_trace *t = b->t;
    const char *fp = b->file->path;
    for (int32_t j = 0; j < k->nmsgs; j++) {
        long at = b->c.pos;
        bs_msg m;
        double st, rt;
        int32_t group;
        int ok = cur_i32(&b->c, &m.id) && cur_i32(&b->c, &m.dst_node) && cur_f64(&b->c, &st) &&
                 cur_f64(&b->c, &rt) && cur_i16(&b->c, &m.tid) && cur_i32(&b->c, &m.size);
        if (ok && t->log_version > 0)
            ok = cur_i32(&b->c, &group);
        if (!ok)
            return trunc_rec(b->err, b->file, k->i, b->pe, k->rec, "a message entry starts", at);
        int bad_dst = m.dst_node >= t->num_nodes || (m.dst_node < -1 && m.dst_node > -100) ||
                      (m.dst_node <= -100 && -100 - m.dst_node >= t->num_nodes);
        if (m.dst_node == -2)
            return replay_errf(b->err, "%s: message entry %d of task record %d of PE %d at byte %ld "
                               "is a multicast (dstNode -2), which the replay does not support (as "
                               "TraceR)", fp, j, k->i, b->pe, at);
        if (bad_dst || m.tid < -1 || m.tid >= t->num_wth || m.size < 0 || m.id < 0)
            return replay_errf(b->err, "%s: message entry %d of task record %d of PE %d at byte %ld "
                               "is invalid (id %d, dstNode %d, thread %d, size %d for %d nodes x %d "
                               "threads); the file is corrupt", fp, j, k->i, b->pe, at, m.id,
                               m.dst_node, m.tid, m.size, t->num_nodes, t->num_wth);
        b->cnt->msg_entries++;
        if (b->start_msg && (k->flag & 1) && *b->start_msg < 0 && j == 0)
            *b->start_msg = m.id;
        if (k->keep)
            add_msg_dests(t, b->r, k->ti, &m, b->r != NULL);
    }
    return 0;
}

/* Skips the record's event list (the replay does not use it), checking it. */
static int task_events(bs_reader *b, const bs_task *k)
{
    const char *fp = b->file->path;
    int32_t nevts;
    if (!cur_i32(&b->c, &nevts) || (long)nevts > (b->file->size - b->c.pos) / 9)
        return trunc_rec(b->err, b->file, k->i, b->pe, k->rec, "its event list starts", b->c.pos);
    if (nevts < 0)
        return replay_errf(b->err, "%s: task record %d of PE %d at byte %ld has a negative event "
                           "count (%d); the file is corrupt", fp, k->i, b->pe, k->rec, nevts);
    for (int32_t j = 0; j < nevts; j++) {
        long at = b->c.pos;
        char type;
        double rt;
        int32_t val = 0;
        int ok = cur_raw(&b->c, &type, 1) && cur_f64(&b->c, &rt) && cur_i32(&b->c, &val);
        if (ok && type != 1 && type != 2 && type != 3)
            return replay_errf(b->err, "%s: event %d of task record %d of PE %d at byte %ld has "
                               "type %d (valid: 1, 2, 3); the file is corrupt", fp, j, k->i, b->pe,
                               at, type);
        if (ok && type != 1)
            ok = val >= 0 && cur_skip(&b->c, val);
        if (!ok && val < 0 && type != 1)
            return replay_errf(b->err, "%s: event %d of task record %d of PE %d at byte %ld has a "
                               "negative text length (%d); the file is corrupt", fp, j, k->i, b->pe,
                               at, val);
        if (!ok)
            return trunc_rec(b->err, b->file, k->i, b->pe, k->rec, "an event starts", at);
    }
    return 0;
}

/* Reads the record's backward dependencies (adding the kept ones) and checks
 * its forward ones. */
static int task_dependencies(bs_reader *b, const bs_task *k)
{
    const char *fp = b->file->path;
    for (int dir = 0; dir < 2; dir++) {
        int32_t n;
        long at = b->c.pos;
        if (!cur_i32(&b->c, &n) || (long)n > (b->file->size - b->c.pos) / 4)
            return trunc_rec(b->err, b->file, k->i, b->pe, k->rec,
                             dir ? "its forward dependencies start"
                                 : "its backward dependencies start", at);
        if (n < 0)
            return replay_errf(b->err, "%s: task record %d of PE %d at byte %ld has a negative "
                               "dependency count (%d); the file is corrupt", fp, k->i, b->pe,
                               k->rec, n);
        for (int32_t j = 0; j < n; j++) {
            int32_t d;
            if (!cur_i32(&b->c, &d))
                return trunc_rec(b->err, b->file, k->i, b->pe, k->rec, "a dependency starts",
                                 b->c.pos);
            /* A sign marks the dependency kind; INT32_MIN has no positive
             * twin and fails the range checks below as INT32_MAX. */
            d = d >= 0 ? d : d == INT32_MIN ? INT32_MAX : -d;
            if (dir == 1) {
                if (d >= b->count)
                    return replay_errf(b->err, "%s: task record %d of PE %d lists forward "
                                       "dependency %d beyond its %d tasks; the file is corrupt", fp,
                                       k->i, b->pe, d, b->count);
                continue;
            }
            if (d >= k->i)
                return replay_errf(b->err, "%s: task record %d of PE %d depends on task %d, which "
                                   "is not earlier on this PE; the file is corrupt", fp, k->i,
                                   b->pe, d);
            b->cnt->deps++;
            if (k->keep && b->r && d >= b->first)
                replay_add_dep(b->r, k->ti, (uint32_t)(d - b->first), 0);
        }
    }
    return 0;
}

/* Reads every task record of the timeline, in order. */
static int timeline_records(bs_reader *b)
{
    for (int32_t i = 0; i < b->count; i++) {
        bs_task k = {.rec = b->c.pos, .i = i};
        if (task_fields(b, &k) || keep_task(b, &k) || task_messages(b, &k) ||
            task_events(b, &k) || task_dependencies(b, &k))
            return -1;
    }
    return 0;
}

/* Reads the timeline of `pe`. With r == NULL only counts (and the start
 * message of PE 0) are gathered. */
static int read_timeline(const bs_trace *t, const bigsim_opts *o, int32_t pe, replay_rank *r,
                         replay_bigsim_counts *cnt, int32_t *start_msg, replay_err *err)
{
    int32_t node = pe / t->num_wth, thread = pe % t->num_wth;
    bs_reader b = {.t = t, .o = o, .file = &t->files[node % t->nfiles], .pe = pe, .r = r,
                   .cnt = cnt, .start_msg = start_msg, .err = err};
    int32_t local = (node / t->nfiles) * t->num_wth + thread;
    if (open_file(&b.c, b.file, err))
        return -1;
    memset(cnt, 0, sizeof *cnt);
    if (start_msg)
        *start_msg = -1;
    int rc = timeline_header(&b, local);
    if (!rc) {
        b.first = o->keep_init || t->skip_msg_id < 0 ? 0 : -1;
        cnt->tasks = (uint32_t)b.count;
        if (r)
            replay_rank_begin(r, pe);
        rc = timeline_records(&b);
    }
    if (!rc) {
        cnt->first = b.first < 0 ? (uint32_t)b.count : (uint32_t)b.first;
        if (r) {
            char place[600];
            snprintf(place, sizeof place, "%s: PE %d", b.file->path, pe);
            rc = replay_rank_end(r, place, err);
        }
    }
    fclose(b.c.f);
    if (rc && r)
        replay_rank_free(r);
    return rc;
}

/* ---- open / load / close --------------------------------------------------- */

static int bs_load(replay_source *s, int32_t rank, replay_rank *out, replay_err *err)
{
    replay_bigsim_counts cnt;
    return read_timeline(s->impl, s->opts, rank, out, &cnt, NULL, err);
}

static void free_trace(bs_trace *t)
{
    if (!t)
        return;
    for (int32_t e = 0; t->files && e < t->nfiles_read; e++) {
        free(t->files[e].path);
        free(t->files[e].offsets);
    }
    free(t->files);
    free(t);
}

static void bs_close(replay_source *s)
{
    free_trace(s->impl);
}

static const replay_source_ops bs_ops = {"bigsim", bs_load, bs_close, NULL, NULL, NULL, NULL};

/* Reads the summary file into t. */
static int read_summary(const char *dir, bs_trace *t, replay_err *err)
{
    bs_file sum = {.path = join(dir, "bgTrace")};
    sum.size = file_size(sum.path);
    int rc = -1;
    bs_cur c = {0};
    if (sum.size < 0) {
        replay_errf(err, "%s: cannot open the BigSim summary file; is %s a BigSim trace directory?",
                    sum.path, dir);
        goto out;
    }
    if (open_file(&c, &sum, err) || read_header(&c, &sum.lay, err))
        goto out;
    int32_t v[11];
    int n = 0;
    while (n < 11 && cur_i32(&c, &v[n]))
        n++;
    if (n < 9) {
        replay_errf(err, "%s: truncated summary at byte %ld (needs 9 integers after the header, "
                    "found %d)", sum.path, c.pos, n);
        goto out;
    }
    t->total_pes = v[0];
    t->num_wth = v[5];
    t->nfiles = v[8];
    t->log_version = n >= 10 ? v[9] : 0;
    if (t->total_pes <= 0 || t->num_wth <= 0 || t->total_pes % t->num_wth != 0 || t->nfiles <= 0) {
        replay_errf(err, "%s: inconsistent summary (%d PEs, %d worker threads per node, %d files); "
                    "the file is corrupt", sum.path, t->total_pes, t->num_wth, t->nfiles);
        goto out;
    }
    if (t->log_version < 0 || t->log_version > BS_MAX_LOG_VERSION) {
        replay_errf(err, "%s: log version %d is not supported (0..%d)", sum.path, t->log_version,
                    BS_MAX_LOG_VERSION);
        goto out;
    }
    t->num_nodes = t->total_pes / t->num_wth;
    if (t->nfiles > t->num_nodes) {
        replay_errf(err, "%s: %d per-process files for only %d nodes; the summary is corrupt",
                    sum.path, t->nfiles, t->num_nodes);
        goto out;
    }
    rc = 0;
out:
    if (c.f)
        fclose(c.f);
    free(sum.path);
    return rc;
}

/* Reads header and offset table of file e. */
static int read_file_table(const char *dir, bs_trace *t, int32_t e, replay_err *err)
{
    bs_file *f = &t->files[e];
    char name[32];
    snprintf(name, sizeof name, "bgTrace%d", e);
    f->path = join(dir, name);
    f->size = file_size(f->path);
    if (f->size < 0)
        return replay_errf(err, "%s: missing (the summary announces %d per-process files)", f->path,
                           t->nfiles);
    bs_cur c;
    if (open_file(&c, f, err))
        return -1;
    int rc = -1;
    if (read_header(&c, &f->lay, err))
        goto out;
    if (!cur_i32(&c, &f->nlocal)) {
        replay_errf(err, "%s: truncated offset table at byte 16 (file ends at %ld)", f->path, f->size);
        goto out;
    }
    int32_t want = pes_in_file(t, e);
    if (f->nlocal != want) {
        replay_errf(err, "%s: holds %d PEs at byte 16, but %d nodes x %d threads over %d files "
                    "put %d here; the file does not belong to this summary", f->path, f->nlocal,
                    t->num_nodes, t->num_wth, t->nfiles, want);
        goto out;
    }
    if ((long)f->nlocal > (f->size - 20) / 4) {
        replay_errf(err, "%s: the offset table of %d PEs needs %ld bytes after byte 20, but the file "
                    "has %ld; the file is truncated", f->path, f->nlocal, 4L * f->nlocal, f->size);
        goto out;
    }
    f->offsets = warp_xcalloc((size_t)f->nlocal, sizeof *f->offsets);
    for (int32_t i = 0; i < f->nlocal; i++)
        if (!cur_i32(&c, &f->offsets[i])) {
            replay_errf(err, "%s: truncated offset table at byte %ld (file ends at %ld)", f->path,
                        c.pos, f->size);
            goto out;
        }
    rc = 0;
out:
    fclose(c.f);
    return rc;
}

static int bigsim_open(const char *path, const void *opts, replay_source **out, replay_err *err)
{
    const bigsim_opts *o = opts;
    /* Accept the directory or the summary file itself. */
    char *dir = warp_xstrdup(path);
    size_t n = strlen(dir);
    if (n >= 7 && strcmp(dir + n - 7, "bgTrace") == 0) {
        dir[n - 7] = 0;
        if (n > 7 && dir[n - 8] == '/')
            dir[n - 8] = 0;
        if (!*dir)
            strcpy(dir, ".");
    }
    bs_trace *t = warp_xcalloc(1, sizeof *t);
    t->skip_msg_id = -1;
    int rc = read_summary(dir, t, err);
    /* The table grows with the files found: a summary announcing 2^31 files
     * fails on the first missing one instead of allocating for all. */
    for (int32_t e = 0, cap = 0; !rc && e < t->nfiles; e++) {
        if (e == cap) {
            cap = cap > t->nfiles / 2 ? t->nfiles : cap ? 2 * cap : (t->nfiles < 64 ? t->nfiles : 64);
            t->files = warp_xrealloc(t->files, (size_t)cap * sizeof *t->files);
            memset(t->files + e, 0, (size_t)(cap - e) * sizeof *t->files);
        }
        t->nfiles_read = e + 1;
        rc = read_file_table(dir, t, e, err);
    }
    if (!rc && !o->keep_init) {
        replay_bigsim_counts cnt;
        int32_t start = -1;
        rc = read_timeline(t, o, 0, NULL, &cnt, &start, err);
        t->skip_msg_id = start;
    }
    free(dir);
    if (rc) {
        free_trace(t);
        return -1;
    }
    *out = replay_source_new(&bs_ops, path, o, sizeof *o, t->total_pes, t);
    return 0;
}

int replay_bigsim_counts_of(replay_source *s, int32_t pe, replay_bigsim_counts *c, replay_err *err)
{
    if (strcmp(s->ops->format, "bigsim") != 0)
        return replay_errf(err, "%s: not a BigSim trace", s->path);
    if (pe < 0 || pe >= s->nranks)
        return replay_errf(err, "%s: PE %d does not exist (%d PEs)", s->path, pe, s->nranks);
    return read_timeline(s->impl, s->opts, pe, NULL, c, NULL, err);
}

int32_t replay_bigsim_start_msg(const replay_source *s)
{
    return ((const bs_trace *)s->impl)->skip_msg_id;
}

static const char *set_ampi_overhead(void *target, const char *v)
{
    double ns;
    const char *why;
    if (warp_parse_time_ns(v ? v : "", &ns, &why))
        return why;
    ((bigsim_opts *)target)->ampi_overhead_ns = (uint64_t)ns;
    return NULL;
}

static const char *set_keep_init(void *target, const char *v)
{
    return warp_cfg_flag(v, &((bigsim_opts *)target)->keep_init);
}

static const warp_cfg_opt bigsim_keys[] = {
    {"ampi_overhead", "TIME", "100ns", "BigSim: duration of AMPI_* bookkeeping tasks", set_ampi_overhead},
    {"keep_init", "BOOL", "0", "BigSim: keep the initialisation phase TraceR skips", set_keep_init},
    {0},
};

static const bigsim_opts bigsim_dflt = {.ampi_overhead_ns = 100, .keep_init = 0};

/* A directory holding the summary file bgTrace, or that file itself. */
static int bigsim_sniff(const char *path)
{
    return replay_dir_holds(path, "bgTrace") || replay_path_ends_with(path, "bgTrace") ? 2 : 0;
}

const replay_reader replay_reader_bigsim = {
    .name = "bigsim",
    .sniff = bigsim_sniff,
    .open = bigsim_open,
    .keys = bigsim_keys,
    .opts_size = sizeof(bigsim_opts),
    .dflt = &bigsim_dflt,
};
