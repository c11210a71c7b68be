/* net/router.c — the output-queued router LP ([network] router =
 * output-queued): routes each arriving packet once, queues it on its output
 * port per VC, and forwards it when the link is free and the next hop's
 * input buffer has credit for its VC. Ports to terminals and gateways
 * (network.h) never wait for credit. An ideal switch: no head-of-line
 * blocking, unlimited internal speed-up (router_iq.c models the input side).
 * Arbitration: an output port serves its VCs round-robin, starting after the
 * VC it served last; within one VC packets leave in the order they arrived
 * (FIFO over all input ports). A packet holds its input buffer space until
 * its tail has left, then a credit travels back over the input link. For
 * topologies that route on remote information, a watched port's occupancy
 * goes to its watchers whenever it changes (status events).
 * Invariant: an event that writes a port's record logs all of it with one
 * warp_save before its first write there (a few log records of a field
 * each cost more than the bytes); the plain sums outside it (the input
 * port's link statistics, queued_pkts) and a credit that arrives
 * with nothing queued are taken back by router_reverse, which runs before
 * the engine replays the log, so a sum inside a record logged earlier in
 * the event is restored by the log whatever router_reverse did to it. Port
 * statistics are accounted by the arrival (net_rcore_account); commit
 * counts --sample alone. Built by build.c. */
#include <assert.h>
#include <string.h>

#include "net/fifo.h"
#include "net/port.h"
#include "net/router_core.h"

typedef struct rnode {
    net_node node;
    net_packet pkt;    /* in_port/vc: where it sits now */
    double ready;      /* earliest time its head may leave */
    double arrived;    /* it entered this router's input buffer */
    int32_t out_vc;    /* VC at the next hop */
    int32_t pad;
} rnode;

typedef struct rport {
    net_port_clock clk;     /* the output link */
    uint32_t rr;            /* VC to consider first */
    uint32_t pad;
    double ready_at;        /* time of the latest NET_EV_READY scheduled (0: none) */
    uint64_t sent;          /* packets out on this port's link */
    net_rcore_in st;        /* statistics of the link in (its packets too) */
} rport;

/* State layout: header, then max_radix port records, each the port's
 * net_rcore_port (router_core.h), its rport and its vcs output FIFOs (what
 * an event touches of a port together, not in arrays ~radix apart), then
 * the shared view array. */
typedef struct router_state {
    uint64_t queued_pkts;
} router_state;

typedef struct rview {
    router_state *s;
    char *ports;       /* the port records */
    size_t stride, rc; /* bytes per record; of its net_rcore_port */
    net_rcore c;
    int32_t vcs;
} rview;

static size_t record_bytes(const net_model *n)
{
    return net_rcore_port_bytes(n) + sizeof(rport) + (size_t)n->vcs * sizeof(net_fifo);
}

static rview view(const net_model *n, void *state)
{
    rview v;
    v.s = state;
    v.ports = (char *)state + sizeof(router_state);
    v.stride = record_bytes(n);
    v.rc = net_rcore_port_bytes(n);
    char *view = v.ports + (size_t)n->max_radix * v.stride;
    v.c = net_rcore_at(v.ports, v.stride, view, view + net_rcore_view_bytes(n));
    v.vcs = n->vcs;
    return v;
}

static rport *port_at(const rview *v, int32_t p)
{
    return (rport *)(v->ports + (size_t)p * v->stride + v->rc);
}

/* The output FIFO of VC vc at port p. */
static net_fifo *fifo_at(const rview *v, int32_t p, int32_t vc)
{
    return (net_fifo *)(port_at(v, p) + 1) + vc;
}

/* Logs port p's whole record: its net_rcore_port, rport and FIFOs. */
static void save_port(warp_lp *lp, const rview *v, int32_t p)
{
    warp_save(lp, v->ports + (size_t)p * v->stride, v->stride);
}

static size_t router_state_size(const net_model *n)
{
    return sizeof(router_state) + n->max_radix * record_bytes(n) + net_rcore_view_bytes(n) +
           net_rcore_wide_bytes(n);
}

/* Sends the next packet of `port` if its link and a head are ready, else
 * makes sure a wake-up comes. saved: the port's record is logged in this
 * event already. */
