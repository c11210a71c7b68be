/* warpnet/main.c — the warpnet driver: reads a run file, builds the network
 * and workload, runs the engine, and reports on rank 0.
 * Precedence of settings: run file < --section.key=value < engine options
 * on the command line. Exit codes: 0 ok, 1 conservation violated (a bug),
 * 2 usage or input error, 3 resources. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "net/model.h"
#include "net/sample.h"
#include "convert.h"
#include "summary.h"
#include "warp.h"
#include "warp_ini.h"

static const char usage[] =
    "usage: warpnet [engine options] RUN.ini [--section.key=value ...] [--out=DIR]\n"
    "       warpnet --describe RUN.ini      print the network's size and memory, no simulation\n"
    "       warpnet --dump-topology=FILE.dot RUN.ini\n"
    "       warpnet sweep RUN.ini --vary section.key=FIRST:LAST:STEP [--series section.key=A,B,...]\n"
    "                     [--title=TEXT] [--out=DIR] [options]\n"
    "       warpnet report DIR              plots and report.md/report.html of an --out=DIR run\n"
    "       warpnet convert codes FILE.conf  print the run file equivalent to a CODES network config\n";

/* "--section.key=value" (a dot before the '=') is a config override. */
static int is_override(const char *a)
{
    if (strncmp(a, "--", 2) != 0)
        return 0;
    const char *eq = strchr(a, '='), *dot = strchr(a, '.');
    return eq && dot && dot < eq;
}

static int is_regular_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

typedef struct engine_apply {
    warp_ctx *w;
} engine_apply;

/* The engine's end is a bare number of model units (ns here); the run file
 * and --end take a time with its unit, as every other time. */
static const char *end_in_ns(const char *value, const char *where, char *buf, size_t n)
{
    double ns;
    const char *why;
    if (warp_parse_time_ns(value, &ns, &why) != 0)
        warp_fatal(2, "%s: end = %s: %s (write e.g. end = 100us)", where, value, why);
    snprintf(buf, n, "%.17g", ns);
    return buf;
}

static void apply_engine_key(const char *key, const char *value, const char *where, void *arg)
{
    engine_apply *a = arg;
    char buf[64];
    if (strcmp(key, "end") == 0)
        value = end_in_ns(value, where, buf, sizeof buf);
    if (!warp_set_option(a->w, key, value, where))
        warp_fatal(2, "%s: [engine] %s = %s: not an engine option; see warpnet --help",
                   where, key, value);
}

/* `warpnet report DIR` runs the warpnet-report script: next to this binary
 * when installed, in tools/report/ of the build tree (also from libtool's
 * .libs/), else from PATH. Returns only when no exec succeeded. */
