/* optical/optical_impl.h — what the optical network's files share: its
 * read-only description, the LP layout, its event payloads and its
 * committed statistics. Not for other models (they see optical.h). */
#ifndef OPTICAL_IMPL_H
#define OPTICAL_IMPL_H

#include <stdint.h>

#include "net/network.h"
#include "net/stats.h"

/* Paths, numbered as packets carry them (net_packet.path). */
enum opt_path { OPT_PATH_ELECTRICAL = 0, OPT_PATH_OPS = 1, OPT_PATH_OCS = 2, OPT_NPATHS = 3 };

/* [optical] path: how a ToR chooses. */
enum opt_policy { OPT_USE_OPS = 0, OPT_USE_OCS = 1, OPT_USE_HYBRID = 2 };

/* The rack switches' wiring (racks.c): rack r's switch is router r; its
 * ports 0..spr-1 lead to the rack's servers, port spr to the rack's ToR. */
typedef struct opt_racks {
    uint64_t racks, spr;
    uint64_t tor0;        /* LP id of rack 0's ToR (the gateways) */
    double bandwidth;     /* electrical links, bytes/ns */
    double latency;       /* ns */
} opt_racks;

extern const net_topology_ops opt_racks_topology;

/* Statistics: the committed-output block of every optical LP and the
 * per-process sum the finish handlers fill (each LP type fills its part). */
typedef struct opt_results {
    uint64_t formed[OPT_NPATHS];     /* photonic packets formed by source ToRs */
    uint64_t arrived[OPT_NPATHS];    /* ... that reached their destination ToR */
    uint64_t tor_lat_q[OPT_NPATHS];  /* formed -> tail at the destination ToR, 1/NET_LAT_Q ns */
    uint64_t ops_sent, ops_resent;   /* OPS transmissions: first ones, resends */
    uint64_t ops_acks, ops_nacks;    /* replies taken by source ToRs */
    uint64_t ops_passed, ops_dropped;
    uint64_t buffer_max;             /* most photonic packets one ToR held unacknowledged */
    uint64_t ocs_sent;               /* photonic packets sent on circuits */
    uint64_t ocs_requests, ocs_setups, ocs_refusals; /* sent; answers taken */
    uint64_t ocs_release_idle, ocs_release_capacity;
    /* Circuit time, grant -> release or end, 1/NET_LAT_Q ns: a grant
     * subtracts its time, a release (or the end) adds its own. */
    uint64_t circuit_q;
    uint64_t tor_waiting;            /* photonic packets in ToR queues at the end */
} opt_results;

/* The network's read-only description. */
typedef struct opt_net {
    const net_model *n;
    opt_racks racks;
    uint64_t nodes, routers;         /* terminals (servers); rack switches (= racks) */
    uint64_t tor0, ops0, ocs_lp;     /* LP ids: ToRs, OPS output ports, OCS controller */

    /* ToR */
    uint64_t packet_size;            /* [network] packet_size */
    uint64_t vc_buffer;              /* [network] vc_buffer: the rack switch's input buffer */
    uint32_t group;                  /* electrical packets per photonic packet; 0: whole message */
    double tor_startup, tor_per_byte; /* ns, ns per byte */
    int policy;                      /* enum opt_policy */
    uint64_t ocs_threshold;          /* hybrid: messages of at least this ask for a circuit */
    uint32_t tor_buffer;             /* photonic packets a ToR may hold unacknowledged */
    double ack_delay;                /* ns to process an ACK or NACK */
    double optical_bw;               /* ToR <-> OPS links, bytes/ns */
    double cable;                    /* ns of propagation ToR <-> a switch */

    /* OPS */
    uint32_t fibers, wavelengths;    /* ToR r on fiber r / wavelengths */
    int shared_output;               /* ops_contention = port: one channel per output */
    double ops_delay;                /* routing delay, ns */

    /* OCS */
    uint32_t ocs_ports, ocs_links;   /* switch ports; circuits a ToR may hold */
    double ocs_setup, ocs_reconfig;  /* request -> circuit up; its switch part */
    double ocs_signal;               /* one way ToR <-> control plane: (setup - reconfig) / 2 */
    double retry_delay, ocs_idle, ocs_transfer;
    double ocs_bw;                   /* circuit bandwidth, bytes/ns */

    warp_lp_type tor_type, ops_type, ocs_type;
    opt_results *res;                /* per process; finish handlers add into it */
} opt_net;

