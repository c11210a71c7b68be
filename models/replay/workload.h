/* workload.h — the `replay` workload of the network layer:
 *   [workload] type = replay
 *   [job.N]    trace = PATH | gen:KIND:...   format = bigsim|otf2|goal|native|gen|dimemas|pcap
 *              placement = linear|random|locality|rails|rail:L|FILE   ranks = N (check)   iterations = K
 *   [replay]   overhead = 0ns (per message sent)   per_byte_ns = 0
 *              ampi_overhead = 100ns (BigSim AMPI_ tasks)   eager_limit = 64KiB (OTF2, Dimemas)
 *              dimemas_rendezvous = size|trace (Dimemas: by eager_limit, or the send records' flag)
 *              placement_seed = 1   ranks_csv = FILE (job,rank,finish_ns)
 *              pcap_mode = causal|open-loop   pcap_map = FILE   pcap_coalesce = 1ms
 *              flows_csv = FILE   messages_csv = FILE (captures: docs/pcap-replay.md)
 * One LP per network rank; ranks no job uses stay idle. */
#ifndef REPLAY_WORKLOAD_H
#define REPLAY_WORKLOAD_H

#include <stdint.h>

#include "net/net.h"

extern const net_workload_ops replay_workload;

typedef struct replay_job_result {
    int32_t ranks, ranks_here;   /* job ranks, of which on this process */
    double completion_ns;        /* max over ranks of (last end - kickoff) */
    uint64_t tasks_done, tasks_total, compute_ns, msgs, bytes;
} replay_job_result;

/* Committed results of job `job` for the ranks on this process (after the
 * run). Returns -1 for a job that does not exist. */
int replay_workload_job_result(const void *wl, int job, replay_job_result *out);

#endif
