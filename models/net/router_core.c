/* net/router_core.c — the parts of a router both models share
 * (router_core.h): credits, output-port occupancy for adaptive routing and
 * its status reports, routing with lanes, packets and credits onto links,
 * port statistics (forward, reverse, finish) and --sample counts (commit).
 * Invariant: every state write is logged with warp_save, except the sums
 * net_rcore_account leaves to net_rcore_unaccount. Called by router.c and
 * router_iq.c. */
#include <assert.h>
#include <string.h>

#include "net/router_core.h"

size_t net_rcore_port_bytes(const net_model *n)
{
    return (sizeof(net_rcore_port) + (size_t)n->vcs * sizeof(int32_t) + 7) / 8 * 8;
}

size_t net_rcore_view_bytes(const net_model *n) { return (size_t)n->view_slots * sizeof(uint64_t); }

size_t net_rcore_wide_bytes(const net_model *n) { return (size_t)n->max_radix * sizeof(net_rcore_wide); }

void net_rcore_init(const net_model *n, uint64_t router, net_rcore *c)
{
    int32_t radix = n->topo_ops->radix(n->topo, router);
    for (int32_t p = 0; p < radix; p++) {
        uint64_t buf = net_downstream_buffer(n, router, p);
        assert(buf <= NET_VC_BUFFER_MAX && "topology vc_buffer() stays within NET_VC_BUFFER_MAX");
        int32_t b = (int32_t)buf;
        for (int32_t vc = 0; vc < n->vcs; vc++)
            net_rcore_port_at(c, p)->credits[vc] = b;
    }
}

/* What route() gets as router_state: the router's arrays and its number. */
typedef struct occ_ctx {
    const net_model *n;
    const net_rcore *c;
    uint64_t router;
} occ_ctx;

static uint64_t occupancy(const net_model *n, const net_rcore *c, uint64_t router, int32_t port)
{
    int64_t cap = (int64_t)net_downstream_buffer(n, router, port);
    const net_rcore_port *cp = net_rcore_port_at(c, port);
    uint64_t occ = cp->queued;
    for (int32_t vc = 0; vc < n->vcs; vc++) {
        int64_t used = cap - cp->credits[vc];
        if (used > 0)
            occ += (uint64_t)used;
    }
    return occ;
}

uint64_t net_port_occupancy(const void *router_state_ctx, int32_t port)
{
    const occ_ctx *o = router_state_ctx;
    return occupancy(o->n, o->c, o->router, port);
}

uint64_t net_view_occupancy(const void *router_state_ctx, int32_t slot)
{
    const occ_ctx *o = router_state_ctx;
    assert(slot >= 0 && slot < o->n->view_slots && "net_view_occupancy: slot below view_slots()");
    return o->c->view[slot];
}

net_rcore_route net_rcore_route_packet(warp_lp *lp, const net_model *n, net_rcore *c, uint64_t router,
                                       const net_packet *p)
{
    occ_ctx occ = {n, c, router};
    int32_t lanes = n->params.lanes > 0 ? n->params.lanes : 1;
    net_route_in in = {.router = router,
                       .in_port = p->in_port,
                       /* The topology knows classes, not lanes; a packet
                        * fresh from its terminal (no hops yet) is class 0
                        * whatever VC of the injection link it took. */
                       .in_vc = p->hops ? p->vc / lanes : 0,
                       .src = p->src,
                       .dst = p->dst,
                       .flow = p->flow,
                       .hops = p->hops,
                       .aux = {p->aux[0], p->aux[1]},
                       .rng = warp_lp_rng(lp),
                       .router_state = &occ, .occupancy = net_port_occupancy};
    net_route_out r = n->topo_ops->route(n->topo, &in);
    assert(r.port >= 0 && r.port < n->max_radix && r.vc >= 0 && r.vc * lanes < n->vcs &&
           "topology route() returns a port of this router and a VC below vcs()");
    return (net_rcore_route){.port = r.port, .vc = r.vc * lanes, .span = lanes,
                             .aux = {r.aux[0], r.aux[1]}};
}

int32_t net_rcore_pick_vc(const net_model *n, const net_rcore *c, int32_t port, int32_t vc,
                          int32_t span)
{
    const int32_t *cr = net_rcore_port_at(c, port)->credits;
    int32_t best = vc;
    for (int32_t v = vc + 1; v < vc + span; v++)
        if (cr[v] > cr[best])
            best = v;
    return best;
}

void net_rcore_status(warp_lp *lp, const net_model *n, const net_rcore *c, uint64_t router,
                      int32_t port)
{
    if (n->view_slots == 0)
        return;
    net_watcher w[NET_MAX_WATCHERS];
    int32_t k = n->topo_ops->watchers(n->topo, router, port, w, NET_MAX_WATCHERS);
    assert(k >= 0 && k <= NET_MAX_WATCHERS && "topology watchers() fits NET_MAX_WATCHERS");
    if (k == 0)
        return;
    uint64_t occ = occupancy(n, c, router, port);
    for (int32_t i = 0; i < k; i++) {
        assert(w[i].slot >= 0 && w[i].slot < n->view_slots && w[i].delay >= 0 &&
               "topology watchers() name a view slot and a delay >= 0");
        net_event *e = warp_event_new(lp, net_router_lp(n, w[i].router), w[i].delay);
        e->kind = NET_EV_STATUS;
        e->u.status = (net_status){.slot = w[i].slot, .bytes = occ};
        warp_event_send(lp, e);
    }
}

