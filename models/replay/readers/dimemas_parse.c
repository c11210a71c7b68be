/* dimemas_parse.c — line-level reading of Dimemas traces (dimemas_parse.h).
 * Invariant: a line either decodes completely — every field present, every
 * number whole and in range, every task and thread id existing — or fails
 * with one "FILE:LINE: ..." message. Called by dimemas.c at open and load. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/dimemas_parse.h"
#include "warp_error.h"

#define MAX_BURST_S 1e9 /* seconds; keeps a burst's nanoseconds far inside 64 bits */

/* ---- lines and fields -------------------------------------------------------- */

int dim_fail(dim_reader *rd, const char *fmt, ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return replay_errf(rd->err, "%s:%" PRIu64 ": %s", rd->path, rd->line, what);
}

/* Reads the next line: 1, 0 at end of file, -1 on a broken line. */
int dim_next_line(dim_reader *rd)
{
    errno = 0;
    ssize_t n = getline(&rd->buf, &rd->cap, rd->f);
    if (n < 0) {
        if (errno)
            return dim_fail(rd, "cannot read: %s", strerror(errno));
        return 0;
    }
    rd->line++;
    rd->pos = rd->next_pos;
    rd->next_pos += (uint64_t)n;
    rd->newline = rd->buf[n - 1] == '\n';
    rd->len = (size_t)n - (size_t)rd->newline;
    rd->buf[rd->len] = 0;
    if (strlen(rd->buf) != rd->len)
        return dim_fail(rd, "NUL byte in the line; a Dimemas trace is text");
    while (rd->len && (rd->buf[rd->len - 1] == '\r' || rd->buf[rd->len - 1] == ' ' ||
                       rd->buf[rd->len - 1] == '\t'))
        rd->buf[--rd->len] = 0;
    if (!rd->newline)
        return dim_fail(rd, "the last line has no newline; the file looks truncated");
    return 1;
}

/* Splits s at ':' into at most max fields; returns how many, or max + 1
 * when there are more. */
int dim_split(char *s, char **field, int max)
{
    int n = 0;
    for (;;) {
        if (n == max)
            return max + 1;
        field[n++] = s;
        char *c = strchr(s, ':');
        if (!c)
            return n;
        *c = 0;
        s = c + 1;
    }
}

/* A whole decimal integer field within [lo, hi]. */
int dim_get_int(const char *s, int64_t lo, int64_t hi, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (end == s || *end || errno == ERANGE || x < lo || x > hi)
        return -1;
    *v = x;
    return 0;
}

/* Any 64-bit integer, signed or not (event types and values). */
static int is_integer(const char *s)
{
    char *end;
    errno = 0;
    if (*s == '-')
        (void)strtoll(s, &end, 10);
    else
        (void)strtoull(s, &end, 10);
    return end != s && !*end && errno != ERANGE && *s != ' ' && *s != '+';
}

int dim_get_u64(const char *s, uint64_t *v)
{
    int64_t x;
    if (dim_get_int(s, 0, INT64_MAX, &x))
        return -1;
    *v = (uint64_t)x;
    return 0;
}

/* ---- header ------------------------------------------------------------------ */

/* Parses a decimal number at *p (advancing it); -1 if none. */
static int take_int(const char **p, int64_t lo, int64_t hi, int64_t *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(*p, &end, 10);
    if (end == *p || errno == ERANGE || x < lo || x > hi || **p == ' ' || **p == '+')
        return -1;
    *v = x;
    *p = end;
    return 0;
}

#define HEADER_FORM "#DIMEMAS:\"NAME\":OFFSETS:TASKS(THREADS,...),COMMUNICATORS"

/* #DIMEMAS:"name":0|1,OFFSET:N(t1,...,tN),C[,...]; fills ntasks and the
 * offsets-table dim_position (0: none). */
