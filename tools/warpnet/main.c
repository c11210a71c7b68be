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

#include "agree.h"
#include "catalog/catalog.h"
#include "net/model.h"
#include "net/sample.h"
#include "convert.h"
#include "keys.h"
#include "outdir.h"
#include "summary.h"
#include "warp.h"
#include "warp_ini.h"
#include "warp_keys.h"

static const char usage[] =
    "usage: warpnet [engine options] RUN.ini [--section.key=value ...] [--out=DIR]\n"
    "       warpnet --describe RUN.ini      print the network's size and memory, no simulation\n"
    "       warpnet --describe --ranks=N [--partition=KIND] RUN.ini   the partition's quality on N ranks\n"
    "       warpnet --ranks=N --write-partition=FILE RUN.ini   run, then write a placement for N ranks\n"
    "                     from its measured traffic (read back with --partition=file:FILE)\n"
    "       warpnet --dump-topology=FILE.dot RUN.ini\n"
    "       warpnet sweep RUN.ini --vary section.key=FIRST:LAST:STEP [--series section.key=A,B,...]\n"
    "                     [--title=TEXT] [--out=DIR] [options]\n"
    "       warpnet tune RUN.ini [--np=RANKS] [--budget=SECONDS] [--probe-end=T]   fastest engine settings\n"
    "       warpnet tune --partition=N RUN.ini --write-partition=FILE [--probe-end=T]   a placement\n"
    "                     for N ranks from a short run's measured traffic\n"
    "       warpnet report DIR              plots and report.md/report.html of an --out=DIR run\n"
    "       warpnet convert codes FILE.conf  print the run file equivalent to a CODES network config\n"
    "       warpnet keys [SECTION] [--json]  every run-file key: kind, default, range, help\n"
    "       warpnet --help=SECTION          the keys of one section (network, dragonfly, workload, replay, ...)\n";

/* The engine's output files (engine options) that --out=DIR collects. */
static const char *const stats_opt[2] = {"engine-stats", "stats-json"};

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

/* Whether the run file's workload runs until it is done when no end time
 * is given (net_workload_ops.runs_to_completion). */
