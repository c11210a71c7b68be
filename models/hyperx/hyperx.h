/* hyperx/hyperx.h — the HyperX topology of the network layer (Ahn, Binkert,
 * Davis, McLaren, Schreiber, SC09), which includes the flattened butterfly
 * (Kim, Dally, Abts 2007: a k-ary n-flat is dims = k,...,k (n-1 times),
 * trunking 1, terminals k).
 *
 * [network] topology = hyperx, and
 * [hyperx] dims = 8,8,8        S_1..S_L, routers per dimension (required;
 *                              1 to HYPERX_MAX_DIMS dimensions, sizes 1..2^20)
 *          trunking = 1        K_1..K_L, links between two routers of one
 *                              dimension (one value: every dimension; default 1)
 *          terminals = 8       terminals per router (default 1)
 *          nodes = N           optional, checked against prod(S) x terminals
 *          routing = dor | dal (default dor)
 *          dal_threshold = 0B  bytes a deroute must save over the best
 *                              minimal port
 *          vcs = V             VCs per port (default what the routing needs:
 *                              dor 1, dal the most router hops of a path;
 *                              fewer is an error, more become lanes)
 *          link_bandwidth, link_latency (router-router; default [network])
 *          terminal_bandwidth, terminal_latency (default [network]
 *                              link_bandwidth and terminal_latency)
 *
 * Numbering, wiring, routing and the VC rule: models/hyperx/README.md and
 * hyperx_shape.h. Worst-case traffic ([workload] pattern = worst): every
 * terminal sends to the same terminal of the router one step further
 * (mod S_d) in the dimension d with the fewest links per router pair (the
 * first such of size 2 or more). */
#ifndef HYPERX_H
#define HYPERX_H

#include "net/topology.h"

/* The catalogue entry: name "hyperx", section "hyperx". */
extern const net_topology_ops hyperx_topology;

#endif
