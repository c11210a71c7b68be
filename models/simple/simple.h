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
 * owns the CPU, applies that). Workloads read S with net_eager_limit. */
#ifndef SIMPLE_H
#define SIMPLE_H

#include "net/network.h"

/* The two networks, for the catalogue. */
extern const net_network_ops simplenet_network;
extern const net_network_ops loggp_network;

#endif