static int runs_to_completion(warp_ini *ini)
{
    const char *type = warp_ini_get(ini, "workload", "type");
    for (const net_workload_ops *const *o = catalog_builtin.workloads; type && *o; o++)
        if (!strcmp((*o)->name, type))
            return (*o)->runs_to_completion;
    return 0;
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

/* The results of a finished run could not be written into --out's
 * temporary directory (removed at exit): a full disk is a resource (exit
 * 3), anything else the place the user chose (exit 2). */
static void results_failed(const char *out, const char *what)
{
    int err = errno;
    int full = err == ENOSPC || err == EDQUOT || err == EFBIG || err == EIO;
    warp_fatal(full ? WARP_EXIT_RESOURCE : WARP_EXIT_USAGE, "--out=%s: cannot write %s (%s); %s", out, what,
               strerror(err), full ? "free space or give a directory elsewhere" : "give a writable directory");
}

/* Whether --describe may build the network to count links exactly: it fits
 * this rank's memory and has few enough ports to visit. */
static int fits_exactly(const net_model *n, const warp_ctx *w)
{
    net_memory_estimate m;
    net_memory(n, &m);
    uint64_t have = warp_memory_per_rank(w);
    double ports = (double)net_model_routers(n) * net_model_radix(n);
    return ports <= (double)NET_DESCRIBE_EXACT_PORTS &&
           (!have || net_memory_per_rank(&m, warp_nranks(w)) <= (double)have);
}

/* --write-partition=FILE: the placement for `parts` ranks from this run's
 * traffic, its quality beside the other partitions', and the file. */
static void write_partition(const net_model *n, const net_results *r, uint32_t parts,
                            const char *file, const char *run, double upto)
{
    uint32_t *part = net_partition_measured(n, r, parts);
    net_partition_report(n, r, part, parts, stdout);
    char comment[4300];
    snprintf(comment, sizeof comment, "measured: the traffic of %s to %.10g ns", run, upto);
    if (net_partition_write(n, part, parts, file, comment) != 0)
        warp_fatal(WARP_EXIT_RESOURCE, "--write-partition=%s: cannot write the placement file (%s); "
                   "give a writable path", file, strerror(errno));
    printf("placement for %u ranks written to %s (use --partition=file:%s)\n", parts, file, file);
    free(part);
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
    if (argc > 1 && strcmp(argv[1], "tune") == 0)
        return wn_tune_main(argv[0], argc - 1, argv + 1);
    if (argc > 1 && strcmp(argv[1], "keys") == 0)
        return wn_keys_main(argc - 1, argv + 1);
    for (int i = 1; i < argc; i++)
        if (strncmp(argv[i], "--help=", 7) == 0)
            return wn_keys_print(stdout, argv[i] + 7, NULL);
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
    const char *out = NULL, *dot = NULL, *sample = NULL, *write_part = NULL;
    int describe = 0;
    int64_t describe_ranks = INT64_MIN; /* not given */
    warp_opt opts[] = {
        {"out", WARP_OPT_STRING, &out, "write summary.json and CSV files into this directory"},
        {"sample", WARP_OPT_STRING, &sample,
         "record time series every INTERVAL of simulated time (e.g. 1us) into --out's samples.csv"},
        {"describe", WARP_OPT_FLAG, &describe, "print nodes, routers, links, radix, memory; no run"},
        {"ranks", WARP_OPT_INT, &describe_ranks,
         "with --describe: the partition's quality on N ranks (links cut, remote share, imbalance); "
         "with --write-partition: the ranks to partition for"},
        {"write-partition", WARP_OPT_STRING, &write_part,
         "after the run, write a placement file for --ranks=N from the run's measured traffic (METIS)"},
        {"dump-topology", WARP_OPT_STRING, &dot, "write the router graph as Graphviz (small networks)"},
        {0},
    };
    if (warp_parse_args(w, &argc, argv, opts, "warpnet", usage) == WARP_ARGS_HELP) {
        warp_ini_free(ini);
        free(over);
        warp_finalize(w);
        return 0;
    }
    if (!ini) {
        if (argc > 1)
            warp_fatal(WARP_EXIT_USAGE, "%s: cannot read the run file; give an existing RUN.ini",
                       argv[1]);
        warp_fatal(WARP_EXIT_USAGE, "no run file given; usage: warpnet [options] RUN.ini");
    }
    if (argc > 1)
        warp_fatal(WARP_EXIT_USAGE, "%s: unexpected argument; options take the form --name=value",
                   argv[1]);
    if (write_part && describe)
        warp_fatal(WARP_EXIT_USAGE, "--write-partition=%s: measures a run's traffic, so it does not go "
                   "with --describe; leave one out", write_part);
    if (write_part && describe_ranks == INT64_MIN)
        warp_fatal(WARP_EXIT_USAGE, "--write-partition=%s: give the rank count to place the routers "
                   "on with --ranks=N", write_part);
    if (describe_ranks != INT64_MIN && !describe && !write_part)
        warp_fatal(WARP_EXIT_USAGE, "--ranks=%lld: goes with --describe or --write-partition (a run "
                   "uses the ranks mpiexec gives it)", (long long)describe_ranks);
    if (sample)
        warp_ini_set(ini, "network", "sample", sample, "--sample");
    if (warp_ini_get(ini, "network", "sample") && !out)
        warp_fatal(WARP_EXIT_USAGE, "%s: time series go into samples.csv of the output directory; add --out=DIR",
                   warp_ini_where(ini, "network", "sample"));

    /* Before anything is built: ranks started with other settings would
     * build other networks and hang or mix results. */
    char drv[3][4200];
    snprintf(drv[0], sizeof drv[0], "--out=%s", out ? out : "");
    snprintf(drv[1], sizeof drv[1], "--describe=%d", describe);
    snprintf(drv[2], sizeof drv[2], "--dump-topology=%s", dot ? dot : "");
    wn_agree(w, ini, (const char *const[]){drv[0], drv[1], drv[2]}, 3);

    /* --out is checked before anything runs: a run whose results cannot
     * be kept is refused at once, not after simulating everything. */
    wn_outdir od;
    if (out && !describe && !dot && warp_rank(w) == 0)
        wn_outdir_open(&od, out);
    int end_given = warp_option_given(w, "end");
    if (!end_given && runs_to_completion(ini)) {
        /* Time series are laid out on a grid up to the end time, which a
         * run to completion does not know beforehand. */
        if (warp_ini_get(ini, "network", "sample"))
            warp_fatal(WARP_EXIT_USAGE, "%s: a replay without an end time runs until its last task, so "
                       "time series have no span; give --end (e.g. the completion_ns of a run without "
                       "--sample)", warp_ini_where(ini, "network", "sample"));
        warp_set_option(w, "end", "1e15ns", "a workload that runs to completion");
    }
    if (runs_to_completion(ini))
        warp_set_end_is_bound(w);
    double end = warp_end_time(w);
    net_model *n = net_model_size(ini, &catalog_builtin, w);
    warp_ini_warn_inapplicable(ini, warp_rank(w) == 0 ? stderr : NULL, "warpnet");
    /* --describe of a network too large to build here describes it from
     * the formulas (the workload's keys are then not read, so not checked). */
    wn_reference ref;
    if (!describe || dot || fits_exactly(n, w)) {
        net_model_complete(n, ini, &catalog_builtin);
        wn_reference_read(&ref, ini, n);
        warp_ini_reject_unused(ini, NULL);
    }

    int rank0 = warp_rank(w) == 0;
    if (write_part) /* before the run, not after it */
        net_partition_check_measured(n, describe_ranks);
    if (dot) {
        const char *why = NULL;
        if (rank0 && net_dump_dot(n, dot, &why) != 0)
            warp_fatal(WARP_EXIT_USAGE, "--dump-topology=%s: %s", dot, why);
    }
    if (describe || dot) {
        if (describe && describe_ranks != INT64_MIN)
            net_partition_check_ranks(n, describe_ranks);
        if (describe && rank0 && net_model_preset(n))
            printf("preset: %s\n", net_model_preset(n));
        if (describe && rank0)
            net_describe(n, describe_ranks != INT64_MIN ? (int)describe_ranks : warp_nranks(w), stdout);
        if (describe && rank0 && describe_ranks != INT64_MIN)
            net_describe_partition(n, warp_partition(w), describe_ranks, stdout);
        net_model_free(n);
        warp_ini_free(ini);
        free(over);
        warp_finalize(w);
        return 0;
    }

    if (out) {
        /* The engine's instrumentation goes there too (the names
         * warpnet-report reads), unless the user chose other files; a file
         * the user put in DIR itself goes through the temporary directory
         * like the rest. Only rank 0 writes them; the other ranks only
         * need the option set. */
        static const char *const names[2] = {"engine.csv", "engine.json"};
        for (int k = 0; k < 2; k++) {
            char file[WN_PATH_MAX + 64], given[WN_PATH_MAX + 64];
            const char *name = names[k], *at = warp_option_file(w, stats_opt[k]);
            size_t len = strlen(out);
            while (len > 1 && out[len - 1] == '/')
                len--;
            if (at && !strncmp(at, out, len) && at[len] == '/' && !strchr(at + len + 1, '/')) {
                /* DIR/NAME; copied, as setting the option frees the engine's string */
                snprintf(given, sizeof given, "%s", at + len + 1);
                name = given;
            }
            else if (at)
                continue;
            warp_set_option(w, stats_opt[k], rank0 ? wn_outdir_file(&od, name, file, sizeof file) : name,
                            "--out");
        }
        char owner[WN_PATH_MAX + 8];
        snprintf(owner, sizeof owner, "--out=%s", out);
        if (rank0)
            warp_set_output_owner(w, owner, od.tmp);
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
        /* A run to completion measures its load over the time it took,
         * not up to its end bound (a 1 s bound showed a 15 us replay's
         * loads and utilisation as 0). */
        double done = wo->finished_at ? wo->finished_at(wl) : 0, upto = end;
        if (done > net_warmup(n))
            upto = done;
        else if (!end_given && wo->runs_to_completion && r->total.t_last > net_warmup(n))
            upto = r->total.t_last;
        wn_summary_compute(&s, n, r, upto, net_warmup(n), &ref);
        wn_summary_describe(&s, n, ini, path, warp_seed(w));
        wn_summary_print(&s, n, r, stdout);
        char why[1024];
        int bad = wo->verdict ? wo->verdict(wl, n, end_given, why, sizeof why) : 0;
        if (bad) {
            fflush(stdout);
            warp_fatal(bad, "%s", why);
        }
        if (out && wn_summary_write(&s, n, r, warp_last_stats(w), od.tmp, od.id) != 0)
            results_failed(out, "the result files");
        if (out && r->samples) {
            char file[WN_PATH_MAX + 64];
            if (net_samples_write(r, wn_outdir_file(&od, "samples.csv", file, sizeof file)) != 0)
                results_failed(out, "samples.csv");
        }
        if (out && wn_outdir_commit(&od) != 0)
            results_failed(out, "run.txt and move the results in");
        if (write_part)
            write_partition(n, r, (uint32_t)describe_ranks, write_part, path, upto);
        rc = s.conserved ? WARP_EXIT_OK : WARP_EXIT_INTERNAL;
    }
    net_model_free(n);
    warp_ini_free(ini);
    free(over);
    warp_finalize(w);
    return rc;
}
