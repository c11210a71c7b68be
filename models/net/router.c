/* net/router.c — the router LP: routes each arriving packet once, queues it
 * on its output port per VC, and forwards it when the link is free and the
 * next hop's input buffer has credit for its VC. Ports to terminals and
 * gateways (network.h) never wait for credit.
 * Arbitration: an output port serves its VCs round-robin, starting after the
 * VC it served last; within one VC packets leave in the order they arrived
 * (FIFO over all input ports). A packet holds its input buffer space until
 * its tail has left, then a credit travels back over the input link. For
 * topologies that route on remote information, a watched port's occupancy
 * goes to its watchers whenever it changes (status events).
 * Invariant: every state write is logged with warp_save (no reverse
 * handler); statistics are written only by commit. Built by model.c. */
#include <assert.h>
#include <string.h>

#include "net/fifo.h"
#include "net/net_impl.h"
#include "net/port.h"

typedef struct rnode {
    net_node node;
    net_packet pkt;    /* in_port/vc: where it sits now; out_vc: VC at the next hop */
    double ready;      /* earliest time its head may leave */
    double arrived;    /* it entered this router's input buffer */
    int32_t out_vc;
    int32_t pad;
} rnode;

typedef struct rport {
    net_port_clock clk;     /* the output link */
    uint32_t rr;            /* VC to consider first */
    uint32_t pad;
    double ready_at;        /* time of the latest NET_EV_READY scheduled (0: none) */
    uint64_t queued_bytes;  /* bytes in this port's output queues */
    uint64_t sent, recv;    /* packets out on / in from this port's link */
} rport;

/* State layout: header, then max_radix rport, then max_radix*vcs fifo, then
 * max_radix*vcs credits (bytes free downstream), then view_slots remote
 * occupancies. */
typedef struct router_state {
    uint64_t queued_pkts;
} router_state;

typedef struct rview {
    router_state *s;
    rport *ports;
    net_fifo *q;
    int64_t *credits;
    uint64_t *view;
    int32_t vcs;
} rview;

static rview view(const net_model *n, void *state)
{
    rview v;
    v.s = state;
    v.ports = (rport *)((char *)state + sizeof(router_state));
    v.q = (net_fifo *)(v.ports + n->max_radix);
    v.credits = (int64_t *)(v.q + (size_t)n->max_radix * n->vcs);
    v.view = (uint64_t *)(v.credits + (size_t)n->max_radix * n->vcs);
    v.vcs = n->vcs;
    return v;
}

static size_t router_state_size(const net_model *n)
{
    size_t pv = (size_t)n->max_radix * n->vcs;
    return sizeof(router_state) + n->max_radix * sizeof(rport) + pv * sizeof(net_fifo) +
           pv * sizeof(int64_t) + (size_t)n->view_slots * sizeof(uint64_t);
}

/* The router's state pointer is handed to routing functions as opaque; the
 * network's description is reached through a header copy we keep there. */
typedef struct occ_ctx {
    const net_model *n;
    void *state;
    uint64_t router;
} occ_ctx;

/* Occupancy of output port `port` (see topology.h) of the router whose
 * state is v. */
static uint64_t occupancy(const net_model *n, const rview *v, uint64_t router, int32_t port)
{
    int64_t cap = (int64_t)net_downstream_buffer(n, router, port);
    uint64_t occ = v->ports[port].queued_bytes;
    for (int32_t vc = 0; vc < v->vcs; vc++) {
        int64_t used = cap - v->credits[port * v->vcs + vc];
        if (used > 0)
            occ += (uint64_t)used;
    }
    return occ;
}

uint64_t net_port_occupancy(const void *router_state_ctx, int32_t port)
{
    const occ_ctx *c = router_state_ctx;
    rview v = view(c->n, c->state);
    return occupancy(c->n, &v, c->router, port);
}

uint64_t net_view_occupancy(const void *router_state_ctx, int32_t slot)
{
    const occ_ctx *c = router_state_ctx;
    assert(slot >= 0 && slot < c->n->view_slots && "net_view_occupancy: slot below view_slots()");
    return view(c->n, c->state).view[slot];
}

