/* net/port.h — when an output link is free, with as few events as possible:
 * a link is busy until busy_until; a NET_EV_PORT_FREE wake-up is scheduled
 * only when something waits for the link (at most one pending per link).
 * Used by terminals (injection link) and routers (every output port).
 * The _log forms take `save`; save 0: the caller has logged the clock
 * (with the record around it) in this event already. */
#ifndef NET_PORT_H
#define NET_PORT_H

#include "net/net.h"

typedef struct net_port_clock {
    double busy_until;     /* the link serialises until then */
    uint32_t wake_pending; /* a NET_EV_PORT_FREE for this link is pending */
    uint32_t pad;
} net_port_clock;

static inline void net_port_wake(warp_lp *lp, net_port_clock *c, int32_t port, int save)
{
    if (save)
        warp_save(lp, &c->wake_pending, sizeof c->wake_pending);
    c->wake_pending = 1;
    net_event *f = warp_event_new(lp, warp_lp_id(lp), c->busy_until - warp_now(lp));
    f->kind = NET_EV_PORT_FREE;
    f->port = port;
    warp_event_send(lp, f);
}

/* 1 when the link is free now. Otherwise 0, and when `waiting` makes sure a
 * wake-up comes when it frees. */
static inline int net_port_is_free_log(warp_lp *lp, net_port_clock *c, int32_t port, int waiting,
                                       int save)
{
    if (warp_now(lp) >= c->busy_until)
        return 1;
    if (waiting && !c->wake_pending)
        net_port_wake(lp, c, port, save);
    return 0;
}

/* Occupies the link for ser ns from now; asks for a wake-up when more waits. */
static inline void net_port_take_log(warp_lp *lp, net_port_clock *c, int32_t port, double ser,
                                     int more_waiting, int save)
{
    if (save)
        warp_save(lp, &c->busy_until, sizeof c->busy_until);
    c->busy_until = warp_now(lp) + ser;
    if (more_waiting && !c->wake_pending)
        net_port_wake(lp, c, port, save);
}

/* Handles NET_EV_PORT_FREE: the pending wake-up has come. */
static inline void net_port_woken_log(warp_lp *lp, net_port_clock *c, int save)
{
    if (save)
        warp_save(lp, &c->wake_pending, sizeof c->wake_pending);
    c->wake_pending = 0;
}

/* The _log forms with save 1 (the clock's fields logged one by one). */
static inline int net_port_is_free(warp_lp *lp, net_port_clock *c, int32_t port, int waiting)
{
    return net_port_is_free_log(lp, c, port, waiting, 1);
}

static inline void net_port_take(warp_lp *lp, net_port_clock *c, int32_t port, double ser,
                                 int more_waiting)
{
    net_port_take_log(lp, c, port, ser, more_waiting, 1);
}

static inline void net_port_woken(warp_lp *lp, net_port_clock *c) { net_port_woken_log(lp, c, 1); }

#endif