int dim_parse_header(dim_reader *rd, int32_t *ntasks, uint64_t *offsets_at)
{
    const char *p = rd->buf;
    if (strncmp(p, "#DIMEMAS", 8) != 0)
        return dim_fail(rd, "not a Dimemas trace: the first line must start with #DIMEMAS (give "
                     "format = dimemas only for Dimemas traces)");
    p += 8;
    if (*p++ != ':' || *p++ != '"' || !(p = strchr(p, '"')) || *++p != ':')
        return dim_fail(rd, "bad header: expected %s", HEADER_FORM);
    p++;
    int64_t present, at = 0, n, threads, ncomms;
    if (take_int(&p, 0, 1, &present))
        return dim_fail(rd, "bad header: the offsets field must be 0 (no offsets table) or 1,BYTE");
    if (present) {
        if (*p++ != ',' || take_int(&p, 1, INT64_MAX, &at))
            return dim_fail(rd, "bad header: offsets field 1 needs the byte of the offsets table (1,BYTE)%s",
                         strncmp(p, "XXX", 3) ? "" : "; prv2dim did not finish writing this trace");
    }
    if (*p++ != ':' || take_int(&p, 1, INT32_MAX, &n) || *p++ != '(')
        return dim_fail(rd, "bad header: expected the task count and the thread counts, %s", HEADER_FORM);
    for (int64_t t = 0; t < n; t++) {
        if (t && *p++ != ',')
            return dim_fail(rd, "bad header: the thread list names %" PRId64 " tasks, the task count is %" PRId64,
                         t, n);
        if (take_int(&p, 1, INT32_MAX, &threads))
            return dim_fail(rd, "bad header: thread count of task %" PRId64 " is not a positive number", t);
        if (threads != 1)
            return dim_fail(rd, "task %" PRId64 " has %" PRId64 " threads; only one thread per task is "
                         "supported (MPI-only traces)", t, threads);
    }
    if (*p++ != ')')
        return dim_fail(rd, "bad header: the thread list names more tasks than the task count %" PRId64, n);
    if (*p++ != ',' || take_int(&p, 0, INT32_MAX, &ncomms) || (*p && *p != ','))
        return dim_fail(rd, "bad header: expected the communicator count after the thread list, %s", HEADER_FORM);
    *ntasks = (int32_t)n;
    *offsets_at = (uint64_t)at;
    return 0;
}

/* ---- communicators ------------------------------------------------------------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Index of communicator id, DIM_NONE if undefined. */
uint32_t dim_comm_index(const dim_file *F, int32_t id)
{
    uint64_t *v = replay_keymap_get((replay_keymap *)&F->comm_index, (uint64_t)(uint32_t)id, 0, 0);
    return v ? (uint32_t)*v - 1 : DIM_NONE;
}

/* Position of task in c, DIM_NONE if not a member. */
uint32_t dim_position(const dim_comm *c, int32_t task)
{
    uint32_t lo = 0, hi = c->n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int32_t t = (int32_t)(c->by_task[mid] >> 32);
        if (t == task)
            return (uint32_t)c->by_task[mid];
        if (t < task)
            lo = mid + 1;
        else
            hi = mid;
    }
    return DIM_NONE;
}

