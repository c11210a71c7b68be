/* net/registry.h — lookup of workloads by name (topologies: topology.h). */
#ifndef NET_REGISTRY_H
#define NET_REGISTRY_H

#include "net/net.h"

/* The workload named `name` ([workload] type), or NULL. */
const net_workload_ops *net_workload_find(const char *name);
/* Comma-separated list of known workload names, for error messages. */
const char *net_workload_names(void);

#endif
