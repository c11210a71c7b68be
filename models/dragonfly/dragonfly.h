/* dragonfly/dragonfly.h — the dragonfly topology of the network layer.
 *
 * [network] topology = dragonfly, and
 * [dragonfly] a = 8            routers per group (required unless rows and
 *                              columns are given)
 *             rows = 6, columns = 16  Cascade groups: a rows x columns array
 *                              (a = rows·columns), all-to-all in each row
 *                              and each column (dragonfly_shape.h)
 *             row_links = 1, column_links = 3  links per pair of a row, of
 *                              a column (default 1, or from intra_file)
 *             intra_file, inter_file  CODES dragonfly-custom connection files
 *                              (dragonfly_files.h), relative to the run
 *                              file; inter_file replaces arrangement
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

#include "dragonfly/dragonfly_shape.h"
#include "net/topology.h"

/* The catalogue entry: name "dragonfly", section "dragonfly". */
extern const net_topology_ops dragonfly_topology;

/* What a link kind (local, global, terminal) is like. */
typedef struct dfly_link {
    double bandwidth, latency;
    uint64_t vc_buffer; /* 0: [network] vc_buffer */
} dfly_link;

/* Reads [section] KIND_bandwidth, KIND_latency and KIND_vc_buffer (KIND
 * local, global or terminal; defaults from [network]), failing with the
 * key on a bad value. Shared by the dragonfly and Dragonfly+ sections. */
/* The keys dfly_read_link reads, for the declarations of both sections. */
extern const warp_key dfly_link_keys[];
dfly_link dfly_read_link(warp_ini *ini, const char *section, const char *kind,
                         const net_params *params);

/* Writes the --describe lines of a dragonfly wiring's global links:
 * global_links, links_per_group_pair and any unconnected_global_ports. */
void dfly_describe_global(const dfly_shape *s, FILE *f);

#endif
