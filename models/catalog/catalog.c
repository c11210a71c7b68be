/* catalog/catalog.c — every topology, network and workload Warpnet ships,
 * by the names users write in [network] topology and [workload] type.
 * The one file that knows them all: adding a model adds one line here (and
 * its folder's local.mk to models/local.mk). Read by the warpnet driver. */
#include "catalog/catalog.h"
#include "dragonfly/dragonfly.h"
#include "fattree/fattree_topo.h"
#include "optical/optical.h"
#include "replay/workload.h"
#include "simple/simple.h"
#include "slimfly/slimfly.h"
#include "torus/torus.h"
#include "traffic/traffic.h"

/* Topologies run on the packet network (the network layer's routers). */
static const net_topology_ops *const topologies[] = {
    &torus_topology,
    &fattree_topology,
    &slimfly_topology,
    &dragonfly_topology,
    NULL,
};

/* Networks with LP kinds of their own. */
static const net_network_ops *const networks[] = {
    &simplenet_network,
    &loggp_network,
    &optical_network,
    NULL,
};

static const net_workload_ops *const workloads[] = {
    &traffic_workload,
    &replay_workload,
    NULL,
};

const net_catalog catalog_builtin = {
    .topologies = topologies,
    .networks = networks,
    .workloads = workloads,
};
