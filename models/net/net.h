/* net/net.h — the network layer as workloads and the driver see it.
 * LPs of a network run: terminals (NICs) 0..nodes-1, routers after them,
 * workload LPs (one per simulated rank) last. Workloads talk to the network
 * only through net_send() and the two notification events it causes, so a
 * workload runs unchanged on every topology and on the analytic networks. */
#ifndef NET_NET_H
#define NET_NET_H

#include <stddef.h>
#include <stdint.h>

#include "warp.h"
#include "warp_ini.h"
#include "net/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

#define NET_PAYLOAD_MAX 16 /* workload bytes carried with a message */
#define NET_USER_MAX 64    /* bytes of a workload's private event */

/* Event kinds. Workloads receive NET_EV_ARRIVE and NET_EV_SENT and own every
 * kind >= NET_EV_WORKLOAD; the others are the network's. */
/* Most paths a network may name (net_network_ops.paths), path 0 included. */
#define NET_PATHS 4

typedef enum net_ev_kind {
    NET_EV_SEND = 1,   /* workload -> its terminal: inject a message */
    NET_EV_PKT,        /* a packet reaches a router or terminal */
    NET_EV_CREDIT,     /* buffer space returned to the upstream port */
    NET_EV_PORT_FREE,  /* self: an output link finished serialising */
    NET_EV_READY,      /* self: a cut-through packet may leave (slow-in/fast-out) */
    NET_EV_DELIVER,    /* analytic networks: a message reaches the receiving NIC */
    NET_EV_ARRIVE,     /* terminal -> destination workload: whole message arrived */
    NET_EV_SENT,       /* terminal -> source workload: last packet left the NIC */
    NET_EV_STATUS,     /* router -> router: a watched port's occupancy (topology.h) */
    NET_EV_ALLOC,      /* self: the input-queued router allocates its switch */
    NET_EV_NETWORK = 32, /* kinds NET_EV_NETWORK..NET_EV_WORKLOAD-1 are free for the
                          * LPs a network brings of its own (network.h) */
    NET_EV_WORKLOAD = 64,
} net_ev_kind;

/* A message as the workload sees it in NET_EV_ARRIVE / NET_EV_SENT. */
typedef struct net_message {
    uint64_t bytes;
    int64_t tag;
    uint64_t src_rank, dst_rank;
    uint64_t seq;      /* per-source-rank message number (from the NIC) */
    double t_send;     /* time of the net_send call */
    double cpu_ns;     /* loggp only: CPU time the receiver/sender must charge */
    uint8_t payload[NET_PAYLOAD_MAX];
} net_message;

/* A packet in flight. */
typedef struct net_packet {
    net_message msg;     /* the message it belongs to (header travels with every packet) */
    uint64_t src, dst;   /* terminals */
    uint32_t index;      /* packet number within the message */
    uint32_t count;      /* packets in the message */
    uint32_t size;       /* bytes of this packet */
    uint32_t flow;
    uint32_t aux[2];     /* topology routing state */
    int32_t in_port;     /* input port at the receiving router (filled by sender) */
    uint16_t hops;       /* router-to-router hops so far */
    uint8_t vc;          /* VC it occupies at the receiver's input (< NET_MAX_VCS) */
    uint8_t path;        /* which of the network's paths it took (< NET_PATHS; 0
                          * unless a network with paths of its own says otherwise) */
    double t_tail;       /* when its tail reaches the receiver (cut-through) */
} net_packet;
/* A packet event's payload then ends at 136 bytes, which with the engine's
 * 120-byte header is four whole cache lines (build.c's event_bytes). */
_Static_assert(sizeof(net_packet) == 128, "a packet is two cache lines");

typedef struct net_credit {
    int32_t port, vc;
    uint32_t bytes;
} net_credit;

/* NET_EV_STATUS: the new occupancy of the port in the receiver's view slot. */
typedef struct net_status {
    int32_t slot;
    uint32_t pad;
    uint64_t bytes;
} net_status;

