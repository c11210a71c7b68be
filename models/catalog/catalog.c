/* catalog/catalog.c — every topology, network and workload Warpnet ships,
 * by the names users write in [network] topology and [workload] type.
 * The lists are not written here: each model folder's local.mk names its
 * ops structures (CATALOG_TOPOLOGIES, CATALOG_NETWORKS, CATALOG_WORKLOADS),
 * and the build writes them into catalog_list.h in the order of the
 * `include` lines in models/local.mk. So adding a model is its folder plus
 * that one `include` line. Read by the warpnet driver. */
#include "catalog/catalog.h"
#include "net/network.h"

/* The ops are declared here from the generated list rather than by including
 * each model's header, so that no file outside a model's folder names it. */
#define CATALOG_TOPOLOGY(ops) extern const net_topology_ops ops;
#define CATALOG_NETWORK(ops) extern const net_network_ops ops;
#define CATALOG_WORKLOAD(ops) extern const net_workload_ops ops;
#include "catalog_list.h"
#undef CATALOG_TOPOLOGY
#undef CATALOG_NETWORK
#undef CATALOG_WORKLOAD

#define CATALOG_NETWORK(ops)
#define CATALOG_WORKLOAD(ops)
#define CATALOG_TOPOLOGY(ops) &ops,
/* Topologies run on the packet network (the network layer's routers). */
static const net_topology_ops *const topologies[] = {
#include "catalog_list.h"
    NULL,
};
#undef CATALOG_TOPOLOGY
#define CATALOG_TOPOLOGY(ops)

#undef CATALOG_NETWORK
#define CATALOG_NETWORK(ops) &ops,
/* Networks with LP kinds of their own. */
static const net_network_ops *const networks[] = {
#include "catalog_list.h"
    NULL,
};
#undef CATALOG_NETWORK
#define CATALOG_NETWORK(ops)

#undef CATALOG_WORKLOAD
#define CATALOG_WORKLOAD(ops) &ops,
static const net_workload_ops *const workloads[] = {
#include "catalog_list.h"
    NULL,
};
#undef CATALOG_WORKLOAD

const net_catalog catalog_builtin = {
    .topologies = topologies,
    .networks = networks,
    .workloads = workloads,
};
