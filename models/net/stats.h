/* net/stats.h — committed statistics of the network layer: the per-LP
 * committed-output blocks (written only by commit handlers; router port
 * statistics and a terminal's counts live in their states instead, exact
 * under rollback: router_core.h, terminal.c), log-binned
 * latency histograms (one pair per process, also written only at commit:
 * 2 KB per terminal cost 1-2 GB at a million nodes), and the per-process
 * accumulator that finish handlers fill and net_results_reduce() combines
 * across MPI ranks onto rank 0. */
#ifndef NET_STATS_H
#define NET_STATS_H

#include <stdint.h>
#include <stdio.h>

#include "warp.h"
#include "net/net.h"

/* Bin 0 holds [0, 1) ns; then 8 bins per power of two up to 2^32 ns. */
#define NET_HIST_SUB 8
#define NET_HIST_BINS (1 + 32 * NET_HIST_SUB + 1)

/* What a packet's arrival counts comes first, in 96 bytes: the packet
 * network's terminal (terminal.c) keeps the counts after it in its state;
 * its output block holds only these, all its commit handler writes. */
typedef struct net_term_out {
    uint64_t lat_pkts, hops_sum;                 /* packets sent at t >= warmup */
    uint64_t lat_sum_q, mlat_sum_q;              /* sums in 1/NET_LAT_Q ns, exact in any order */
    double lat_max, mlat_max;
    double lat_min, mlat_min;                    /* valid when lat_pkts / msgs_lat > 0 */
    double t_last;                               /* latest message completion */
    double eject_busy_ns;                        /* link into the NIC busy, t >= warmup */
    uint64_t msgs_delivered, msgs_lat;
    uint64_t offered_msgs, offered_bytes;        /* net_send calls (all); their bytes at t >= warmup */
    uint64_t injected_pkts, injected_bytes;      /* left the NIC, whole run */
    uint64_t injected_bytes_win;                 /* left the NIC at t >= warmup */
    uint64_t delivered_pkts, delivered_bytes;    /* reached the NIC, whole run */
    uint64_t delivered_bytes_win;                /* reached it at t >= warmup */
} net_term_out;

/* Per path of a network that names its paths (net_network_ops.paths): what
 * the destination terminals saw of the packets that took it. A message
 * counts on the path of its last packet. */
typedef struct net_path_out {
    uint64_t pkts, msgs;          /* delivered, whole run */
    uint64_t lat_pkts, msgs_lat;  /* of those, sent at t >= warmup */
    uint64_t lat_sum_q, mlat_sum_q;
    double lat_max, mlat_max;
} net_path_out;

/* Final-state counts for the conservation line. */
typedef struct net_flight {
    uint64_t term_sent, term_recv;     /* packets onto / off terminal links */
    uint64_t router_recv, router_sent; /* packets into / out of routers */
    uint64_t router_queued;            /* packets found in router queues at the end */
    uint64_t nic_waiting_msgs;         /* messages not yet fully injected */
    /* Packets gateways (network.h) took from routers and gave to them; the
     * difference is inside the network's own LPs at the end. */
    uint64_t gateway_recv, gateway_sent;
} net_flight;

typedef struct net_results {
    net_term_out total;    /* sum (max for the _max fields) over terminals */
    net_flight flight;
    net_path_out paths[NET_PATHS]; /* sums over terminals; used when the network names paths */
    /* Latency histograms of this process's terminals, counted at commit
     * (integer counts: the same sums in any order or partition). */
    uint32_t hist[NET_HIST_BINS];  /* packet latency */
    uint32_t mhist[NET_HIST_BINS]; /* message latency */
    warp_lpid hist_owner;          /* the local terminal whose checkpoint record carries them */
    uint64_t nodes, routers;
    int32_t max_radix;
    double *term_rows;     /* nodes x NET_TERM_COLS, for terminals.csv */
    double *port_rows;     /* routers*max_radix x NET_PORT_COLS, for ports.csv */
    /* --sample time series, time-major; NULL when sampling is off (sample.h). */
    uint32_t samples, sample_ports; /* intervals; tracked buffers per router */
    double sample_interval;         /* ns */
    float *occ;                     /* samples x routers x sample_ports: mean bytes */
    uint32_t *term_cnt;             /* samples x nodes x 2: packets sent, received */
    uint32_t *router_cnt;           /* samples x routers x 2 */
} net_results;

#define NET_TERM_COLS 7 /* injected_pkts, injected_bytes, delivered_pkts, delivered_bytes, lat_mean, hops_mean, eject_busy_ns */
#define NET_PORT_COLS 5 /* busy_ns, pkts, bytes, queue mean, queue max */

/* Latency sums are fixed point so that they add up to the same number
 * whatever the partition (floating-point sums depend on their order). */
#define NET_LAT_Q 1024.0
static inline uint64_t net_lat_q(double ns) { return (uint64_t)(ns * NET_LAT_Q + 0.5); }

/* Histogram bin of a latency in ns (clamped to the last bin). */
int net_hist_bin(double ns);
/* The middle of bin b in ns (geometric scale), used for percentiles. */
double net_hist_mid(int b);
/* The q-quantile (0..1) of a histogram; 0 when it is empty. */
double net_hist_quantile(const uint32_t *h, double q);

/* Adds one terminal's block into the accumulator. */
void net_term_out_add(net_term_out *acc, const net_term_out *o);
/* Counts one packet's latency (sent at t >= warmup): mean and extremes in
 * o, the histogram in r (this process's), and the message's too when
 * msg_done (its last packet). From commit handlers only. */
void net_term_out_latency(net_term_out *o, net_results *r, double lat, int msg_done);
/* Terminal LP types call these from init (or ckpt_load) and their
 * checkpoint hooks: one local terminal per process carries the process's
 * histograms in its checkpoint record, and a restart adds them back
 * wherever that record lands. */
void net_hist_claim(net_results *r, warp_lpid gid);
void net_hist_ckpt_save(const net_results *r, warp_lpid gid, warp_ckpt *c);
void net_hist_ckpt_load(net_results *r, warp_lpid gid, warp_ckpt *c);
/* The q-quantile of histogram h clamped to the observed [lo, hi]: a bin's
 * middle may lie outside what was seen. 0 when h is empty. */
double net_hist_quantile_in(const uint32_t *h, double q, double lo, double hi);
/* Adds one terminal's per-path blocks (npaths of them) into the accumulator. */
void net_path_out_add(net_path_out *acc, const net_path_out *o, int npaths);
/* Allocates an accumulator with per-terminal and per-port rows. */
net_results *net_results_new(uint64_t nodes, uint64_t routers, int32_t max_radix);
void net_results_free(net_results *r);
/* Combines every rank's accumulator onto rank 0 (collective over w's ranks). */
void net_results_reduce(net_results *r, const warp_ctx *w);

#endif