/* Tells the watchers of `port` (if any) its occupancy after a change. */
static void report_status(warp_lp *lp, const net_model *n, const rview *v, uint64_t router,
                          int32_t port)
{
    if (n->view_slots == 0)
        return;
    net_watcher w[NET_MAX_WATCHERS];
    int32_t k = n->topo_ops->watchers(n->topo, router, port, w, NET_MAX_WATCHERS);
    assert(k >= 0 && k <= NET_MAX_WATCHERS && "topology watchers() fits NET_MAX_WATCHERS");
    if (k == 0)
        return;
    uint64_t occ = occupancy(n, v, router, port);
    for (int32_t i = 0; i < k; i++) {
        assert(w[i].slot >= 0 && w[i].slot < n->view_slots && w[i].delay >= 0 &&
               "topology watchers() name a view slot and a delay >= 0");
        net_event *e = warp_event_new(lp, net_router_lp(n, w[i].router), w[i].delay);
        e->kind = NET_EV_STATUS;
        e->u.status = (net_status){.slot = w[i].slot, .bytes = occ};
        warp_event_send(lp, e);
    }
}

static void send_credit(warp_lp *lp, const net_model *n, uint64_t router, const rnode *x,
                        double delay)
{
    net_peer up = n->topo_ops->peer(n->topo, router, x->pkt.in_port);
    warp_lpid dest = up.kind == NET_PEER_ROUTER   ? net_router_lp(n, up.id)
                     : up.kind == NET_PEER_GATEWAY ? up.id
                                                   : net_term_lp(n, up.id);
    net_event *c = warp_event_new(lp, dest, delay + up.latency);
    c->kind = NET_EV_CREDIT;
    c->u.credit.port = up.port;
    c->u.credit.vc = x->pkt.vc;
    c->u.credit.bytes = x->pkt.size;
    warp_event_send(lp, c);
}

static void try_send(warp_lp *lp, const net_model *n, rview *v, int32_t port, net_departure *dep)
{
    rport *pt = &v->ports[port];
    if (!net_port_is_free(lp, &pt->clk, port, pt->queued_bytes > 0))
        return;
    uint64_t router = warp_lp_id(lp) - n->nodes;
    net_peer down = n->topo_ops->peer(n->topo, router, port);
    double now = warp_now(lp), first_ready = -1;
    rnode *x = NULL;
    int32_t vc = 0;
    for (int32_t k = 0; k < v->vcs; k++) {
        vc = (int32_t)((pt->rr + (uint32_t)k) % (uint32_t)v->vcs);
        rnode *h = (rnode *)v->q[port * v->vcs + vc].head;
        if (!h)
            continue;
        if (h->ready > now) {
            if (first_ready < 0 || h->ready < first_ready)
                first_ready = h->ready;
            continue;
        }
        if (down.kind == NET_PEER_ROUTER && v->credits[port * v->vcs + h->out_vc] < h->pkt.size)
            continue;
        x = h;
        break;
    }
    if (!x) {
        /* One wake-up per distinct time: skip it when one already comes no later. */
        if (first_ready >= 0 && !(pt->ready_at > now && pt->ready_at <= first_ready)) {
            warp_save(lp, &pt->ready_at, sizeof pt->ready_at);
            pt->ready_at = first_ready;
            net_event *r = warp_event_new(lp, warp_lp_id(lp), first_ready - now);
            r->kind = NET_EV_READY;
            r->port = port;
            warp_event_send(lp, r);
        }
        return;
    }
    net_fifo_pop(lp, &v->q[port * v->vcs + vc]);
    warp_save(lp, pt, sizeof *pt);
    warp_save(lp, v->s, sizeof *v->s);
    pt->rr = (uint32_t)(vc + 1) % (uint32_t)v->vcs;
    pt->queued_bytes -= x->pkt.size;
    pt->sent++;
    v->s->queued_pkts--;
    double ser = x->pkt.size / down.bandwidth;

    net_event *e;
    if (down.kind == NET_PEER_ROUTER) {
        int64_t *cr = &v->credits[port * v->vcs + x->out_vc];
        warp_save(lp, cr, sizeof *cr);
        *cr -= x->pkt.size;
        double delay = down.latency + n->params.router_delay + (n->params.store_forward ? ser : 0);
        e = warp_event_new(lp, net_router_lp(n, down.id), delay);
    } else {
        assert((down.kind == NET_PEER_TERMINAL || down.kind == NET_PEER_GATEWAY) &&
               "router: a route leads to a wired port");
        warp_lpid dest = down.kind == NET_PEER_GATEWAY ? down.id : net_term_lp(n, down.id);
        e = warp_event_new(lp, dest, ser + down.latency);
    }
    e->kind = NET_EV_PKT;
    e->u.pkt = x->pkt;
    e->u.pkt.in_port = down.port;
    e->u.pkt.vc = x->out_vc;
    e->u.pkt.t_tail = now + ser + down.latency;
    warp_event_send(lp, e);

    send_credit(lp, n, router, x, ser);
    *dep = (net_departure){.arrived = x->arrived,
                           .left = now + ser,
                           .size = x->pkt.size,
                           .in_port = (uint16_t)x->pkt.in_port,
                           .vc = (uint8_t)x->pkt.vc,
                           .valid = 1};
    net_port_take(lp, &pt->clk, port, ser, pt->queued_bytes > 0);
    warp_free_on_commit(lp, x);
}

