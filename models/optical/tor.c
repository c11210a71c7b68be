/* optical/tor.c — the top-of-rack switch (ToR) LP: a gateway on its rack
 * switch (network.h) that assembles the packets of each server into
 * photonic packets, chooses each one's path (OPS or OCS, [optical] path),
 * and hands photonic packets arriving from the optics back to the rack
 * switch piece by piece. Invariant: every write is logged with warp_save;
 * statistics are written only by the commit handler, from the event's bits
 * and payload. Built by optical.c. */
#include <assert.h>
#include <string.h>

#include "optical/tor.h"

static size_t tor_state_size(const opt_net *o)
{
    return sizeof(tor_state) + o->racks.spr * sizeof(tor_slot) + o->racks.racks * sizeof(tor_circuit);
}

static tor_view view(const opt_net *o, warp_lp *lp, void *state)
{
    tor_view v;
    v.s = state;
    v.slots = (tor_slot *)(v.s + 1);
    v.c = (tor_circuit *)(v.slots + o->racks.spr);
    v.rack = warp_lp_id(lp) - o->tor0;
    return v;
}

/* Hands the head photonic packet's next piece to the rack switch when the
 * link is free and the switch has credit for it. */
static void try_egress(warp_lp *lp, const opt_net *o, tor_view *v)
{
    tor_state *s = v->s;
    if (!s->egress.head || !net_port_is_free(lp, &s->link, TOR_PORT_EGRESS, 1))
        return;
    tor_ph *x = (tor_ph *)s->egress.head;
    uint32_t index = x->ph.first + x->next;
    uint64_t off = (uint64_t)index * o->packet_size;
    uint64_t left = x->ph.msg.bytes - off;
    uint32_t size = (uint32_t)(left < o->packet_size ? left : o->packet_size);
    if (s->credits < (int64_t)size)
        return;
    warp_save(lp, s, sizeof *s);
    s->credits -= size;
    s->gw_sent++;
    net_packet p = {.msg = x->ph.msg,
                    .src = x->ph.src,
                    .dst = x->ph.dst,
                    .index = index,
                    .count = x->ph.count,
                    .size = size,
                    .path = x->ph.path};
    double ser = net_fabric_inject(lp, o->n, v->rack, (int32_t)o->racks.spr, &p);
    if (x->next + 1 == x->ph.pieces) {
        net_fifo_pop(lp, &s->egress);
        warp_free_on_commit(lp, x);
    } else {
        warp_save(lp, &x->next, sizeof x->next);
        x->next++;
    }
    net_port_take(lp, &s->link, TOR_PORT_EGRESS, ser, s->egress.head != NULL);
}

/* Sends a formed photonic packet on its way (the path rule of README.md). */
static void dispatch(warp_lp *lp, const opt_net *o, tor_view *v, tor_ph *x, warp_bits *bits)
{
    uint64_t d = opt_rack_of(o, x->ph.dst);
    uint32_t path = o->policy == OPT_USE_OPS   ? OPT_PATH_OPS
                    : o->policy == OPT_USE_OCS ? OPT_PATH_OCS
                    : v->c[d].state == CIRCUIT_UP ? OPT_PATH_OCS
                                                  : OPT_PATH_OPS;
    x->ph.path = path;
    bits->b |= path == OPT_PATH_OPS ? TOR_BIT_FORMED_OPS : TOR_BIT_FORMED_OCS;
    if (o->policy == OPT_USE_HYBRID && x->ph.first == 0 && x->ph.msg.bytes >= o->ocs_threshold &&
        v->c[d].state == CIRCUIT_NONE)
        tor_ocs_want(lp, o, v, d, bits);
    if (path == OPT_PATH_OPS)
        tor_ops_enqueue(lp, o, v, x, bits);
    else
        tor_ocs_enqueue(lp, o, v, x, bits);
}

/* A packet from the rack switch: adds it to its server's photonic packet,
 * which is formed when it holds `group` packets or the message's last. */