static void try_send(warp_lp *lp, const net_model *n, rview *v, int32_t port, net_departure *dep,
                     int saved)
{
    rport *pt = port_at(v, port);
    net_rcore_port *cp = net_rcore_port_at(&v->c, port);
    uint64_t *queued = &cp->queued;
    if (*queued == 0) /* no packet waits: nothing to send or to wake up for */
        return;
    if (!saved)
        save_port(lp, v, port);
    if (!net_port_is_free_log(lp, &pt->clk, port, 1, 0))
        return;
    uint64_t router = warp_lp_id(lp) - n->nodes;
    net_peer down = net_rcore_link(n, router, port);
    double now = warp_now(lp), first_ready = -1;
    rnode *x = NULL;
    int32_t vc = 0;
    for (int32_t k = 0; k < v->vcs; k++) {
        vc = (int32_t)((pt->rr + (uint32_t)k) % (uint32_t)v->vcs);
        rnode *h = (rnode *)fifo_at(v, port, vc)->head;
        if (!h)
            continue;
        if (h->ready > now) {
            if (first_ready < 0 || h->ready < first_ready)
                first_ready = h->ready;
            continue;
        }
        if (down.kind == NET_PEER_ROUTER && cp->credits[h->out_vc] < (int64_t)h->pkt.size)
            continue;
        x = h;
        break;
    }
    if (!x) {
        /* One wake-up per distinct time: skip it when one already comes no later. */
        if (first_ready >= 0 && !(pt->ready_at > now && pt->ready_at <= first_ready)) {
            pt->ready_at = first_ready;
            net_event *r = warp_event_new(lp, warp_lp_id(lp), first_ready - now);
            r->kind = NET_EV_READY;
            r->port = port;
            warp_event_send(lp, r);
        }
        return;
    }
    net_fifo_pop_saved(fifo_at(v, port, vc));
    pt->rr = (uint32_t)(vc + 1) % (uint32_t)v->vcs;
    *queued -= x->pkt.size;
    pt->sent++;
    v->s->queued_pkts--; /* unlogged: router_reverse (dep.valid) */
    double ser = net_rcore_send(lp, n, &v->c, router, port, x->out_vc, &x->pkt, 0, 0);
    net_rcore_credit(lp, n, router, x->pkt.in_port, x->pkt.vc, x->pkt.size,
                     net_rcore_credit_delay(n, router, x->pkt.in_port, x->pkt.size, ser));
    *dep = (net_departure){.arrived = x->arrived,
                           .left = now + ser,
                           .size = x->pkt.size,
                           .in_port = (uint16_t)x->pkt.in_port,
                           .vc = (uint8_t)x->pkt.vc,
                           .valid = 1};
    net_port_take_log(lp, &pt->clk, port, ser, *queued > 0, 0);
    warp_free_on_commit(lp, x);
}

static void arrive(warp_lp *lp, const net_model *n, rview *v, const net_packet *p, warp_bits *bits,
                   net_departure *dep)
{
    uint64_t router = warp_lp_id(lp) - n->nodes;
    net_rcore_route r = net_rcore_route_packet(lp, n, &v->c, router, p);
    net_peer down = net_rcore_link(n, router, r.port);

    rnode *x = warp_alloc(lp, sizeof *x);
    x->pkt = *p;
    x->pkt.aux[0] = r.aux[0];
    x->pkt.aux[1] = r.aux[1];
    if (down.kind == NET_PEER_ROUTER)
        x->pkt.hops++;
    /* Lanes of one class: the one with the most credit now. */
    x->out_vc = net_rcore_pick_vc(n, &v->c, r.port, r.vc, r.span);
    double now = warp_now(lp);
    x->ready = net_rcore_ready(n, router, p, &down, now);
    x->arrived = now;

    save_port(lp, v, r.port); /* queued, its FIFO, and all try_send writes */
    uint64_t *queued = &net_rcore_port_at(&v->c, r.port)->queued;
    *queued += p->size;
    v->s->queued_pkts++;
    net_fifo_push_saved(lp, fifo_at(v, r.port, x->out_vc), &x->node);
    bits->b = net_rcore_bits(r.port, *queued);
    net_rcore_account(lp, n, &v->c, router, &port_at(v, p->in_port)->st, p, bits->b);
    net_rcore_status(lp, n, &v->c, router, r.port);
    try_send(lp, n, v, r.port, dep, 1);
}