/* Written by a router's forward handler for its commit handler: the packet
 * this event sent onward, if any (for --sample occupancy). */
typedef struct net_departure {
    double arrived;    /* it entered the input buffer */
    double left;       /* its tail has left on the output link */
    uint32_t size;
    uint16_t in_port;  /* the buffer it held: input port and VC */
    uint8_t vc;
    uint8_t valid;     /* 0: nothing left the router in this event */
} net_departure;

/* Every event of a network run has this layout. The departure record
 * comes last: only the output-queued router writes it, so a run without
 * one ends its event slots before it (build.c's event_bytes). */
typedef struct net_event {
    uint32_t kind;
    int32_t port;      /* NET_EV_PORT_FREE / NET_EV_READY: which port */
    union {
        net_packet pkt;
        net_credit credit;
        net_status status;
        net_message msg;
        uint8_t user[NET_USER_MAX];
    } u;
    net_departure dep; /* output-queued routers only */
} net_event;

typedef struct net_model net_model;

/* The workload plugin interface: [workload] type = NAME picks one. */
/* A workload's answer to "how much will you hold?", before it is built. */
typedef struct net_workload_mem {
    double load;          /* bytes each node offers per ns over its NIC's injection
                           * bandwidth (0..1): what sets the packets in flight */
    double message_bytes; /* its usual message (0: a packet) */
    double pending;       /* events it keeps pending per node (timers, a burst of
                           * sends waiting for the NIC, posted receives) */
    double heap_bytes;    /* its memory beside its LP states, whole run (task graphs,
                           * per-rank tables), spread over the ranks */
    double mean_hops;     /* router hops of its average packet where it knows them
                           * (a replay's neighbours); < 0: net/memory.c samples
                           * node pairs at random */
} net_workload_mem;

typedef struct net_workload_ops {
    const char *name;
    /* The [workload] keys of its type and the keys of any sections of its
     * own (warp_keys.h), NULL-section terminated. */
    const warp_key_group *keys;
    /* Its entries of presets (warp_keys.h), NULL-name terminated; may be NULL. */
    const warp_preset *presets;
    /* Reads [workload] (and any sections of its own); returns its read-only
     * config (heap). Called once per process after the network is built. */
    void *(*setup)(warp_ini *ini, const net_model *net);
    void (*destroy)(void *wl);
    /* The LP type of its per-rank LPs (stable pointer, e.g. inside wl). Its
     * handlers receive net_event payloads and reach their config through
     * net_workload_of(lp). */
    const warp_lp_type *(*lp_type)(const void *wl);
    /* Optional, collective: called on every process after the run, before
     * report, to gather per-process results on rank 0 (warp_reduce_to_root
     * on net_engine(net)). */
    void (*reduce)(const void *wl, const net_model *net);
    /* Optional: extra summary lines on rank 0 after the run. */
    void (*report)(const void *wl, const net_model *net, FILE *f);
    /* Optional, rank 0 after report: 0 when the results are whole, else an
     * exit code (warp_error.h) and one line in why (cap bytes). end_given:
     * the user chose the end time, so work cut off by it is expected. */
    int (*verdict)(const void *wl, const net_model *net, int end_given, char *why, size_t cap);
    /* Optional: how many ranks the workload's input names (a replay's
     * jobs), read before the network is built, so that a network without a
     * fixed size can take it as its node count; 0 when unknown. */
    uint64_t (*ranks_hint)(warp_ini *ini);
    /* Optional: what the workload will keep in memory and in flight, read
     * from its keys before it is built (net_model_size; --describe's
     * estimate, net/memory.c). NULL: net_workload_mem_default's figures. */
    void (*mem_hint)(warp_ini *ini, const net_model *net, net_workload_mem *m);
    /* Optional: nonzero when network rank `rank` has work (a replay job's
     * rank); NULL: every rank has. Read by the partition, which setup
     * precedes, to weigh routers by the traffic their terminals will see. */
    int (*rank_busy)(const void *wl, uint64_t rank);
    /* Nonzero: without an end time the run lasts until the workload is done
     * (the driver sets a far end time, NET_END_UNSET_NS). */
    int runs_to_completion;
    /* Optional, rank 0 after reduce: the model time at which the workload
     * finished (its last rank's last task), or 0 when it did not finish
     * (cut off by the end time). The summary's loads and utilisations are
     * taken over the run up to it. */
    double (*finished_at)(const void *wl);
    /* Optional: NULL when the workload sends other ranks' LPs nothing
     * (only net_send and events to itself), else why it does so with no
     * delay, which leaves --synch=cons no lookahead. */
    const char *(*no_lookahead)(const void *wl);
    /* Optional: the fewest bytes of any packet its messages split into at
     * packet_size (>= 1) bytes a packet (0 or NULL: unknown, which may be 1). Each
     * packet takes its bytes' time on every link it crosses, so the packet
     * network's lookahead grows by the smallest one's (net_fabric_lookahead). */
    uint64_t (*min_packet)(const void *wl, uint64_t packet_size);
} net_workload_ops;

