/* net/router_core.h — what both router models (router.c, output-queued;
 * router_iq.c, input-queued) share: the credit, output-queue and remote-view
 * arrays of a router's state, routing a packet through the topology (with
 * [network] lanes), credits and packets onto links, status reports, and the
 * port statistics (accounted in forward, exact under rollback) and the
 * commit and finish bookkeeping of ports. Every state write goes through
 * warp_save, except where a caller passes save 0 (it logged the record
 * already, or its reverse handler takes the write back) and the sums of
 * net_rcore_account, which net_rcore_unaccount takes back. */
#ifndef NET_ROUTER_CORE_H
#define NET_ROUTER_CORE_H

#include "net/net_impl.h"

/* The shared part of an output port's state. Each router model starts its
 * per-port record with one (net_rcore_port_bytes), so that what one event
 * touches of a port shares its cache lines. The queue statistics sit next
 * to queued, which an arrival writes anyway: in a separate committed block
 * they cost a cache miss per router commit (net_rcore_account). They are
 * 32-bit words so that the input-queued router's records fit a cache line
 * each (two VCs: 64 bytes); what lies beyond 32 bits is in the port's
 * net_rcore_wide, written only when a word wraps. */
typedef struct net_rcore_port {
    uint64_t queued;   /* bytes waiting in this router for this output port */
    /* Output-queue bytes (all VCs) seen by each packet routed to this
     * port, itself included: count and sum (low 32 bits) and maximum (up
     * to UINT32_MAX) (ports.csv). */
    uint32_t q_samples, q_sum, q_max;
    uint32_t rr;       /* the router model's: the input this output grants first */
    int32_t credits[]; /* vcs: bytes free in the downstream VC buffer (NET_VC_BUFFER_MAX at most) */
} net_rcore_port;

/* Statistics of the link into an input port (ports.csv), low 32 bits.
 * Each router model keeps one in the record an arrival on that port touches
 * anyway. The link's busy time is warm / its bandwidth. */
typedef struct net_rcore_in {
    uint32_t pkts, bytes;
    uint32_t warm; /* bytes of the packets that started at t >= warmup */
} net_rcore_in;

/* A port's statistics past their 32-bit words (net_rcore_port and
 * net_rcore_in): the high 32 bits of each sum, and the queue maximum once
 * it reached UINT32_MAX. Cold: a word wraps every 4 Gi packets or bytes. */
typedef struct net_rcore_wide {
    uint32_t pkts, bytes, warm, q_samples, q_sum;
    uint32_t pad;
    uint64_t q_max;
} net_rcore_wide;

/* Where a router's shared state lies: its port records and view array. */
typedef struct net_rcore {
    char *ports;      /* port 0's record */
    size_t stride;    /* bytes from one port's record to the next */
    uint64_t *view;   /* view_slots: remote occupancies (topology.h watchers) */
    net_rcore_wide *wide; /* max_radix of them */
} net_rcore;

static inline net_rcore_port *net_rcore_port_at(const net_rcore *c, int32_t port)
{
    return (net_rcore_port *)(c->ports + (size_t)port * c->stride);
}

/* The link on `port` of `router` (kind, bandwidth, latency; the far end
 * only where the topology has no link()): for callers that need no more. */
static inline net_peer net_rcore_link(const net_model *n, uint64_t router, int32_t port)
{
    return n->topo_ops->link ? n->topo_ops->link(n->topo, router, port)
                             : n->topo_ops->peer(n->topo, router, port);
}

/* Bytes of a port's shared part (a multiple of 8). */
size_t net_rcore_port_bytes(const net_model *n);
/* Bytes of the view array (a multiple of 8). */
size_t net_rcore_view_bytes(const net_model *n);
/* Bytes of the wide statistics of max_radix ports (a multiple of 8). */
size_t net_rcore_wide_bytes(const net_model *n);
/* The shared state: max_radix port records from `ports`, `stride` bytes
 * apart, each starting with its net_rcore_port; the view array at view,
 * the wide statistics at wide. */
static inline net_rcore net_rcore_at(void *ports, size_t stride, void *view, void *wide)
{
    return (net_rcore){.ports = ports, .stride = stride, .view = view, .wide = wide};
}

/* Adds x to the 64-bit sum whose low 32 bits are *lo; returns what its
 * high 32 bits gain (0 unless *lo wrapped or x >= 2^32). */
static inline uint32_t net_wide_add(uint32_t *lo, uint64_t x)
{
    uint32_t l = (uint32_t)x;
    *lo += l;
    return (uint32_t)(x >> 32) + (*lo < l);
}

/* The 64-bit value of high and low words. */
static inline uint64_t net_wide_value(uint32_t hi, uint32_t lo) { return (uint64_t)hi << 32 | lo; }
/* Full credits for every VC of every port (router_init; no logging). */
void net_rcore_init(const net_model *n, uint64_t router, net_rcore *c);

