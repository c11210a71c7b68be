/* engine/options.c — engine and model options from the command line and from
 * `--config=FILE` ([engine] and the model's section). The command line wins
 * over the file. Every bad value stops the run naming the option or the
 * file:line it came from. Called by warp_parse_args and the warpnet driver. */
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "warp_ini.h"

typedef struct engine_opt {
    const char *name;
    const char *arg;
    const char *help;
} engine_opt;

static const engine_opt engine_opts[] = {
    {"synch", "MODE", "seq|cons|opt|check|debug (ROSS numbers 1, 2, 3 work too); default: seq on 1 rank, opt on more"},
    {"end", "T", "end time in model units; events at T or later never run (default 100)"},
    {"seed", "N", "seed of every LP's random stream (default 1)"},
    {"events", "N", "event pool size per rank (default: automatic, at least 1M)"},
    {"queue", "NAME", "pending-event queue: heap (4-ary, default) or splay"},
    {"batch", "N", "events run between network polls (default 16)"},
    {"gvt-interval", "N", "batches between GVT rounds (default 16)"},
    {"gvt", "ALGO", "mattern (asynchronous, default) or sync (blocking all-reduce, as ROSS)"},
    {"window", "T|auto", "optimism bound: events later than GVT + T wait; 0: unbounded; auto (default) adapts T to each GVT round's efficiency"},
    {"lps-per-kp", "N", "LPs per kernel process (rollback unit)"},
    {"kps", "N", "kernel processes per rank (default: min(LPs per rank, 64))"},
    {"stats-json", "FILE", "also write the end-of-run statistics as JSON"},
    {"engine-stats", "FILE", "per rank and GVT round: events, rollbacks, time split (CSV; FILE.kps.csv per KP)"},
    {"heartbeat", "SECONDS", "write a progress line to the heartbeat file every SECONDS"},
    {"heartbeat-file", "FILE", "where --heartbeat writes (default warp-heartbeat.log)"},
    {"progress", NULL, "show a progress line on stderr (default: when stderr is a terminal)"},
    {"quiet", NULL, "print no statistics table"},
    {"config", "FILE", "read options from FILE: [engine] and the model's section"},
    {"help", NULL, "show this help"},
    {NULL, NULL, NULL},
};

void warp_print_engine_help(FILE *f)
{
    fprintf(f, "Engine options:\n");
    for (const engine_opt *o = engine_opts; o->name; o++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
        fprintf(f, "  %-22s %s\n", left, o->help);
    }
}

/* where is "--name" (command line: "--name=VALUE: what") or a config place
 * such as "run.ini:3: [engine] quiet" ("... quiet = VALUE: what"). */
static void bad(const char *where, const char *value, const char *what)
{
    warp_fatal(WARP_EXIT_USAGE, "%s%s%s: %s", where, strncmp(where, "--", 2) ? " = " : "=",
               value ? value : "", what);
}

/* The place bad() names: "--key", where itself when it is an option, else
 * "FILE:LINE: [section] key". */
static const char *place_of(char *buf, size_t n, const char *where, const char *section,
                            const char *key)
{
    if (!where)
        snprintf(buf, n, "--%s", key);
    else if (!strncmp(where, "--", 2))
        snprintf(buf, n, "%s", where);
    else
        snprintf(buf, n, "%s: [%s] %s", where, section, key);
    return buf;
}

static uint64_t parse_uint(const char *where, const char *v, uint64_t min)
{
    char *end;
    errno = 0;
    if (!v || !*v || *v == '-')
        bad(where, v, "expected a non-negative integer");
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end)
        bad(where, v, "expected a non-negative integer");
    if (x < min) {
        char msg[64];
        snprintf(msg, sizeof msg, "must be at least %llu", (unsigned long long)min);
        bad(where, v, msg);
    }
    return x;
}

static double parse_double(const char *where, const char *v)
{
    char *end;
    errno = 0;
    if (!v || !*v)
        bad(where, v, "expected a number");
    double x = strtod(v, &end);
    if (errno || *end || !isfinite(x))
        bad(where, v, "expected a finite number");
    return x;
}

static int parse_flag(const char *where, const char *v)
{
    if (!v || !strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "on"))
        return 1;
    if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "off"))
        return 0;
    bad(where, v, "expected 0/1, true/false, yes/no or on/off");
    return 0;
}

