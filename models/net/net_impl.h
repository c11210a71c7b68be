/* net/net_impl.h — what the network layer's own files share: the run's
 * read-only model description, LP layout, per-LP committed-output blocks and
 * the per-process result accumulator the finish handlers fill. Not for
 * topologies, networks or workloads (they use topology.h, network.h and
 * net.h). */
#ifndef NET_NET_IMPL_H
#define NET_NET_IMPL_H

#include "net/net.h"
#include "net/network.h"
#include "net/sample.h"
#include "net/stats.h"

struct net_model {
    const char *name;               /* [network] topology */
    const char *preset;             /* [network] preset, or NULL */
    const net_network_ops *net_ops; /* the network (network.h) */
    void *net;                      /* its description */
    uint64_t nodes, lps, ranks;     /* terminals, the network's other LPs, ranks */
    uint64_t ranks_hint;            /* the workload's ranks, read before the network (0: unknown) */
    int npaths;                     /* paths the network names (0: none) */

    /* The fabric: the network layer's terminals and routers wired by a
     * topology (packet.c fills it; routers = 0 for networks without one).
     * Routers are the network's first `routers` LPs after the terminals. */
    net_params params;
    const net_topology_ops *topo_ops;
    void *topo;
    uint64_t routers;
    int32_t vcs, max_radix;
    int32_t view_slots;       /* remote-occupancy slots per router (topology.h) */
    uint32_t *router_part;    /* router -> rank of the run's partition (partition.c);
                               * NULL: index blocks */
    int part_ranks;           /* the rank count router_part is for */
    uint64_t *rank_term;      /* rank -> terminal (net_term_of_rank) */
    int placement_linear;     /* rank_term is the identity: no load needed */
    int64_t *term_rank;       /* terminal -> rank, -1 when no rank is placed there */
    const warp_ctx *engine;   /* the engine the run is built for */
    double warmup, end;       /* statistics window [warmup, end] */
    double inj_bandwidth;     /* bytes/ns of a NIC's link */
    net_workload_mem wl_mem;  /* the workload's mem_hint, read while sizing */
    uint64_t min_packet;      /* the workload's smallest packet, bytes (0: unknown) */
    net_sampling sampling;    /* --sample grid; interval 0 when off */

    warp_lp_type term_type, router_type; /* the fabric's LP types */
    const net_workload_ops *wl_ops;
    void *wl;
    const warp_lp_type *wl_type;

    net_results *res;         /* per-process; filled by finish handlers */
    void *router_layout;      /* the input-queued router's state layout
                               * (router_iq.c), computed once; freed with the model */
    warp_model model;
};

/* LP layout. */
static inline warp_lpid net_term_lp(const net_model *n, uint64_t t) { return t; }
static inline warp_lpid net_router_lp(const net_model *n, uint64_t r) { return n->nodes + r; }
/* The terminal of rank r. Linear placement (the default) loads no table:
 * each message read a random entry of rank_term, a cache miss at a
 * million ranks. */
static inline uint64_t net_term_of_rank(const net_model *n, uint64_t r)
{
    return n->placement_linear ? r : n->rank_term[r];
}
/* net_rank_lp (network.h): n->nodes + n->lps + rank. */

/* The packet network (packet.c): the fabric on the topology in topo_ops. */
extern const net_network_ops net_packet_network;
/* The fabric's LP types (terminal.c, router.c). */
void net_terminal_type(net_model *n, warp_lp_type *t);
void net_router_type(net_model *n, warp_lp_type *t);
/* The input-queued router's type (router_iq.c); net_router_type picks it. */
void net_router_iq_type(net_model *n, warp_lp_type *t);
/* net_fabric_inject (network.h) into VC `vc` (a lane of class 0) rather
 * than VC 0: what the fabric's own terminals do. */
double net_fabric_inject_vc(warp_lp *lp, const net_model *n, uint64_t router, int32_t port, int32_t vc,
                            const net_packet *p);
/* Reads [network] sample for a network with a fabric (build.c). */
void net_sampling_read(warp_ini *ini, net_model *n);
/* Stops with WARP_EXIT_RESOURCE, naming the ranks or the memory per rank
 * that would fit, when net_memory's estimate of the sized model n exceeds
 * warp_memory_per_rank (memory.c; build.c calls it before placing). */
void net_memory_refuse_oversized(const net_model *n);
/* Payload bytes of the events this network sends (memory.c). */
size_t net_event_bytes(const net_model *n);

/* Bytes of input buffer per VC at port `port` of router r: the topology's
 * vc_buffer hook, or [network] vc_buffer. */
uint64_t net_input_buffer(const net_model *n, uint64_t router, int32_t port);
/* The same for the input buffer at the far end of output port `port` of
 * router r (what that port's credits count); 0 when it leads to a terminal
 * or nowhere. */
uint64_t net_downstream_buffer(const net_model *n, uint64_t router, int32_t port);

#endif