int32_t net_rcore_event(warp_lp *lp, const net_model *n, net_rcore *c, const net_event *e, int save)
{
    if (e->kind == NET_EV_STATUS) {
        uint64_t *slot = &c->view[e->u.status.slot];
        warp_save(lp, slot, sizeof *slot);
        *slot = e->u.status.bytes;
        return -1;
    }
    assert(e->kind == NET_EV_CREDIT && "net_rcore_event: a credit or status event");
    int32_t *cr = &net_rcore_port_at(c, e->u.credit.port)->credits[e->u.credit.vc];
    if (save)
        warp_save(lp, cr, sizeof *cr);
    *cr += (int32_t)e->u.credit.bytes;
    net_rcore_status(lp, n, c, warp_lp_id(lp) - n->nodes, e->u.credit.port);
    return e->u.credit.port;
}

void net_rcore_credit_reverse(net_rcore *c, const net_event *e)
{
    net_rcore_port_at(c, e->u.credit.port)->credits[e->u.credit.vc] -= (int32_t)e->u.credit.bytes;
}

void net_rcore_credit(warp_lp *lp, const net_model *n, uint64_t router, int32_t in_port, int32_t vc,
                      uint32_t bytes, double delay)
{
    net_peer up = n->topo_ops->peer(n->topo, router, in_port);
    warp_lpid dest = up.kind == NET_PEER_ROUTER   ? net_router_lp(n, up.id)
                     : up.kind == NET_PEER_GATEWAY ? up.id
                                                   : net_term_lp(n, up.id);
    net_event *c = warp_event_new(lp, dest, delay + up.latency);
    c->kind = NET_EV_CREDIT;
    c->u.credit.port = up.port;
    c->u.credit.vc = vc;
    c->u.credit.bytes = bytes;
    warp_event_send(lp, c);
}

double net_rcore_credit_delay(const net_model *n, uint64_t router, int32_t in_port, uint32_t size,
                              double ser_out)
{
    uint64_t unit = n->params.credit_unit;
    if (!unit || unit >= size)
        return ser_out;
    double ser_in = size / net_rcore_link(n, router, in_port).bandwidth;
    double lag = ser_out > ser_in ? ser_out - ser_in : 0;
    return (double)unit * (ser_out / size) + lag;
}

double net_rcore_ready(const net_model *n, uint64_t router, const net_packet *p, const net_peer *down,
                       double now)
{
    /* Only when the output is faster, so that equal bandwidths never create
     * wake-ups from rounding. */
    if (n->params.store_forward ||
        !(down->bandwidth > net_rcore_link(n, router, p->in_port).bandwidth))
        return now;
    double t = p->t_tail + n->params.router_delay - p->size / down->bandwidth;
    return t > now ? t : now;
}

double net_rcore_send(warp_lp *lp, const net_model *n, net_rcore *c, uint64_t router, int32_t port,
                      int32_t vc, const net_packet *p, int save, double wait)
{
    net_peer down = n->topo_ops->peer(n->topo, router, port);
    double ser = p->size / down.bandwidth, now = warp_now(lp);
    net_event *e;
    if (down.kind == NET_PEER_ROUTER) {
        int32_t *cr = &net_rcore_port_at(c, port)->credits[vc];
        if (save)
            warp_save(lp, cr, sizeof *cr);
        *cr -= (int32_t)p->size;
        double delay = down.latency + n->params.router_delay + (n->params.store_forward ? ser : 0);
        e = warp_event_new(lp, net_router_lp(n, down.id), delay + wait);
    } else {
        assert((down.kind == NET_PEER_TERMINAL || down.kind == NET_PEER_GATEWAY) &&
               "router: a route leads to a wired port");
        warp_lpid dest = down.kind == NET_PEER_GATEWAY ? down.id : net_term_lp(n, down.id);
        e = warp_event_new(lp, dest, ser + down.latency + wait);
    }
    e->kind = NET_EV_PKT;
    e->u.pkt = *p;
    e->u.pkt.in_port = down.port;
    e->u.pkt.vc = vc;
    e->u.pkt.t_tail = now + wait + ser + down.latency;
    warp_event_send(lp, e);
    return ser;
}

#define QBITS 48
#define QMASK ((UINT64_C(1) << QBITS) - 1)

uint64_t net_rcore_bits(int32_t port, uint64_t queued)
{
    uint64_t q = queued < QMASK ? queued : QMASK;
    return (uint64_t)port << QBITS | q;
}

uint64_t net_rcore_bits_port(uint64_t b) { return b >> QBITS; }

