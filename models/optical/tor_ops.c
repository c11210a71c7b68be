/* optical/tor_ops.c — a ToR's sending over the optical packet switch: one
 * photonic packet at a time on its OPS link; a packet joins the
 * retransmission buffer when first sent (only while the buffer holds fewer
 * than tor_buffer) and leaves it on its ACK; a NACKed one is resent before
 * any newer packet, oldest first, as soon as the link is free.
 * Invariant: ops_buf is in the order packets were formed (first sends go in
 * that order), so its first NACKed record is the oldest. Called by tor.c. */
#include "optical/tor.h"

static int can_send(const opt_net *o, const tor_state *s)
{
    return s->nacked > 0 || (s->ops_new.head && s->buffered < o->tor_buffer);
}

void tor_ops_enqueue(warp_lp *lp, const opt_net *o, tor_view *v, tor_ph *x, warp_bits *bits)
{
    net_fifo_push(lp, &v->s->ops_new, &x->node);
    warp_save(lp, &v->s->ops_waiting, sizeof v->s->ops_waiting);
    v->s->ops_waiting++;
    tor_ops_try(lp, o, v, bits);
}

/* Sends the oldest NACKed packet, else the next new one, when the link is
 * free: its head reaches the OPS after the ToR's delay and the cable. */
void tor_ops_try(warp_lp *lp, const opt_net *o, tor_view *v, warp_bits *bits)
{
    tor_state *s = v->s;
    if (!can_send(o, s) || !net_port_is_free(lp, &s->ops_tx, TOR_PORT_OPS, 1))
        return;
    tor_ph *x;
    warp_save(lp, s, sizeof *s);
    if (s->nacked) {
        net_node *k = s->ops_buf.head;
        while (!((tor_ph *)k)->nacked)
            k = k->next;
        x = (tor_ph *)k;
        warp_save(lp, &x->nacked, sizeof x->nacked);
        x->nacked = 0;
        s->nacked--;
        bits->b |= TOR_BIT_OPS_RESENT;
    } else {
        x = (tor_ph *)net_fifo_pop(lp, &s->ops_new);
        s->ops_waiting--;
        net_fifo_push_old(lp, &s->ops_buf, &x->node);
        s->buffered++;
        bits->b |= TOR_BIT_OPS_SENT;
    }
    double conv = opt_tor_delay(o, x->ph.bytes), ser = (double)x->ph.bytes / o->optical_bw;
    uint64_t d = opt_rack_of(o, x->ph.dst);
    opt_event *e = opt_event_new(lp, opt_ops_lp(o, d), conv + o->cable, OPT_EV_OPS_HEAD);
    e->src = v->rack;
    e->dst = d;
    e->u.ph = x->ph;
    warp_event_send(lp, e);
    net_port_take(lp, &s->ops_tx, TOR_PORT_OPS, conv + ser, can_send(o, s));
}

/* An ACK frees the packet's place in the buffer; a NACK marks it for resending. */
void tor_ops_reply(warp_lp *lp, const opt_net *o, tor_view *v, const opt_event *e,
                   warp_bits *bits)
{
    tor_state *s = v->s;
    net_node *prev = NULL, *k = s->ops_buf.head;
    while (k && ((tor_ph *)k)->ph.id != e->u.ph.id)
        prev = k, k = k->next;
    tor_ph *x = (tor_ph *)k;
    /* A reply answers a packet in flight, except in an optimistic run's
     * speculation (its send rolled back, its cancellation on the way). */
    if (!x || x->nacked)
        return;
    warp_save(lp, s, sizeof *s);
    if (e->flag) {
        net_fifo_unlink(lp, &s->ops_buf, prev, k);
        warp_free_on_commit(lp, x);
        s->buffered--;
    } else {
        warp_save(lp, &x->nacked, sizeof x->nacked);
        x->nacked = 1;
        s->nacked++;
    }
    tor_ops_try(lp, o, v, bits);
}
