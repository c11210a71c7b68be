/* warpnet/tune.c — `warpnet tune RUN.ini`: short optimistic probe runs of a
 * run file over the engine settings that change speed only (partition, LPs
 * per KP, batch, GVT interval), one setting at a time from the best so far
 * (the partition first: it decides the remote share). Where the ranks wait
 * at the safe-event bound, which ignores the GVT interval, the last stage
 * weighs waiting against --safe-events=ahead at each interval instead.
 * Prints one row per probed setting (committed events/s, efficiency) and
 * the best setting with the flags that select it. Each probe is a separate process (under
 * $MPIEXEC -n NP with --np), run to a short model time; the search stops
 * at a wall-time budget. Every probe commits the same events, since none of
 * these settings changes a result. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#include "summary.h"

#define TUNE_MAX 32
/* The probed fields, in the order of their flags on a row. */
enum { F_PART, F_KPS, F_BATCH, F_SAFE, F_GVT, TUNE_FIELDS };

typedef struct probe {
    char flag[TUNE_FIELDS][40]; /* "" where the field is not probed */
    double rate, eff, run_s, wall, processed, final_run;
    int ok, over; /* over: stopped at the budget */
} probe;

typedef struct tune_run {
    const char *self, *run, *out;
    char passthrough[16384];
    int np;
    double end, probe_end, budget, t_start;
    probe row[TUNE_MAX];
    int n;
} tune_run;

static const char tune_usage[] =
    "usage: warpnet tune RUN.ini [--np=RANKS] [--budget=SECONDS] [--probe-end=T] [--out=DIR]\n"
    "                    [warpnet options]\n"
    "       warpnet tune --partition=N RUN.ini --write-partition=FILE [--np=RANKS] [--probe-end=T]\n"
    "                    [--budget=SECONDS] [--out=DIR] [warpnet options]\n"
    "Finds the fastest engine settings for RUN.ini on RANKS processes (under mpiexec; default: 1)\n"
    "with short --synch=opt probe runs: the partition (block, topology, and metis where this\n"
    "build has it; with 2+ ranks), LPs per KP, --batch and --gvt-interval, one at a time from the\n"
    "best so far. Where the first probe's ranks wait at the safe-event bound (2+ ranks, a model\n"
    "with a lookahead: every event runs final), the GVT interval is unused, so the last stage\n"
    "probes --safe-events=on against --safe-events=ahead with each --gvt-interval instead.\n"
    "Prints committed events/s and efficiency per setting, then the best setting and the\n"
    "command line that uses it. Probes run to T of model time (default: a twentieth of\n"
    "[engine] end, rescaled after the first probe so that all of them fit the budget, default\n"
    "60 s); their logs and statistics go to DIR (default tune.out). Other options go to every\n"
    "probe. Example:\n"
    "  warpnet tune examples/configs/torus-8x8x8.ini --np=2 --budget=30\n"
    "With --partition=N, one probe run (sequential, or --synch=opt on RANKS processes; the\n"
    "counts are the same) measures the packets over every router link and the events at every\n"
    "router, and METIS places the routers on N ranks from them (needs libmetis-dev): FILE is the\n"
    "placement, for --partition=file:FILE on N ranks. Prints the measured remote share and\n"
    "imbalance of it beside topology's, block's and metis's. Example:\n"
    "  warpnet tune --partition=16 examples/configs/fattree-8p3l-codes.ini --write-partition=ft16.txt\n";

static double wall_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void flags_of(const probe *p, char *buf, size_t cap)
{
    buf[0] = 0;
    for (int f = 0; f < TUNE_FIELDS; f++)
        if (p->flag[f][0]) {
            size_t len = strlen(buf);
            snprintf(buf + len, cap - len, "%s%s", len ? " " : "", p->flag[f]);
        }
}

static int same_setting(const probe *a, const probe *b)
{
    for (int f = 0; f < TUNE_FIELDS; f++)
        if (strcmp(a->flag[f], b->flag[f]))
            return 0;
    return 1;
}

/* Starts the command line of a run of RUN.ini: mpiexec, the program, the
 * file. */
static void command_start(const tune_run *t, char *cmd, size_t cap)
{
    const char *mpiexec = getenv("MPIEXEC");
    cmd[0] = 0;
    if (t->np > 1)
        snprintf(cmd, cap, "%s -n %d", mpiexec && *mpiexec ? mpiexec : "mpiexec", t->np);
    wn_add_word(cmd, cap, t->self);
    wn_add_word(cmd, cap, t->run);
}

