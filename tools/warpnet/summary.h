/* warpnet/summary.h — the results a network run reports: computed once on
 * rank 0 from the reduced accumulator, printed and written as files. */
#ifndef WARPNET_SUMMARY_H
#define WARPNET_SUMMARY_H

#include <stdio.h>

#include "net/model.h"

/* What throughput is compared with, when the user sets one. */
typedef struct wn_reference {
    double gbps;          /* bytes/ns per node; 0: no reference */
    double of_injection;  /* gbps / injection bandwidth */
    char source[96];      /* the value as given ("71%", "8.9GB/s") or "bisection of slimfly" */
} wn_reference;

/* Reads [network] reference_bandwidth (reference.c): NN% of the injection
 * bandwidth, a bandwidth per node (8.9GB/s) or bisection (the topology's
 * bisection_bandwidth per node of one half). Call before the run file's
 * unused keys are rejected; errors name the file and line. */
void wn_reference_read(wn_reference *ref, warp_ini *ini, const net_model *n);

typedef struct wn_summary {
    double window_ns, warmup_ns, inj_gbps;
    double offered, accepted, offered_gbps, accepted_gbps; /* fractions; GB/s per node */
    double lat_mean, lat_p50, lat_p99, lat_max;
    double mlat_mean, mlat_p50, mlat_p99, mlat_max;
    double hops_mean, busiest_util;
    uint64_t busiest_router;
    int32_t busiest_port;
    uint64_t injected, delivered, queued, on_links, msgs_delivered;
    uint64_t in_gateways;          /* packets inside a network's own LPs (gateways) */
    int conserved;
    wn_reference ref;              /* ref.gbps == 0: none */
    const char *routing;           /* NULL: the network does not say */
    const char *run_file;          /* the run file as given */
    const char *router;            /* [network] router; NULL without routers */
    const char *pattern;           /* [workload] pattern; NULL for a workload other than traffic */
    const char *preset;            /* [network] preset; NULL: none */
    double load;                   /* [workload] load as configured; < 0: not a traffic load (interval, replay) */
    uint64_t seed;                 /* the engine's seed */
    char workload[160];            /* "traffic, pattern uniform", "replay" */
    double accepted_pct_of_ref;    /* 100 * accepted_gbps / ref.gbps */
} wn_summary;

/* Derives the summary from reduced results; ref may be NULL (no reference). */
void wn_summary_compute(wn_summary *s, const net_model *n, const net_results *r, double end,
                        double warmup, const wn_reference *ref);
/* Fills what names the run (routing, workload, router, pattern, load,
 * preset, run file, seed) from the run file (after compute). */
void wn_summary_describe(wn_summary *s, const net_model *n, warp_ini *ini, const char *run_file, uint64_t seed);
/* The human-readable block (rank 0). */
void wn_summary_print(const wn_summary *s, const net_model *n, const net_results *r, FILE *f);
/* summary.json (with the run's id), terminals.csv, ports.csv,
 * latency_hist.csv in dir; returns 0 or -1 with errno set. */
int wn_summary_write(const wn_summary *s, const net_model *n, const net_results *r,
                     const warp_stats *st, const char *dir, const char *run_id);

/* `warpnet sweep RUN.ini --vary section.key=a:b:step [args...]` */
int wn_sweep_main(const char *self, int argc, char **argv);
/* `warpnet tune RUN.ini [--np=RANKS] [--budget=S] [args...]` (tune.c) */
int wn_tune_main(const char *self, int argc, char **argv);
/* Helpers of the subcommands that run warpnet (sweep.c): a shell-quoted
 * word appended to cmd; a file's first 64 KiB (NULL if unreadable, free
 * it); the first numeric value of "key": in JSON text (0, or -1). */
void wn_add_word(char *cmd, size_t cap, const char *w);
char *wn_slurp(const char *path);
int wn_json_number(const char *text, const char *key, double *v);
/* Writes s as a JSON string, quotes and control bytes escaped. */
void wn_json_string(FILE *f, const char *s);

#endif
