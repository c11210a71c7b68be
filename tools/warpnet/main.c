/* warpnet/main.c — the warpnet driver: reads a run file, builds the network
 * and workload, runs the engine, and reports on rank 0.
 * Precedence of settings: run file < --section.key=value < engine options
 * on the command line. Exit codes (warp_error.h): 0 ok, 1 conservation
 * violated (a bug), 2 usage or input error, 3 resources. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catalog/catalog.h"
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
    return WARP_EXIT_RESOURCE;
}

int main(int argc, char **argv)
{
    warp_set_program_name("warpnet");
    if (argc > 1 && strcmp(argv[1], "report") == 0)
        return report_main(argv[0], argv + 1);
    if (argc > 1 && strcmp(argv[1], "convert") == 0)
        return wn_convert_main(argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "sweep") == 0)
        return wn_sweep_main(argv[0], argc - 1, argv + 1);
    warp_ctx *w = warp_init(&argc, &argv);
    warp_set_time_unit_ns(w); /* network models count time in ns */

    /* Split off the run file and the overrides; the rest is engine options. */
    const char *path = NULL;
    char **over = warp_xcalloc((size_t)argc + 1, sizeof *over);
    int nover = 0, keep = 1;
    for (int i = 1; i < argc; i++) {
        if (is_override(argv[i]))
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
        warp_apply_ini(w, ini);
    }
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
    warp_parse_args(w, &argc, argv, opts, "warpnet", usage);
    if (!ini) {
        if (argc > 1)
            warp_fatal(WARP_EXIT_USAGE, "%s: cannot read the run file; give an existing RUN.ini",
                       argv[1]);
        warp_fatal(WARP_EXIT_USAGE, "no run file given; usage: warpnet [options] RUN.ini");
    }
    if (argc > 1)
        warp_fatal(WARP_EXIT_USAGE, "%s: unexpected argument; options take the form --name=value",
                   argv[1]);
    if (sample)
        warp_ini_set(ini, "network", "sample", sample, "--sample");
    if (warp_ini_get(ini, "network", "sample") && !out)
        warp_fatal(WARP_EXIT_USAGE, "%s: time series go into samples.csv of the output directory; add --out=DIR",
                   warp_ini_where(ini, "network", "sample"));

    double end = warp_end_time(w);
    net_model *n = net_model_build(ini, &catalog_builtin, w);
    wn_reference ref;
    wn_reference_read(&ref, ini, n);
    warp_ini_reject_unused(ini, NULL);

    int rank0 = warp_rank(w) == 0;
    if (dot) {
        const char *why = NULL;
        if (rank0 && net_dump_dot(n, dot, &why) != 0)
            warp_fatal(WARP_EXIT_USAGE, "--dump-topology=%s: %s", dot, why);
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
            warp_fatal(WARP_EXIT_USAGE, "--out=%s: cannot create the directory (%s)", out, strerror(errno));
        /* The engine's instrumentation goes there too (the names
         * warpnet-report reads), unless the user chose other files. */
        char file[4096];
        if (!warp_option_given(w, "engine-stats")) {
            snprintf(file, sizeof file, "%s/engine.csv", out);
            warp_set_option(w, "engine-stats", file, "--out");
        }
        if (!warp_option_given(w, "stats-json")) {
            snprintf(file, sizeof file, "%s/engine.json", out);
            warp_set_option(w, "stats-json", file, "--out");
        }
    }
    /* A checkpoint belongs to this run file (less [engine], which the
     * engine covers itself): --restart refuses any other. */
    uint64_t cfg_hash = warp_ini_hash(ini, "engine");
    warp_set_config_hash(w, &cfg_hash, sizeof cfg_hash);
    warp_run(w, net_model_warp(n));
    net_results *r = net_model_results(n);
    net_results_reduce(r, w);
    net_model_network_reduce(n);
    const void *wl;
    const net_workload_ops *wo = net_model_workload(n, &wl);
    if (wo->reduce)
        wo->reduce(wl, n);
    int rc = 0;
    if (rank0) {
        wn_summary s;
        wn_summary_compute(&s, n, r, end, net_warmup(n), &ref);
        wn_summary_print(&s, n, r, stdout);
        if (out && wn_summary_write(&s, n, r, warp_last_stats(w), out) != 0)
            warp_fatal(WARP_EXIT_USAGE, "--out=%s: cannot write the result files there", out);
        if (out && r->samples) {
            char file[4096];
            snprintf(file, sizeof file, "%s/samples.csv", out);
            if (net_samples_write(r, file) != 0)
                warp_fatal(WARP_EXIT_USAGE, "--out=%s: cannot write samples.csv there", out);
        }
        rc = s.conserved ? WARP_EXIT_OK : WARP_EXIT_INTERNAL;
    }
    net_model_free(n);
    warp_ini_free(ini);
    free(over);
    warp_finalize(w);
    return rc;
}