/* Runs probe p (to t->probe_end) and reads its statistics. A probe may run
 * only for what is left of the budget (a --probe-end too long for it once
 * ran on regardless), at least a second; one stopped there is `over`. Says
 * on stderr how it went, as it goes (the table comes at the end). */
static void measure(tune_run *t, probe *p, int k)
{
    char cmd[32768], arg[4300], js_path[4200], log_path[4200];
    snprintf(js_path, sizeof js_path, "%s/probe-%02d.json", t->out, k);
    snprintf(log_path, sizeof log_path, "%s/probe-%02d.log", t->out, k);
    remove(js_path);
    double left = t->budget - (wall_now() - t->t_start);
    snprintf(cmd, sizeof cmd, "timeout -k 5 %.0f ", left > 1 ? left + 0.5 : 1.0);
    char rest[32768];
    command_start(t, rest, sizeof rest);
    strncat(cmd, rest, sizeof cmd - strlen(cmd) - 1);
    const char *fixed[] = {"--synch=opt", "--quiet", "--workload.warmup=0ns"};
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++)
        wn_add_word(cmd, sizeof cmd, fixed[i]);
    snprintf(arg, sizeof arg, "--engine.end=%.10gns", t->probe_end);
    wn_add_word(cmd, sizeof cmd, arg);
    snprintf(arg, sizeof arg, "--stats-json=%s", js_path);
    wn_add_word(cmd, sizeof cmd, arg);
    for (int f = 0; f < TUNE_FIELDS; f++)
        if (p->flag[f][0])
            wn_add_word(cmd, sizeof cmd, p->flag[f]);
    size_t len = strlen(cmd);
    snprintf(cmd + len, sizeof cmd - len, "%s > '%s' 2>&1", t->passthrough, log_path);
    double t0 = wall_now();
    int rc = system(cmd);
    p->wall = wall_now() - t0;
    p->over = WIFEXITED(rc) && (WEXITSTATUS(rc) == 124 || WEXITSTATUS(rc) == 137);
    char *js = wn_slurp(js_path);
    p->ok = rc == 0 && js && wn_json_number(js, "event_rate", &p->rate) == 0 &&
            wn_json_number(js, "efficiency", &p->eff) == 0 &&
            wn_json_number(js, "run_s", &p->run_s) == 0;
    p->processed = p->final_run = 0; /* stay 0 where the statistics lack them */
    if (p->ok) {
        wn_json_number(js, "processed", &p->processed);
        wn_json_number(js, "final_run", &p->final_run);
    }
    free(js);
    char flags[256];
    flags_of(p, flags, sizeof flags);
    if (p->ok)
        fprintf(stderr, "tune: probe %d (%s): %.4g committed/s, efficiency %.2f%%, %.1f s\n", k,
                flags[0] ? flags : "defaults", p->rate, 100 * p->eff, p->wall);
    else
        fprintf(stderr, "tune: probe %d (%s): %s after %.1f s; see %s\n", k, flags[0] ? flags : "defaults",
                p->over ? "stopped at the budget" : "failed", p->wall, log_path);
}

/* Whether probe p's ranks waited at the safe-event bound: a waiting rank
 * runs nothing past the bound, so every event runs final; ahead runs some
 * past it, and with no bound (one rank, no lookahead, off) none is final. */
static int held_at_bound(const probe *p)
{
    return p->ok && p->processed > 0 && p->final_run >= p->processed;
}

/* Probes p unless it was probed already or the budget is spent; returns
 * its row, or NULL. */
static probe *try_setting(tune_run *t, const probe *p, double t_start, double budget, int *skipped)
{
    for (int i = 0; i < t->n; i++)
        if (same_setting(&t->row[i], p))
            return &t->row[i];
    double last = t->n ? t->row[t->n - 1].wall : 0;
    if (t->n == TUNE_MAX || wall_now() - t_start + last > budget) {
        ++*skipped;
        return NULL;
    }
    probe *r = &t->row[t->n];
    *r = *p;
    measure(t, r, t->n);
    t->n++;
    return r;
}

