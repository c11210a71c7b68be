/* dragonfly/dragonfly.h — the dragonfly topology of the network layer.
 *
 * [network] topology = dragonfly, and
 * [dragonfly] a = 8            routers per group (required)
 *             p = 4            terminals per router (default max(1, a/2))
 *             h = 4            global links per router (default max(1, a/2))
 *             g = 33           groups (default and maximum a·h + 1)
 *             arrangement = absolute | relative | circulant  (default absolute)
 *             routing = minimal | valiant | ugal-l | ugal-g | par (default minimal)
 *             n_indirect = 1   UGAL / PAR: Valiant candidates per decision
 *             ugal_threshold = 0B  bytes a non-minimal candidate must save
 *             ugal_hop_weight = yes  cost = occupancy x hops (no: occupancy)
 *             vcs = 3          VCs per port (default: what the routing needs,
 *                              minimal 2, valiant / ugal 3, par 4; fewer is an
 *                              error, more become lanes of each class)
 *             local_bandwidth, global_bandwidth, terminal_bandwidth
 *                              (default [network] link_bandwidth)
 *             local_latency, global_latency, terminal_latency
 *                              (default [network] link_latency)
 *             local_vc_buffer, global_vc_buffer, terminal_vc_buffer
 *                              bytes per VC of the input buffers those links
 *                              feed (default [network] vc_buffer)
 *
 * Wiring and numbering: dragonfly_shape.h; routing and VCs: dragonfly_route.h;
 * derivations of the worst case and the throughput bounds the tests check:
 * models/dragonfly/README.md. UGAL's occupancy of a port is
 * net_port_occupancy; UGAL-G's view of the group's other global ports comes
 * from status events (topology.h watchers), each arriving one local link
 * latency after the change.
 *
 * Worst-case traffic (worst_case_dst, [workload] pattern = worst): terminal
 * k of router index r in group i sends to terminal k of router index r in
 * group i + 1 (mod g).
 */
#ifndef DRAGONFLY_H
#define DRAGONFLY_H

#include "net/topology.h"

/* The catalogue entry: name "dragonfly", section "dragonfly". */
extern const net_topology_ops dragonfly_topology;

#endif