/* LP ids. */
static inline uint64_t opt_tor_lp(const opt_net *o, uint64_t rack) { return o->tor0 + rack; }
static inline uint64_t opt_ops_lp(const opt_net *o, uint64_t rack) { return o->ops0 + rack; }
static inline uint64_t opt_rack_of(const opt_net *o, uint64_t terminal)
{
    return terminal / o->racks.spr;
}

/* The ToR's conversion delay for a photonic packet of `bytes`. */
static inline double opt_tor_delay(const opt_net *o, uint64_t bytes)
{
    return o->tor_startup + o->tor_per_byte * (double)bytes;
}

/* A photonic packet: `pieces` consecutive electrical packets of one message. */
typedef struct opt_photonic {
    net_message msg;     /* the message (every piece carries its header) */
    uint64_t src, dst;   /* terminals */
    uint64_t id;         /* the source ToR's number for it, in order of forming */
    uint64_t bytes;      /* its size: the sum of its pieces */
    uint32_t first;      /* its first piece's index in the message */
    uint32_t pieces;
    uint32_t count;      /* packets of the whole message */
    uint32_t path;       /* OPT_PATH_OPS or OPT_PATH_OCS */
    double t_formed;     /* its last piece reached the source ToR */
} opt_photonic;

/* Event kinds of the optical LPs. */
enum opt_ev_kind {
    OPT_EV_OPS_HEAD = NET_EV_NETWORK, /* ToR -> OPS output: a photonic packet's head */
    OPT_EV_OPS_REPLY,  /* OPS output -> ToR: ACK (flag 1) or NACK (0), processed */
    OPT_EV_PHOTONIC,   /* -> destination ToR: a photonic packet's tail */
    OPT_EV_OCS_REQUEST,/* ToR -> controller: a circuit src -> dst, please */
    OPT_EV_OCS_ANSWER, /* controller -> ToR: granted (flag 1) or refused (0) */
    OPT_EV_OCS_RELEASE,/* ToR -> controller: circuit src -> dst given back */
    OPT_EV_OCS_RETRY,  /* ToR, to itself: ask again for dst */
    OPT_EV_OCS_IDLE,   /* ToR, to itself: release dst if still idle since `stamp` */
};

typedef struct opt_event {
    uint32_t kind;
    uint32_t flag;     /* ACK / grant; the controller writes its decision here */
    uint32_t stamp;    /* OCS_IDLE: the circuit's send count when scheduled */
    uint32_t pad;
    uint64_t src, dst; /* racks */
    union {
        opt_photonic ph; /* OPS_HEAD, PHOTONIC; OPS_REPLY: ph.id, ph.path */
    } u;
} opt_event;

/* Every event an optical LP receives: the packet network's or its own. */
typedef union opt_msg {
    net_event net;
    opt_event opt;
} opt_msg;

_Static_assert(sizeof(opt_event) <= sizeof(net_event), "optical events fit the network's events");

/* Shared by the optical LPs (optical_lp.c). A new optical event to LP dest
 * after delay (fill it, then warp_event_send). */
opt_event *opt_event_new(warp_lp *lp, uint64_t dest, double delay, uint32_t kind);
/* Short name of an optical LP's event kind (its LP types' event_name). */
const char *opt_event_name(const void *msg);

/* Adds an LP's committed block into the per-process results. */
void opt_results_add(opt_results *acc, const opt_results *b);
/* A finish handler that only does that (OPS ports). */
void opt_finish_results(warp_lp *lp, void *state, void *out);

/* The LP types (tor.c, ops.c, ocs.c), filled into o at setup by optical.c. */
void opt_tor_type(opt_net *o, warp_lp_type *t);
void opt_ops_type(opt_net *o, warp_lp_type *t);
void opt_ocs_type(opt_net *o, warp_lp_type *t);

#endif