/* The end time of a run whose workload runs to completion and whose user
 * gave none: 10^15 ns (11.6 simulated days), far beyond any trace. */
#define NET_END_UNSET_NS 1e15

/* ---- Inside workload handlers --------------------------------------------- */

/* Sends `bytes` (>= 1) from the calling workload's rank to dst_rank with a
 * tag and up to NET_PAYLOAD_MAX bytes of payload (copied). The destination
 * workload gets NET_EV_ARRIVE when the last packet arrives; the caller gets
 * NET_EV_SENT when the last packet has left its NIC. Needs no reverse: it
 * only sends an event, which the engine cancels on rollback. */
void net_send(warp_lp *lp, uint64_t dst_rank, uint64_t bytes, int64_t tag, const void *payload,
              size_t len);
/* A hint for a workload's prefetch hook: starts loading what net_send
 * from lp looks up (its terminal's place), an event before the send. */
void net_send_prefetch(const warp_lp *lp);
/* A workload-private event (kind >= NET_EV_WORKLOAD) to a rank's workload LP;
 * returns the payload to fill, then call warp_event_send(lp, ev). */
net_event *net_workload_event(warp_lp *lp, uint64_t rank, double delay, uint32_t kind);

const net_model *net_of(const warp_lp *lp);
const void *net_workload_of(const warp_lp *lp);
uint64_t net_rank_of(const warp_lp *lp);      /* rank of a workload LP */
uint64_t net_ranks(const net_model *net);
/* The engine the run is built for: its process rank and count
 * (warp_rank, warp_nranks) and the collectives of warp.h. */
const warp_ctx *net_engine(const net_model *net);
uint64_t net_nodes(const net_model *net);
double net_injection_bandwidth(const net_model *net); /* bytes/ns of one NIC */
/* A workload's memory figures when it tells none (mem_hint NULL): half the
 * injection bandwidth, a few events pending per node, no tables. */
void net_workload_mem_default(net_workload_mem *m);
double net_warmup(const net_model *net);
/* Terminal of a rank (placement). */
uint64_t net_rank_terminal(const net_model *net, uint64_t rank);
/* NIC ports per terminal (planes, rails; 1 on most networks): with
 * rail_select = static, terminal t receives on port t mod this. */
int32_t net_nic_ports(const net_model *net);
/* The topology (NULL for networks without one) and its description. */
const net_topology_ops *net_topology(const net_model *net, const void **topo);
/* Bytes above which an MPI-like workload uses a rendezvous protocol on this
 * network (LogGOPS's S), or 0 when the network prescribes none. */
uint64_t net_eager_limit(const net_model *net);
/* The index of the first multiple of `period` at or after t (a cycle or
 * slot grid from time 0); within 1e-9 periods of a multiple counts as on it,
 * so that rounding in t does not skip a boundary. */
double net_grid_index(double t, double period);

#ifdef __cplusplus
}
#endif
#endif
