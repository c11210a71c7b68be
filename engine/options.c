/* engine/options.c — the engine's options, declared once in engine_opts: the
 * table drives the command line, a run file's [engine] section, --help and
 * the defaults. Model options (warp_opt) are parsed alongside. The command
 * line wins over `--config=FILE` and over a run file applied before it.
 * Every bad value stops the run naming the option or the file:line it came
 * from. Called by warp_init, warp_parse_args and host programs. */
#include "config.h"
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>

#include "warp_cfg.h"
#include "warp_ini.h"

/* ---- Setters: each sets one option of the context, or says why not ---------- */

static const char *set_synch(void *t, const char *v)
{
    static const struct { const char *n; warp_synch s; } names[] = {
        {"seq", SYNCH_SEQ}, {"1", SYNCH_SEQ}, {"sequential", SYNCH_SEQ},
        {"cons", SYNCH_CONS}, {"2", SYNCH_CONS}, {"conservative", SYNCH_CONS},
        {"opt", SYNCH_OPT}, {"3", SYNCH_OPT}, {"optimistic", SYNCH_OPT},
        {"check", SYNCH_CHECK}, {"debug", SYNCH_DEBUG},
    };
    warp_opts *o = t;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (v && !strcmp(v, names[i].n)) {
            o->synch = names[i].s;
            return NULL;
        }
    return "unknown mode; use seq, cons, opt, check or debug";
}

/* A model time: with its unit when model time is ns, else a bare number. */
static const char *parse_model_time(const warp_opts *o, const char *v, double *x)
{
    const char *why;
    if (o->time_in_ns) {
        static char reason[160];
        if (warp_parse_time_ns(v ? v : "", x, &why) != 0) {
            snprintf(reason, sizeof reason, "%s (write e.g. 100us)", why);
            return reason;
        }
        /* The run files' range for every time (config/ini.c): 1e30s was
         * taken here, and the run never ended. */
        if (*x > WARP_TIME_NS_MAX)
            return "outside physical sense; give a value from 0 to 1e15ns (11.6 days)";
        return NULL;
    }
    return warp_cfg_double(v, x);
}

/* A model time > 0 into *dst, or why not. */
static const char *set_positive_time(const warp_opts *o, const char *v, double *dst, const char *nonpositive)
{
    double x;
    const char *why = parse_model_time(o, v, &x);
    if (why)
        return why;
    if (!(x > 0))
        return nonpositive;
    *dst = x;
    return NULL;
}

static const char *set_end(void *t, const char *v)
{
    warp_opts *o = t;
    return set_positive_time(o, v, &o->end, "the end time must be > 0");
}

static const char *set_seed(void *t, const char *v) { return warp_cfg_uint(v, 0, &((warp_opts *)t)->seed); }
static const char *set_events(void *t, const char *v) { return warp_cfg_uint(v, 16, &((warp_opts *)t)->events_opt); }
static const char *set_batch(void *t, const char *v) { return warp_cfg_uint(v, 1, &((warp_opts *)t)->batch); }

static const char *set_mem_per_rank(void *t, const char *v)
{
    const char *why;
    if (warp_parse_bytes(v ? v : "", &((warp_opts *)t)->mem_per_rank, &why) != 0)
        return why;
    return ((warp_opts *)t)->mem_per_rank ? NULL : "must be positive (e.g. 4GiB)";
}

/* auto starts at the default and lets the optimistic scheduler move it
 * (sched_opt.c, adapt_interval). Given or not matters there too: a given
 * interval is kept on one rank, where the default is not (warp_options_defaults
 * clears the flag the default set). */
static const char *set_gvt_interval(void *t, const char *v)
{
    warp_opts *o = t;
    o->gvt_interval_given = true;
    o->gvt_interval_auto = v && !strcmp(v, "auto");
    if (o->gvt_interval_auto) {
        o->gvt_interval = 16;
        return NULL;
    }
    return warp_cfg_uint(v, 1, &o->gvt_interval);
}

int queue_parse(const char *name)
{
    if (!strcmp(name, "heap"))
        return QUEUE_HEAP;
    if (!strcmp(name, "splay"))
        return QUEUE_SPLAY;
    if (!strcmp(name, "ladder"))
        return QUEUE_LADDER;
    return -1;
}

