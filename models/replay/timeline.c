/* timeline.c — Chrome/Perfetto JSON and Paraver writers of the replay's
 * timeline (timeline.h). Invariant: the files hold exactly the committed
 * slices and arrivals of the drawn ranks, sorted by a total order, so they
 * are the same on any number of processes; a file appears under its name
 * only complete (written to NAME.tmp, then renamed). Records are added by
 * the replay's commit handlers and written once by replay_timeline_write. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "replay/timeline.h"
#include "warp.h"
#include "warp_error.h"

enum { FMT_JSON, FMT_PRV };

typedef struct tl_slice {
    double start, end;
    int32_t job, rank;
    uint32_t task, kind;
} tl_slice;

typedef struct tl_msg {
    double sent, arrived;
    uint64_t bytes;
    int64_t tag;
    int32_t job, src, dst, pad;
} tl_msg;

struct replay_timeline {
    char *path;
    int format;
    tl_slice *s;
    tl_msg *m;
    size_t ns, cs, nm, cm;
};

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n > k && !strcmp(s + n - k, suffix);
}

replay_timeline *replay_timeline_open(const char *path)
{
    int format;
    if (ends_with(path, ".json"))
        format = FMT_JSON;
    else if (ends_with(path, ".prv"))
        format = FMT_PRV;
    else
        return NULL;
    replay_timeline *t = warp_xcalloc(1, sizeof *t);
    t->path = warp_xstrdup(path);
    t->format = format;
    return t;
}

void replay_timeline_slice(replay_timeline *t, int32_t job, int32_t rank, uint32_t task,
                           replay_tl_kind kind, double start, double end)
{
    if (t->ns == t->cs)
        t->s = warp_xrealloc(t->s, (t->cs = t->cs ? 2 * t->cs : 1024) * sizeof *t->s);
    t->s[t->ns++] = (tl_slice){start, end, job, rank, task, (uint32_t)kind};
}

void replay_timeline_msg(replay_timeline *t, int32_t job, int32_t src, int32_t dst, uint64_t bytes,
                         int64_t tag, double sent, double arrived)
{
    if (t->nm == t->cm)
        t->m = warp_xrealloc(t->m, (t->cm = t->cm ? 2 * t->cm : 1024) * sizeof *t->m);
    t->m[t->nm++] = (tl_msg){sent, arrived, bytes, tag, job, src, dst, 0};
}

/* ---- gathering -------------------------------------------------------------- */

/* Appends every process's n items of `size` bytes at *p to process 0's. */
static void gather(const warp_ctx *w, void **p, size_t *n, size_t size)
{
    if (warp_nranks(w) == 1)
        return;
    uint64_t total;
    void *all = warp_gather_to_root(w, *p, *n, size, &total,
                                    "the replay timeline holds more than 2 GiB of records; lower "
                                    "[replay] timeline_ranks");
    if (warp_rank(w) == 0) {
        free(*p);
        *p = all;
        *n = total;
    }
}

static int by_slice(const void *a, const void *b)
{
    const tl_slice *x = a, *y = b;
    if (x->job != y->job)
        return x->job < y->job ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->end != y->end) /* one slice at a time: a zero-length one at t ran first */
        return x->end < y->end ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind < y->kind ? -1 : 1;
    return x->task < y->task ? -1 : x->task > y->task;
}

