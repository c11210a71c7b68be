/* optical/ocs.c — the optical circuit switch's control plane as one LP: it
 * grants a circuit src -> dst when src has a free link and dst a free
 * receiving link (each ToR has ocs_links of each), answering after the
 * switch's reconfiguration and the signalling back, and refuses at once
 * (the answer still takes the signalling time) otherwise; a release frees
 * both links. Invariant: tx[r] / rx[r] count the circuits granted from / to
 * rack r and not yet released, never above ocs_links. Its statistics are
 * counted where the answers and releases take effect, at the ToRs. Built
 * by optical.c. */
#include <assert.h>
#include <string.h>

#include "optical/optical_impl.h"

/* State: tx[racks], then rx[racks]. */
static void ocs_init(warp_lp *lp, void *state)
{
    const opt_net *o = net_network_of(warp_model_arg(lp));
    memset(state, 0, 2 * o->racks.racks * sizeof(uint32_t));
}

static void ocs_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    (void)bits;
    const opt_net *o = net_network_of(warp_model_arg(lp));
    opt_event *e = &((opt_msg *)msg)->opt;
    uint32_t *tx = state, *rx = tx + o->racks.racks;
    if (e->kind == OPT_EV_OCS_RELEASE) {
        /* A release always follows its grant, except in an optimistic
         * run's speculation, which its cancellation undoes: ignore it. */
        if (!tx[e->src] || !rx[e->dst])
            return;
        warp_save(lp, &tx[e->src], sizeof tx[e->src]);
        warp_save(lp, &rx[e->dst], sizeof rx[e->dst]);
        tx[e->src]--;
        rx[e->dst]--;
        return;
    }
    assert(e->kind == OPT_EV_OCS_REQUEST && "OCS: it receives requests and releases");
    e->flag = tx[e->src] < o->ocs_links && rx[e->dst] < o->ocs_links; /* for commit */
    double delay = o->ocs_signal;
    if (e->flag) {
        warp_save(lp, &tx[e->src], sizeof tx[e->src]);
        warp_save(lp, &rx[e->dst], sizeof rx[e->dst]);
        tx[e->src]++;
        rx[e->dst]++;
        delay += o->ocs_reconfig;
    }
    opt_event *a = opt_event_new(lp, opt_tor_lp(o, e->src), delay, OPT_EV_OCS_ANSWER);
    a->flag = e->flag;
    a->src = e->src;
    a->dst = e->dst;
    warp_event_send(lp, a);
}

void opt_ocs_type(opt_net *o, warp_lp_type *t)
{
    memset(t, 0, sizeof *t);
    t->name = "ocs-control";
    t->state_size = 2 * o->racks.racks * sizeof(uint32_t);
    t->save = WARP_SAVE_NONE;
    t->init = ocs_init;
    t->forward = ocs_forward;
    t->event_name = opt_event_name;
}