const char *queue_name(queue_kind kind)
{
    return kind == QUEUE_HEAP ? "heap" : kind == QUEUE_SPLAY ? "splay" : "ladder";
}

static const char *set_queue(void *t, const char *v)
{
    int q = v ? queue_parse(v) : -1;
    if (q < 0)
        return "unknown queue; use ladder, heap or splay";
    ((warp_opts *)t)->qkind = (queue_kind)q;
    return NULL;
}

static const char *set_gvt(void *t, const char *v)
{
    warp_opts *o = t;
    if (v && !strcmp(v, "mattern"))
        o->gvt_kind = 0;
    else if (v && !strcmp(v, "sync"))
        o->gvt_kind = 1;
    else
        return "unknown GVT algorithm; use mattern or sync";
    return NULL;
}

static const char *set_window(void *t, const char *v)
{
    warp_opts *o = t;
    double x;
    if (v && !strcmp(v, "auto")) {
        o->window_auto = true;
        o->window = INFINITY;
        return NULL;
    }
    const char *why = warp_cfg_double(v, &x);
    if (why)
        return why;
    if (x < 0)
        return "the window must be >= 0 (0: unbounded) or auto";
    o->window_auto = false;
    o->window = x > 0 ? x : INFINITY;
    return NULL;
}

/* --lps-per-kp and --kps set the same thing two ways: the last one wins. */
static const char *set_lps_per_kp(void *t, const char *v)
{
    warp_opts *o = t;
    const char *why = warp_cfg_uint(v, 1, &o->lps_per_kp);
    if (!why)
        o->kps_opt = 0;
    return why;
}

static const char *set_kps(void *t, const char *v)
{
    warp_opts *o = t;
    const char *why = warp_cfg_uint(v, 1, &o->kps_opt);
    if (!why)
        o->lps_per_kp = 0;
    return why;
}

static const char *set_file(char **dst, const char *v)
{
    if (!v || !*v)
        return "expected a file name";
    free(*dst);
    *dst = warp_xstrdup(v);
    return NULL;
}

static const char *set_stats_json(void *t, const char *v) { return set_file(&((warp_opts *)t)->stats_json, v); }
static const char *set_engine_stats(void *t, const char *v) { return set_file(&((warp_opts *)t)->engine_stats, v); }

static const char *set_heartbeat_file(void *t, const char *v)
{
    return set_file(&((warp_opts *)t)->heartbeat_file, v);
}

static const char *const partition_names[] = {"block", "topology", "metis", "file"};

const char *warp_partition_name(warp_partition_kind k)
{
    return (unsigned)k < 4 ? partition_names[k] : "?";
}

/* file:PATH keeps PATH for the model to read (it knows what the file
 * places); the other kinds are plain names. */
static const char *set_partition(void *t, const char *v)
{
    warp_opts *o = t;
    if (v && !strncmp(v, "file:", 5)) {
        if (!v[5])
            return "give the placement file's path after file:, e.g. file:part16.txt (warpnet tune "
                   "--partition=N --write-partition=FILE writes one)";
        o->partition = WARP_PARTITION_FILE;
        return set_file(&o->partition_file, v + 5);
    }
    for (int k = 0; k < 3; k++)
        if (v && !strcmp(v, partition_names[k])) {
#ifndef HAVE_METIS
            if (k == WARP_PARTITION_METIS)
                return "this build has no METIS partitioner: install libmetis-dev and "
                       "reconfigure (./quickstart build), or use topology or block";
#endif
            o->partition = k;
            return NULL;
        }
    return "unknown partition; use block, topology, metis or file:PATH";
}

static const char *set_heartbeat(void *t, const char *v)
{
    warp_opts *o = t;
    const char *why = warp_cfg_double(v, &o->heartbeat_s);
    if (!why && !(o->heartbeat_s > 0))
        why = "the heartbeat interval must be > 0 seconds";
    return why;
}

static const char *set_flag(bool *dst, const char *v)
{
    int x;
    const char *why = warp_cfg_flag(v, &x);
    if (!why)
        *dst = x;
    return why;
}

static const char *set_checkpoint(void *t, const char *v) { return set_file(&((warp_opts *)t)->ckpt_dir, v); }
static const char *set_restart(void *t, const char *v) { return set_file(&((warp_opts *)t)->restart_dir, v); }
static const char *set_ckpt_exit(void *t, const char *v) { return set_flag(&((warp_opts *)t)->ckpt_exit, v); }

