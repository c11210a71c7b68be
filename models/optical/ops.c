/* optical/ops.c — one output port of the optical packet switch (OPS) as an
 * LP: the port to rack d's ToR. Packets from the ToRs of one input fiber
 * share one wavelength channel into this port; a packet whose head finds
 * its channel busy (another packet of the same fiber still passing, or one
 * that arrived at the same instant before it in event order) is dropped
 * and NACKed, else it passes and is ACKed. Packets of different fibers
 * never collide here, unless ops_contention = port makes the whole port
 * one channel. Invariant: busy[f] is when channel f's last packet has
 * passed; only forward writes it (warp_save). Built by optical.c. */
#include <assert.h>
#include <string.h>

#include "optical/optical_impl.h"

static void ops_init(warp_lp *lp, void *state)
{
    const opt_net *o = net_network_of(warp_model_arg(lp));
    memset(state, 0, o->fibers * sizeof(double));
}

/* Reply to the source ToR, which takes it in after the ACK/NACK processing. */
static void reply(warp_lp *lp, const opt_net *o, const opt_event *h, uint32_t ack)
{
    opt_event *r = opt_event_new(lp, opt_tor_lp(o, h->src), o->ops_delay + o->cable + o->ack_delay,
                                 OPT_EV_OPS_REPLY);
    r->flag = ack;
    r->src = h->src;
    r->dst = h->dst;
    r->u.ph.id = h->u.ph.id;
    r->u.ph.path = h->u.ph.path;
    warp_event_send(lp, r);
}

static void ops_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    (void)bits;
    const opt_net *o = net_network_of(warp_model_arg(lp));
    opt_event *e = &((opt_msg *)msg)->opt;
    assert(e->kind == OPT_EV_OPS_HEAD && "OPS: it receives photonic packets only");
    double *busy = state, now = warp_now(lp);
    uint64_t f = o->shared_output ? 0 : e->src / o->wavelengths;
    e->flag = now >= busy[f]; /* for commit */
    reply(lp, o, e, e->flag);
    if (!e->flag)
        return;
    double ser = (double)e->u.ph.bytes / o->optical_bw;
    warp_save(lp, &busy[f], sizeof busy[f]);
    busy[f] = now + ser;
    opt_event *p = opt_event_new(lp, opt_tor_lp(o, e->dst), o->ops_delay + o->cable + ser,
                                 OPT_EV_PHOTONIC);
    p->src = e->src;
    p->dst = e->dst;
    p->u.ph = e->u.ph;
    warp_event_send(lp, p);
}

static void ops_commit(warp_lp *lp, void *out, const void *msg, const warp_bits *bits)
{
    (void)lp, (void)bits;
    opt_results *r = out;
    const opt_event *e = &((const opt_msg *)msg)->opt;
    r->ops_passed += e->flag != 0;
    r->ops_dropped += e->flag == 0;
}

void opt_ops_type(opt_net *o, warp_lp_type *t)
{
    memset(t, 0, sizeof *t);
    t->name = "ops-port";
    t->state_size = o->fibers * sizeof(double);
    t->out_size = sizeof(opt_results);
    t->save = WARP_SAVE_NONE;
    t->init = ops_init;
    t->forward = ops_forward;
    t->commit = ops_commit;
    t->finish = opt_finish_results;
    t->event_name = opt_event_name;
}
