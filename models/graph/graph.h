/* graph/graph.h — any network read from a file as a topology of the
 * network layer.
 *
 * [network] topology = graph, and
 * [graph] file = PATH         the network file (required; relative to where
 *                             warpnet runs)
 *         format = anynet | edges  BookSim's anynet (default) or an edge
 *                             list (graph_read.h)
 *         terminals = 1       edges only: terminals per router
 *         routing = shortest | adaptive  among the minimal next hops (or
 *                             those of routes): a hash of the message
 *                             (ECMP), or the least occupied output, ties
 *                             by that hash
 *         routes = FILE       a routing table instead of shortest paths
 *                             (graph_routes.h: ROUTER DEST|* PORT ...)
 *         vcs = V             VCs per port (default the diameter, or the
 *                             table's longest walk: a VC class per hop;
 *                             fewer is an error, more become lanes)
 *         link_bandwidth, link_latency  links the file gives none (default
 *                             [network] link_bandwidth, link_latency)
 *         terminal_bandwidth, terminal_latency  node links the file gives
 *                             none (default [network] link_bandwidth,
 *                             terminal_latency)
 *         max_memory = 4GiB   refuse files whose reading and routing tables
 *                             would need more (estimated before allocating)
 *
 * A disconnected network, and one whose diameter exceeds NET_MAX_VCS, are
 * refused with the reason. Formats, routing and the VC rule:
 * models/graph/README.md. */
#ifndef GRAPH_H
#define GRAPH_H

#include "net/topology.h"

/* The catalogue entry: name "graph", section "graph". */
extern const net_topology_ops graph_topology;

#endif