static int by_msg(const void *a, const void *b)
{
    const tl_msg *x = a, *y = b;
    if (x->job != y->job)
        return x->job < y->job ? -1 : 1;
    if (x->sent != y->sent)
        return x->sent < y->sent ? -1 : 1;
    if (x->src != y->src)
        return x->src < y->src ? -1 : 1;
    if (x->dst != y->dst)
        return x->dst < y->dst ? -1 : 1;
    if (x->arrived != y->arrived)
        return x->arrived < y->arrived ? -1 : 1;
    if (x->tag != y->tag)
        return x->tag < y->tag ? -1 : 1;
    return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

static const char *const kind_name[] = {"", "compute", "send", "recv", "recv+send", "receive overhead"};

/* ---- Chrome / Perfetto trace-event JSON -------------------------------------- */

static void json_string(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

/* Tracks: pid = job + 1, tid = network rank + 1 (unique over jobs); times in
 * microseconds with picosecond digits (the CSV keeps 3 decimals of ns). */
static void write_json(FILE *f, const replay_timeline *t, const replay_tl_job *jobs, int njobs,
                       int32_t limit)
{
    fprintf(f, "{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"warpnet replay\"},"
               "\"traceEvents\":[\n");
    const char *sep = "";
    for (int j = 0; j < njobs; j++) {
        fprintf(f, "%s{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":%d,\"tid\":0,\"args\":{\"name\":", sep,
                j + 1);
        size_t len = strlen(jobs[j].trace) + 32;
        char *name = warp_xcalloc(len, 1);
        snprintf(name, len, "job %d: %s", j, jobs[j].trace);
        json_string(f, name);
        free(name);
        fprintf(f, "}}");
        sep = ",\n";
        int32_t n = jobs[j].ranks < limit ? jobs[j].ranks : limit;
        for (int32_t r = 0; r < n; r++) {
            unsigned long long tid = (unsigned long long)jobs[j].global[r] + 1;
            fprintf(f, "%s{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":%d,\"tid\":%llu,"
                       "\"args\":{\"name\":\"rank %d\"}}", sep, j + 1, tid, r);
            fprintf(f, "%s{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":%d,\"tid\":%llu,"
                       "\"args\":{\"sort_index\":%d}}", sep, j + 1, tid, r);
        }
    }
    for (size_t i = 0; i < t->ns; i++) {
        const tl_slice *s = &t->s[i];
        fprintf(f, "%s{\"ph\":\"X\",\"cat\":\"task\",\"name\":\"%s\",\"pid\":%d,\"tid\":%llu,"
                   "\"ts\":%.6f,\"dur\":%.6f,\"args\":{\"task\":%u}}", sep, kind_name[s->kind], s->job + 1,
                (unsigned long long)jobs[s->job].global[s->rank] + 1, s->start / 1e3,
                (s->end - s->start) / 1e3, s->task);
    }
    /* A message: a zero-length anchor slice on each side, the flow binding to
     * it (Perfetto: the enclosing slice; Chrome: same category, thread, time). */
    for (size_t i = 0; i < t->nm; i++) {
        const tl_msg *m = &t->m[i];
        unsigned long long ts = (unsigned long long)jobs[m->job].global[m->src] + 1,
                           td = (unsigned long long)jobs[m->job].global[m->dst] + 1;
        fprintf(f, "%s{\"ph\":\"X\",\"cat\":\"msg\",\"name\":\"send\",\"pid\":%d,\"tid\":%llu,\"ts\":%.6f,"
                   "\"dur\":0,\"args\":{\"to\":%d,\"bytes\":%llu,\"tag\":%lld}}", sep, m->job + 1, ts,
                m->sent / 1e3, m->dst, (unsigned long long)m->bytes, (long long)m->tag);
        fprintf(f, "%s{\"ph\":\"s\",\"cat\":\"msg\",\"name\":\"message\",\"id\":%zu,\"pid\":%d,"
                   "\"tid\":%llu,\"ts\":%.6f}", sep, i + 1, m->job + 1, ts, m->sent / 1e3);
        fprintf(f, "%s{\"ph\":\"X\",\"cat\":\"msg\",\"name\":\"arrive\",\"pid\":%d,\"tid\":%llu,\"ts\":%.6f,"
                   "\"dur\":0,\"args\":{\"from\":%d,\"bytes\":%llu,\"latency_ns\":%.3f}}", sep, m->job + 1,
                td, m->arrived / 1e3, m->src, (unsigned long long)m->bytes, m->arrived - m->sent);
        fprintf(f, "%s{\"ph\":\"f\",\"bp\":\"e\",\"cat\":\"msg\",\"name\":\"message\",\"id\":%zu,"
                   "\"pid\":%d,\"tid\":%llu,\"ts\":%.6f}", sep, i + 1, m->job + 1, td, m->arrived / 1e3);
    }
    fprintf(f, "\n]}\n");
}

/* ---- Paraver ------------------------------------------------------------------ */

enum { PRV_RUNNING = 1, PRV_WAITING = 3, PRV_RECEIVING = 11 };
#define PRV_EVENT_KIND 90000001

typedef struct prv_rec {
    long long time, order; /* sort key: time, then the order written */
    char *text;
} prv_rec;

static int by_rec(const void *a, const void *b)
{
    const prv_rec *x = a, *y = b;
    if (x->time != y->time)
        return x->time < y->time ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

static void rec(prv_rec **r, size_t *n, size_t *cap, long long time, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static void rec(prv_rec **r, size_t *n, size_t *cap, long long time, const char *fmt, ...)
{
    if (*n == *cap)
        *r = warp_xrealloc(*r, (*cap = *cap ? 2 * *cap : 4096) * sizeof **r);
    char buf[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    (*r)[*n] = (prv_rec){time, (long long)*n, warp_xstrdup(buf)};
    (*n)++;
}

static long long ns(double t) { return llround(t); }

/* Writes the .prv body and header; cpu = node = the thread's place among all
 * drawn threads (1-based), application = job + 1, task = rank + 1. */
static void write_prv(FILE *f, const replay_timeline *t, const replay_tl_job *jobs, int njobs,
                      int32_t limit)
{
    int32_t *first = warp_xcalloc((size_t)njobs + 1, sizeof *first);
    for (int j = 0; j < njobs; j++)
        first[j + 1] = first[j] + (jobs[j].ranks < limit ? jobs[j].ranks : limit);
    prv_rec *r = NULL;
    size_t n = 0, cap = 0;
    long long ftime = 0, prev = 0;
    for (size_t i = 0; i < t->ns; i++) {
        const tl_slice *s = &t->s[i];
        int cpu = first[s->job] + s->rank + 1;
        long long b = ns(s->start), e = ns(s->end);
        /* the gap since this rank's previous slice (or time 0): waiting */
        if (!i || t->s[i - 1].job != s->job || t->s[i - 1].rank != s->rank)
            prev = 0;
        if (b > prev)
            rec(&r, &n, &cap, prev, "1:%d:%d:%d:1:%lld:%lld:%d", cpu, s->job + 1, s->rank + 1, prev, b,
                PRV_WAITING);
        if (e > b)
            rec(&r, &n, &cap, b, "1:%d:%d:%d:1:%lld:%lld:%d", cpu, s->job + 1, s->rank + 1, b, e,
                s->kind == REPLAY_TL_RX ? PRV_RECEIVING : PRV_RUNNING);
        rec(&r, &n, &cap, b, "2:%d:%d:%d:1:%lld:%d:%u", cpu, s->job + 1, s->rank + 1, b, PRV_EVENT_KIND, s->kind);
        rec(&r, &n, &cap, e, "2:%d:%d:%d:1:%lld:%d:0", cpu, s->job + 1, s->rank + 1, e, PRV_EVENT_KIND);
        if (e > ftime)
            ftime = e;
        if (e > prev)
            prev = e;
    }
    for (size_t i = 0; i < t->nm; i++) {
        const tl_msg *m = &t->m[i];
        int cs = first[m->job] + m->src + 1, cd = first[m->job] + m->dst + 1;
        long long a = ns(m->sent), b = ns(m->arrived);
        rec(&r, &n, &cap, a, "3:%d:%d:%d:1:%lld:%lld:%d:%d:%d:1:%lld:%lld:%llu:%lld", cs, m->job + 1,
            m->src + 1, a, a, cd, m->job + 1, m->dst + 1, b, b, (unsigned long long)m->bytes, (long long)m->tag);
        if (b > ftime)
            ftime = b;
    }
    qsort(r, n, sizeof *r, by_rec);
    char date[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%d/%m/%Y at %H:%M", localtime(&now));
    int32_t total = first[njobs];
    fprintf(f, "#Paraver (%s):%lld_ns:%d(", date, ftime, total);
    for (int32_t c = 0; c < total; c++)
        fprintf(f, "%s1", c ? "," : "");
    fprintf(f, "):%d:", njobs);
    for (int j = 0; j < njobs; j++) {
        int32_t k = first[j + 1] - first[j];
        fprintf(f, "%s%d(", j ? ":" : "", k);
        for (int32_t x = 0; x < k; x++)
            fprintf(f, "%s1:%d", x ? "," : "", first[j] + x + 1);
        fputc(')', f);
    }
    fputc('\n', f);
    for (size_t i = 0; i < n; i++) {
        fprintf(f, "%s\n", r[i].text);
        free(r[i].text);
    }
    free(r);
    free(first);
}

static void write_pcf(FILE *f)
{
    fprintf(f, "DEFAULT_OPTIONS\n\nLEVEL               THREAD\nUNITS               NANOSEC\n"
               "LOOK_BACK           100\nSPEED               1\nFLAG_ICONS          ENABLED\n"
               "NUM_OF_STATE_COLORS 1000\nYMAX_SCALE          37\n\n\nDEFAULT_SEMANTIC\n\n"
               "THREAD_FUNC          State As Is\n\n\nSTATES\n0    Idle\n%d    Running\n"
               "%d    Waiting a message\n%d    Receiving (LogGOPS receive overhead)\n\n\n"
               "STATES_COLOR\n0    {117,195,255}\n%d    {0,0,255}\n%d    {255,0,0}\n%d    {255,146,24}\n\n\n"
               "EVENT_TYPE\n0    %d    Replay task kind\nVALUES\n0      End\n",
            PRV_RUNNING, PRV_WAITING, PRV_RECEIVING, PRV_RUNNING, PRV_WAITING, PRV_RECEIVING, PRV_EVENT_KIND);
    for (int k = REPLAY_TL_COMPUTE; k <= REPLAY_TL_RX; k++)
        fprintf(f, "%d      %s\n", k, kind_name[k]);
    fprintf(f, "\n\n");
}

static void write_row(FILE *f, const replay_tl_job *jobs, int njobs, int32_t limit)
{
    int32_t total = 0;
    for (int j = 0; j < njobs; j++)
        total += jobs[j].ranks < limit ? jobs[j].ranks : limit;
    static const char *const levels[] = {"CPU", "NODE", "THREAD"};
    for (int l = 0; l < 3; l++) {
        fprintf(f, "%sLEVEL %s SIZE %d\n", l ? "\n" : "", levels[l], total);
        for (int j = 0; j < njobs; j++)
            for (int32_t r = 0; r < jobs[j].ranks && r < limit; r++) {
                if (l == 2)
                    fprintf(f, "THREAD %d.%d.1 (job %d rank %d)\n", j + 1, r + 1, j, r);
                else
                    fprintf(f, "%s network rank %llu\n", l ? "node" : "cpu",
                            (unsigned long long)jobs[j].global[r]);
            }
    }
}

/* Writes path through path.tmp; returns 0 or -1. */
static int write_file(const char *path, void (*body)(FILE *, const void *), const void *arg)
{
    size_t n = strlen(path) + 5;
    char *tmp = warp_xcalloc(n, 1);
    snprintf(tmp, n, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    int rc = -1;
    if (f) {
        body(f, arg);
        int bad = ferror(f);
        if (fclose(f) == 0 && !bad && rename(tmp, path) == 0)
            rc = 0;
        else
            remove(tmp);
    }
    free(tmp);
    return rc;
}

typedef struct write_args {
    const replay_timeline *t;
    const replay_tl_job *jobs;
    int njobs;
    int32_t limit;
} write_args;

static void body_json(FILE *f, const void *p)
{
    const write_args *a = p;
    write_json(f, a->t, a->jobs, a->njobs, a->limit);
}
static void body_prv(FILE *f, const void *p)
{
    const write_args *a = p;
    write_prv(f, a->t, a->jobs, a->njobs, a->limit);
}
static void body_pcf(FILE *f, const void *p)
{
    (void)p;
    write_pcf(f);
}
static void body_row(FILE *f, const void *p)
{
    const write_args *a = p;
    write_row(f, a->jobs, a->njobs, a->limit);
}

int replay_timeline_write(replay_timeline *t, const warp_ctx *w, const replay_tl_job *jobs, int njobs,
                          int32_t ranks_limit, const char **why)
{
    gather(w, (void **)&t->s, &t->ns, sizeof *t->s);
    gather(w, (void **)&t->m, &t->nm, sizeof *t->m);
    if (warp_rank(w) != 0)
        return 0;
    qsort(t->s, t->ns, sizeof *t->s, by_slice);
    qsort(t->m, t->nm, sizeof *t->m, by_msg);
    write_args a = {t, jobs, njobs, ranks_limit};
    *why = "cannot write the file there";
    if (t->format == FMT_JSON)
        return write_file(t->path, body_json, &a);
    size_t n = strlen(t->path) + 1;
    char *side = warp_xcalloc(n, 1);
    int rc = write_file(t->path, body_prv, &a);
    memcpy(side, t->path, n);
    memcpy(side + n - 4, "pcf", 3);
    rc = rc ? rc : write_file(side, body_pcf, &a);
    memcpy(side + n - 4, "row", 3);
    rc = rc ? rc : write_file(side, body_row, &a);
    free(side);
    return rc;
}

const char *replay_timeline_path(const replay_timeline *t) { return t->path; }

void replay_timeline_free(replay_timeline *t)
{
    if (!t)
        return;
    free(t->path);
    free(t->s);
    free(t->m);
    free(t);
}
