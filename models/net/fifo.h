/* net/fifo.h — a FIFO of warp_alloc'd nodes whose every pointer write is
 * logged with warp_save, so a rolled-back event restores the list exactly.
 * Nodes start with `struct net_link_node`; callers embed it first. Used by
 * terminals (messages, partial receives) and routers (output VC queues). */
#ifndef NET_FIFO_H
#define NET_FIFO_H

#include <stddef.h>

#include "warp.h"

typedef struct net_node {
    struct net_node *next;
} net_node;

typedef struct net_fifo {
    net_node *head, *tail;
} net_fifo;

/* Appends n and logs nothing: the caller's reverse handler takes it back
 * with net_fifo_unpush (keeping the tail before, e.g. in n's node). */
static inline void net_fifo_push_unlogged(net_fifo *q, net_node *n)
{
    n->next = NULL;
    if (q->tail)
        q->tail->next = n;
    else
        q->head = n;
    q->tail = n;
}

/* Undoes net_fifo_push_unlogged of the tail; prev: the tail before it. */
static inline void net_fifo_unpush(net_fifo *q, net_node *prev)
{
    q->tail = prev;
    if (prev)
        prev->next = NULL;
    else
        q->head = NULL;
}

/* net_fifo_push for a caller that has logged *q itself in this event (with
 * the record around it, one warp_save for several fields): only the old
 * tail's link is logged here. */
static inline void net_fifo_push_saved(warp_lp *lp, net_fifo *q, net_node *n)
{
    if (q->tail)
        warp_save(lp, &q->tail->next, sizeof q->tail->next);
    net_fifo_push_unlogged(q, n);
}

/* Appends a node (freshly warp_alloc'd in this event: its own bytes need no log). */
static inline void net_fifo_push(warp_lp *lp, net_fifo *q, net_node *n)
{
    warp_save(lp, q, sizeof *q);
    net_fifo_push_saved(lp, q, n);
}

/* Appends a node allocated in an earlier event (e.g. just popped from
 * another list): its link is logged too, so a rollback restores it. */
static inline void net_fifo_push_old(warp_lp *lp, net_fifo *q, net_node *n)
{
    warp_save(lp, &n->next, sizeof n->next);
    net_fifo_push(lp, q, n);
}

/* Unlinks and returns the head (NULL when empty); the node's bytes stay valid
 * until the event commits when the caller hands it to warp_free_on_commit. */
static inline net_node *net_fifo_pop(warp_lp *lp, net_fifo *q)
{
    net_node *n = q->head;
    if (!n)
        return NULL;
    warp_save(lp, q, sizeof *q);
    q->head = n->next;
    if (!q->head)
        q->tail = NULL;
    return n;
}

/* net_fifo_pop for a caller that has logged *q itself in this event. */
static inline net_node *net_fifo_pop_saved(net_fifo *q)
{
    net_node *n = q->head;
    if (!n)
        return NULL;
    q->head = n->next;
    if (!q->head)
        q->tail = NULL;
    return n;
}

/* Unlinks n, whose predecessor is prev (NULL when n is the head). */
static inline void net_fifo_unlink(warp_lp *lp, net_fifo *q, net_node *prev, net_node *n)
{
    warp_save(lp, q, sizeof *q);
    if (prev) {
        warp_save(lp, &prev->next, sizeof prev->next);
        prev->next = n->next;
    } else {
        q->head = n->next;
    }
    if (q->tail == n)
        q->tail = prev;
}

#endif