/* d:1:ID:N:t1:...:tN (rd->buf after "d:1:"). */
static int parse_comm(dim_reader *rd, dim_file *F, char *s)
{
    char *id_s = s, *n_s = strchr(s, ':');
    int64_t id, n;
    if (!n_s || (*n_s++ = 0, dim_get_int(id_s, 0, INT32_MAX, &id)))
        return dim_fail(rd, "communicator definition needs d:1:ID:SIZE:TASK:...:TASK with ID >= 0");
    char *list = strchr(n_s, ':');
    if (list)
        *list++ = 0;
    if (dim_get_int(n_s, 1, F->ntasks, &n))
        return dim_fail(rd, "communicator %" PRId64 ": size '%s' is not 1..%d (the task count)", id, n_s, F->ntasks);
    if (replay_keymap_get(&F->comm_index, (uint64_t)id, 0, 0))
        return dim_fail(rd, "communicator %" PRId64 " is defined twice", id);
    dim_comm c = {.id = (int32_t)id, .n = (uint32_t)n, .line = rd->line};
    c.members = warp_xcalloc((size_t)n, sizeof *c.members);
    c.by_task = warp_xcalloc((size_t)n, sizeof *c.by_task);
    uint32_t k = 0;
    for (char *t = list; t; k++) {
        char *next = strchr(t, ':');
        if (next)
            *next++ = 0;
        int64_t task;
        if (k == c.n) {
            dim_fail(rd, "communicator %" PRId64 " lists more than its %" PRId64 " members", id, n);
            goto bad;
        }
        if (dim_get_int(t, 0, F->ntasks - 1, &task)) {
            dim_fail(rd, "communicator %" PRId64 ": member '%s' is not a task 0..%d", id, t, F->ntasks - 1);
            goto bad;
        }
        c.members[k] = (int32_t)task;
        c.by_task[k] = (uint64_t)task << 32 | k;
        t = next;
    }
    if (k != c.n) {
        dim_fail(rd, "communicator %" PRId64 " lists %u members, its size is %" PRId64, id, k, n);
        goto bad;
    }
    qsort(c.by_task, c.n, sizeof *c.by_task, cmp_u64);
    for (uint32_t i = 1; i < c.n; i++)
        if (c.by_task[i] >> 32 == c.by_task[i - 1] >> 32) {
            dim_fail(rd, "communicator %" PRId64 " lists task %u twice", id, (unsigned)(c.by_task[i] >> 32));
            goto bad;
        }
    c.calls = warp_xcalloc(c.n, sizeof *c.calls);
    F->comms = warp_xrealloc(F->comms, (F->ncomms + 1) * sizeof *F->comms);
    F->comms[F->ncomms++] = c;
    *replay_keymap_get(&F->comm_index, (uint64_t)id, 0, 1) = F->ncomms;
    return 0;
bad:
    free(c.members);
    free(c.by_task);
    return -1;
}

/* d:TYPE:... */
int dim_parse_definition(dim_reader *rd, dim_file *F)
{
    char *s = rd->buf + 2, *rest = strchr(s, ':');
    int64_t type;
    if (rest)
        *rest++ = 0;
    if (dim_get_int(s, 0, INT32_MAX, &type))
        return dim_fail(rd, "definition type '%s' is not a number (d:1: communicator)", s);
    if (type == 1)
        return parse_comm(rd, F, rest ? rest : s + strlen(s));
    if (type == 2 || type == 3)
        return 0; /* files and one-sided windows: Dimemas ignores them too */
    return dim_fail(rd, "unknown definition type %" PRId64 "; known: 1 (communicator), 2 (file), "
                 "3 (one-sided window)", type);
}

/* ---- records ------------------------------------------------------------------ */

const char *const dim_glop_names[DIM_GLOP_LAST + 1] = {
    "MPI_Barrier", "MPI_Bcast", "MPI_Gather", "MPI_Gatherv", "MPI_Scatter", "MPI_Scatterv",
    "MPI_Allgather", "MPI_Allgatherv", "MPI_Alltoall", "MPI_Alltoallv", "MPI_Reduce",
    "MPI_Allreduce", "MPI_Reduce_scatter", "MPI_Reduce_scatter_block", "MPI_Scan", "MPI_Alltoallw",
    "MPI_Ibarrier", "MPI_Ibcast", "MPI_Igather", "MPI_Igatherv", "MPI_Iscatter", "MPI_Iscatterv",
    "MPI_Iallgather", "MPI_Iallgatherv", "MPI_Ialltoall", "MPI_Ialltoallv", "MPI_Ireduce",
    "MPI_Iallreduce", "MPI_Ireduce_scatter", "MPI_Ireduce_scatter_block", "MPI_Iscan", "MPI_Ialltoallw",
};

/* Ops whose root is named by the is-root flag (reduce names its root task). */
int dim_flag_rooted(int op)
{
    return op >= 1 && op <= 5;
}