static void ingress(warp_lp *lp, const opt_net *o, tor_view *v, const net_packet *p,
                    warp_bits *bits)
{
    assert(opt_rack_of(o, p->src) == v->rack && opt_rack_of(o, p->dst) != v->rack &&
           "ToR: the rack switch sends it only its own servers' packets for other racks");
    tor_slot *sl = &v->slots[p->src % o->racks.spr];
    warp_save(lp, &v->s->gw_recv, sizeof v->s->gw_recv);
    v->s->gw_recv++;
    warp_save(lp, sl, sizeof *sl);
    /* A server's packets arrive in order (one FIFO in the rack switch),
     * except in an optimistic run's speculation, which is undone: no
     * check here, the piece is counted either way. */
    if (sl->got == 0)
        sl->first = p->index;
    sl->got++;
    sl->bytes += p->size;
    uint32_t group = o->group ? o->group : p->count;
    if (sl->got < group && p->index + 1 < p->count)
        return;
    tor_ph *x = warp_alloc(lp, sizeof *x);
    memset(x, 0, sizeof *x);
    x->ph.msg = p->msg;
    x->ph.src = p->src;
    x->ph.dst = p->dst;
    warp_save(lp, &v->s->next_id, sizeof v->s->next_id);
    x->ph.id = v->s->next_id++;
    x->ph.bytes = sl->bytes;
    x->ph.first = sl->first;
    x->ph.pieces = sl->got;
    x->ph.count = p->count;
    x->ph.t_formed = warp_now(lp);
    sl->got = 0;
    sl->bytes = 0;
    dispatch(lp, o, v, x, bits);
}

/* A photonic packet from the optics, for this rack's servers. */
static void arrive(warp_lp *lp, const opt_net *o, tor_view *v, const opt_photonic *ph)
{
    tor_ph *x = warp_alloc(lp, sizeof *x);
    memset(x, 0, sizeof *x);
    x->ph = *ph;
    net_fifo_push(lp, &v->s->egress, &x->node);
    try_egress(lp, o, v);
}

static void tor_init(warp_lp *lp, void *state)
{
    const opt_net *o = net_network_of(warp_model_arg(lp));
    memset(state, 0, tor_state_size(o));
    tor_state *s = state;
    s->credits = (int64_t)o->vc_buffer;
}

static void port_free(warp_lp *lp, const opt_net *o, tor_view *v, int32_t port, warp_bits *bits)
{
    if (port == TOR_PORT_EGRESS) {
        net_port_woken(lp, &v->s->link);
        try_egress(lp, o, v);
    } else if (port == TOR_PORT_OPS) {
        net_port_woken(lp, &v->s->ops_tx);
        tor_ops_try(lp, o, v, bits);
    } else {
        tor_ocs_tx_free(lp, o, v, (uint64_t)(port - TOR_PORT_CIRCUIT), bits);
    }
}

static void tor_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    const opt_net *o = net_network_of(warp_model_arg(lp));
    opt_msg *m = msg;
    tor_view v = view(o, lp, state);
    switch (m->net.kind) {
    case NET_EV_PKT:
        ingress(lp, o, &v, &m->net.u.pkt, bits);
        break;
    case NET_EV_CREDIT:
        warp_save(lp, &v.s->credits, sizeof v.s->credits);
        v.s->credits += m->net.u.credit.bytes;
        try_egress(lp, o, &v);
        break;
    case NET_EV_PORT_FREE:
        port_free(lp, o, &v, m->net.port, bits);
        break;
    case OPT_EV_PHOTONIC:
        arrive(lp, o, &v, &m->opt.u.ph);
        break;
    case OPT_EV_OPS_REPLY:
        tor_ops_reply(lp, o, &v, &m->opt, bits);
        break;
    case OPT_EV_OCS_ANSWER:
        tor_ocs_answer(lp, o, &v, &m->opt, bits);
        break;
    case OPT_EV_OCS_RETRY:
        tor_ocs_retry(lp, o, &v, m->opt.dst, bits);
        break;
    case OPT_EV_OCS_IDLE:
        tor_ocs_idle(lp, o, &v, m->opt.dst, m->opt.stamp, bits);
        break;
    default:
        assert(!"ToR: event kind is one a ToR handles");
    }
    bits->b |= (uint64_t)v.s->buffered << 32;
}

