/* tracer_config.c — reads TraceR's job file and its binary rank maps
 * (tracer_config.h). Invariant: a config that reads without error names every
 * job's trace, rank count and iterations, and its placement maps each job rank
 * to exactly one network rank that no other job rank uses. Called by the
 * replay workload's setup (workload_setup.c). */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/tracer_config.h"
#include "warp_error.h"

/* The file as whitespace-separated words, each with its line. */
typedef struct words {
    char **w;
    int *line;
    int n, at;
} words;

static int read_words(const char *path, words *ws, replay_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return replay_errf(err, "%s: cannot open the tracer_config (%s)", path, strerror(errno));
    memset(ws, 0, sizeof *ws);
    int cap = 0, line = 1, c;
    char buf[4096];
    size_t len = 0;
    do {
        c = fgetc(f);
        if (c == EOF || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (len) {
                if (ws->n == cap) {
                    cap = cap ? 2 * cap : 64;
                    ws->w = warp_xrealloc(ws->w, (size_t)cap * sizeof *ws->w);
                    ws->line = warp_xrealloc(ws->line, (size_t)cap * sizeof *ws->line);
                }
                buf[len] = 0;
                ws->w[ws->n] = warp_xstrdup(buf);
                ws->line[ws->n++] = line;
                len = 0;
            }
            line += c == '\n';
        } else if (len + 1 < sizeof buf) {
            buf[len++] = (char)c;
        } else {
            fclose(f);
            return replay_errf(err, "%s:%d: a word longer than %zu characters; shorten the path",
                               path, line, sizeof buf - 1);
        }
    } while (c != EOF);
    fclose(f);
    return 0;
}

static void free_words(words *ws)
{
    for (int i = 0; i < ws->n; i++)
        free(ws->w[i]);
    free(ws->w);
    free(ws->line);
}

/* The next word, or an error naming what was expected. */
static const char *next(words *ws, const char *path, const char *what, replay_err *err)
{
    if (ws->at >= ws->n) {
        replay_errf(err, "%s:%d: the file ends where %s should be; see TraceR's format: global map, "
                    "job count, then TRACE MAP RANKS ITERATIONS per job", path,
                    ws->n ? ws->line[ws->n - 1] : 1, what);
        return NULL;
    }
    return ws->w[ws->at++];
}

static int next_int(words *ws, const char *path, const char *what, long long lo, long long hi,
                    long long *v, replay_err *err)
{
    const char *s = next(ws, path, what, err);
    if (!s)
        return -1;
    char *end;
    errno = 0;
    long long x = strtoll(s, &end, 10);
    if (*end || errno || x < lo || x > hi)
        return replay_errf(err, "%s:%d: %s = '%s': want an integer in [%lld, %lld]", path,
                           ws->line[ws->at - 1], what, s, lo, hi);
    *v = x;
    return 0;
}

static int next_seconds(words *ws, const char *path, const char *what, double *v, replay_err *err)
{
    const char *s = next(ws, path, what, err);
    if (!s)
        return -1;
    char *end;
    double x = strtod(s, &end);
    if (*end || !(x >= 0) || x > 1e9)
        return replay_errf(err, "%s:%d: %s = '%s': want a non-negative number of seconds", path,
                           ws->line[ws->at - 1], what, s);
    *v = x;
    return 0;
}

/* PATH resolved against the directory of the tracer_config; NULL for NA. */
static char *resolve(const char *cfg, const char *p)
{
    if (!strcmp(p, "NA"))
        return NULL;
    const char *slash = strrchr(cfg, '/');
    if (p[0] == '/' || !slash)
        return warp_xstrdup(p);
    size_t n = (size_t)(slash - cfg) + 1 + strlen(p) + 1;
    char *r = warp_xcalloc(n, 1);
    snprintf(r, n, "%.*s/%s", (int)(slash - cfg), cfg, p);
    return r;
}

