/* optical/optical_lp.c — what the optical LPs (tor.c, ops.c, ocs.c and the
 * ToR's halves tor_ops.c, tor_ocs.c) share: their events and the sum of
 * their committed results. Calls nothing of the optical network above it
 * (optical.c builds the network and its LP types from those files), so
 * none of them calls back into the builder. */
#include "optical/optical_impl.h"

opt_event *opt_event_new(warp_lp *lp, uint64_t dest, double delay, uint32_t kind)
{
    opt_event *e = warp_event_new(lp, dest, delay);
    e->kind = kind;
    return e;
}

const char *opt_event_name(const void *msg)
{
    static const char *const names[] = {"ops-head",    "ops-reply",   "photonic", "ocs-request",
                                        "ocs-answer",  "ocs-release", "ocs-retry", "ocs-idle"};
    const opt_msg *m = msg;
    uint32_t k = m->net.kind;
    if (k >= NET_EV_NETWORK && k < NET_EV_NETWORK + sizeof names / sizeof names[0])
        return names[k - NET_EV_NETWORK];
    return net_event_name(msg);
}

void opt_results_add(opt_results *acc, const opt_results *b)
{
    for (int p = 0; p < OPT_NPATHS; p++) {
        acc->formed[p] += b->formed[p];
        acc->arrived[p] += b->arrived[p];
        acc->tor_lat_q[p] += b->tor_lat_q[p];
    }
    acc->ops_sent += b->ops_sent;
    acc->ops_resent += b->ops_resent;
    acc->ops_acks += b->ops_acks;
    acc->ops_nacks += b->ops_nacks;
    acc->ops_passed += b->ops_passed;
    acc->ops_dropped += b->ops_dropped;
    if (b->buffer_max > acc->buffer_max)
        acc->buffer_max = b->buffer_max;
    acc->ocs_sent += b->ocs_sent;
    acc->ocs_requests += b->ocs_requests;
    acc->ocs_setups += b->ocs_setups;
    acc->ocs_refusals += b->ocs_refusals;
    acc->ocs_release_idle += b->ocs_release_idle;
    acc->ocs_release_capacity += b->ocs_release_capacity;
    acc->circuit_q += b->circuit_q;
    acc->tor_waiting += b->tor_waiting;
}

void opt_finish_results(warp_lp *lp, void *state, void *out)
{
    (void)state;
    const opt_net *o = net_network_of(warp_model_arg(lp));
    opt_results_add(o->res, out);
}