static int report_main(const char *argv0, char **argv)
{
    static const char *const rel[] = {"warpnet-report", "../report/warpnet-report",
                                      "../../report/warpnet-report"};
    const char *slash = strrchr(argv0, '/');
    argv[0] = (char *)"warpnet-report";
    for (size_t i = 0; slash && i < sizeof rel / sizeof rel[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%.*s/%s", (int)(slash - argv0), argv0, rel[i]);
        if (access(path, X_OK) == 0)
            execv(path, argv);
    }
    execvp("warpnet-report", argv);
    fprintf(stderr, "warpnet: report: cannot run warpnet-report (%s); install it next to warpnet "
                    "or put it on PATH\n", strerror(errno));
    return 3;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "report") == 0)
        return report_main(argv[0], argv + 1);
    if (argc > 1 && strcmp(argv[1], "convert") == 0)
        return wn_convert_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        return wn_sweep_main(argv[0], argc - 1, argv + 1);
    warp_ctx *w = warp_init(&argc, &argv);

    /* Split off the run file and the overrides; the rest is engine options. */
    const char *path = NULL;
    char **over = calloc((size_t)argc + 1, sizeof *over);
    int nover = 0, keep = 1;
    const char *end_arg = NULL;
    for (int i = 1; i < argc; i++) {
        if (strncmp(argv[i], "--end=", 6) == 0)
            end_arg = argv[i] + 6;
        else if (is_override(argv[i]))
            over[nover++] = argv[i];
        else if (!path && argv[i][0] != '-' && is_regular_file(argv[i]))
            path = argv[i];
        else
            argv[keep++] = argv[i];
    }
    argc = keep;
    argv[argc] = NULL;

    warp_ini *ini = path ? warp_ini_load(path) : NULL;
    if (ini) {
        for (int i = 0; i < nover; i++)
            warp_ini_override(ini, over[i]);
        engine_apply a = {w};
        warp_ini_each(ini, "engine", apply_engine_key, &a);
    }
    if (end_arg)
        apply_engine_key("end", end_arg, "--end", &(engine_apply){w});
    const char *out = NULL, *dot = NULL, *sample = NULL;
    int describe = 0;
    warp_opt opts[] = {
        {"out", WARP_OPT_STRING, &out, "write summary.json and CSV files into this directory"},
        {"sample", WARP_OPT_STRING, &sample,
         "record time series every INTERVAL of simulated time (e.g. 1us) into --out's samples.csv"},
        {"describe", WARP_OPT_FLAG, &describe, "print nodes, routers, links, radix, memory; no run"},
        {"dump-topology", WARP_OPT_STRING, &dot, "write the router graph as Graphviz (small networks)"},
        {0},
    };
    /* With --out, the engine's instrumentation goes there too (the names
     * warpnet-report reads), unless the user chose other files. */
    int engine_stats_given = 0, stats_json_given = 0;
    for (int i = 1; i < argc; i++) {
        engine_stats_given |= !strncmp(argv[i], "--engine-stats=", 15);
        stats_json_given |= !strncmp(argv[i], "--stats-json=", 13);
    }
    if (ini) {
        engine_stats_given |= warp_ini_where(ini, "engine", "engine-stats") != NULL;
        stats_json_given |= warp_ini_where(ini, "engine", "stats-json") != NULL;
    }
    warp_parse_args(w, &argc, argv, opts, "warpnet", usage);
    if (!ini) {
        if (argc > 1)
            warp_fatal(2, "%s: cannot read the run file; give an existing RUN.ini",
                       argv[1]);
        warp_fatal(2, "no run file given; usage: warpnet [options] RUN.ini");
    }
    if (argc > 1)
        warp_fatal(2, "%s: unexpected argument; options take the form --name=value",
                   argv[1]);
    if (sample)
        warp_ini_set(ini, "network", "sample", sample, "--sample");
    if (warp_ini_get(ini, "network", "sample") && !out)
        warp_fatal(2, "%s: time series go into samples.csv of the output directory; add --out=DIR",
                   warp_ini_where(ini, "network", "sample"));

    double end = warp_end_time(w);
    net_model *n = net_model_build(ini, end, warp_seed(w));
    wn_reference ref;
    wn_reference_read(&ref, ini, n);
    warp_ini_reject_unused(ini, NULL);

    int rank0 = warp_rank(w) == 0;
    if (dot) {
        const char *why = NULL;
        if (rank0 && net_dump_dot(n, dot, &why) != 0)
            warp_fatal(2, "--dump-topology=%s: %s", dot, why);
    }
    if (describe || dot) {
        if (describe && rank0)
            net_describe(n, stdout);
        net_model_free(n);
        warp_ini_free(ini);
        free(over);
        warp_finalize(w);
        return 0;
    }

    if (out) {
        if (rank0 && mkdir(out, 0777) != 0 && errno != EEXIST)
            warp_fatal(2, "--out=%s: cannot create the directory (%s)", out, strerror(errno));
        char file[4096];
        if (!engine_stats_given) {
            snprintf(file, sizeof file, "%s/engine.csv", out);
            warp_set_option(w, "engine-stats", file, "--out");
        }
        if (!stats_json_given) {
            snprintf(file, sizeof file, "%s/engine.json", out);
            warp_set_option(w, "stats-json", file, "--out");
        }
    }
    warp_run(w, net_model_warp(n));
    net_results *r = net_model_results(n);
    net_results_reduce(r);
    const void *wl;
    const net_workload_ops *wo = net_model_workload(n, &wl);
    if (wo->reduce)
        wo->reduce(wl);
    int rc = 0;
    if (rank0) {
        wn_summary s;
        wn_summary_compute(&s, n, r, end, net_warmup(n), &ref);
        wn_summary_print(&s, n, r, stdout);
        if (out && wn_summary_write(&s, n, r, warp_last_stats(w), out) != 0)
            warp_fatal(2, "--out=%s: cannot write the result files there", out);
        if (out && r->samples) {
            char file[4096];
            snprintf(file, sizeof file, "%s/samples.csv", out);
            if (net_samples_write(r, file) != 0)
                warp_fatal(2, "--out=%s: cannot write samples.csv there", out);
        }
        rc = s.conserved ? 0 : 1;
    }
    net_model_free(n);
    warp_ini_free(ini);
    free(over);
    warp_finalize(w);
    return rc;
}
