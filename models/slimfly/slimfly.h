/* slimfly/slimfly.h — the Slim Fly topology of the network layer.
 *
 * [network] topology = slimfly, and
 * [slimfly] q = 13          prime power 4w + δ, δ ∈ {-1, 0, 1} (required)
 *           p = 9           terminals per router (default floor(k'/2))
 *           routing = minimal | valiant | ugal   (default minimal)
 *           n_indirect = 3  UGAL: Valiant candidates per decision
 *           c_sf = 1        UGAL: weight of the non-minimal cost
 *           ugal_threshold = 0B  UGAL: bytes of occupancy a non-minimal
 *                           candidate must save to be taken (sf_route.h)
 *           X = 1,3,4,9,10,12   Xprime = 2,5,6,7,8,11   (optional, both or none;
 *                           element numbers of GF(q), see sf_field.h; checked)
 *
 * Routers 0 .. 2q²-1 as in sf_mms.h; ports 0 .. k'-1 are the network ports
 * of sf_mms.h, ports k' .. k'+p-1 hold the router's terminals: terminal t
 * sits on router t / p, port k' + t mod p. Routing and VCs: sf_route.h (the
 * i-th router-to-router hop uses VC i; 2 VCs for minimal, 4 otherwise). UGAL's
 * occupancy of a port is net_port_occupancy: bytes queued on the output port
 * plus bytes held in the downstream input buffers not yet credited back. */
#ifndef SLIMFLY_H
#define SLIMFLY_H

#include "net/topology.h"

extern const net_topology_ops slimfly_topology;

/* The worst-case partner terminal of terminal t (sf_traffic.h): the terminal
 * of the same index on the partner router. */
uint64_t slimfly_worst_case_dst(const void *topo, uint64_t t);

#endif
