/* net/topology.h — the interface every packet-level topology implements
 * (torus, fat-tree, Slim Fly, ...). The network layer (models/net) owns the
 * LPs, buffers, credits and statistics; a topology only answers questions
 * about its graph and routes packets. All callbacks are pure functions of
 * the topology's read-only description plus their arguments, so they may be
 * called from any LP on any PE, in forward handlers, at any time.
 *
 * Numbering. Terminals (NICs, one per node) are 0..nodes-1; routers are
 * 0..routers-1; ports of a router are 0..radix(r)-1. A port is wired to one
 * terminal, to one port of another router, or to nothing. Wiring must be
 * symmetric: if peer(r, p) = (router s, port q) then peer(s, q) = (router r,
 * port p); if peer(r, p) = terminal t (port j) then attach_port(t, j) = (r, p),
 * attach(t) for j = 0. A port may
 * also lead to a gateway, an LP of a network that includes the packet
 * network (network.h): it takes packets like a terminal and injects them
 * like one. */
#ifndef NET_TOPOLOGY_H
#define NET_TOPOLOGY_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "warp.h"
#include "warp_ini.h"
#include "warp_keys.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Most virtual channels per port the network layer supports. */
#define NET_MAX_VCS 8

/* The largest VC buffer, 1 GiB: routers count credits in 32-bit words,
 * so that a port's record fits a cache line. */
#define NET_VC_BUFFER_MAX (UINT64_C(1) << 30)

typedef enum net_peer_kind {
    NET_PEER_NONE = 0,     /* unconnected port (e.g. a partly populated switch) */
    NET_PEER_ROUTER = 1,
    NET_PEER_TERMINAL = 2,
    NET_PEER_GATEWAY = 3,  /* an LP of the network's own (network.h, "Gateways"):
                            * id is its LP id, port 0 */
} net_peer_kind;

/* One end of a link as seen from a router port, with the link's parameters
 * (a link's two directions have the same bandwidth and latency). */
typedef struct net_peer {
    net_peer_kind kind;
    int32_t port;       /* peer router's port; 0 for a terminal */
    uint64_t id;        /* router or terminal index */
    double bandwidth;   /* bytes per ns (1 GB/s = 1 byte/ns), > 0 */
    double latency;     /* ns of propagation, >= 0 */
} net_peer;

/* Where a terminal is attached: its router and that router's port. */
typedef struct net_attach {
    uint64_t router;
    int32_t port;
} net_attach;

/* Network-wide parameters from [network], parsed by models/net before the
 * topology's setup. A topology may overwrite fields its own section
 * defines (e.g. fat-tree's host_bandwidth) from its setup. */
typedef struct net_params {
    double link_bandwidth;  /* bytes/ns, [network] link_bandwidth */
    double link_latency;    /* ns, [network] link_latency */
    double terminal_latency; /* ns, [network] terminal_latency: router-terminal
                              * links (default link_latency) */
    double router_delay;    /* ns from a packet's arrival (head for cut-through,
                             * tail for store-and-forward) to when it may leave */
    uint64_t packet_size;   /* bytes of payload per packet (the last may be shorter) */
    uint64_t vc_buffer;     /* bytes of input buffer per VC per port */
    int store_forward;      /* 1: store-and-forward, 0: virtual cut-through */
    int input_queued;       /* [network] router: 0 output-queued, 1 input-queued */
    int32_t lanes;          /* [network] lanes: VCs per VC class of the topology */
    int32_t speedup;        /* [network] speedup: packets an input port may send at once */
    int32_t internal_speedup; /* [network] internal_speedup: the input-queued switch runs this
                               * many times the output link's speed, into output buffers */
    int inject_all_vcs;     /* [network] injection_vcs: 1 all, 0 the lanes of VC class 0 */
    uint64_t credit_unit;   /* [network] credit_unit: bytes per credit (0: per packet) */
    double alloc_delay;     /* [network] alloc_delay: ns an input-queued router's VC FIFO
                             * takes after a tail has left to get its next head going */
    double lane_hold;       /* [network] lane_hold: ns an input-queued router's output lane
                             * stays held after a tail has left (VC allocation) */
    int32_t alloc_iters;    /* [network] alloc_iters: request-grant-accept rounds per
                             * input-queued allocation (0: maximal, repeat until none fits) */
    int vc_first;           /* [network] vc_allocation: 1 before-switch (a head takes an
                             * output lane before it competes for the switch), 0 with-switch */
    int per_cycle;          /* [network] alloc_timing: 1 per-cycle (one input-queued allocation
                             * per alloc_cycle boundary), 0 on-change */
    double alloc_cycle;     /* [network] alloc_cycle: ns per allocator cycle (0: a credit
                             * unit's, or without credit_unit a packet's, link time) */
    /* Set by a topology whose terminals have several NIC ports (planes,
     * rails; 1 by default): each terminal has nic_ports ports, port j wired
     * where attach_port(t, j) says, and rail_select picks the port a packet
     * leaves on. */
    int32_t nic_ports;
    int32_t rail_select;    /* net_rail_select */
} net_params;

