/* net/topologies.c — the registry of packet topologies and workloads,
 * looked up by the names users write in [network] topology and
 * [workload] type. A new topology or workload adds one line here. */
#include <string.h>

#include "net/registry.h"
#include "dragonfly/dragonfly.h"
#include "fattree/fattree_topo.h"
#include "slimfly/slimfly.h"
#include "torus/torus.h"
#include "replay/workload.h"
#include "traffic/traffic.h"

static const net_topology_ops *const topologies[] = {
    &torus_topology,
    &fattree_topology,
    &slimfly_topology,
    &dragonfly_topology,
};

static const net_workload_ops *const workloads[] = {
    &traffic_workload,
    &replay_workload,
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const net_topology_ops *net_topology_find(const char *name)
{
    for (size_t i = 0; i < COUNT(topologies); i++)
        if (strcmp(topologies[i]->name, name) == 0)
            return topologies[i];
    return NULL;
}

const char *net_topology_names(void)
{
    return "torus, fattree, slimfly, dragonfly, simplenet, loggp";
}

const net_workload_ops *net_workload_find(const char *name)
{
    for (size_t i = 0; i < COUNT(workloads); i++)
        if (strcmp(workloads[i]->name, name) == 0)
            return workloads[i];
    return NULL;
}

const char *net_workload_names(void)
{
    return "traffic, replay";
}
