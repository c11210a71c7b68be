/* slimfly/slimfly.h — the Slim Fly topology of the network layer.
 *
 * [network] topology = slimfly, and
 * [slimfly] q = 13          prime power 4w + δ, δ ∈ {-1, 0, 1} (required)
 *           p = 9           terminals per router (default floor(k'/2))
 *           routing = minimal | valiant | ugal   (default minimal)
 *           n_indirect = 3  UGAL: Valiant candidates per decision
 *           c_sf = 1        UGAL: weight of the non-minimal cost
 *           ugal_threshold = 0B  UGAL: bytes of occupancy a non-minimal
 *                           candidate must save to be taken (slimfly_route.h)
 *           X = 1,3,4,9,10,12   Xprime = 2,5,6,7,8,11   (optional, both or none;
 *                           element numbers of GF(q), see slimfly_field.h; checked)
 *
 * Routers 0 .. 2q²-1 as in slimfly_mms.h; ports 0 .. k'-1 are the network ports
 * of slimfly_mms.h, ports k' .. k'+p-1 hold the router's terminals: terminal t
 * sits on router t / p, port k' + t mod p. Routing and VCs: slimfly_route.h (the
 * i-th router-to-router hop uses VC i; 2 VCs for minimal, 4 otherwise). UGAL's
 * occupancy of a port is net_port_occupancy: bytes queued on the output port
 * plus bytes held in the downstream input buffers not yet credited back.
 *
 * Worst-case traffic (worst_case_dst, [workload] pattern = worst): terminal
 * i of router R sends to terminal i of partner(R), the pairing of
 * slimfly_traffic.h.
 *
 * Bisection (bisection_bandwidth, [network] reference_bandwidth = bisection).
 * Put on one side the points (0,x,y) of a = floor(q/2) columns x and the
 * lines (1,m,c) of b = q - a slopes m: q² routers, half the terminals.
 * Point-point links stay in a column and line-line links in a slope, so only
 * point-line links cross; a point meets exactly one line of each slope, so
 * the a·q points inside meet q - b = a outside lines each and the b·q points
 * outside meet b inside lines each: q(a² + b²) links cross. Per node of a
 * half that is (a² + b²)/(q·p) of the link bandwidth: for p = floor(k'/2)
 * 86.7 % at q = 5, 72.6 % at q = 13, 71.1 % at q = 17, 68.6 % at q = 37,
 * 2/3 for every even q and tending to 2/3 as q grows. The true minimum
 * bisection may be lower (finding it is NP-hard); this cut is an upper bound
 * on it and, being balanced, bounds uniform random throughput at about
 * twice that share, above the injection bandwidth, so it binds only traffic
 * that crosses the cut more than uniform traffic does. */
#ifndef SLIMFLY_H
#define SLIMFLY_H

#include "net/topology.h"

extern const net_topology_ops slimfly_topology;

#endif