/* How a terminal with several NIC ports picks one for a packet. */
typedef enum net_rail_select {
    NET_RAIL_STATIC = 0,      /* by destination: port dst mod nic_ports */
    NET_RAIL_ROUND_ROBIN = 1, /* per message: port (message number) mod nic_ports */
    NET_RAIL_ADAPTIVE = 2,    /* per packet: the free port with the most credit, ties from a
                               * rotating start */
} net_rail_select;

/* Most NIC ports a terminal may have. */
#define NET_MAX_NIC_PORTS 16

/* What a routing function sees about the packet and the router it is at. */
typedef struct net_route_in {
    uint64_t router;      /* router making the decision */
    int32_t in_port;      /* port the packet came in on */
    int32_t in_vc;        /* VC it occupies there (0 when it comes from a terminal) */
    uint64_t src;         /* source terminal */
    uint64_t dst;         /* destination terminal */
    uint32_t flow;        /* same for every packet of one message (ECMP hashing) */
    uint32_t hops;        /* router-to-router hops taken so far */
    uint32_t aux[2];      /* the topology's per-packet routing state; 0 at injection */
    /* For adaptive routing: the LP's stream (draws are undone by the engine on
     * rollback) and the current occupancy of an output port. */
    warp_rng *rng;
    const void *router_state; /* opaque; pass to net_port_occupancy() */
    /* net_port_occupancy itself, for code of models/net that routes (the
     * failure layer, spt.c) and must not call back into the router core */
    uint64_t (*occupancy)(const void *router_state, int32_t port);
} net_route_in;

/* A routing decision. `aux` is copied back into the packet. */
typedef struct net_route_out {
    int32_t port;   /* output port of in->router */
    int32_t vc;     /* VC the packet will occupy at the next router's input */
    uint32_t aux[2];
} net_route_out;

/* Bytes queued for or waiting on credits at output port `port` of the router
 * whose state is `router_state` (all VCs), plus bytes the downstream input
 * buffer holds that have not returned credits. Callable only from route(). */
uint64_t net_port_occupancy(const void *router_state, int32_t port);

/* The latest occupancy (as net_port_occupancy) of the remote port the
 * topology's watchers() put in view slot `slot` of the deciding router, as
 * its last status event told it (0 before the first). Callable only from
 * route(), and only for slot < view_slots(). */
uint64_t net_view_occupancy(const void *router_state, int32_t slot);

/* Most watchers one port may have (see watchers below). */
#define NET_MAX_WATCHERS 256

/* A router that keeps a copy of a remote port's occupancy. */
typedef struct net_watcher {
    uint64_t router; /* the router told */
    int32_t slot;    /* its view slot for this port, < view_slots() */
    int32_t pad;
    double delay;    /* ns the news takes to reach it (>= 0) */
} net_watcher;

