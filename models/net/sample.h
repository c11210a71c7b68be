/* net/sample.h — time series of a packet-network run (--sample=INTERVAL):
 * per router port and VC the input-buffer occupancy (time-weighted mean
 * over each interval), per terminal and per router the packets sent and
 * received in each interval. Commit handlers record into the LPs'
 * committed-output blocks, so rolled-back work never shows; finish handlers
 * copy into the per-process results, net_results_reduce sums them onto rank
 * 0, and net_samples_write prints samples.csv there.
 *
 * Occupancy counts a packet in the input buffer of the port and VC it
 * arrived on from the event that delivers it to the router until its tail
 * has left on the output link (when its credit goes back upstream). */
#ifndef NET_SAMPLE_H
#define NET_SAMPLE_H

#include <stdint.h>
#include <stdio.h>

#include "net/stats.h"

typedef struct net_model net_model;

/* The sampling grid: `count` intervals of `interval` ns cover [0, end). */
typedef struct net_sampling {
    double interval; /* ns; 0 when sampling is off */
    double end;
    uint32_t count;
    uint32_t ports;  /* router ports x VCs tracked per router (max_radix * vcs) */
} net_sampling;

/* Bytes the sampling adds to a terminal's and a router's output block. */
size_t net_sample_term_bytes(const net_sampling *s);
size_t net_sample_router_bytes(const net_sampling *s);

/* The interval holding time t (the last one for t >= end). */
static inline uint32_t net_sample_bin(const net_sampling *s, double t)
{
    double b = t / s->interval;
    return b < (double)(s->count - 1) ? (uint32_t)b : s->count - 1;
}

/* Commit-time recording. `area` is the sampling part of the LP's output
 * block (after its fixed statistics). which: 0 sent, 1 received. */
void net_sample_count(const net_sampling *s, void *area, double t, int which);
/* A packet of `bytes` sat in buffer pv (= port * vcs + vc) of a router
 * during [from, to); the part after the run's end is not counted. */
void net_sample_dwell(const net_sampling *s, void *area, uint32_t pv, double from, double to,
                      uint64_t bytes);

/* Finish: copies an LP's series into the per-process results. */
void net_sample_term_finish(const net_sampling *s, const void *area, uint64_t term,
                            net_results *r);
void net_sample_router_finish(const net_sampling *s, const void *area, uint64_t router,
                              net_results *r);

/* Bytes of the results arrays per interval (to refuse grids that cannot fit). */
double net_sample_interval_bytes(uint32_t ports, uint64_t nodes, uint64_t routers);
/* Allocates r's sample arrays; 0 on success. */
int net_sample_results_alloc(net_results *r, const net_sampling *s);

/* Writes samples.csv (rank 0, after net_results_reduce): header
 * time_ns,kind,id,port,vc,value; rows whose value is 0 left out. 0 on
 * success, -1 when the file cannot be written. */
int net_samples_write(const net_results *r, const char *path);

#endif
