/* optical/tor.h — the ToR LP's state, shared by its three files: tor.c
 * (assembly of photonic packets, the choice of path, the electrical side),
 * tor_ops.c (sending over the OPS, the retransmission buffer) and
 * tor_ocs.c (circuits). Every write goes through warp_save (no reverse
 * handler); records are warp_alloc'd and freed with warp_free_on_commit. */
#ifndef OPTICAL_TOR_H
#define OPTICAL_TOR_H

#include "net/fifo.h"
#include "net/port.h"
#include "optical/optical_impl.h"

/* The ToR's links, as port numbers of its NET_EV_PORT_FREE wake-ups. */
enum { TOR_PORT_EGRESS = 0, TOR_PORT_OPS = 1, TOR_PORT_CIRCUIT = 2 /* + destination rack */ };

/* Facts the commit handler reads from an event's bits: these flags, the
 * circuit requests sent in the event (bits 8..15) and the retransmission
 * buffer's occupancy after the event (the high 32 bits). */
#define TOR_REQUEST_SHIFT 8
enum {
    TOR_BIT_OPS_SENT = 1,
    TOR_BIT_OPS_RESENT = 2,
    TOR_BIT_OCS_SENT = 4,
    TOR_BIT_FORMED_OPS = 8,
    TOR_BIT_FORMED_OCS = 16,
    TOR_BIT_RELEASE_IDLE = 32,     /* a circuit was given back (at most one per event) */
    TOR_BIT_RELEASE_CAPACITY = 64,
};

/* A photonic packet the ToR holds. */
typedef struct tor_ph {
    net_node node;
    opt_photonic ph;
    uint32_t next;   /* egress: its next piece to hand to the rack switch */
    uint32_t nacked; /* OPS buffer: NACKed, waiting to be resent */
} tor_ph;

/* One server of the rack: the photonic packet being assembled from its
 * packets (a server's packets reach the ToR in order, message by message). */
typedef struct tor_slot {
    uint64_t bytes;
    uint32_t got, first;
} tor_slot;

/* Circuit states towards one destination rack. */
enum { CIRCUIT_NONE = 0, CIRCUIT_WAITING, CIRCUIT_REQUESTED, CIRCUIT_REFUSED, CIRCUIT_UP };

/* Towards one destination rack over the OCS. */
typedef struct tor_circuit {
    net_fifo q;         /* photonic packets waiting for the circuit */
    net_port_clock tx;  /* the circuit's transmitter */
    double since;       /* UP: granted at; WAITING: waiting since */
    uint64_t queued;    /* packets in q */
    uint32_t state;
    uint32_t stamp;     /* changes with every send, grant and release */
} tor_circuit;

typedef struct tor_state {
    /* Electrical side: photonic packets from the optics, handed to the rack
     * switch piece by piece (credits for VC 0 of the switch's ToR port). */
    net_fifo egress;
    int64_t credits;
    net_port_clock link;
    uint64_t gw_recv, gw_sent;  /* packets taken from / given to the switch */
    /* OPS: photonic packets never sent (FIFO), and the retransmission
     * buffer: sent and not yet ACKed, in the order they were formed. */
    net_fifo ops_new, ops_buf;
    uint64_t ops_waiting;       /* packets in ops_new */
    uint32_t buffered, nacked;  /* in ops_buf; of them NACKed */
    net_port_clock ops_tx;
    uint64_t next_id;
    /* OCS */
    uint32_t links_used;        /* circuits up, requested or being retried */
    uint32_t waiting;           /* destinations waiting for one of the links */
} tor_state;

/* The state block: tor_state, then a tor_slot per server, then a
 * tor_circuit per rack. */
typedef struct tor_view {
    tor_state *s;
    tor_slot *slots;
    tor_circuit *c;
    uint64_t rack;
} tor_view;

/* tor_ops.c */
void tor_ops_enqueue(warp_lp *lp, const opt_net *o, tor_view *v, tor_ph *x, warp_bits *bits);
void tor_ops_try(warp_lp *lp, const opt_net *o, tor_view *v, warp_bits *bits);
void tor_ops_reply(warp_lp *lp, const opt_net *o, tor_view *v, const opt_event *e,
                   warp_bits *bits);

/* tor_ocs.c */
void tor_ocs_enqueue(warp_lp *lp, const opt_net *o, tor_view *v, tor_ph *x, warp_bits *bits);
/* Asks for a circuit to rack d (state NONE): at once when a link is free
 * or an idle circuit can give one up, else d waits for a link. */
void tor_ocs_want(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, warp_bits *bits);
void tor_ocs_answer(warp_lp *lp, const opt_net *o, tor_view *v, const opt_event *e,
                    warp_bits *bits);
void tor_ocs_retry(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, warp_bits *bits);
void tor_ocs_idle(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, uint32_t stamp,
                  warp_bits *bits);
void tor_ocs_tx_free(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, warp_bits *bits);

#endif
