/* fattree_topo.h — m-port n-trees and XGFTs as a topology of the network layer:
 * `[network] topology = fattree` with its `[fattree]` section (see
 * models/fattree/README.md for the keys). */
#ifndef FATTREE_TOPO_H
#define FATTREE_TOPO_H

#include "net/topology.h"

/* The catalogue entry: name "fattree", section "fattree". */
extern const net_topology_ops fattree_topology;

#endif