typedef struct net_topology_ops {
    const char *name;     /* value of [network] topology, e.g. "torus" */
    const char *section;  /* its INI section, e.g. "torus" */
    /* The values of [section] routing, the default first (for the summary);
     * a topology with one fixed routing names it alone. NULL: not said. */
    const char *const *routings;
    /* The keys of its section (warp_keys.h), NULL-section terminated. */
    const warp_key_group *keys;
    /* Its entries of presets (warp_keys.h), NULL-name terminated; may be NULL. */
    const warp_preset *presets;

    /* Reads the topology's section from ini (reporting errors with
     * warp_ini_fail), may adjust *params, and returns the read-only
     * description (heap; freed by destroy). Memory must be O(routers) or
     * better: route by address arithmetic, not tables of size nodes^2. */
    void *(*setup)(warp_ini *ini, net_params *params);
    void (*destroy)(void *topo);

    uint64_t (*nodes)(const void *topo);
    uint64_t (*routers)(const void *topo);
    int32_t (*radix)(const void *topo, uint64_t router); /* ports incl. terminal ports */
    int32_t (*max_radix)(const void *topo);
    int32_t (*vcs)(const void *topo);                    /* 1..NET_MAX_VCS, same everywhere */

    net_peer (*peer)(const void *topo, uint64_t router, int32_t port);
    /* Optional (NULL: peer()): peer() without the far end (id and port
     * 0): the kind, bandwidth and latency of the link on `port`, for the
     * callers that need no more (a router event asks 2-4 times) where
     * finding the far end costs more than that. */
    net_peer (*link)(const void *topo, uint64_t router, int32_t port);
    net_attach (*attach)(const void *topo, uint64_t terminal);
    /* Optional (NULL: only port 0, attach()): where NIC port j < nic_ports
     * of terminal t is wired; port 0 must be attach(t). peer() of that
     * router port names the terminal with port = j. */
    net_attach (*attach_port)(const void *topo, uint64_t terminal, int32_t nic_port);

    /* Chooses the output port and next VC at in->router. When in->router is
     * the destination terminal's router it must return that terminal's port.
     * Deadlock freedom (the VC policy) is the topology's duty. */
    net_route_out (*route)(const void *topo, const net_route_in *in);
    /* Optional (NULL: none), a hint: writes the output ports route() may
     * choose at `router` for a packet to terminal dst (at most max) and
     * returns their count, or 0 where that needs more than the destination
     * (a route record, occupancy). Pure and cheap: the router models'
     * prefetch hints call it to load those ports' records before the
     * packet's event runs. */
    int32_t (*route_ports)(const void *topo, uint64_t router, uint64_t dst, int32_t *ports, int32_t max);

    /* Bytes the description itself uses (for --describe); may be NULL (0). */
    size_t (*mem_bytes)(const void *topo);
    /* Writes a short label of router r ("r(1,2,0)") for --dump-topology into
     * buf (at most n bytes); may be NULL (then "r<N>"). */
    void (*router_label)(const void *topo, uint64_t router, char *buf, size_t n);
    /* Optional (NULL): router hops of the minimal route src -> dst, used by
     * tests and the --describe average-distance line. */
    uint32_t (*min_hops)(const void *topo, uint64_t src, uint64_t dst);
    /* Optional (NULL): the destination terminal of terminal t in the
     * topology's worst-case traffic pattern ([workload] pattern = worst);
     * must be a permutation of the terminals without fixed points (Slim
     * Fly's pairing is an involution, the dragonfly's group shift is not). */
    uint64_t (*worst_case_dst)(const void *topo, uint64_t terminal);
    /* Optional (NULL): terminals per group where the terminals form equal
     * groups of consecutive ids (the dragonflies'), for [workload]
     * pattern = group-shift. */
    uint64_t (*group_terminals)(const void *topo);
    /* Optional (NULL): bytes/ns crossing, in one direction, the narrowest
     * cut into two halves of equal terminal count that the topology knows
     * in closed form (an upper bound on its true bisection), for
     * [network] reference_bandwidth = bisection. */
    double (*bisection_bandwidth)(const void *topo);
    /* Optional (NULL: [network] vc_buffer everywhere): bytes of input
     * buffer per VC at port `port` of router r, the buffer that packets
     * arriving over that port's link occupy (for a terminal port: what the
     * terminal injects into), or 0 for [network] vc_buffer. A value given
     * must hold one packet and at most NET_VC_BUFFER_MAX bytes (the
     * topology checks its own keys in setup). */
    uint64_t (*vc_buffer)(const void *topo, uint64_t router, int32_t port);
    /* Optional (NULL): more --describe lines about the topology's
     * structure, each "key: value\n". */
    void (*describe)(const void *topo, FILE *f);
    /* Optional (NULL, or 0 slots): routing with remote information (e.g.
     * UGAL-G). Each router keeps view_slots() occupancy values that route()
     * reads with net_view_occupancy. Whenever the occupancy of an output
     * port changes (a packet joins its queue, a credit comes back), the
     * network layer sends the new value to each watcher that
     * watchers(topo, router, port, w, NET_MAX_WATCHERS) writes into w
     * (returning their count, 0 for an unwatched port); it arrives after the
     * watcher's delay. Costs one event per watcher and change. */
    int32_t (*view_slots)(const void *topo);
    int32_t (*watchers)(const void *topo, uint64_t router, int32_t port, net_watcher *w,
                        int32_t max);
    /* Optional (NULL: router index blocks): [engine] partition = topology.
     * Writes the part (0 .. parts-1; 2 <= parts <= routers) of every router
     * into part[]: parts of balanced load (load[r]: router r's expected
     * events with its terminals and their ranks, as the workload places
     * them) that cut few links (grid blocks, pods, groups); every part
     * non-empty. net_partition_runs does the balancing for an order. */
    void (*partition)(const void *topo, const double *load, uint32_t parts, uint32_t *part);
    /* Optional (NULL: no): whether the routing chosen adapts to occupancy
     * (UGAL, PAR, DAL, adaptive up ports); with failed links the table
     * that replaces it then picks the least occupied minimal next hop
     * (failures.h). */
    int (*adaptive)(const void *topo);
} net_topology_ops;

/* For partition hooks: cuts the `routers` routers, taken in `order` (NULL:
 * index order), into `parts` contiguous runs of balanced `load`, each at a
 * multiple of `unit` positions (a pod, a group) when that keeps it within
 * 2 % of its share of the load (unit 1: anywhere). */
void net_partition_runs(const double *load, uint64_t routers, const uint64_t *order,
                        uint64_t unit, uint32_t parts, uint32_t *part);
/* For partition hooks choosing between candidate partitions: what `part`
 * is expected to cost per event against one rank with nothing remote (its
 * busiest part's load over the mean, times 1 + half the share of link
 * traversals, router and terminal links alike, that cross parts). */
double net_partition_cost(const net_topology_ops *ops, const void *topo, const double *load,
                          uint32_t parts, const uint32_t *part);

#ifdef __cplusplus
}
#endif
#endif
