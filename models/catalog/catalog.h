/* catalog/catalog.h — what a run can be built from: the topologies, networks
 * and workloads of this build (net/model.h's net_catalog). It sits above
 * every model; the network layer itself knows none of them by name. */
#ifndef CATALOG_CATALOG_H
#define CATALOG_CATALOG_H

#include "net/model.h"

/* Everything Warpnet ships. */
extern const net_catalog catalog_builtin;

#endif