/* Whether this build's --partition accepts metis (asked of --describe). */
static int have_metis(const tune_run *t)
{
    char cmd[32768];
    cmd[0] = 0;
    wn_add_word(cmd, sizeof cmd, t->self);
    wn_add_word(cmd, sizeof cmd, t->run);
    size_t len = strlen(cmd);
    snprintf(cmd + len, sizeof cmd - len, " --describe --partition=metis%s > /dev/null 2>&1",
             t->passthrough);
    return system(cmd) == 0;
}

/* --partition=N: one probe to t->probe_end that writes the placement for
 * N ranks (warpnet --write-partition), then its report lines. */
static int tune_partition(tune_run *t, const char *parts, const char *file)
{
    char cmd[32768], arg[4300], log_path[4200];
    snprintf(log_path, sizeof log_path, "%s/partition.log", t->out);
    snprintf(cmd, sizeof cmd, "timeout -k 5 %.0f ", t->budget + 0.5);
    size_t len = strlen(cmd);
    command_start(t, cmd + len, sizeof cmd - len);
    wn_add_word(cmd, sizeof cmd, t->np > 1 ? "--synch=opt" : "--synch=seq");
    wn_add_word(cmd, sizeof cmd, "--quiet");
    wn_add_word(cmd, sizeof cmd, "--workload.warmup=0ns");
    snprintf(arg, sizeof arg, "--engine.end=%.10gns", t->probe_end);
    wn_add_word(cmd, sizeof cmd, arg);
    snprintf(arg, sizeof arg, "--ranks=%s", parts);
    wn_add_word(cmd, sizeof cmd, arg);
    snprintf(arg, sizeof arg, "--write-partition=%s", file);
    wn_add_word(cmd, sizeof cmd, arg);
    len = strlen(cmd);
    snprintf(cmd + len, sizeof cmd - len, "%s > '%s' 2>&1", t->passthrough, log_path);
    double t0 = wall_now();
    int rc = system(cmd);
    char *log = wn_slurp(log_path);
    if (rc != 0) {
        /* One line: the probe's own error, which says what to fix. */
        const char *why = log ? strstr(log, "warpnet: ") : NULL;
        int len_why = why ? (int)strcspn(why + 9, "\n") : 0;
        int over = WIFEXITED(rc) && (WEXITSTATUS(rc) == 124 || WEXITSTATUS(rc) == 137);
        char msg[1024];
        snprintf(msg, sizeof msg, "%.*s", len_why, why ? why + 9 : "");
        free(log);
        warp_fatal(WARP_EXIT_USAGE, "tune: the partition probe %s after %.1f s (%s)%s%s",
                   over ? "ran past --budget" : "failed", wall_now() - t0, log_path,
                   why ? ": " : "; see the log", msg);
    }
    const char *rep = log ? strstr(log, "partition on ") : NULL;
    printf("tune: %s: traffic of a probe to %.6g ns of model time (%.1f s)\n", t->run,
           t->probe_end, wall_now() - t0);
    fputs(rep ? rep : "", stdout);
    free(log);
    return rep ? 0 : WARP_EXIT_INTERNAL;
}