static const char *set_ckpt_at(void *t, const char *v)
{
    warp_opts *o = t;
    return set_positive_time(o, v, &o->ckpt_at, "the checkpoint time must be > 0");
}

/* A wall-clock interval: 90s, 30min, 2h. */
static const char *set_ckpt_every(void *t, const char *v)
{
    warp_opts *o = t;
    char *end = NULL;
    double x = v ? strtod(v, &end) : 0;
    if (!v || end == v)
        return "expected a wall-clock interval such as 30min, 600s or 2h";
    double unit = !strcmp(end, "s") ? 1 : !strcmp(end, "min") ? 60 : !strcmp(end, "h") ? 3600 : 0;
    if (!unit)
        return "missing or unknown unit (write e.g. 30min, 600s or 2h)";
    if (!(x > 0) || isinf(x))
        return "the interval must be > 0";
    o->ckpt_every_s = x * unit;
    return NULL;
}

/* (Here, not in checkpoint.c: the options fuzzer links this file alone.) */
int ckpt_signal_number(const char *name, size_t n)
{
    static const struct { const char *n; int s; } sigs[] = {
        {"TERM", SIGTERM}, {"USR1", SIGUSR1}, {"USR2", SIGUSR2},
        {"INT", SIGINT}, {"HUP", SIGHUP}, {"XCPU", SIGXCPU},
    };
    if (n > 3 && !strncmp(name, "SIG", 3)) {
        name += 3;
        n -= 3;
    }
    for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
        if (strlen(sigs[i].n) == n && !strncmp(sigs[i].n, name, n))
            return sigs[i].s;
    return 0;
}

static const char *set_ckpt_signal(void *t, const char *v)
{
    warp_opts *o = t;
    if (!v || !*v)
        return "expected signal names, e.g. TERM,USR1";
    for (const char *p = v; *p;) {
        size_t n = strcspn(p, ",");
        if (!ckpt_signal_number(p, n))
            return "unknown signal; use TERM, USR1, USR2, INT, HUP or XCPU (comma-separated)";
        p += n + (p[n] == ',');
    }
    return set_file(&o->ckpt_signals, v);
}

/* auto, or a flag's spellings (on/off, yes/no, 1/0, true/false). */
static const char *set_huge_pages(void *t, const char *v)
{
    warp_opts *o = t;
    int on;
    if (v && !strcmp(v, "auto"))
        o->huge_pages = WARP_HUGE_AUTO;
    else if (v && *v && !warp_cfg_flag(v, &on))
        o->huge_pages = on ? WARP_HUGE_ON : WARP_HUGE_OFF;
    else
        return "unknown setting; use auto (on when a rank's LPs take more than 256 MiB), on or off";
    return NULL;
}

static const char *const transport_names[] = {"auto", "mpi", "shm"};

static const char *set_transport(void *t, const char *v)
{
    for (int k = 0; k < 3; k++)
        if (v && !strcmp(v, transport_names[k])) {
            ((warp_opts *)t)->transport = (warp_transport_kind)k;
            return NULL;
        }
    return "unknown transport; use auto (shared memory between the ranks of a node, MPI between nodes), "
           "mpi or shm (shared memory only: every rank on one node)";
}

static const char *set_safe_events(void *t, const char *v)
{
    warp_opts *o = t;
    o->safe_ahead = v && !strcmp(v, "ahead");
    if (o->safe_ahead) {
        o->safe_events = true;
        return NULL;
    }
    int on;
    if (warp_cfg_flag(v, &on))
        return "unknown setting; use on (wait at the bound), ahead (run on optimistically past it) or off";
    o->safe_events = on;
    return NULL;
}
static const char *set_progress(void *t, const char *v) { return set_flag(&((warp_opts *)t)->progress, v); }
static const char *set_quiet(void *t, const char *v) { return set_flag(&((warp_opts *)t)->quiet, v); }

/* ---- The table ------------------------------------------------------------------ */

/* Rows without a setter are the program's own (--config, --help): listed
 * in help, never in a run file. A default, when given, is what the setter
 * reads at warp_init; without one the engine chooses, as the help says. */