static void router_init(warp_lp *lp, void *state)
{
    const net_model *n = warp_model_arg(lp);
    memset(state, 0, router_state_size(n));
    rview v = view(n, state);
    net_rcore_init(n, warp_lp_id(lp) - n->nodes, &v.c);
}

static void router_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    const net_model *n = warp_model_arg(lp);
    net_event *e = msg;
    rview v = view(n, state);
    e->dep = (net_departure){0}; /* all of it: the digest hashes the payload */
    switch (e->kind) {
    case NET_EV_PKT:
        arrive(lp, n, &v, &e->u.pkt, bits, &e->dep);
        break;
    case NET_EV_CREDIT: {
        /* With a packet queued the credit may let it go: log the record
         * before the credit's (unlogged) write, so that the log restores it. */
        int32_t port = e->u.credit.port, waiting = net_rcore_port_at(&v.c, port)->queued > 0;
        if (waiting)
            save_port(lp, &v, port);
        net_rcore_event(lp, n, &v.c, e, 0);
        try_send(lp, n, &v, port, &e->dep, waiting);
        break;
    }
    case NET_EV_STATUS:
        net_rcore_event(lp, n, &v.c, e, 1);
        break;
    case NET_EV_PORT_FREE:
        save_port(lp, &v, e->port);
        net_port_woken_log(lp, &port_at(&v, e->port)->clk, 0);
        try_send(lp, n, &v, e->port, &e->dep, 1);
        break;
    case NET_EV_READY:
        try_send(lp, n, &v, e->port, &e->dep, 0);
        break;
    default:
        assert(!"router: event kind is one a router handles");
    }
}

/* Takes back the unlogged sums of router_forward; the engine replays the
 * log after this runs (see the invariant at the top). */
static void router_reverse(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    const net_model *n = warp_model_arg(lp);
    const net_event *e = msg;
    rview v = view(n, state);
    if (e->kind == NET_EV_PKT) {
        rport *in = port_at(&v, e->u.pkt.in_port);
        net_rcore_unaccount(n, &v.c, warp_lp_id(lp) - n->nodes, &in->st, &e->u.pkt, bits->b);
        v.s->queued_pkts--;
    } else if (e->kind == NET_EV_CREDIT) {
        net_rcore_credit_reverse(&v.c, e);
    }
    if (e->dep.valid)
        v.s->queued_pkts++;
}

static void router_commit(warp_lp *lp, void *out, const void *msg, const warp_bits *bits)
{
    const net_event *e = msg;
    (void)bits;
    net_rcore_commit(lp, out, e, &e->dep, e->dep.valid);
}

static void router_finish(warp_lp *lp, void *state, void *out)
{
    const net_model *n = warp_model_arg(lp);
    rview v = view(n, state);
    uint64_t queued = 0, sent = 0, recv = 0;
    for (int32_t i = 0; i < n->max_radix * n->vcs; i++)
        for (net_node *x = fifo_at(&v, i / n->vcs, i % n->vcs)->head; x; x = x->next) {
            queued++;
            const rnode *k = (const rnode *)x;
            if (n->sampling.interval > 0)
                net_sample_dwell(&n->sampling, out, (uint32_t)(k->pkt.in_port * n->vcs + k->pkt.vc),
                                 k->arrived, n->end, k->pkt.size);
        }
    assert(queued == v.s->queued_pkts && "router: queued_pkts counts the packets in its queues");
    n->res->flight.router_queued += queued;
    for (int32_t p = 0; p < n->max_radix; p++) {
        const rport *pt = port_at(&v, p);
        sent += pt->sent;
        recv += net_rcore_finish_port(lp, &v.c, p, &pt->st);
    }
    net_rcore_finish(lp, out, sent, recv);
}

void net_router_type(net_model *n, warp_lp_type *t)
{
    if (n->params.input_queued) {
        net_router_iq_type(n, t);
        return;
    }
    memset(t, 0, sizeof *t);
    t->name = "router";
    t->state_size = router_state_size(n);
    t->out_size = net_rcore_out_bytes(n);
    t->save = WARP_SAVE_NONE;
    t->init = router_init;
    t->forward = router_forward;
    t->reverse = router_reverse;
    t->commit = n->sampling.interval > 0 ? router_commit : NULL; /* commit counts --sample alone */
    t->finish = router_finish;
    t->event_name = net_event_name;
}