/* The facts commit needs about a routed packet, kept in the event's bits:
 * output port (high 16 bits) and its queue bytes after the packet joined. */
#define QBITS 48

static void arrive(warp_lp *lp, const net_model *n, rview *v, void *state, const net_packet *p,
                   warp_bits *bits, net_departure *dep)
{
    uint64_t router = warp_lp_id(lp) - n->nodes;
    occ_ctx occ = {n, state, router};
    net_route_in in = {.router = router,
                       .in_port = p->in_port,
                       .in_vc = p->vc,
                       .src = p->src,
                       .dst = p->dst,
                       .flow = p->flow,
                       .hops = p->hops,
                       .aux = {p->aux[0], p->aux[1]},
                       .rng = warp_lp_rng(lp),
                       .router_state = &occ};
    net_route_out r = n->topo_ops->route(n->topo, &in);
    assert(r.port >= 0 && r.port < n->max_radix && r.vc >= 0 && r.vc < n->vcs &&
           "topology route() returns a port of this router and a VC below vcs()");
    net_peer down = n->topo_ops->peer(n->topo, router, r.port);

    rnode *x = warp_alloc(lp, sizeof *x);
    x->pkt = *p;
    x->pkt.aux[0] = r.aux[0];
    x->pkt.aux[1] = r.aux[1];
    if (down.kind == NET_PEER_ROUTER)
        x->pkt.hops++;
    x->out_vc = r.vc;
    double now = warp_now(lp);
    x->ready = now;
    x->arrived = now;
    /* Cut-through from a slower link into a faster one: the packet may not
     * finish leaving before its tail has arrived (+ the router delay). Only
     * then, so that equal bandwidths never create wake-ups from rounding. */
    if (!n->params.store_forward &&
        down.bandwidth > n->topo_ops->peer(n->topo, router, p->in_port).bandwidth) {
        double t = p->t_tail + n->params.router_delay - p->size / down.bandwidth;
        if (t > now)
            x->ready = t;
    }

    rport *in_pt = &v->ports[p->in_port], *out_pt = &v->ports[r.port];
    warp_save(lp, &in_pt->recv, sizeof in_pt->recv);
    in_pt->recv++;
    warp_save(lp, &out_pt->queued_bytes, sizeof out_pt->queued_bytes);
    out_pt->queued_bytes += p->size;
    warp_save(lp, v->s, sizeof *v->s);
    v->s->queued_pkts++;
    net_fifo_push(lp, &v->q[r.port * v->vcs + r.vc], &x->node);
    uint64_t q = out_pt->queued_bytes < (UINT64_C(1) << QBITS) ? out_pt->queued_bytes
                                                               : (UINT64_C(1) << QBITS) - 1;
    bits->b = (uint64_t)r.port << QBITS | q;
    report_status(lp, n, v, router, r.port);
    try_send(lp, n, v, r.port, dep);
}

static void router_init(warp_lp *lp, void *state)
{
    const net_model *n = warp_model_arg(lp);
    memset(state, 0, router_state_size(n));
    rview v = view(n, state);
    uint64_t router = warp_lp_id(lp) - n->nodes;
    int32_t radix = n->topo_ops->radix(n->topo, router);
    for (int32_t p = 0; p < radix; p++) {
        int64_t b = (int64_t)net_downstream_buffer(n, router, p);
        for (int32_t vc = 0; vc < n->vcs; vc++)
            v.credits[p * n->vcs + vc] = b;
    }
}