static void tor_commit(warp_lp *lp, void *out, const void *msg, const warp_bits *bits)
{
    opt_results *r = out;
    const opt_msg *m = msg;
    r->formed[OPT_PATH_OPS] += (bits->b & TOR_BIT_FORMED_OPS) != 0;
    r->formed[OPT_PATH_OCS] += (bits->b & TOR_BIT_FORMED_OCS) != 0;
    r->ops_sent += (bits->b & TOR_BIT_OPS_SENT) != 0;
    r->ops_resent += (bits->b & TOR_BIT_OPS_RESENT) != 0;
    r->ocs_sent += (bits->b & TOR_BIT_OCS_SENT) != 0;
    r->ocs_requests += (bits->b >> TOR_REQUEST_SHIFT) & 0xff;
    if (bits->b >> 32 > r->buffer_max)
        r->buffer_max = bits->b >> 32;
    if (bits->b & (TOR_BIT_RELEASE_IDLE | TOR_BIT_RELEASE_CAPACITY)) {
        r->ocs_release_idle += (bits->b & TOR_BIT_RELEASE_IDLE) != 0;
        r->ocs_release_capacity += (bits->b & TOR_BIT_RELEASE_CAPACITY) != 0;
        r->circuit_q += net_lat_q(warp_now(lp));
    }
    if (m->net.kind == OPT_EV_OPS_REPLY) {
        r->ops_acks += m->opt.flag != 0;
        r->ops_nacks += m->opt.flag == 0;
    } else if (m->net.kind == OPT_EV_OCS_ANSWER) {
        r->ocs_setups += m->opt.flag != 0;
        r->ocs_refusals += m->opt.flag == 0;
        if (m->opt.flag)
            r->circuit_q -= net_lat_q(warp_now(lp)); /* the release adds its time back */
    } else if (m->net.kind == OPT_EV_PHOTONIC) {
        const opt_photonic *ph = &m->opt.u.ph;
        r->arrived[ph->path]++;
        r->tor_lat_q[ph->path] += net_lat_q(warp_now(lp) - ph->t_formed);
    }
}

static uint64_t fifo_length(const net_fifo *q)
{
    uint64_t k = 0;
    for (const net_node *x = q->head; x; x = x->next)
        k++;
    return k;
}

static void tor_finish(warp_lp *lp, void *state, void *out)
{
    const opt_net *o = net_network_of(warp_model_arg(lp));
    tor_view v = view(o, lp, state);
    opt_results *r = out;
    assert(fifo_length(&v.s->ops_new) == v.s->ops_waiting && fifo_length(&v.s->ops_buf) == v.s->buffered &&
           "ToR: the OPS counters count the packets in their lists");
    r->tor_waiting += fifo_length(&v.s->egress) + v.s->ops_waiting + v.s->buffered;
    for (uint64_t d = 0; d < o->racks.racks; d++) {
        const tor_circuit *c = &v.c[d];
        assert(fifo_length(&c->q) == c->queued && "ToR: a circuit's count is its queue's length");
        r->tor_waiting += c->queued;
        if (c->state == CIRCUIT_UP)
            r->circuit_q += net_lat_q(warp_end(lp)); /* its grant subtracted its time */
    }
    opt_results_add(o->res, r);
    net_gateway_results(lp, v.s->gw_recv, v.s->gw_sent);
}

void opt_tor_type(opt_net *o, warp_lp_type *t)
{
    memset(t, 0, sizeof *t);
    t->name = "tor";
    t->state_size = tor_state_size(o);
    t->out_size = sizeof(opt_results);
    t->save = WARP_SAVE_NONE;
    t->init = tor_init;
    t->forward = tor_forward;
    t->commit = tor_commit;
    t->finish = tor_finish;
    t->event_name = opt_event_name;
}