static int read_directives(words *ws, replay_tracer_config *c, replay_err *err)
{
    const char *path = c->path;
    while (ws->at < ws->n) {
        const char *d = ws->w[ws->at++];
        int line = ws->line[ws->at - 1];
        long long job, a, b;
        if (!strcmp(d, "M") || !strcmp(d, "m") || !strcmp(d, "S") || !strcmp(d, "s")) {
            int exact = d[0] == 'S' || d[0] == 's';
            if (next_int(ws, path, "the directive's job", 0, c->njobs - 1, &job, err) ||
                next_int(ws, path, exact ? "the message size" : "the size limit", 0, INT32_MAX, &a, err) ||
                next_int(ws, path, "the replacement size", 0, INT32_MAX, &b, err))
                return -1;
            replay_tracer_job *j = &c->jobs[job];
            if (exact) {
                j->subst = warp_xrealloc(j->subst, (size_t)(j->nsubst + 1) * sizeof *j->subst);
                j->subst[j->nsubst++] = (replay_tracer_subst){(uint64_t)a, (uint64_t)b};
            } else {
                j->size_limit = a;
                j->size_by = (uint64_t)b;
            }
        } else if (!strcmp(d, "T") || !strcmp(d, "t")) {
            double limit, by;
            if (next_seconds(ws, path, "the time limit", &limit, err) ||
                next_seconds(ws, path, "the replacement time", &by, err))
                return -1;
            c->time_limit_ns = (int64_t)(limit * 1e9 + 0.5);
            c->time_by_ns = (uint64_t)(by * 1e9 + 0.5);
        } else if (!strcmp(d, "E") || !strcmp(d, "e")) {
            return replay_errf(err, "%s:%d: the E directive (time of a named event) needs BigSim event "
                               "names, which the replay's task graph does not keep; remove the line or "
                               "use T (all tasks above a duration)", path, line);
        } else {
            return replay_errf(err, "%s:%d: '%s' after the %d job lines: not one of TraceR's directives "
                               "M (sizes above a limit), S (one size), T (durations above a limit); "
                               "check the job count on line 2", path, line, d, c->njobs);
        }
    }
    return 0;
}

int replay_tracer_read(const char *path, replay_tracer_config *c, replay_err *err)
{
    memset(c, 0, sizeof *c);
    c->path = warp_xstrdup(path);
    c->time_limit_ns = -1;
    words ws;
    if (read_words(path, &ws, err))
        return -1;
    long long njobs;
    const char *g = next(&ws, path, "the global map file (or NA)", err);
    if (!g || next_int(&ws, path, "the number of jobs", 1, 1 << 20, &njobs, err))
        goto fail;
    c->global_map = resolve(path, g);
    c->njobs = (int)njobs;
    c->jobs = warp_xcalloc((size_t)njobs, sizeof *c->jobs);
    for (int j = 0; j < c->njobs; j++) {
        replay_tracer_job *job = &c->jobs[j];
        char what[64];
        long long ranks, iters;
        job->size_limit = -1;
        snprintf(what, sizeof what, "job %d's trace path", j);
        const char *t = next(&ws, path, what, err);
        if (!t)
            goto fail;
        if (!strcmp(t, "NA")) {
            replay_errf(err, "%s:%d: job %d has no trace (NA); give the trace directory or OTF2 anchor",
                        path, ws.line[ws.at - 1], j);
            goto fail;
        }
        job->trace = resolve(path, t);
        snprintf(what, sizeof what, "job %d's rank map file (or NA)", j);
        const char *m = next(&ws, path, what, err);
        if (!m)
            goto fail;
        job->map = resolve(path, m);
        snprintf(what, sizeof what, "job %d's rank count", j);
        if (next_int(&ws, path, what, 1, INT32_MAX, &ranks, err))
            goto fail;
        snprintf(what, sizeof what, "job %d's iterations", j);
        if (next_int(&ws, path, what, 1, 1 << 20, &iters, err))
            goto fail;
        job->ranks = (int32_t)ranks;
        job->iterations = (uint32_t)iters;
    }
    if (read_directives(&ws, c, err))
        goto fail;
    free_words(&ws);
    return 0;
fail:
    free_words(&ws);
    replay_tracer_free(c);
    return -1;
}

/* Reads a whole binary file of native ints; *n gets their count. */
static int32_t *read_ints(const char *path, const char *what, size_t *n, replay_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        replay_errf(err, "%s: cannot open %s (%s)", path, what, strerror(errno));
        return NULL;
    }
    size_t cap = 1024, len = 0;
    int32_t *v = warp_xcalloc(cap, sizeof *v);
    size_t got;
    while ((got = fread(v + len, sizeof *v, cap - len, f)) > 0) {
        len += got;
        if (len == cap)
            v = warp_xrealloc(v, (cap *= 2) * sizeof *v);
    }
    int bad = ferror(f) || fgetc(f) != EOF;
    long size = ftell(f);
    fclose(f);
    if (bad || size < 0 || (size_t)size != len * sizeof *v) {
        free(v);
        replay_errf(err, "%s: %s is %ld bytes, not a whole number of 4-byte ints", path, what, size);
        return NULL;
    }
    *n = len;
    return v;
}