static int parse_synch(const char *v)
{
    static const struct { const char *n; int s; } names[] = {
        {"seq", SYNCH_SEQ}, {"1", SYNCH_SEQ}, {"sequential", SYNCH_SEQ},
        {"cons", SYNCH_CONS}, {"2", SYNCH_CONS}, {"conservative", SYNCH_CONS},
        {"opt", SYNCH_OPT}, {"3", SYNCH_OPT}, {"optimistic", SYNCH_OPT},
        {"check", SYNCH_CHECK}, {"debug", SYNCH_DEBUG},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (v && !strcmp(v, names[i].n))
            return names[i].s;
    return 0;
}

int warp_set_option(warp_ctx *w, const char *key, const char *v, const char *where)
{
    char place[320];
    where = place_of(place, sizeof place, where, "engine", key);
    if (!strcmp(key, "synch")) {
        int s = parse_synch(v);
        if (!s)
            bad(where, v, "unknown mode; use seq, cons, opt, check or debug");
        w->synch = (warp_synch)s;
        w->synch_set = true;
    } else if (!strcmp(key, "end")) {
        w->end = parse_double(where, v);
        if (!(w->end > 0))
            bad(where, v, "the end time must be > 0");
    } else if (!strcmp(key, "seed")) {
        w->seed = parse_uint(where, v, 0);
    } else if (!strcmp(key, "events")) {
        w->events_opt = parse_uint(where, v, 16);
    } else if (!strcmp(key, "queue")) {
        int q = v ? queue_parse(v) : -1;
        if (q < 0)
            bad(where, v, "unknown queue; use heap or splay");
        w->qkind = (queue_kind)q;
    } else if (!strcmp(key, "batch")) {
        w->batch = parse_uint(where, v, 1);
    } else if (!strcmp(key, "gvt-interval")) {
        w->gvt_interval = parse_uint(where, v, 1);
    } else if (!strcmp(key, "gvt")) {
        if (v && !strcmp(v, "mattern"))
            w->gvt_kind = 0;
        else if (v && !strcmp(v, "sync"))
            w->gvt_kind = 1;
        else
            bad(where, v, "unknown GVT algorithm; use mattern or sync");
    } else if (!strcmp(key, "window")) {
        if (v && !strcmp(v, "auto")) {
            w->window_auto = true;
            w->window = INFINITY;
        } else {
            double x = parse_double(where, v);
            if (x < 0)
                bad(where, v, "the window must be >= 0 (0: unbounded) or auto");
            w->window_auto = false;
            w->window = x > 0 ? x : INFINITY;
        }
    } else if (!strcmp(key, "lps-per-kp")) {
        w->lps_per_kp = parse_uint(where, v, 1);
        w->kps_opt = 0;
    } else if (!strcmp(key, "kps")) {
        w->kps_opt = parse_uint(where, v, 1);
        w->lps_per_kp = 0;
    } else if (!strcmp(key, "stats-json")) {
        if (!v || !*v)
            bad(where, v, "expected a file name");
        free(w->stats_json);
        w->stats_json = strdup(v);
    } else if (!strcmp(key, "engine-stats") || !strcmp(key, "heartbeat-file")) {
        if (!v || !*v)
            bad(where, v, "expected a file name");
        char **dst = key[0] == 'e' ? &w->engine_stats : &w->heartbeat_file;
        free(*dst);
        *dst = strdup(v);
    } else if (!strcmp(key, "heartbeat")) {
        w->heartbeat_s = parse_double(where, v);
        if (!(w->heartbeat_s > 0))
            bad(where, v, "the heartbeat interval must be > 0 seconds");
    } else if (!strcmp(key, "progress")) {
        w->progress = parse_flag(where, v);
    } else if (!strcmp(key, "quiet")) {
        w->quiet = parse_flag(where, v);
    } else {
        return 0;
    }
    return 1;
}

static const warp_opt *find_model_opt(const warp_opt *opts, const char *name)
{
    for (const warp_opt *o = opts; o && o->name; o++)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

static void set_model_opt(const warp_opt *o, const char *v, const char *where)
{
    switch (o->kind) {
    case WARP_OPT_INT: {
        char *end;
        errno = 0;
        long long x = v ? strtoll(v, &end, 10) : 0;
        if (!v || !*v || errno || *end)
            bad(where, v, "expected an integer");
        *(int64_t *)o->dest = x;
        break;
    }
    case WARP_OPT_UINT:
        *(uint64_t *)o->dest = parse_uint(where, v, 0);
        break;
    case WARP_OPT_DOUBLE:
        *(double *)o->dest = parse_double(where, v);
        break;
    case WARP_OPT_STRING:
        if (!v)
            bad(where, v, "expected a value");
        *(const char **)o->dest = v;
        break;
    case WARP_OPT_FLAG:
        *(int *)o->dest = parse_flag(where, v);
        break;
    }
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

typedef struct cfg_apply {
    warp_ctx *w;
    const warp_opt *model_opts;
    const char *model_section;
    bool engine;
} cfg_apply;

/* Values are used straight from the ini; a model's string option points
 * into it, so the ini lives until warp_free_options. */
static void apply_cfg_key(const char *key, const char *value, const char *where, void *arg)
{
    cfg_apply *c = arg;
    if (c->engine) {
        if (!warp_set_option(c->w, key, value, where))
            warp_fatal(WARP_EXIT_USAGE, "%s: [engine] %s = %s: unknown engine option; see --help",
                       where, key, value);
        return;
    }
    const warp_opt *o = find_model_opt(c->model_opts, key);
    if (!o)
        warp_fatal(WARP_EXIT_USAGE, "%s: [%s] %s = %s: unknown model option; see --help", where,
                   c->model_section, key, value);
    char place[320];
    set_model_opt(o, value, place_of(place, sizeof place, where, c->model_section, key));
}

void warp_free_options(warp_ctx *w)
{
    free(w->stats_json);
    free(w->engine_stats);
    free(w->heartbeat_file);
    for (int i = 0; i < w->nconfigs; i++)
        warp_ini_free(w->configs[i]);
    free(w->configs);
    w->stats_json = w->engine_stats = w->heartbeat_file = NULL;
    w->configs = NULL;
    w->nconfigs = 0;
}

void warp_parse_args(warp_ctx *w, int *argc, char **argv, const warp_opt *model_opts,
                     const char *model_section, const char *usage)
{
    /* The file first, so the command line wins. */
    for (int i = 1; i < *argc; i++) {
        if (strncmp(argv[i], "--config=", 9))
            continue;
        warp_ini *ini = warp_ini_load(argv[i] + 9);
        warp_ini **more = realloc(w->configs, (size_t)(w->nconfigs + 1) * sizeof *more);
        if (!more)
            warp_fatal(WARP_EXIT_RESOURCE, "%s: out of memory", argv[i]);
        w->configs = more;
        w->configs[w->nconfigs++] = ini;
        cfg_apply c = {w, model_opts, model_section, true};
        warp_ini_each(ini, "engine", apply_cfg_key, &c);
        if (model_section) {
            c.engine = false;
            warp_ini_each(ini, model_section, apply_cfg_key, &c);
        }
    }
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        char *a = argv[i];
        if (strncmp(a, "--", 2) || !a[2]) {
            argv[out++] = a;
            continue;
        }
        char name[128];
        const char *eq = strchr(a + 2, '=');
        size_t n = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
        if (n >= sizeof name)
            warp_fatal(WARP_EXIT_USAGE, "%s: option name too long; see --help", a);
        memcpy(name, a + 2, n);
        name[n] = 0;
        const char *v = eq ? eq + 1 : NULL;
        char where[160];
        snprintf(where, sizeof where, "--%s", name);
        if (!strcmp(name, "help")) {
            print_help(w, model_opts, usage);
            warp_finalize(w);
            exit(0);
        }
        if (!strcmp(name, "config"))
            continue;
        const warp_opt *o = find_model_opt(model_opts, name);
        if (o) {
            if (o->kind != WARP_OPT_FLAG && !v)
                warp_fatal(WARP_EXIT_USAGE, "--%s needs a value (--%s=VALUE)", name, name);
            set_model_opt(o, v, where);
            continue;
        }
        for (const engine_opt *eo = engine_opts; eo->name; eo++)
            if (eo->arg && !v && !strcmp(eo->name, name))
                warp_fatal(WARP_EXIT_USAGE, "--%s needs a value (--%s=%s); see --help", name, name,
                           eo->arg);
        if (warp_set_option(w, name, v, where))
            continue;
        if (strchr(name, '.')) { /* --section.key=value: the program's own */
            argv[out++] = a;
            continue;
        }
        warp_fatal(WARP_EXIT_USAGE, "unknown option --%s; see --help", name);
    }
    argv[out] = NULL;
    *argc = out;
}
