/* optical/tor_ocs.c — a ToR's circuits through the optical circuit switch.
 * Photonic packets for rack d queue in d's circuit queue (never dropped);
 * with no circuit the ToR asks the control plane for one, holding one of
 * its ocs_links links for it from the request on. Policy (README.md):
 * a link whose circuit has nothing to send is given up at once when
 * another destination waits for a link with packets queued (capacity),
 * else after ocs_idle without a send (idle); a refused request is retried
 * after retry_delay and keeps its link meanwhile; a freed link goes to a
 * waiting destination with packets queued before one without (a hybrid
 * ToR's wish for a circuit), each in the order they started waiting.
 * Invariant: links_used counts the circuits REQUESTED, REFUSED or UP;
 * waiting counts those WAITING. */
#include <assert.h>

#include "optical/tor.h"

static void request(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, warp_bits *bits)
{
    tor_circuit *c = &v->c[d];
    bits->b += UINT64_C(1) << TOR_REQUEST_SHIFT;
    warp_save(lp, &c->state, sizeof c->state);
    c->state = CIRCUIT_REQUESTED;
    opt_event *e = opt_event_new(lp, o->ocs_lp, o->ocs_signal, OPT_EV_OCS_REQUEST);
    e->src = v->rack;
    e->dst = d;
    warp_event_send(lp, e);
}

/* Takes a link for d (one is free) and asks for its circuit. */
static void take_link(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, warp_bits *bits)
{
    warp_save(lp, &v->s->links_used, sizeof v->s->links_used);
    v->s->links_used++;
    request(lp, o, v, d, bits);
}

/* The waiting destination to get the next free link: one with packets
 * queued before one without (a hybrid ToR's wish), then the one waiting
 * longest, then the lowest rack; -1 when none waits. */
static int64_t first_waiting(const opt_net *o, const tor_view *v)
{
    int64_t best = -1;
    for (uint64_t d = 0; d < o->racks.racks; d++) {
        const tor_circuit *c = &v->c[d];
        if (c->state != CIRCUIT_WAITING)
            continue;
        if (best < 0 || (c->queued && !v->c[best].queued) ||
            (!c->queued == !v->c[best].queued && c->since < v->c[best].since))
            best = (int64_t)d;
    }
    return best;
}

/* Capacity is needed when a destination waits for a link with packets queued. */
static int capacity_needed(const opt_net *o, const tor_view *v)
{
    int64_t w = v->s->waiting ? first_waiting(o, v) : -1;
    return w >= 0 && v->c[w].queued > 0;
}

/* Gives circuit d back (its queue is empty and its transmitter idle); a
 * destination waiting for a link takes it. */
static void release(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, uint64_t why,
                    warp_bits *bits)
{
    tor_circuit *c = &v->c[d];
    assert(c->state == CIRCUIT_UP && c->queued == 0 && "ToR: only an idle circuit is released");
    assert(!(bits->b & (TOR_BIT_RELEASE_IDLE | TOR_BIT_RELEASE_CAPACITY)) &&
           "ToR: one release per event (commit counts it by a bit)");
    bits->b |= why;
    opt_event *e = opt_event_new(lp, o->ocs_lp, o->ocs_signal, OPT_EV_OCS_RELEASE);
    e->src = v->rack;
    e->dst = d;
    warp_event_send(lp, e);
    warp_save(lp, c, sizeof *c);
    c->state = CIRCUIT_NONE;
    c->stamp++;
    warp_save(lp, &v->s->links_used, sizeof v->s->links_used);
    v->s->links_used--;
    int64_t w = first_waiting(o, v);
    if (w >= 0) {
        warp_save(lp, &v->s->waiting, sizeof v->s->waiting);
        v->s->waiting--;
        take_link(lp, o, v, (uint64_t)w, bits);
    }
}

static void idle_check(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, double delay)
{
    opt_event *e = opt_event_new(lp, warp_lp_id(lp), delay, OPT_EV_OCS_IDLE);
    e->dst = d;
    e->stamp = v->c[d].stamp;
    warp_event_send(lp, e);
}

/* Circuit d is up with nothing to send and its transmitter free now. */
static void drained(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, warp_bits *bits)
{
    if (capacity_needed(o, v))
        release(lp, o, v, d, TOR_BIT_RELEASE_CAPACITY, bits);
    else
        idle_check(lp, o, v, d, o->ocs_idle);
}

/* Sends the head of d's queue on its circuit (up, transmitter free). */
static void send_next(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, warp_bits *bits)
{
    tor_circuit *c = &v->c[d];
    tor_ph *x = (tor_ph *)net_fifo_pop(lp, &c->q);
    warp_save(lp, c, sizeof *c);
    c->queued--;
    c->stamp++;
    double conv = opt_tor_delay(o, x->ph.bytes), ser = (double)x->ph.bytes / o->ocs_bw;
    opt_event *e = opt_event_new(lp, opt_tor_lp(o, d),
                                 conv + ser + 2 * o->cable + o->ocs_transfer, OPT_EV_PHOTONIC);
    e->src = v->rack;
    e->dst = d;
    e->u.ph = x->ph;
    warp_event_send(lp, e);
    warp_free_on_commit(lp, x);
    bits->b |= TOR_BIT_OCS_SENT;
    int more = c->queued > 0 || capacity_needed(o, v);
    net_port_take(lp, &c->tx, TOR_PORT_CIRCUIT + (int32_t)d, conv + ser, more);
    if (!more)
        idle_check(lp, o, v, d, conv + ser + o->ocs_idle);
}