static void router_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    const net_model *n = warp_model_arg(lp);
    net_event *e = msg;
    rview v = view(n, state);
    e->dep = (net_departure){0}; /* all of it: the digest hashes the payload */
    switch (e->kind) {
    case NET_EV_PKT:
        arrive(lp, n, &v, state, &e->u.pkt, bits, &e->dep);
        break;
    case NET_EV_CREDIT: {
        int64_t *cr = &v.credits[e->u.credit.port * v.vcs + e->u.credit.vc];
        warp_save(lp, cr, sizeof *cr);
        *cr += e->u.credit.bytes;
        report_status(lp, n, &v, warp_lp_id(lp) - n->nodes, e->u.credit.port);
        try_send(lp, n, &v, e->u.credit.port, &e->dep);
        break;
    }
    case NET_EV_STATUS: {
        uint64_t *slot = &v.view[e->u.status.slot];
        warp_save(lp, slot, sizeof *slot);
        *slot = e->u.status.bytes;
        break;
    }
    case NET_EV_PORT_FREE:
        net_port_woken(lp, &v.ports[e->port].clk);
        try_send(lp, n, &v, e->port, &e->dep);
        break;
    case NET_EV_READY:
        try_send(lp, n, &v, e->port, &e->dep);
        break;
    default:
        assert(!"router: event kind is one a router handles");
    }
}

static void router_commit(warp_lp *lp, void *out, const void *msg, const warp_bits *bits)
{
    const net_event *e = msg;
    const net_model *n = warp_model_arg(lp);
    const net_sampling *smp = &n->sampling;
    if (smp->interval > 0) {
        void *area = (net_port_out *)out + n->max_radix;
        double now = warp_now(lp);
        if (e->kind == NET_EV_PKT)
            net_sample_count(smp, area, now, 1);
        if (e->dep.valid) {
            net_sample_count(smp, area, now, 0);
            net_sample_dwell(smp, area, (uint32_t)(e->dep.in_port * n->vcs + e->dep.vc),
                             e->dep.arrived, e->dep.left, e->dep.size);
        }
    }
    if (e->kind != NET_EV_PKT)
        return;
    net_port_out *o = (net_port_out *)out + (bits->b >> QBITS);
    uint64_t q = bits->b & ((UINT64_C(1) << QBITS) - 1);
    o->q_samples++;
    o->q_sum += q;
    if (q > o->q_max)
        o->q_max = q;
    /* The link into in_port: its traffic is accounted where it arrives. */
    const net_packet *p = &e->u.pkt;
    net_port_out *in = (net_port_out *)out + p->in_port;
    net_peer up = n->topo_ops->peer(n->topo, warp_lp_id(lp) - n->nodes, p->in_port);
    double ser = p->size / up.bandwidth;
    if (p->t_tail - ser - up.latency >= n->warmup)
        in->busy_ns += ser;
    in->pkts++;
    in->bytes += p->size;
}

static void router_finish(warp_lp *lp, void *state, void *out)
{
    const net_model *n = warp_model_arg(lp);
    net_results *r = n->res;
    rview v = view(n, state);
    uint64_t router = warp_lp_id(lp) - n->nodes;
    uint64_t queued = 0;
    void *area = (net_port_out *)out + n->max_radix;
    for (int32_t i = 0; i < n->max_radix * n->vcs; i++)
        for (net_node *x = v.q[i].head; x; x = x->next) {
            queued++;
            const rnode *k = (const rnode *)x;
            if (n->sampling.interval > 0)
                net_sample_dwell(&n->sampling, area, (uint32_t)(k->pkt.in_port * n->vcs + k->pkt.vc),
                                 k->arrived, n->end, k->pkt.size);
        }
    assert(queued == v.s->queued_pkts && "router: queued_pkts counts the packets in its queues");
    r->flight.router_queued += queued;
    const net_port_out *po = out;
    for (int32_t p = 0; p < n->max_radix; p++) {
        r->flight.router_recv += v.ports[p].recv;
        r->flight.router_sent += v.ports[p].sent;
        double *row = r->port_rows + (router * n->max_radix + p) * NET_PORT_COLS;
        row[0] = po[p].busy_ns;
        row[1] = (double)po[p].pkts;
        row[2] = (double)po[p].bytes;
        row[3] = po[p].q_samples ? (double)po[p].q_sum / (double)po[p].q_samples : 0;
        row[4] = (double)po[p].q_max;
    }
    if (n->sampling.interval > 0)
        net_sample_router_finish(&n->sampling, area, router, r);
}

void net_router_type(net_model *n, warp_lp_type *t)
{
    memset(t, 0, sizeof *t);
    t->name = "router";
    t->state_size = router_state_size(n);
    t->out_size = (size_t)n->max_radix * sizeof(net_port_out) + net_sample_router_bytes(&n->sampling);
    t->save = WARP_SAVE_NONE;
    t->init = router_init;
    t->forward = router_forward;
    t->commit = router_commit;
    t->finish = router_finish;
    t->event_name = net_event_name;
}
