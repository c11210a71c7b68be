/* net/network.h — the one interface every network implements: the packet
 * network of the network layer (its terminals and routers on a topology,
 * packet.c), the analytic networks (models/simple) and any network that
 * brings LP kinds of its own (switches, control planes). The network layer
 * knows networks only through this interface; the catalogue
 * (models/catalog) lists them by the names users write in
 * [network] topology.
 *
 * LPs of a run: the network's LPs first — its terminals (one per node,
 * LP ids 0..nodes-1), then its other LPs (ids nodes..nodes+lps-1) — and the
 * workload's LPs (one per rank) after them. A network's LP "index" is its
 * LP id. Terminals receive NET_EV_SEND from net_send and must end each
 * message with net_deliver_message at the destination terminal's side and
 * net_notify_sent at the source's. */
#ifndef NET_NETWORK_H
#define NET_NETWORK_H

#include <stdint.h>

#include "net/net.h"
#include "net/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct net_network_ops {
    const char *name;    /* [network] topology = NAME; NULL for the packet
                          * network, which runs under its topology's name */
    const char *section; /* its own INI section (e.g. "loggp"), or NULL */

    /* Reads the network's configuration (errors through warp_ini_fail) and
     * returns its read-only description (freed by destroy). Must call
     * net_declare(n, ...) once; may read net_end(n). */
    void *(*setup)(warp_ini *ini, net_model *n);
    void (*destroy)(void *net);
    /* The LP type of the network's LP `index` (< nodes + lps); stable
     * pointers, called after setup. */
    const warp_lp_type *(*lp_type)(const void *net, uint64_t index);

    /* Optional (NULL: terminals and the other LPs each in contiguous blocks
     * over the ranks): the rank of LP `index` among npes; a pure function.
     * Workload LPs go where their rank's terminal is. */
    int (*map)(const void *net, uint64_t index, int npes);
    /* Optional (NULL: 0): bytes above which MPI-like workloads use a
     * rendezvous protocol on this network (LogGOPS's S); 0 means the
     * network prescribes none. */
    uint64_t (*eager_limit)(const void *net);
} net_network_ops;

/* ---- For a network's setup ------------------------------------------------ */

/* Declares the network's size: `nodes` terminals (>= 1), `lps` other LPs,
 * and the bandwidth of one node's link (bytes/ns, for loads). */
void net_declare(net_model *n, uint64_t nodes, uint64_t lps, double injection_bandwidth);
/* The run's end time (ns). */
double net_end(const net_model *n);

/* ---- For a network's handlers ---------------------------------------------- */

/* The description the network's setup returned. */
const void *net_network_of(const net_model *n);
/* The workload LP of a rank. */
warp_lpid net_rank_lp(const net_model *n, uint64_t rank);
/* Sends NET_EV_ARRIVE for a completed message to its destination rank. */
void net_deliver_message(warp_lp *lp, const net_model *n, const net_message *m);
/* Sends NET_EV_SENT for a message to its source rank after `delay`. */
void net_notify_sent(warp_lp *lp, const net_model *n, const net_message *m, double delay);
/* Short name of an event's kind, for engine reports (an LP type's event_name). */
const char *net_event_name(const void *msg);
/* A terminal's finish handler: adds its committed block and its final
 * packet counts (onto / off its link, messages still waiting) into the
 * run's results. */
void net_terminal_results(warp_lp *lp, const net_term_out *o, uint64_t sent, uint64_t recv,
                          uint64_t waiting);

#ifdef __cplusplus
}
#endif
#endif