static void try_send(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, warp_bits *bits)
{
    tor_circuit *c = &v->c[d];
    if (c->state == CIRCUIT_UP && c->queued &&
        net_port_is_free(lp, &c->tx, TOR_PORT_CIRCUIT + (int32_t)d, 1))
        send_next(lp, o, v, d, bits);
}

void tor_ocs_enqueue(warp_lp *lp, const opt_net *o, tor_view *v, tor_ph *x, warp_bits *bits)
{
    uint64_t d = opt_rack_of(o, x->ph.dst);
    tor_circuit *c = &v->c[d];
    net_fifo_push(lp, &c->q, &x->node);
    warp_save(lp, &c->queued, sizeof c->queued);
    c->queued++;
    if (c->state == CIRCUIT_NONE)
        tor_ocs_want(lp, o, v, d, bits);
    else
        try_send(lp, o, v, d, bits);
}

/* The least recently used circuit with nothing to send, or -1. */
static int64_t idle_circuit(warp_lp *lp, const opt_net *o, const tor_view *v)
{
    int64_t best = -1;
    double best_use = 0, now = warp_now(lp);
    for (uint64_t d = 0; d < o->racks.racks; d++) {
        const tor_circuit *c = &v->c[d];
        if (c->state != CIRCUIT_UP || c->queued || c->tx.busy_until > now)
            continue;
        double use = c->tx.busy_until > c->since ? c->tx.busy_until : c->since;
        if (best < 0 || use < best_use)
            best = (int64_t)d, best_use = use;
    }
    return best;
}

void tor_ocs_want(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, warp_bits *bits)
{
    assert(v->c[d].state == CIRCUIT_NONE && "ToR: a circuit is asked for once");
    if (v->s->links_used < o->ocs_links) {
        take_link(lp, o, v, d, bits);
        return;
    }
    tor_circuit *c = &v->c[d];
    warp_save(lp, c, sizeof *c);
    c->state = CIRCUIT_WAITING;
    c->since = warp_now(lp);
    warp_save(lp, &v->s->waiting, sizeof v->s->waiting);
    v->s->waiting++;
    if (!c->queued)
        return; /* a wish (hybrid): it gets a link when one frees by idleness */
    int64_t idle = idle_circuit(lp, o, v);
    if (idle >= 0) {
        release(lp, o, v, (uint64_t)idle, TOR_BIT_RELEASE_CAPACITY, bits); /* its link goes to a waiting one */
        return;
    }
    /* Circuits still sending their last packet hand their link over when
     * their transmitter frees: make sure each will wake up then. */
    for (uint64_t k = 0; k < o->racks.racks; k++)
        if (v->c[k].state == CIRCUIT_UP && v->c[k].queued == 0)
            net_port_is_free(lp, &v->c[k].tx, TOR_PORT_CIRCUIT + (int32_t)k, 1);
}

void tor_ocs_answer(warp_lp *lp, const opt_net *o, tor_view *v, const opt_event *e,
                    warp_bits *bits)
{
    uint64_t d = e->dst;
    tor_circuit *c = &v->c[d];
    if (c->state != CIRCUIT_REQUESTED)
        return; /* only in an optimistic run's speculation, which is undone */
    warp_save(lp, c, sizeof *c);
    if (!e->flag) {
        c->state = CIRCUIT_REFUSED;
        opt_event *r = opt_event_new(lp, warp_lp_id(lp), o->retry_delay, OPT_EV_OCS_RETRY);
        r->dst = d;
        warp_event_send(lp, r);
        return;
    }
    c->state = CIRCUIT_UP;
    c->since = warp_now(lp);
    c->stamp++;
    if (c->queued)
        try_send(lp, o, v, d, bits);
    else
        drained(lp, o, v, d, bits);
}

void tor_ocs_retry(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, warp_bits *bits)
{
    assert(v->c[d].state == CIRCUIT_REFUSED && "ToR: a retry follows a refusal");
    request(lp, o, v, d, bits);
}

void tor_ocs_idle(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, uint32_t stamp,
                  warp_bits *bits)
{
    const tor_circuit *c = &v->c[d];
    if (c->state == CIRCUIT_UP && c->stamp == stamp && c->queued == 0 &&
        c->tx.busy_until <= warp_now(lp))
        release(lp, o, v, d, TOR_BIT_RELEASE_IDLE, bits);
}

void tor_ocs_tx_free(warp_lp *lp, const opt_net *o, tor_view *v, uint64_t d, warp_bits *bits)
{
    tor_circuit *c = &v->c[d];
    net_port_woken(lp, &c->tx);
    if (c->state != CIRCUIT_UP)
        return;
    if (c->queued)
        send_next(lp, o, v, d, bits);
    else
        drained(lp, o, v, d, bits);
}