size_t net_rcore_out_bytes(const net_model *n) { return net_sample_router_bytes(&n->sampling); }

/* Adds x to the sum of low word *lo and high word *hi: the low word
 * unlogged (net_rcore_unaccount subtracts it again), a carry logged. */
static void wide_add(warp_lp *lp, uint32_t *lo, uint32_t *hi, uint64_t x)
{
    uint32_t carry = net_wide_add(lo, x);
    if (carry) {
        warp_save(lp, hi, sizeof *hi);
        *hi += carry;
    }
}

/* The packet's link in: whether its tail started after warmup (the link's
 * busy time counts from then), as the forward saw it. */
static int warm_packet(const net_model *n, const net_peer *up, const net_packet *p)
{
    return p->t_tail - p->size / up->bandwidth - up->latency >= n->warmup;
}

void net_rcore_account(warp_lp *lp, const net_model *n, net_rcore *c, uint64_t router,
                       net_rcore_in *in, const net_packet *p, uint64_t b)
{
    int32_t port = (int32_t)net_rcore_bits_port(b);
    net_rcore_port *o = net_rcore_port_at(c, port);
    net_rcore_wide *wo = &c->wide[port], *wi = &c->wide[p->in_port];
    uint64_t q = b & QMASK;
    wide_add(lp, &o->q_samples, &wo->q_samples, 1);
    wide_add(lp, &o->q_sum, &wo->q_sum, q);
    if (q > o->q_max) {
        warp_save(lp, &o->q_max, sizeof o->q_max);
        o->q_max = q < UINT32_MAX ? (uint32_t)q : UINT32_MAX;
        if (q >= UINT32_MAX && q > wo->q_max) {
            warp_save(lp, &wo->q_max, sizeof wo->q_max);
            wo->q_max = q;
        }
    }
    /* The link into in_port: its traffic is accounted where it arrives. */
    net_peer up = net_rcore_link(n, router, p->in_port);
    wide_add(lp, &in->pkts, &wi->pkts, 1);
    wide_add(lp, &in->bytes, &wi->bytes, p->size);
    if (warm_packet(n, &up, p))
        wide_add(lp, &in->warm, &wi->warm, p->size);
}

void net_rcore_unaccount(const net_model *n, net_rcore *c, uint64_t router, net_rcore_in *in,
                         const net_packet *p, uint64_t b)
{
    net_rcore_port *o = net_rcore_port_at(c, (int32_t)net_rcore_bits_port(b));
    o->q_samples--;
    o->q_sum -= (uint32_t)(b & QMASK);
    in->pkts--;
    in->bytes -= p->size;
    net_peer up = net_rcore_link(n, router, p->in_port);
    if (warm_packet(n, &up, p))
        in->warm -= p->size;
}

void net_rcore_commit(warp_lp *lp, void *out, const net_event *e, const net_departure *dep, int ndep)
{
    const net_model *n = warp_model_arg(lp);
    const net_sampling *smp = &n->sampling;
    assert(smp->interval > 0 && "router: a commit handler is installed only with --sample");
    double now = warp_now(lp);
    if (e->kind == NET_EV_PKT)
        net_sample_count(smp, out, now, 1);
    for (int i = 0; i < ndep; i++) {
        net_sample_count(smp, out, now, 0);
        net_sample_dwell(smp, out, (uint32_t)(dep[i].in_port * n->vcs + dep[i].vc), dep[i].arrived,
                         dep[i].left, dep[i].size);
    }
}

uint64_t net_rcore_finish_port(warp_lp *lp, const net_rcore *c, int32_t port, const net_rcore_in *in)
{
    const net_model *n = warp_model_arg(lp);
    uint64_t router = warp_lp_id(lp) - n->nodes;
    const net_rcore_port *o = net_rcore_port_at(c, port);
    const net_rcore_wide *w = &c->wide[port];
    uint64_t pkts = net_wide_value(w->pkts, in->pkts);
    uint64_t samples = net_wide_value(w->q_samples, o->q_samples);
    uint64_t warm = net_wide_value(w->warm, in->warm);
    double *row = n->res->port_rows + (router * n->max_radix + port) * NET_PORT_COLS;
    row[0] = warm ? (double)warm / net_rcore_link(n, router, port).bandwidth : 0;
    row[1] = (double)pkts;
    row[2] = (double)net_wide_value(w->bytes, in->bytes);
    row[3] = samples ? (double)net_wide_value(w->q_sum, o->q_sum) / (double)samples : 0;
    row[4] = (double)(o->q_max < UINT32_MAX ? o->q_max : w->q_max);
    return pkts;
}

void net_rcore_finish(warp_lp *lp, void *out, uint64_t sent, uint64_t recv)
{
    const net_model *n = warp_model_arg(lp);
    net_results *r = n->res;
    r->flight.router_recv += recv;
    r->flight.router_sent += sent;
    if (n->sampling.interval > 0)
        net_sample_router_finish(&n->sampling, out, warp_lp_id(lp) - n->nodes, r);
}