int wn_tune_main(const char *self, int argc, char **argv)
{
    tune_run *t = calloc(1, sizeof *t);
    if (!t)
        warp_fatal(WARP_EXIT_RESOURCE, "tune: out of memory");
    t->self = self;
    t->out = "tune.out";
    t->np = 1;
    double budget = 60, probe_end = 0;
    const char *for_ranks = NULL, *write_part = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(tune_usage, stdout);
            free(t);
            return 0;
        }
    }
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--np=", 5) == 0) {
            t->np = atoi(argv[i] + 5);
            if (t->np < 1)
                warp_fatal(WARP_EXIT_USAGE, "tune: %s: give 1 or more ranks", argv[i]);
        } else if (strncmp(argv[i], "--budget=", 9) == 0) {
            budget = atof(argv[i] + 9);
            if (!(budget > 0))
                warp_fatal(WARP_EXIT_USAGE, "tune: %s: give a positive number of seconds", argv[i]);
        } else if (strncmp(argv[i], "--probe-end=", 12) == 0) {
            const char *why;
            if (warp_parse_time_ns(argv[i] + 12, &probe_end, &why) || !(probe_end > 0) ||
                probe_end > WARP_TIME_NS_MAX)
                warp_fatal(WARP_EXIT_USAGE, "tune: %s: give a positive model time with a unit, at most 1e15ns "
                           "(e.g. 5us)", argv[i]);
        } else if (strncmp(argv[i], "--partition=", 12) == 0 && argv[i][12] >= '0' &&
                   argv[i][12] <= '9') {
            for_ranks = argv[i] + 12;
            if (strspn(for_ranks, "0123456789") != strlen(for_ranks) || atoi(for_ranks) < 1)
                warp_fatal(WARP_EXIT_USAGE, "tune: %s: give the number of ranks to place the routers on",
                           argv[i]);
        } else if (strncmp(argv[i], "--write-partition=", 18) == 0) {
            write_part = argv[i] + 18;
        } else if (strncmp(argv[i], "--out=", 6) == 0) {
            t->out = argv[i] + 6;
        } else if (!t->run && argv[i][0] != '-') {
            t->run = argv[i];
        } else {
            wn_add_word(t->passthrough, sizeof t->passthrough, argv[i]);
        }
    }
    if (!t->run)
        warp_fatal(WARP_EXIT_USAGE, "usage: warpnet tune RUN.ini [--np=RANKS] [--budget=SECONDS] "
                   "[--probe-end=T] [--out=DIR] [options]; see warpnet tune --help");
    /* [engine] end: a time with its unit, or a plain number of ns. */
    warp_ini *ini = warp_ini_load(t->run);
    const char *end = warp_ini_get(ini, "engine", "end"), *why;
    if (end && warp_parse_time_ns(end, &t->end, &why))
        t->end = strtod(end, NULL);
    warp_ini_free(ini);
    if (!probe_end && !(t->end > 0))
        warp_fatal(WARP_EXIT_USAGE, "tune: %s gives no [engine] end; give the probes' model time "
                   "with --probe-end=T (e.g. 50us)", t->run);
    t->probe_end = probe_end ? probe_end : t->end / 20;
    mkdir(t->out, 0777);
    if (for_ranks && !write_part)
        warp_fatal(WARP_EXIT_USAGE, "tune: --partition=%s: name the placement file to write with "
                   "--write-partition=FILE", for_ranks);
    if (write_part && !for_ranks)
        warp_fatal(WARP_EXIT_USAGE, "tune: --write-partition=%s: give the rank count with "
                   "--partition=N", write_part);
    if (for_ranks) {
        t->budget = budget;
        int rc = tune_partition(t, for_ranks, write_part);
        free(t);
        return rc;
    }

    /* The defaults first; the partition only matters on 2+ ranks. */
    const char *parts[] = {"--partition=topology", "--partition=block", "--partition=metis", NULL};
    const char *kps[] = {"--kps=64", "--lps-per-kp=1", "--lps-per-kp=8", NULL};
    const char *batches[] = {"--batch=32", "--batch=8", "--batch=128", NULL};
    const char *safes[] = {"--safe-events=on", "--safe-events=ahead", NULL};
    const char *gvts[] = {"--gvt-interval=16", "--gvt-interval=4", "--gvt-interval=64",
                          "--gvt-interval=auto", NULL};
    const char *const *stage[TUNE_FIELDS] = {parts, kps, batches, safes, gvts};
    int nparts = t->np > 1 ? (have_metis(t) ? 3 : 2) : 0;
    probe best;
    memset(&best, 0, sizeof best);
    for (int f = 0; f < TUNE_FIELDS; f++)
        if ((f != F_PART || nparts) && f != F_SAFE)
            snprintf(best.flag[f], sizeof best.flag[f], "%s", stage[f][0]);

    double t_start = wall_now();
    t->budget = budget;
    t->t_start = t_start;
    int skipped = 0;
    t->row[0] = best;
    measure(t, &t->row[0], 0);
    if (t->row[0].over)
        warp_fatal(WARP_EXIT_USAGE, "tune: the probe with the default settings ran past --budget=%g s before "
                   "reaching %.6g ns of model time; give a shorter --probe-end or a larger --budget", budget,
                   t->probe_end);
    if (!t->row[0].ok)
        warp_fatal(WARP_EXIT_USAGE, "tune: the probe with the default settings failed; see %s/probe-00.log",
                   t->out);
    /* A rank waiting at the safe-event bound joins a round only when it
     * gets there, so the GVT interval matters only with ahead: the last
     * stage then probes waiting against ahead at each interval, and the
     * defaults' row names the waiting instead of its unused interval. Not
     * where tune's own options fix --safe-events: they come last on every
     * probe and would override the probed one. */
    int held = held_at_bound(&t->row[0]) && !strstr(t->passthrough, "safe-events") &&
               !strstr(t->passthrough, "safe_events");
    if (held) {
        snprintf(t->row[0].flag[F_SAFE], sizeof t->row[0].flag[F_SAFE], "%s", safes[0]);
        t->row[0].flag[F_GVT][0] = 0;
    }
    int planned = 1 + (nparts ? nparts - 1 : 0) + 2 + 2 + (held ? 4 : 3);
    /* Rescale the probes so that all of them fit the budget (and none is
     * so short that start-up noise decides), then measure the defaults
     * again at that length. */
    double fixed = t->row[0].wall - t->row[0].run_s, want = budget / planned - fixed,
           run0 = t->row[0].run_s > 1e-4 ? t->row[0].run_s : 1e-4;
    if (want < 0.1) /* start-up takes the budget: probes of 0.1 s at least */
        want = 0.1;
    if (!probe_end && (run0 > 2 * want || (run0 < want / 2 && t->probe_end < t->end))) {
        double pe = t->probe_end * want / run0;
        t->probe_end = pe < t->end ? pe : t->end;
        measure(t, &t->row[0], 0);
        if (!t->row[0].ok)
            warp_fatal(WARP_EXIT_USAGE, "tune: the probe with the default settings failed; see "
                       "%s/probe-00.log", t->out);
    }
    t->n = 1;
    best = t->row[0];
    for (int f = 0; f < TUNE_FIELDS; f++) {
        if ((f == F_PART && !nparts) || f == F_SAFE) /* safe events go with the interval */
            continue;
        probe stage_best = best;
        /* Waiting, no interval was probed yet: each goes with ahead. */
        for (int v = f == F_GVT && held ? 0 : 1; stage[f][v] && (f != F_PART || v < nparts); v++) {
            probe c = best;
            snprintf(c.flag[f], sizeof c.flag[f], "%s", stage[f][v]);
            if (f == F_GVT && held)
                snprintf(c.flag[F_SAFE], sizeof c.flag[F_SAFE], "%s", safes[1]);
            probe *r = try_setting(t, &c, t_start, budget, &skipped);
            if (r && r->ok && r->rate > stage_best.rate)
                stage_best = *r;
        }
        best = stage_best;
    }

    char flags[256];
    int width = 7; /* "setting", or the longest row's flags */
    for (int i = 0; i < t->n; i++) {
        flags_of(&t->row[i], flags, sizeof flags);
        if ((int)strlen(flags) > width)
            width = (int)strlen(flags);
    }
    printf("tune: %s on %d rank(s): --synch=opt probes to %.6g ns of model time%s, budget %g s\n",
           t->run, t->np, t->probe_end, t->end > 0 ? "" : " (--probe-end)", budget);
    printf("%-*s %14s %11s %8s\n", width, "setting", "committed/s", "efficiency", "run s");
    for (int i = 0; i < t->n; i++) {
        flags_of(&t->row[i], flags, sizeof flags);
        if (t->row[i].ok)
            printf("%-*s %14.4g %10.2f%% %8.3f\n", width, flags, t->row[i].rate,
                   100 * t->row[i].eff, t->row[i].run_s);
        else if (t->row[i].over)
            printf("%-*s %14s (stopped at the budget)\n", width, flags, "-");
        else
            printf("%-*s %14s (see %s/probe-%02d.log)\n", width, flags, "failed", t->out, i);
    }
    if (skipped)
        printf("budget spent: %d setting(s) not probed (raise --budget)\n", skipped);
    flags_of(&best, flags, sizeof flags);
    printf("best: %s: %.4g committed events/s, efficiency %.2f%%, %.2fx the defaults\n", flags,
           best.rate, 100 * best.eff, t->row[0].rate > 0 ? best.rate / t->row[0].rate : 1.0);
    char cmd[32768] = "";
    if (t->np > 1) {
        const char *mpiexec = getenv("MPIEXEC");
        snprintf(cmd, sizeof cmd, "%s -n %d ", mpiexec && *mpiexec ? mpiexec : "mpiexec", t->np);
    }
    printf("use: %swarpnet %s --synch=opt %s%s\n", cmd, t->run, flags, t->passthrough);
    free(t);
    return 0;
}
