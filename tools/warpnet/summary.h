/* warpnet/summary.h — the results a network run reports: computed once on
 * rank 0 from the reduced accumulator, printed and written as files. */
#ifndef WARPNET_SUMMARY_H
#define WARPNET_SUMMARY_H

#include <stdio.h>

#include "net/model.h"

typedef struct wn_summary {
    double window_ns, inj_gbps;
    double offered, accepted, offered_gbps, accepted_gbps; /* fractions; GB/s per node */
    double lat_mean, lat_p50, lat_p99, lat_max;
    double mlat_mean, mlat_p50, mlat_p99, mlat_max;
    double hops_mean, busiest_util;
    uint64_t busiest_router;
    int32_t busiest_port;
    uint64_t injected, delivered, queued, on_links, msgs_delivered;
    int conserved;
} wn_summary;

/* Derives the summary from reduced results. */
void wn_summary_compute(wn_summary *s, const net_model *n, const net_results *r, double end,
                        double warmup);
/* The human-readable block (rank 0). */
void wn_summary_print(const wn_summary *s, const net_model *n, const net_results *r, FILE *f);
/* summary.json, terminals.csv, ports.csv, latency_hist.csv in dir; returns
 * 0 or -1 with errno set. */
int wn_summary_write(const wn_summary *s, const net_model *n, const net_results *r,
                     const warp_stats *st, const char *dir);

/* `warpnet sweep RUN.ini --vary section.key=a:b:step [args...]` */
int wn_sweep_main(const char *self, int argc, char **argv);

#endif
