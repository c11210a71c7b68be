/* capture.h — what a packet-capture source knows beyond its task graphs:
 * each replayed message's captured times and connection (flow), so the
 * replay can report captured against simulated flow completion times.
 * Filled by the pcap reader (readers/pcap.c, through replay_source_ops
 * .capture); read by the replay's capture statistics (capture_stats.c).
 * Message ids are the messages' tags in the graphs. */
#ifndef REPLAY_CAPTURE_H
#define REPLAY_CAPTURE_H

#include <stdint.h>

typedef struct replay_capture_msg {
    int64_t t_first, t_last; /* captured first and last segment, ns from the capture's first packet */
    uint64_t bytes;          /* payload bytes (new data only) */
    uint32_t flow;           /* index into replay_capture.flows */
    int32_t src, dst;        /* ranks */
    int32_t prev;            /* the flow's previous message, or -1 */
    uint8_t tcp;             /* a TCP message (else UDP) */
    uint8_t reply;           /* prev went the other way */
} replay_capture_msg;

typedef struct replay_capture_flow {
    char name[112]; /* "tcp 10.0.0.1:40000>10.0.0.2:80", initiator first */
    uint64_t bytes, msgs;
    int64_t t_first, t_last; /* first and last payload segment of the flow */
} replay_capture_flow;

typedef struct replay_capture {
    uint32_t nmsgs, nflows;
    const replay_capture_msg *msgs;   /* by id (= tag) */
    const replay_capture_flow *flows;
    /* What the reader set aside, for info and the report. */
    uint64_t packets, skipped, retrans_segments, retrans_bytes, pure_acks, dup_acks, reordered;
    uint32_t hosts;
} replay_capture;

#endif