int replay_tracer_placement(const replay_tracer_config *c, uint64_t nranks, uint64_t **place,
                            replay_err *err)
{
    int32_t *owner = warp_xcalloc(nranks, sizeof *owner); /* job + 1 holding a network rank */
    int rc = -1;
    uint64_t **from_global = warp_xcalloc((size_t)c->njobs, sizeof *from_global);
    int32_t *gm = NULL;
    size_t ng = 0;
    if (!c->global_map) { /* TraceR's default: jobs one after another, job maps ignored */
        uint64_t next_rank = 0;
        for (int j = 0; j < c->njobs; j++)
            for (int32_t r = 0; r < c->jobs[j].ranks; r++) {
                if (next_rank >= nranks) {
                    replay_errf(err, "%s: the jobs need more ranks than the network's %llu; enlarge "
                                "the network or raise [network] ranks", c->path,
                                (unsigned long long)nranks);
                    goto out;
                }
                place[j][r] = next_rank++;
            }
        rc = 0;
        goto out;
    }
    if (!(gm = read_ints(c->global_map, "the global map", &ng, err)))
        goto out;
    if (ng % 3) {
        replay_errf(err, "%s: the global map holds %zu ints, not triples (global rank, local rank, job)",
                    c->global_map, ng);
        goto out;
    }
    for (int j = 0; j < c->njobs; j++) {
        from_global[j] = warp_xcalloc((size_t)c->jobs[j].ranks, sizeof *from_global[j]);
        for (int32_t r = 0; r < c->jobs[j].ranks; r++)
            from_global[j][r] = UINT64_MAX;
    }
    for (size_t k = 0; k < ng / 3; k++) {
        int32_t g = gm[3 * k], l = gm[3 * k + 1], j = gm[3 * k + 2];
        if (j == -1)
            continue; /* a server no job uses */
        if (g < 0 || (uint64_t)g >= nranks || j < 0 || j >= c->njobs || l < 0 || l >= c->jobs[j].ranks) {
            replay_errf(err, "%s: entry %zu (global %d, local %d, job %d) is outside the %llu network ranks "
                        "or the %d jobs and their rank counts of %s", c->global_map, k, g, l, j,
                        (unsigned long long)nranks, c->njobs, c->path);
            goto out;
        }
        if (owner[g] || from_global[j][l] != UINT64_MAX) {
            replay_errf(err, "%s: entry %zu (global %d, local %d, job %d) reuses a global rank or a job rank "
                        "an earlier entry placed", c->global_map, k, g, l, j);
            goto out;
        }
        owner[g] = j + 1;
        from_global[j][l] = (uint64_t)g;
    }
    for (int j = 0; j < c->njobs; j++) {
        const replay_tracer_job *job = &c->jobs[j];
        if (!job->map) { /* TraceR needs the job map; the global map alone says the same */
            for (int32_t r = 0; r < job->ranks; r++) {
                if (from_global[j][r] == UINT64_MAX) {
                    replay_errf(err, "%s: no entry for rank %d of job %d; every job rank needs one",
                                c->global_map, r, j);
                    goto out;
                }
                place[j][r] = from_global[j][r];
            }
            continue;
        }
        size_t nm = 0;
        int32_t *m = read_ints(job->map, "the job map", &nm, err);
        if (!m)
            goto out;
        if (nm != (size_t)job->ranks) {
            replay_errf(err, "%s: the job map holds %zu ranks but %s gives job %d %d ranks", job->map, nm,
                        c->path, j, job->ranks);
            free(m);
            goto out;
        }
        for (int32_t r = 0; r < job->ranks; r++)
            if (m[r] < 0 || (uint64_t)m[r] != from_global[j][r]) {
                replay_errf(err, "%s: rank %d of job %d maps to global rank %d, but the global map %s "
                            "places it on %lld; regenerate both maps together", job->map, r, j, m[r],
                            c->global_map, from_global[j][r] == UINT64_MAX ? -1LL : (long long)from_global[j][r]);
                free(m);
                goto out;
            }
        for (int32_t r = 0; r < job->ranks; r++)
            place[j][r] = (uint64_t)m[r];
        free(m);
    }
    rc = 0;
out:
    for (int j = 0; j < c->njobs; j++)
        free(from_global[j]);
    free(from_global);
    free(gm);
    free(owner);
    return rc;
}

void replay_tracer_apply(const replay_tracer_config *c, int job, replay_rank *g)
{
    const replay_tracer_job *j = &c->jobs[job];
    for (uint32_t k = 0; k < g->nmsgs; k++) {
        replay_msg *m = &g->msgs[k];
        for (int s = 0; s < j->nsubst; s++)
            if (m->bytes == j->subst[s].size) {
                m->bytes = j->subst[s].by;
                break;
            }
        if (j->size_limit >= 0 && m->bytes >= (uint64_t)j->size_limit)
            m->bytes = j->size_by;
    }
    if (c->time_limit_ns >= 0)
        for (uint32_t i = 0; i < g->ntasks; i++)
            if (g->tasks[i].dur_ns >= (uint64_t)c->time_limit_ns)
                g->tasks[i].dur_ns = c->time_by_ns;
}

void replay_tracer_free(replay_tracer_config *c)
{
    for (int j = 0; c->jobs && j < c->njobs; j++) {
        free(c->jobs[j].trace);
        free(c->jobs[j].map);
        free(c->jobs[j].subst);
    }
    free(c->jobs);
    free(c->global_map);
    free(c->path);
    memset(c, 0, sizeof *c);
}
