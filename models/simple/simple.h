/* simple/simple.h — analytic networks behind the same workload API.
 *
 * simplenet ([network] topology = simplenet; [simplenet] nodes, latency,
 * bandwidth): a message of s bytes sent at t starts leaving the sending NIC
 * at t0 = max(t, NIC send free), occupies it until t0 + s/B (then the sender
 * gets NET_EV_SENT), and its tail reaches the receiving NIC at
 * a = t0 + latency + s/B. The receiving NIC serialises too: the message is
 * complete at max(a, previous completion + s/B), when NET_EV_ARRIVE fires.
 * Ping-pong of s bytes therefore takes 2 (latency + s/B).
 *
 * loggp ([network] topology = loggp; [loggp] nodes, L, o, g, G, O as times,
 * S as a size; LogGOPSim's defaults): a send of s bytes at t starts at
 * ts = max(t, NIC send-gap free); the NIC's next send may start at
 * ts + g + (s-1)G; NET_EV_SENT fires at ts + o + (s-1)O with cpu_ns the
 * sender's CPU time o + (s-1)O; the message reaches the receiving NIC at
 * ts + o + L, is taken at tr = max(that, NIC receive-gap free), which then
 * frees at tr + g + (s-1)G; NET_EV_ARRIVE fires at tr with cpu_ns =
 * o + max((s-1)O, (s-1)G), the receive overhead the workload charges its CPU
 * (LogGOPSim also waits for the receiver's CPU before tr; the workload, which
 * owns the CPU, applies that). Workloads read S with net_eager_limit.
 *
 * simplenet with per-pair matrices ([simplenet] latency_matrix = FILE in ns,
 * bandwidth_matrix = FILE in MiB/s, CODES's simplep2p): a message from node i
 * to node j uses latency L = lat(i,j) and the sender's bandwidth out(i,j):
 * t0 as above, the NIC is free at t0 + s/out(i,j), the message is complete
 * at max(t0 + L, receive free) + s/in(i,j), in(i,j) being the bandwidth the
 * receiver takes it at. An entry is "x" or "out,in"; a pair whose bandwidth
 * is 0 has no link, and a message on it stops the run when it commits. A
 * message to the node itself uses latency and bandwidth. */
#ifndef SIMPLE_H
#define SIMPLE_H

#include "net/network.h"

/* A per-pair matrix: n x n entries, row = sender, column = receiver. */
#define SIMPLE_MATRIX_MAX 2048
typedef struct simple_matrix {
    uint64_t n;
    double *out, *in; /* the "out,in" halves of each entry (equal for a plain "x") */
} simple_matrix;

/* Reads the matrix file [sec] key names (n = 0 when the key is absent);
 * stops with the file, line and entry on a malformed one. */
void simple_matrix_read(warp_ini *ini, const char *sec, const char *key, simple_matrix *m);
void simple_matrix_free(simple_matrix *m);

/* The two networks, for the catalogue. */
extern const net_network_ops simplenet_network;
extern const net_network_ops loggp_network;

#endif
