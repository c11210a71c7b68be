/* traffic/traffic.h — synthetic traffic, the `traffic` workload:
 * [workload] type = traffic, pattern = uniform | neighbor | permutation |
 * bitcomplement | transpose | alltoall | incast | pair | pingpong | worst |
 * bitrev | shuffle | tornado | group-shift (bitcomp and randperm: BookSim's
 * names of bitcomplement and permutation),
 * message_size = 1KiB,
 * and either load = 0.5 (fraction of a NIC's injection bandwidth; mean
 * interval = message_size / (load * bandwidth)) or interval = 2us;
 * arrivals = poisson (default) | fixed; count = messages per rank (0: no
 * limit); start = time of the first possible arrival; warmup (read by the
 * network layer) excludes early messages from statistics; no message is
 * generated at or after the engine's end time.
 * Patterns: uniform — any other rank, equally likely; neighbor — rank +
 * distance (default 1) mod N; permutation — a random cyclic permutation
 * (no rank sends to itself) fixed by the seed; bitcomplement — ~rank
 * (N a power of two); transpose — swaps the high and low halves of the rank's
 * bits (N a power of four); alltoall — rank+1, rank+2, ... cycling over all
 * others; incast — every rank except dst sends to dst (default 0); pair —
 * only rank src sends, to dst; pingpong — src sends to dst at start, dst
 * answers each arrival with a message of the same size, src sends the next
 * when the answer arrives, `count` round trips (load and interval unused);
 * on loggp each answer waits for the receiver's CPU overhead (cpu_ns);
 * worst — the topology's worst case (net_topology_ops.worst_case_dst, e.g.
 * Slim Fly's router pairing, the dragonfly's shift to the next group),
 * mapped through the placement: the rank on the partner of the rank's
 * terminal; a config error on topologies without one, or when a partner
 * terminal holds no rank; bitrev — the rank's bits reversed, shuffle —
 * rotated left by one (N a power of two; both have fixed points, which
 * send to themselves as BookSim's do); tornado — rank + ceil(N/2) - 1 mod N
 * (BookSim's on one dimension); group-shift — a random terminal of the
 * next group (BookSim's bad_dragon; topologies of groups: dragonfly,
 * dragonflyplus), read through the placement. */
#ifndef TRAFFIC_H
#define TRAFFIC_H

#include "net/net.h"

extern const net_workload_ops traffic_workload;

#endif
