/* net/failures.h — failed links and routers on any packet topology.
 *
 * [network] failed_links = FILE   lines `R P` (the link on port P of router
 *                                 R fails, both directions) or `R` (router R
 *                                 fails: all its router links; it must hold
 *                                 no nodes); `#` comments
 *           failed_fraction = F   also fail round(F x links) router links
 *                                 drawn uniformly (0 <= F < 1)
 *           failed_seed = N       the draw's seed (default 1)
 *           failure_routing = auto | static | adaptive  how the table
 *                                 picks among minimal next hops: by ECMP
 *                                 hash (static) or the least occupied
 *                                 (adaptive); auto: adaptive where the
 *                                 topology's own routing adapts
 *                                 (net_topology_ops.adaptive)
 *
 * With any failure the topology keeps its wiring (failed ports read as
 * unconnected) and routes by shortest-path table around the failures
 * (net/spt.h: minimal paths, a VC class per hop, so deadlock-free on any
 * graph), whatever its own routing was; non-minimal routing (Valiant,
 * UGAL's detours) is not kept. Refused with the reason: failures
 * that disconnect two routers holding nodes, and a diameter after the
 * failures above NET_MAX_VCS. */
#ifndef NET_FAILURES_H
#define NET_FAILURES_H

#include "net/topology.h"
#include "warp_ini.h"

/* Reads the keys above (always, so that they count as known). With no
 * failure returns topo and leaves *ops as it is; otherwise returns the
 * topology with its failures (owning topo) and sets *ops to its ops. */
void *net_failures_apply(warp_ini *ini, const net_topology_ops **ops, void *topo);

#endif