/* Peer thread: the only thread (0), or -1/-2 (any; what prv2dim writes). */
static int bad_thread(const char *s)
{
    int64_t th;
    return dim_get_int(s, -2, 0, &th);
}

static int decode_p2p(dim_reader *rd, dim_rec *x, char **f, int nf, int32_t ntasks)
{
    int send = x->type == DIM_SEND;
    const char *what = send ? "send" : "receive";
    if (nf != 8 && nf != 9)
        return dim_fail(rd, "%s record needs 8 or 9 fields (%s), found %d", what,
                     send ? "2:TASK:THREAD:DEST_TASK[:DEST_THREAD]:SIZE:TAG:COMM:SYNC"
                          : "3:TASK:THREAD:SRC_TASK[:SRC_THREAD]:SIZE:TAG:COMM:TYPE", nf);
    int64_t peer, tag, comm, mode;
    if (dim_get_int(f[3], 0, ntasks - 1, &peer))
        return dim_fail(rd, "%s task '%s' does not exist (tasks are 0..%d)", send ? "destination" : "source",
                     f[3], ntasks - 1);
    int k = nf == 9 ? 5 : 4;
    if (nf == 9 && bad_thread(f[4]))
        return dim_fail(rd, "%s thread '%s' does not exist (one thread per task: 0, or -1 for any)",
                     send ? "destination" : "source", f[4]);
    if (dim_get_u64(f[k], &x->bytes) || x->bytes > (UINT64_C(1) << 62))
        return dim_fail(rd, "%s size '%s' is not a byte count", what, f[k]);
    if (dim_get_int(f[k + 1], INT32_MIN, INT32_MAX, &tag))
        return dim_fail(rd, "%s tag '%s' is not a 32-bit number", what, f[k + 1]);
    if (dim_get_int(f[k + 2], 0, INT32_MAX, &comm))
        return dim_fail(rd, "%s communicator '%s' is not a number >= 0", what, f[k + 2]);
    if (dim_get_int(f[k + 3], 0, send ? 3 : 2, &mode))
        return dim_fail(rd, send ? "send synchronism '%s' is not 0..3 (bit 0 rendezvous, bit 1 immediate)"
                              : "receive type '%s' is not 0 (recv), 1 (irecv) or 2 (wait)", f[k + 3]);
    x->peer = (int32_t)peer;
    x->tag = (int32_t)tag;
    x->comm = (int32_t)comm;
    x->mode = (int)mode;
    return 0;
}

static int decode_global(dim_reader *rd, dim_rec *x, char **f, int nf, int32_t ntasks)
{
    if (nf != 9 && nf != 10)
        return dim_fail(rd, "collective record needs 9 or 10 fields "
                     "(10:TASK:THREAD:OP:COMM:ROOT:ROOT_THREAD:SENT:RECEIVED[:SYNC]), found %d", nf);
    int64_t op, comm, root, rth, sync = 1;
    if (dim_get_int(f[3], 0, INT32_MAX, &op) || op > DIM_GLOP_LAST)
        return dim_fail(rd, "collective operation '%s' is not a Dimemas global op id 0..%d", f[3], DIM_GLOP_LAST);
    if (op >= DIM_GLOP_FIRST_IMMEDIATE)
        return dim_fail(rd, "non-blocking collective %s (op %" PRId64 ") is not supported; only the "
                     "blocking collectives 0..15 are", dim_glop_names[op], op);
    if (dim_get_int(f[4], 0, INT32_MAX, &comm))
        return dim_fail(rd, "collective communicator '%s' is not a number >= 0", f[4]);
    if (op == DIM_GLOP_REDUCE && dim_get_int(f[5], 0, ntasks - 1, &root))
        return dim_fail(rd, "MPI_Reduce root '%s' is not a task 0..%d", f[5], ntasks - 1);
    if (op != DIM_GLOP_REDUCE && dim_get_int(f[5], INT32_MIN, INT32_MAX, &root))
        return dim_fail(rd, "collective root flag '%s' is not a number", f[5]);
    if (dim_get_int(f[6], -1, 0, &rth))
        return dim_fail(rd, "collective root thread '%s' does not exist (one thread per task: 0)", f[6]);
    if (dim_get_u64(f[7], &x->sent) || dim_get_u64(f[8], &x->recvd))
        return dim_fail(rd, "collective byte counts '%s' and '%s' must be numbers >= 0", f[7], f[8]);
    if (nf == 10 && dim_get_int(f[9], 0, 3, &sync))
        return dim_fail(rd, "collective synchronism '%s' is not 0..3", f[9]);
    if (sync != 1)
        return dim_fail(rd, "collective synchronism %" PRId64 " (%s) is not supported; only blocking "
                     "collectives (1, or no field) are", sync,
                     sync == 0 ? "non-blocking start" : sync == 2 ? "wait of a non-blocking collective"
                                                                  : "root synchronisation");
    if (dim_flag_rooted((int)op) && root != 0 && root != 1)
        return dim_fail(rd, "%s root flag '%s' must be 1 (this task is the root) or 0", dim_glop_names[op], f[5]);
    x->op = (int)op;
    x->comm = (int32_t)comm;
    x->root = root;
    return 0;
}

