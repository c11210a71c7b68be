/* net/send.c — the workload side of the network: net_send and the two
 * notifications. Stateless: each call only sends an event, which the engine
 * cancels if the calling event is rolled back. Called by workload LPs and
 * by terminal / NIC LPs. */
#include <assert.h>
#include <string.h>

#include "net/net_impl.h"

void net_send(warp_lp *lp, uint64_t dst_rank, uint64_t bytes, int64_t tag, const void *payload,
              size_t len)
{
    const net_model *n = net_of(lp);
    uint64_t src = net_rank_of(lp);
    assert(dst_rank < n->ranks && "net_send: dst_rank is a rank of this run");
    assert(bytes >= 1 && len <= NET_PAYLOAD_MAX && "net_send: bytes >= 1, payload fits");
    net_event *e = warp_event_new(lp, net_term_lp(n, net_term_of_rank(n, src)), 0);
    e->kind = NET_EV_SEND;
    e->u.msg.bytes = bytes;
    e->u.msg.tag = tag;
    e->u.msg.src_rank = src;
    e->u.msg.dst_rank = dst_rank;
    e->u.msg.t_send = warp_now(lp);
    if (len)
        memcpy(e->u.msg.payload, payload, len);
    warp_event_send(lp, e);
}

void net_send_prefetch(const warp_lp *lp)
{
    const net_model *n = net_of(lp);
    warp_prefetch_dest(lp, net_term_lp(n, net_term_of_rank(n, net_rank_of(lp))));
}

net_event *net_workload_event(warp_lp *lp, uint64_t rank, double delay, uint32_t kind)
{
    const net_model *n = net_of(lp);
    assert(kind >= NET_EV_WORKLOAD && "net_workload_event: kind is a workload kind");
    net_event *e = warp_event_new(lp, net_rank_lp(n, rank), delay);
    e->kind = kind;
    return e;
}

void net_deliver_message(warp_lp *lp, const net_model *n, const net_message *m)
{
    net_event *e = warp_event_new(lp, net_rank_lp(n, m->dst_rank), 0);
    e->kind = NET_EV_ARRIVE;
    e->u.msg = *m;
    warp_event_send(lp, e);
}

void net_notify_sent(warp_lp *lp, const net_model *n, const net_message *m, double delay)
{
    net_event *e = warp_event_new(lp, net_rank_lp(n, m->src_rank), delay);
    e->kind = NET_EV_SENT;
    e->u.msg = *m;
    warp_event_send(lp, e);
}