static const warp_cfg_opt engine_opts[] = {
    {"synch", "MODE", NULL, "seq|cons|opt|check|debug (ROSS numbers 1, 2, 3 work too); default: seq on 1 rank, opt on more", set_synch},
    {"end", "T", "100", "end time; events at T or later never run. A plain number of model time units "
     "(PHOLD), or for the network models (warpnet) a time with its unit, e.g. 20us: there the default "
     "100 means 100ns, and a replay without an end runs until every task has completed", set_end},
    {"seed", "N", "1", "seed of every LP's random stream", set_seed},
    {"events", "N", NULL, "event pool cap per rank (default: 3/4 of the rank's memory, at least 1M; reserved, touched as used)", set_events},
    {"queue", "NAME", "ladder", "pending-event queue: ladder (heap + time buckets), heap (4-ary) or splay", set_queue},
    {"batch", "N", "32", "events run between network polls", set_batch},
    {"gvt-interval", "N|auto", "16", "batches between GVT rounds (one rank, opt: every 32 events unless given); auto: fewer rounds while little event memory is in use (4 .. 1024)", set_gvt_interval},
    {"gvt", "ALGO", "mattern", "mattern (asynchronous) or sync (blocking all-reduce, as ROSS)", set_gvt},
    {"window", "T|auto", "auto", "optimism bound: events later than GVT + T wait; 0: unbounded; auto adapts T to each GVT round's efficiency", set_window},
    {"safe-events", "on|ahead|off", "on", "on several optimistic ranks, run the events no straggler can reach (below the last GVT round's pending minimum + the model's lookahead) without state saving and commit them at once; on: a rank waits at that bound for the next round, ahead: it runs on optimistically meanwhile", set_safe_events},
    {"transport", "auto|mpi|shm", "auto", "how remote events travel: auto passes them through shared-memory rings between the ranks of a node and as MPI messages between nodes; mpi: MPI messages between every pair; shm: rings only, refused unless every rank is on one node", set_transport},
    {"partition", "KIND", "topology", "block|topology|metis|file:PATH: how a network model places its routers (terminals and ranks follow them) on the ranks; topology cuts along pods, groups or grid blocks, metis partitions the router graph with METIS 5 (builds with libmetis-dev), file:PATH reads a placement file (warpnet tune --partition=N --write-partition=PATH writes one from measured traffic)", set_partition},
    {"lps-per-kp", "N", NULL, "LPs per kernel process (rollback unit)", set_lps_per_kp},
    {"kps", "N", NULL, "kernel processes per rank (default: min(LPs per rank, 64))", set_kps},
    {"mem-per-rank", "SIZE", NULL, "memory each rank may use, e.g. 4GiB (default: the node's available memory / its ranks)", set_mem_per_rank},
    {"huge-pages", "auto|on|off", "auto", "transparent huge pages (madvise) for the LP states and the event pool: fewer TLB misses on big models; auto: on when a rank's LPs take more than 256 MiB", set_huge_pages},
    {"stats-json", "FILE", NULL, "also write the end-of-run statistics as JSON", set_stats_json},
    {"engine-stats", "FILE", NULL, "per rank and GVT round: events, rollbacks, time split (CSV; FILE.kps.csv per KP)", set_engine_stats},
    {"heartbeat", "SECONDS", NULL, "write a progress line to the heartbeat file every SECONDS", set_heartbeat},
    {"heartbeat-file", "FILE", "warp-heartbeat.log", "where --heartbeat writes", set_heartbeat_file},
    {"progress", NULL, NULL, "show a progress line on stderr (default: when stderr is a terminal)", set_progress},
    {"quiet", NULL, NULL, "print no statistics table", set_quiet},
    {"checkpoint", "DIR", NULL, "write checkpoints into DIR (atomically; see --checkpoint-every/-at/-signal)", set_checkpoint},
    {"checkpoint-every", "WALLTIME", NULL, "checkpoint at the first GVT round after each WALLTIME (30min, 600s, 2h)", set_ckpt_every},
    {"checkpoint-at", "T", NULL, "checkpoint at model time T (the first GVT round past it)", set_ckpt_at},
    {"checkpoint-exit", NULL, NULL, "stop after the first checkpoint, with exit code 6", set_ckpt_exit},
    {"checkpoint-signal", "SIGS", "TERM,USR1", "signals that checkpoint and stop with exit code 6 (with --checkpoint)", set_ckpt_signal},
    {"restart", "DIR", NULL, "resume from the checkpoint in DIR, on any number of ranks", set_restart},
    {"config", "FILE", NULL, "read options from FILE: [engine] and the model's section", NULL},
    {"help", NULL, NULL, "show this help", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

const warp_cfg_opt *warp_engine_options(void) { return engine_opts; }

void warp_print_engine_help(FILE *f)
{
    fprintf(f, "Engine options:\n");
    warp_cfg_print_help(f, engine_opts);
}

void warp_options_defaults(warp_ctx *w)
{
    for (const warp_cfg_opt *o = engine_opts; o->name; o++)
        if (o->dflt && o->set)
            warp_cfg_set(o, &w->opt, o->dflt, NULL, "engine");
    w->opt.gvt_interval_given = false;
    w->opt.synch = w->nranks > 1 ? SYNCH_OPT : SYNCH_SEQ;
    w->opt.ckpt_at = INFINITY;
}

void warp_set_time_unit_ns(warp_ctx *w) { w->opt.time_in_ns = true; }
void warp_set_end_is_bound(warp_ctx *w) { w->opt.end_is_bound = true; }
void warp_set_output_owner(warp_ctx *w, const char *option, const char *dir)
{
    set_file(&w->opt.output_owner, option);
    set_file(&w->opt.output_dir, dir);
}

const char *synch_name(warp_synch s)
{
    switch (s) {
    case SYNCH_SEQ: return "seq";
    case SYNCH_CONS: return "cons";
    case SYNCH_OPT: return "opt";
    case SYNCH_CHECK: return "check";
    case SYNCH_DEBUG: return "debug";
    }
    return "?";
}

size_t warp_options_settings(const warp_ctx *w, char (*out)[80], size_t cap)
{
    size_t n = 0;
#define SETTING(...) (void)(n < cap && snprintf(out[n++], sizeof out[0], __VA_ARGS__))
    SETTING("--synch=%s", synch_name(w->opt.synch));
    SETTING("--end=%.17g%s", w->opt.end, w->opt.time_in_ns ? "ns" : "");
    SETTING("--seed=%llu", (unsigned long long)w->opt.seed);
    SETTING("--events=%llu", (unsigned long long)w->opt.events_opt);
    SETTING("--queue=%s", queue_name(w->opt.qkind));
    SETTING("--batch=%llu", (unsigned long long)w->opt.batch);
    SETTING("--gvt-interval=%llu", (unsigned long long)w->opt.gvt_interval);
    SETTING("--gvt=%s", w->opt.gvt_kind ? "sync" : "mattern");
    if (w->opt.window_auto)
        SETTING("--window=auto");
    else
        SETTING("--window=%.17g", w->opt.window);
    SETTING("--lps-per-kp=%llu", (unsigned long long)w->opt.lps_per_kp);
    SETTING("--kps=%llu", (unsigned long long)w->opt.kps_opt);
    SETTING("--mem-per-rank=%llu", (unsigned long long)w->opt.mem_per_rank);
    SETTING("--transport=%s", transport_names[w->opt.transport]);
    SETTING("--safe-events=%s", !w->opt.safe_events ? "off" : w->opt.safe_ahead ? "ahead" : "on");
#undef SETTING
    return n;
}

int warp_set_option(warp_ctx *w, const char *key, const char *v, const char *where)
{
    const warp_cfg_opt *o = warp_cfg_find(engine_opts, key);
    if (!o || !o->set)
        return 0;
    warp_cfg_set(o, &w->opt, v, where, "engine");
    w->opt.given |= UINT64_C(1) << (o - engine_opts);
    return 1;
}

int warp_option_given(const warp_ctx *w, const char *name)
{
    const warp_cfg_opt *o = warp_cfg_find(engine_opts, name);
    return o && (w->opt.given >> (o - engine_opts) & 1);
}

const char *warp_option_file(const warp_ctx *w, const char *name)
{
    if (!warp_option_given(w, name))
        return NULL;
    if (!strcmp(name, "stats-json"))
        return w->opt.stats_json;
    if (!strcmp(name, "engine-stats"))
        return w->opt.engine_stats;
    if (!strcmp(name, "heartbeat-file"))
        return w->opt.heartbeat_file;
    return NULL;
}

/* ---- Model options ------------------------------------------------------------ */

static const warp_opt *find_model_opt(const warp_opt *opts, const char *name)
{
    for (const warp_opt *o = opts; o && o->name; o++)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

static const char *parse_model_opt(const warp_opt *o, const char *v)
{
    switch (o->kind) {
    case WARP_OPT_INT: {
        char *end;
        errno = 0;
        long long x = v ? strtoll(v, &end, 10) : 0;
        if (!v || !*v || errno || *end)
            return "expected an integer";
        *(int64_t *)o->dest = x;
        return NULL;
    }
    case WARP_OPT_UINT:
        return warp_cfg_uint(v, 0, o->dest);
    case WARP_OPT_DOUBLE:
        return warp_cfg_double(v, o->dest);
    case WARP_OPT_STRING:
        if (!v)
            return "expected a value";
        *(const char **)o->dest = v;
        return NULL;
    case WARP_OPT_FLAG:
        return warp_cfg_flag(v, o->dest);
    }
    return "unknown option kind";
}

/* where: NULL for the command line, else the file:line of a config key. */
static void set_model_opt(const warp_opt *o, const char *v, const char *where, const char *section)
{
    const char *why = parse_model_opt(o, v);
    if (!why)
        return;
    if (!where)
        warp_fatal(WARP_EXIT_USAGE, "--%s=%s: %s", o->name, v ? v : "", why);
    warp_fatal(WARP_EXIT_USAGE, "%s: [%s] %s = %s: %s", where, section, o->name, v ? v : "", why);
}

static void print_help(const warp_ctx *w, const warp_opt *model_opts, const char *usage)
{
    if (w->rank != 0)
        return;
    printf("%s\n\n", usage ? usage : "usage: PROGRAM [options]");
    if (model_opts && model_opts->name) {
        printf("Model options:\n");
        for (const warp_opt *o = model_opts; o->name; o++) {
            char left[64];
            static const char *kinds[] = {"=INT", "=N", "=X", "=STR", ""};
            snprintf(left, sizeof left, "--%s%s", o->name, kinds[o->kind]);
            printf("  %-22s %s\n", left, o->help ? o->help : "");
        }
        printf("\n");
    }
    warp_print_engine_help(stdout);
}

/* ---- Run files and the command line -------------------------------------------- */

/* key as the user wrote it; dashed, its documented spelling (see below). */
static void unknown_engine_key(const char *key, const char *dashed, const char *value, const char *where)
{
    const char *near = warp_cfg_suggest(engine_opts, dashed);
    if (near)
        warp_fatal(WARP_EXIT_USAGE, "%s: [engine] %s = %s: unknown engine option; did you mean "
                                    "%s? see --help", where, key, value, near);
    warp_fatal(WARP_EXIT_USAGE, "%s: [engine] %s = %s: unknown engine option; see --help", where,
               key, value);
}

/* A run file may spell an option's dashes as underscores (huge_pages), as
 * the model sections' keys are: the key is put in the dashed spelling once,
 * here, and looked up once. An unknown key is named as written; a bad value
 * names the option's documented (dashed) name, as on the command line. */
static void apply_engine_key(const char *key, const char *value, const char *where, void *arg)
{
    char dashed[64];
    size_t n = strlen(key);
    if (n >= sizeof dashed) /* longer than any option: unknown as written */
        unknown_engine_key(key, key, value, where);
    for (size_t i = 0; i <= n; i++)
        dashed[i] = key[i] == '_' ? '-' : key[i];
    if (!warp_set_option(arg, dashed, value, where))
        unknown_engine_key(key, dashed, value, where);
}

void warp_apply_ini(warp_ctx *w, warp_ini *ini)
{
    warp_ini_each(ini, "engine", apply_engine_key, w);
}

typedef struct model_apply {
    const warp_opt *opts;
    const char *section;
} model_apply;

/* Values are used straight from the ini; a model's string option points
 * into it, so the ini lives until warp_free_options. */
static void apply_model_key(const char *key, const char *value, const char *where, void *arg)
{
    const model_apply *c = arg;
    const warp_opt *o = find_model_opt(c->opts, key);
    if (!o)
        warp_fatal(WARP_EXIT_USAGE, "%s: [%s] %s = %s: unknown model option; see --help", where,
                   c->section, key, value);
    set_model_opt(o, value, where, c->section);
}

void warp_free_options(warp_ctx *w)
{
    free(w->opt.stats_json);
    free(w->opt.output_owner);
    free(w->opt.output_dir);
    free(w->opt.engine_stats);
    free(w->opt.heartbeat_file);
    free(w->opt.partition_file);
    w->opt.partition_file = NULL;
    free(w->opt.ckpt_dir);
    free(w->opt.restart_dir);
    free(w->opt.ckpt_signals);
    w->opt.ckpt_dir = w->opt.restart_dir = w->opt.ckpt_signals = NULL;
    for (int i = 0; i < w->opt.nconfigs; i++)
        warp_ini_free(w->opt.configs[i]);
    free(w->opt.configs);
    w->opt.stats_json = w->opt.engine_stats = w->opt.heartbeat_file = w->opt.output_owner = w->opt.output_dir = NULL;
    w->opt.configs = NULL;
    w->opt.nconfigs = 0;
}

/* "--name" or "--name=value" of argv[i] into name (NUL-terminated) and *v. */
static void split_option(const char *a, char *name, size_t cap, const char **v)
{
    const char *eq = strchr(a + 2, '=');
    size_t n = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
    if (n >= cap)
        warp_fatal(WARP_EXIT_USAGE, "%s: option name too long; see --help", a);
    memcpy(name, a + 2, n);
    name[n] = 0;
    *v = eq ? eq + 1 : NULL;
}

static void unknown_option(const char *name, const warp_opt *model_opts)
{
    warp_suggest sg;
    warp_suggest_init(&sg, name);
    for (const warp_cfg_opt *o = engine_opts; o->name; o++)
        warp_suggest_add(&sg, o->name);
    for (const warp_opt *o = model_opts; o && o->name; o++)
        warp_suggest_add(&sg, o->name);
    const char *near = sg.best;
    warp_suggest_free(&sg);
    if (near)
        warp_fatal(WARP_EXIT_USAGE, "unknown option --%s; did you mean --%s? see --help", name, near);
    warp_fatal(WARP_EXIT_USAGE, "unknown option --%s; see --help", name);
}

warp_args_status warp_parse_args(warp_ctx *w, int *argc, char **argv, const warp_opt *model_opts,
                                 const char *model_section, const char *usage)
{
    /* The file first, so the command line wins. */
    for (int i = 1; i < *argc; i++) {
        if (strncmp(argv[i], "--config=", 9))
            continue;
        warp_ini *ini = warp_ini_load(argv[i] + 9);
        w->opt.configs = warp_xrealloc(w->opt.configs, (size_t)(w->opt.nconfigs + 1) * sizeof *w->opt.configs);
        w->opt.configs[w->opt.nconfigs++] = ini;
        warp_apply_ini(w, ini);
        if (model_section)
            warp_ini_each(ini, model_section, apply_model_key,
                          &(model_apply){model_opts, model_section});
    }
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        char *a = argv[i];
        if (strncmp(a, "--", 2) || !a[2]) {
            argv[out++] = a;
            continue;
        }
        char name[128];
        const char *v;
        split_option(a, name, sizeof name, &v);
        if (!strcmp(name, "help")) {
            print_help(w, model_opts, usage);
            return WARP_ARGS_HELP;
        }
        if (!strcmp(name, "config"))
            continue;
        const warp_opt *o = find_model_opt(model_opts, name);
        if (o) {
            if (o->kind != WARP_OPT_FLAG && !v)
                warp_fatal(WARP_EXIT_USAGE, "--%s needs a value (--%s=VALUE)", name, name);
            set_model_opt(o, v, NULL, model_section);
            continue;
        }
        const warp_cfg_opt *eo = warp_cfg_find(engine_opts, name);
        if (eo && eo->arg && !v)
            warp_fatal(WARP_EXIT_USAGE, "--%s needs a value (--%s=%s); see --help", name, name,
                       eo->arg);
        if (warp_set_option(w, name, v, NULL))
            continue;
        if (strchr(name, '.')) { /* --section.key=value: the program's own */
            argv[out++] = a;
            continue;
        }
        unknown_option(name, model_opts);
    }
    argv[out] = NULL;
    *argc = out;
    return WARP_ARGS_RUN;
}