/* Decodes rd's line (a record, not a definition or offsets line) into x. */
int dim_decode(dim_reader *rd, dim_rec *x, int32_t ntasks)
{
    char *f[DIM_MAX_FIELDS];
    int nf = dim_split(rd->buf, f, DIM_MAX_FIELDS);
    int64_t type, task;
    memset(x, 0, sizeof *x);
    if (dim_get_int(f[0], 0, INT32_MAX, &type))
        return dim_fail(rd, "not a record: '%.40s' (records start with a type number, "
                     "e.g. 1:TASK:THREAD:SECONDS)", f[0]);
    x->type = (int)type;
    if (type != DIM_NOOP && type != DIM_BURST && type != DIM_SEND && type != DIM_RECV && type != DIM_GLOBAL &&
        type != DIM_EVENT)
        return dim_fail(rd, "%s record type %" PRId64 "; supported: 0 (no-op), 1 (CPU burst), 2 (send), "
                     "3 (receive), 10 (collective), 20 (event)",
                     type == DIM_GPU ? "unsupported (GPU burst)" : "unknown", type);
    if (nf > DIM_MAX_FIELDS || nf < 3)
        return dim_fail(rd, "record type %" PRId64 " with %s fields", type, nf < 3 ? "too few" : "too many");
    if (dim_get_int(f[1], 0, INT32_MAX, &task) || task >= ntasks)
        return dim_fail(rd, "task '%s' does not exist (the header declares %d tasks, 0..%d)", f[1], ntasks,
                     ntasks - 1);
    x->task = (int32_t)task;
    if (strcmp(f[2], "0") != 0)
        return dim_fail(rd, "thread '%s' of task %" PRId64 " does not exist (one thread per task: 0)", f[2], task);
    switch (x->type) {
    case DIM_NOOP:
        return nf == 3 ? 0 : dim_fail(rd, "no-op record needs 3 fields (0:TASK:THREAD), found %d", nf);
    case DIM_BURST:
        if (nf != 4)
            return dim_fail(rd, "CPU burst needs 4 fields (1:TASK:THREAD:SECONDS), found %d", nf);
        char *end;
        x->secs = strtod(f[3], &end);
        if (end == f[3] || *end || !(x->secs >= 0 && x->secs <= MAX_BURST_S))
            return dim_fail(rd, "CPU burst duration '%s' is not a number of seconds in [0, 1e9]", f[3]);
        return 0;
    case DIM_SEND:
    case DIM_RECV: return decode_p2p(rd, x, f, nf, ntasks);
    case DIM_GLOBAL: return decode_global(rd, x, f, nf, ntasks);
    default:
        if (nf != 5 || !is_integer(f[3]) || !is_integer(f[4]))
            return dim_fail(rd, "event record needs 20:TASK:THREAD:TYPE:VALUE with integer type and value");
        return 0;
    }
}