/* A routing decision in physical VCs: output port and the VCs
 * vc .. vc+span-1 the packet may take at the next hop (lanes of one class). */
typedef struct net_rcore_route {
    int32_t port, vc, span;
    uint32_t aux[2];
} net_rcore_route;
/* Routes packet p (arrived at this router) through the topology. */
net_rcore_route net_rcore_route_packet(warp_lp *lp, const net_model *n, net_rcore *c, uint64_t router,
                                       const net_packet *p);
/* The VC of vc .. vc+span-1 at output `port` with the most credit (the
 * lowest of equals); its credit may still be below a packet's size. */
int32_t net_rcore_pick_vc(const net_model *n, const net_rcore *c, int32_t port, int32_t vc,
                          int32_t span);

/* Tells the watchers of `port` (if any) its occupancy after a change. */
void net_rcore_status(warp_lp *lp, const net_model *n, const net_rcore *c, uint64_t router,
                      int32_t port);
/* Handles NET_EV_CREDIT and NET_EV_STATUS; returns the port whose credit
 * grew (-1 for a status event). save 0: the credit's write is not logged
 * (the caller's reverse handler undoes it with net_rcore_credit_reverse). */
int32_t net_rcore_event(warp_lp *lp, const net_model *n, net_rcore *c, const net_event *e, int save);
/* Undoes a NET_EV_CREDIT's credit that net_rcore_event took unlogged. */
void net_rcore_credit_reverse(net_rcore *c, const net_event *e);
/* Returns `bytes` of VC `vc` of input `in_port` to the sender upstream,
 * `delay` ns from now (plus the link's latency). */
void net_rcore_credit(warp_lp *lp, const net_model *n, uint64_t router, int32_t in_port, int32_t vc,
                      uint32_t bytes, double delay);
/* When the credit of a packet of `size` bytes that came in on `in_port` and
 * leaves on a link taking ser_out ns goes back, counted from its start:
 * when its tail has left, or with [network] credit_unit once its first unit
 * has (later by what a slower output link falls behind the input), so that
 * a packet larger than a credit unit pipelines as in VCT/wormhole hardware. */
double net_rcore_credit_delay(const net_model *n, uint64_t router, int32_t in_port, uint32_t size,
                              double ser_out);
/* The earliest time packet p (arrived now at `router`) may start leaving
 * towards `down`: now, or with cut-through from a slower link into a faster
 * one late enough that it does not finish leaving before its tail has
 * arrived (+ router_delay). */
double net_rcore_ready(const net_model *n, uint64_t router, const net_packet *p, const net_peer *down,
                       double now);
/* Sends packet p out of `port` on VC `vc`, its head onto the link `wait`
 * ns from now (0 but behind an output buffer), taking its credit now;
 * returns the serialisation time of the link. save 0: the caller has
 * logged the port's record in this event already. */
double net_rcore_send(warp_lp *lp, const net_model *n, net_rcore *c, uint64_t router, int32_t port,
                      int32_t vc, const net_packet *p, int save, double wait);

/* The facts of a routed packet (its output port and that port's queue
 * after it joined) in one word of the event's bits. */
uint64_t net_rcore_bits(int32_t port, uint64_t queued);
/* The output port net_rcore_bits packed in b. */
uint64_t net_rcore_bits_port(uint64_t b);
/* Forward: the port statistics of packet p arriving at `router` (facts b
 * from net_rcore_bits) into its output port's record and `in`, the
 * statistics of its input port. The low words of the sums are not logged
 * (the reverse handler calls net_rcore_unaccount); a new maximum and a
 * carry into net_rcore_wide are logged with warp_save. */
void net_rcore_account(warp_lp *lp, const net_model *n, net_rcore *c, uint64_t router,
                       net_rcore_in *in, const net_packet *p, uint64_t b);
/* Reverse: takes back the unlogged sums of net_rcore_account. */
void net_rcore_unaccount(const net_model *n, net_rcore *c, uint64_t router, net_rcore_in *in,
                         const net_packet *p, uint64_t b);
/* Router commit: --sample counts of an arriving packet (e->kind
 * NET_EV_PKT) and of the `ndep` packets that left in this event. */
void net_rcore_commit(warp_lp *lp, void *out, const net_event *e, const net_departure *dep, int ndep);
/* Router finish, per port: its ports.csv row from its state at the end
 * (in: its input's statistics); returns the packets into it over the run. */
uint64_t net_rcore_finish_port(warp_lp *lp, const net_rcore *c, int32_t port, const net_rcore_in *in);
/* Router finish: the --sample results of its committed block; sent/recv:
 * packets that left / arrived over the run. */
void net_rcore_finish(warp_lp *lp, void *out, uint64_t sent, uint64_t recv);
/* Bytes of a router's committed block. */
size_t net_rcore_out_bytes(const net_model *n);

#endif
