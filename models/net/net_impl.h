/* net/net_impl.h — what the network layer's own files share: the run's
 * read-only model description, LP layout, per-LP committed-output blocks and
 * the per-process result accumulator the finish handlers fill. Not for
 * topologies or workloads (they use net.h and topology.h). */
#ifndef NET_NET_IMPL_H
#define NET_NET_IMPL_H

#include "net/net.h"
#include "net/sample.h"
#include "net/stats.h"

/* Analytic networks replace terminals + routers by one NIC LP per node. */
typedef enum net_kind {
    NET_KIND_PACKET = 0, /* a topology with routers */
    NET_KIND_SIMPLE,     /* alpha-beta (models/simple/simplenet.c) */
    NET_KIND_LOGGP,      /* LogGOPS (models/simple/loggp.c) */
} net_kind;

typedef struct net_loggp_params {
    double L, o, g, G, O; /* ns, ns, ns, ns per byte, ns per byte */
    uint64_t S;           /* eager/rendezvous threshold, bytes (for workloads) */
} net_loggp_params;

struct net_model {
    net_kind kind;
    net_params params;
    const net_topology_ops *topo_ops; /* NULL unless NET_KIND_PACKET */
    void *topo;
    double simple_latency;    /* simplenet alpha, ns */
    double simple_bandwidth;  /* simplenet NIC bandwidth, bytes/ns */
    net_loggp_params loggp;

    uint64_t nodes, routers, ranks;
    int32_t vcs, max_radix;
    int32_t view_slots;       /* remote-occupancy slots per router (topology.h) */
    uint64_t *rank_term;      /* rank -> terminal */
    int64_t *term_rank;       /* terminal -> rank, -1 when no rank is placed there */
    double warmup, end;       /* statistics window [warmup, end] */
    double inj_bandwidth;     /* bytes/ns of a NIC's link */
    net_sampling sampling;    /* --sample grid; interval 0 when off */

    warp_lp_type term_type, router_type;
    const net_workload_ops *wl_ops;
    void *wl;
    const warp_lp_type *wl_type;

    net_results *res;         /* per-process; filled by finish handlers */
    warp_model model;
};

/* LP layout. */
static inline warp_lpid net_term_lp(const net_model *n, uint64_t t) { return t; }
static inline warp_lpid net_router_lp(const net_model *n, uint64_t r) { return n->nodes + r; }
static inline warp_lpid net_rank_lp(const net_model *n, uint64_t rank)
{
    return n->nodes + n->routers + rank;
}

/* LP types (terminal.c, router.c, models/simple). */
void net_terminal_type(net_model *n, warp_lp_type *t);
void net_router_type(net_model *n, warp_lp_type *t);
void simplenet_nic_type(net_model *n, warp_lp_type *t);
void loggp_nic_type(net_model *n, warp_lp_type *t);

/* Bytes of input buffer per VC at port `port` of router r: the topology's
 * vc_buffer hook, or [network] vc_buffer. */
uint64_t net_input_buffer(const net_model *n, uint64_t router, int32_t port);
/* The same for the input buffer at the far end of output port `port` of
 * router r (what that port's credits count); 0 when it leads to a terminal
 * or nowhere. */
uint64_t net_downstream_buffer(const net_model *n, uint64_t router, int32_t port);

/* Short name of an event's kind, for engine reports. */
const char *net_event_name(const void *msg);

/* Sends NET_EV_ARRIVE for a completed message to its destination rank. */
void net_deliver_message(warp_lp *lp, const net_model *n, const net_message *m);
/* Sends NET_EV_SENT for a message to its source rank after `delay`. */
void net_notify_sent(warp_lp *lp, const net_model *n, const net_message *m, double delay);

#endif
