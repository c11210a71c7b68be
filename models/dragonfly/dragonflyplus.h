/* dragonfly/dragonflyplus.h — the Dragonfly+ topology of the network layer.
 *
 * [network] topology = dragonflyplus, and
 * [dragonflyplus] leaves = 8     leaf routers per group (required)
 *                 spines = 8     spine routers per group (default leaves)
 *                 level_links = 1  links between each leaf and each spine
 *                 p = 8          terminals per leaf (default spines·level_links)
 *                 h = 8          global links per spine (default leaves·level_links)
 *                 g = 65         groups (default and maximum spines·h + 1)
 *                 arrangement = absolute | relative | circulant (default absolute:
 *                                the dragonfly's wiring of a group's spines·h
 *                                global ports, dragonfly_shape.h)
 *                 routing = minimal | valiant | ugal | par (default minimal)
 *                 n_indirect = 1   UGAL / PAR: Valiant candidates per decision
 *                 ugal_threshold = 0B  bytes a non-minimal candidate must save
 *                 ugal_hop_weight = yes  cost = occupancy x hops (no: occupancy)
 *                 vcs            VCs per port (default what the routing needs:
 *                                minimal 1, the others 2; fewer is an error,
 *                                more become lanes of each class)
 *                 local_bandwidth, global_bandwidth, terminal_bandwidth,
 *                 local_latency, global_latency, terminal_latency,
 *                 local_vc_buffer, global_vc_buffer, terminal_vc_buffer
 *                                as the dragonfly's (local: leaf-spine links)
 *
 * Numbering and wiring: dfp_shape.h; routing and the VC rule: dfp_route.h;
 * the closed forms the tests check: models/dragonfly/dragonflyplus.md.
 * Worst-case traffic ([workload] pattern = worst): terminal k of leaf l in
 * group i sends to terminal k of leaf l in group i + 1 (mod g).
 */
#ifndef DRAGONFLYPLUS_H
#define DRAGONFLYPLUS_H

#include "net/topology.h"

/* The catalogue entry: name "dragonflyplus", section "dragonflyplus". */
extern const net_topology_ops dragonflyplus_topology;

#endif
