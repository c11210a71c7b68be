/* torus/torus.h — n-dimensional torus (k-ary n-cube with any size per
 * dimension) as a topology of the network layer.
 *
 * Routers: coordinates c_0..c_{n-1}, c_d in [0, k_d); router id =
 * sum c_d * prod_{e<d} k_e (dimension 0 varies fastest). Ports: 2d goes to
 * the + neighbour in dimension d, 2d+1 to the - neighbour (unconnected when
 * k_d = 1); ports 2n .. 2n+p-1 hold the router's p terminals; terminal t
 * sits on router t / p, port 2n + t mod p.
 *
 * Routing: dimension order (0 first), minimal: in each dimension the shorter
 * way round; when both ways are equally long (k_d even, distance k_d/2),
 * `ties` decides: plus (always +), balanced (+ from even coordinates, - from
 * odd ones) or random (by a hash of the message's flow).
 *
 * VCs (dateline, 2 VCs): with `dateline = hop` (default; Dally and Seitz) a
 * packet enters each dimension on VC 0 and moves to VC 1 when it crosses
 * that dimension's wrap-around link (between k_d-1 and 0); it keeps VC 1
 * until it leaves the dimension. With `dateline = dimension` (BookSim's
 * dim_order_torus) a packet whose way through the dimension crosses the
 * wrap link takes VC 1 from its first hop there, any other VC 0: VC 0 never
 * crosses the wrap, and a VC 1 route (at most k_d/2 hops) never reaches the
 * link opposite it, so neither class closes a cycle. On uniform traffic in
 * an 8-ring, hop puts 15/64 of the hops on VC 1, dimension 22/64. Either
 * way dimension order breaks the dependencies between dimensions.
 *
 * Config: [torus] dims = 8,8,8 (up to TORUS_MAX_DIMS), nodes_per_router = p
 * (default 1), optional nodes = N (checked against prod(dims) * p),
 * terminal_bandwidth (of the router-terminal links; default: [network]
 * link_bandwidth), dateline = hop | dimension (default hop), ties =
 * balanced | plus | random (default balanced: on uniform traffic `plus`
 * loads + links 10:6 in an 8-ring and costs a fifth of the dimension-order
 * throughput). */
#ifndef TORUS_H
#define TORUS_H

#include "net/topology.h"

#define TORUS_MAX_DIMS 16

extern const net_topology_ops torus_topology;

#endif
