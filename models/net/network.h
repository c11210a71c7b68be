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
 * net_notify_sent at the source's. A network's own event kinds lie in
 * NET_EV_NETWORK..NET_EV_WORKLOAD-1 (net.h).
 *
 * Fabric. A network may include the packet network's terminals and routers
 * on a topology of its own (net_fabric_use): then its terminals are the
 * packet network's, its first `routers` LPs after them are routers, and a
 * router port may lead to a *gateway*, one of the network's own LPs
 * (NET_PEER_GATEWAY, topology.h). A gateway receives NET_EV_PKT like a
 * terminal (when the tail arrives; the router keeps no credits for it, so it
 * must take every packet), injects packets into its port with
 * net_fabric_inject like a terminal (one at a time on its link, each only
 * when the router's VC-0 input buffer has credit for it; credits come back
 * as NET_EV_CREDIT) and reports its counts with net_gateway_results, so the
 * conservation line stays exact. */
#ifndef NET_NETWORK_H
#define NET_NETWORK_H

#include <stdint.h>
#include <stdio.h>

#include "net/net.h"
#include "net/stats.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct net_network_ops {
    const char *name;    /* [network] topology = NAME; NULL for the packet
                          * network, which runs under its topology's name */
    const char *section; /* its own INI section (e.g. "loggp"), or NULL */
    /* The keys of its section (warp_keys.h), NULL-section terminated;
     * NULL when it has no section. */
    const warp_key_group *keys;
    /* Its entries of presets (warp_keys.h), NULL-name terminated; may be NULL. */
    const warp_preset *presets;

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
    /* Optional (NULL: none, --synch=cons refused): a lower bound (ns) on
     * the delay of every event a network LP sends to another LP, except a
     * terminal's events to and from the ranks it holds; 0 when some such
     * event may take no time. The run's lookahead (conservative mode). */
    double (*lookahead)(const void *net);
    /* Whole messages, no packets (the analytic networks): the network's
     * events carry at most a net_message, so the run's event slots end
     * there (NET_MSG_EVENT_BYTES) instead of holding a packet and a
     * departure record none of its events fills. 0: packet events. */
    int whole_messages;
    /* Its switches hold waiting packets as events, bounded by no credit
     * (the optical ToR's queues behind a circuit being set up): sizing
     * (net/memory.c) counts every packet of a workload's burst as held,
     * where a credit-bounded fabric holds the burst at the NIC. 0: no. */
    int queues_packets;

    /* Optional (NULL: no breakdown): names of the network's paths, path 0
     * first, NULL-terminated, at most NET_PATHS. Packets carry their path
     * (net_packet.path, set by the network where it chooses one); the
     * terminals of the fabric count delivered packets, messages and latency
     * per path, which the summary and summary.json report by name. */
    const char *const *paths;
    /* Optional, collective: every process calls it after the run, before
     * report, to combine the network's own results onto rank 0
     * (warp_reduce_to_root on net_engine(n)). */
    void (*reduce)(void *net, const net_model *n);
    /* Optional (rank 0): extra lines for the printed summary. */
    void (*report)(const void *net, const net_model *n, FILE *f);
    /* Optional (rank 0): extra members of summary.json, each written as
     * `  "name": VALUE,` on its own line. */
    void (*json)(const void *net, const net_model *n, FILE *f);
} net_network_ops;

/* The payload bytes of a run of a whole-message network: the event header
 * and the larger of a message and a workload's private bytes. */
#define NET_MSG_EVENT_BYTES \
    (offsetof(net_event, u) + (sizeof(net_message) > NET_USER_MAX ? sizeof(net_message) : NET_USER_MAX))

/* ---- For a network's setup ------------------------------------------------ */

/* Declares the network's size: `nodes` terminals (>= 1), `lps` other LPs,
 * and the bandwidth of one node's link (bytes/ns, for loads). */
void net_declare(net_model *n, uint64_t nodes, uint64_t lps, double injection_bandwidth);
/* The run's end time (ns). */
double net_end(const net_model *n);
/* The ranks the workload's input names (net_workload_ops.ranks_hint), the
 * default node count of a network without a fixed size; 0 when unknown. */
uint64_t net_ranks_hint(const net_model *n);

/* Reads [network]'s link and packet keys (link_bandwidth, link_latency,
 * router_delay, packet_size, switching) with the packet network's defaults,
 * for a network that includes the fabric: its topology wires its links
 * with them. Call first, from setup. */
const net_params *net_fabric_params(warp_ini *ini, net_model *n);
/* Includes the packet network's terminals and routers (the fabric), wired
 * by topology `ops` whose description `topo` the network built and keeps
 * (the fabric calls neither ops->setup nor ops->destroy); reads [network]'s
 * buffer keys. Call from setup after net_fabric_params and before
 * net_declare, whose `nodes` must be the topology's and whose `lps` must
 * count its routers first. */
void net_fabric_use(warp_ini *ini, net_model *n, const net_topology_ops *ops, void *topo);
/* The LP type of fabric LP `index` (a terminal or a router). */
const warp_lp_type *net_fabric_lp_type(const net_model *n, uint64_t index);
/* The smallest delay of an event between fabric LPs (its links' latencies,
 * the topology's watcher delays), for a network's lookahead; 0 if any is 0. */
double net_fabric_lookahead(const net_model *n);

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
/* Sends packet p (its size, message and path filled in) from the calling
 * terminal or gateway onto the link into port `port` of fabric router
 * `router`, VC 0, now: fills in its injection fields and returns the link's
 * serialisation time for it (the link is busy that long). The caller has
 * checked the link is free and the router has p->size bytes of credit. */
double net_fabric_inject(warp_lp *lp, const net_model *n, uint64_t router, int32_t port,
                         const net_packet *p);
/* A gateway's finish handler: the packets it took from routers and gave
 * to them over the run. */
void net_gateway_results(warp_lp *lp, uint64_t received, uint64_t sent);
/* A terminal's finish handler: adds its committed block and its final
 * packet counts (onto / off its link, messages still waiting) into the
 * run's results. */
void net_terminal_results(warp_lp *lp, const net_term_out *o, uint64_t sent, uint64_t recv,
                          uint64_t waiting);
/* A terminal's commit handler counts a packet's latency (sent at t >= warmup)
 * with this: o and the process's histograms (net_term_out_latency). */
void net_terminal_latency(warp_lp *lp, net_term_out *o, double lat, int msg_done);
/* Every terminal type calls this from init, and takes these as its
 * checkpoint hooks: they carry the process's latency histograms. */
void net_terminal_claim(warp_lp *lp);
void net_terminal_ckpt_save(warp_lp *lp, const void *state, const void *out, warp_ckpt *c);
void net_terminal_ckpt_load(warp_lp *lp, void *state, void *out, warp_ckpt *c);

#ifdef __cplusplus
}
#endif
#endif
