/* net/packet.c — the packet network: the network layer's terminals and
 * routers (its fabric) wired by a topology, for every name the catalogue
 * lists as a topology; and the fabric for networks that include it
 * (net_fabric_params, net_fabric_use). Reads [network]'s link, packet and
 * buffer keys and lets the topology read its own section; its description
 * is the model's fabric, so its handlers (terminal.c, router.c) read the
 * model directly. Invariant: routers are LPs nodes..nodes+routers-1 (for
 * the packet network, its only LPs besides the terminals). Chosen by
 * build.c. */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/failures.h"
#include "net/net_impl.h"

static const char *const switching_names[] = {"cut-through", "store-forward", NULL};
static const char *const router_names[] = {"output-queued", "input-queued", NULL};
static const char *const injection_vcs_names[] = {"lanes", "all", NULL};
static const char *const vc_allocation_names[] = {"with-switch", "before-switch", NULL};
static const char *const alloc_timing_names[] = {"on-change", "per-cycle", NULL};

/* [network] alloc_iters = maximal | N (0 stands for maximal). */
static void read_alloc_iters(warp_ini *ini, net_params *p)
{
    const char *v = warp_ini_get(ini, "network", "alloc_iters");
    p->alloc_iters = 0;
    if (!v || !strcmp(v, "maximal"))
        return;
    char *end;
    long k = strtol(v, &end, 10);
    if (end == v || *end || k < 1 || k > 64)
        warp_ini_fail(ini, "network", "alloc_iters", "must be maximal or a number of rounds from 1 to 64");
    p->alloc_iters = (int32_t)k;
}

static void read_params(warp_ini *ini, net_params *p)
{
    p->nic_ports = 1; /* a topology with planes raises it in its setup */
    p->rail_select = NET_RAIL_STATIC;
    p->link_bandwidth = warp_ini_bandwidth(ini, "network", "link_bandwidth", 12.5);
    if (!(p->link_bandwidth > 0))
        warp_ini_fail(ini, "network", "link_bandwidth", "must be positive (e.g. 100Gbps)");
    p->link_latency = warp_ini_time_ns(ini, "network", "link_latency", 50);
    if (p->link_latency < 0)
        warp_ini_fail(ini, "network", "link_latency", "must not be negative");
    p->terminal_latency = warp_ini_time_ns(ini, "network", "terminal_latency", p->link_latency);
    if (p->terminal_latency < 0)
        warp_ini_fail(ini, "network", "terminal_latency", "must not be negative");
    p->router_delay = warp_ini_time_ns(ini, "network", "router_delay", 100);
    if (p->router_delay < 0)
        warp_ini_fail(ini, "network", "router_delay", "must not be negative");
    p->packet_size = warp_ini_bytes(ini, "network", "packet_size", 256);
    if (p->packet_size == 0 || p->packet_size > (1u << 30))
        warp_ini_fail(ini, "network", "packet_size", "must be between 1B and 1GiB");
    p->store_forward = warp_ini_choice(ini, "network", "switching", switching_names, 0);
    p->input_queued = warp_ini_choice(ini, "network", "router", router_names, 1);
    p->lanes = (int32_t)warp_ini_int(ini, "network", "lanes", 1, 1, NET_MAX_VCS);
    p->speedup = (int32_t)warp_ini_int(ini, "network", "speedup", 1, 1, NET_MAX_VCS);
    p->internal_speedup = (int32_t)warp_ini_int(ini, "network", "internal_speedup", 1, 1, 16);
    p->inject_all_vcs = warp_ini_choice(ini, "network", "injection_vcs", injection_vcs_names, 0);
    p->credit_unit = warp_ini_bytes(ini, "network", "credit_unit", 0);
    p->alloc_delay = warp_ini_time_ns(ini, "network", "alloc_delay", 0);
    if (p->alloc_delay < 0 || p->alloc_delay > p->router_delay)
        warp_ini_fail(ini, "network", "alloc_delay", "must lie in [0, router_delay] (router_delay is %g ns)",
                      p->router_delay);
    p->lane_hold = warp_ini_time_ns(ini, "network", "lane_hold", 0);
    if (p->lane_hold < 0 || p->lane_hold > p->router_delay)
        warp_ini_fail(ini, "network", "lane_hold", "must lie in [0, router_delay] (router_delay is %g ns)",
                      p->router_delay);
    read_alloc_iters(ini, p);
    p->vc_first = warp_ini_choice(ini, "network", "vc_allocation", vc_allocation_names, 0);
    p->per_cycle = warp_ini_choice(ini, "network", "alloc_timing", alloc_timing_names, 0);
    p->alloc_cycle = warp_ini_time_ns(ini, "network", "alloc_cycle", 0);
    if (p->alloc_cycle < 0 || (p->alloc_cycle == 0 && warp_ini_get(ini, "network", "alloc_cycle")))
        warp_ini_fail(ini, "network", "alloc_cycle", "must be a positive time (e.g. 1ns)");
    p->vc_buffer = 0;
    /* The allocator keys mean nothing to the output-queued router: the
     * driver warns about each one set (net_keys declares them applying to
     * router = input-queued only; warp_ini_warn_inapplicable). */
}

/* vc_buffer = explicit, or port_buffer split evenly over the VCs. */
static void read_buffers(warp_ini *ini, net_params *p, int32_t vcs)
{
    uint64_t vcb = warp_ini_bytes(ini, "network", "vc_buffer", 0);
    uint64_t portb = warp_ini_bytes(ini, "network", "port_buffer", 0);
    /* 0 would read as "not given" below: a buffer that holds nothing is refused. */
    if (!vcb && warp_ini_get(ini, "network", "vc_buffer"))
        warp_ini_fail(ini, "network", "vc_buffer", "a VC buffer must hold at least one packet (%llu B)",
                      (unsigned long long)p->packet_size);
    if (!portb && warp_ini_get(ini, "network", "port_buffer"))
        warp_ini_fail(ini, "network", "port_buffer", "a port buffer must hold at least one packet per VC "
                      "(%d x %llu B)", vcs, (unsigned long long)p->packet_size);
    if (vcb && portb)
        warp_ini_fail(ini, "network", "port_buffer", "give vc_buffer or port_buffer, not both");
    p->vc_buffer = vcb ? vcb : portb ? portb / (uint64_t)vcs : 8 * p->packet_size;
    if (p->vc_buffer < p->packet_size)
        warp_ini_fail(ini, "network", vcb ? "vc_buffer" : portb ? "port_buffer" : "packet_size",
                      "a VC buffer (%llu B) must hold at least one packet (%llu B)",
                      (unsigned long long)p->vc_buffer, (unsigned long long)p->packet_size);
    if (p->vc_buffer > NET_VC_BUFFER_MAX)
        warp_ini_fail(ini, "network", vcb ? "vc_buffer" : portb ? "port_buffer" : "packet_size",
                      "a VC buffer (%llu B) may hold at most 1 GiB; give a smaller one",
                      (unsigned long long)p->vc_buffer);
}

const net_params *net_fabric_params(warp_ini *ini, net_model *n)
{
    read_params(ini, &n->params);
    return &n->params;
}

void net_fabric_use(warp_ini *ini, net_model *n, const net_topology_ops *ops, void *topo)
{
    n->topo_ops = ops;
    n->topo = topo;
    n->routers = ops->routers(topo);
    n->vcs = ops->vcs(topo) * n->params.lanes;
    n->max_radix = ops->max_radix(topo);
    if (ops->vcs(topo) < 1 || n->vcs > NET_MAX_VCS) {
        if (n->params.lanes > 1)
            warp_ini_fail(ini, "network", "lanes", "%d VC classes of %s x %d lanes make %d VCs; "
                          "at most %d are supported", (int)ops->vcs(topo), ops->name,
                          (int)n->params.lanes, (int)n->vcs, NET_MAX_VCS);
        warp_fatal(WARP_EXIT_USAGE, "topology %s asks for %d VCs; at most %d are supported",
                   ops->name, (int)ops->vcs(topo), NET_MAX_VCS);
    }
    read_buffers(ini, &n->params, n->vcs);
    n->view_slots = ops->view_slots && ops->watchers ? ops->view_slots(topo) : 0;
}

const warp_lp_type *net_fabric_lp_type(const net_model *n, uint64_t index)
{
    return index < n->nodes ? &n->term_type : &n->router_type;
}

/* n->topo_ops is the topology the catalogue found by name. */
static void *packet_setup(warp_ini *ini, net_model *n)
{
    read_params(ini, &n->params);
    const net_topology_ops *ops = n->topo_ops;
    void *topo = net_failures_apply(ini, &ops, ops->setup(ini, &n->params));
    if (n->params.nic_ports > 1 && !ops->attach_port) { /* the failures' table routes to port 0's router */
        const char *key = warp_ini_get(ini, "network", "failed_links") ? "failed_links" : "failed_fraction";
        ops->destroy(topo); /* the run stops here; nothing may look leaked */
        warp_ini_fail(ini, "network", key, "failed links are routed around only for nodes with one NIC "
                                           "port; drop the planes or the failures");
    }
    net_fabric_use(ini, n, ops, topo);
    net_attach a = n->topo_ops->attach(n->topo, 0);
    assert(n->params.nic_ports >= 1 && n->params.nic_ports <= NET_MAX_NIC_PORTS &&
           (n->params.nic_ports == 1 || n->topo_ops->attach_port) && "packet: NIC ports are wired");
    /* a terminal injects on all its NIC ports (planes) at once */
    net_declare(n, n->topo_ops->nodes(n->topo), n->routers,
                n->params.nic_ports * n->topo_ops->peer(n->topo, a.router, a.port).bandwidth);
    return n;
}

static void packet_destroy(void *net)
{
    net_model *n = net;
    n->topo_ops->destroy(n->topo);
}

static const warp_lp_type *packet_lp_type(const void *net, uint64_t index)
{
    return net_fabric_lp_type(net, index);
}

/* Keeps a router and its terminals on one PE: the run's partition
 * (partition.c), or routers in contiguous blocks. */
static int packet_map(const void *net, uint64_t index, int npes)
{
    const net_model *n = net;
    uint64_t r = index < n->nodes ? n->topo_ops->attach(n->topo, index).router : index - n->nodes;
    if (n->router_part && npes == n->part_ranks)
        return (int)n->router_part[r];
    return (int)(r * (uint64_t)npes / n->routers);
}

/* Every event between LPs of the fabric crosses a link. A packet takes
 * the link's latency, plus router_delay into a router (and its bytes'
 * time on the link when store-and-forward), or its bytes' time first out
 * to a terminal; a credit goes back over the latency once the packet it
 * frees has left on one of the router's outputs (its bytes', or with
 * credit_unit a unit's, time there, over internal_speedup: router_core.c); an occupancy report
 * (UGAL-G) takes the delay its topology gives. With the workload's
 * smallest packet (0 when unknown) each of these has a least value per
 * port; the smallest over all routers and ports bounds every delay. The
 * bytes' times are shaved by a billionth, so that rounding in the
 * model's own sums (latency + delay + bytes / bandwidth) never lands a
 * hair below the bound, which the engine would refuse. Gateways' events
 * keep the bare latency: their delays are their network's. */
double net_fabric_lookahead(const net_model *n)
{
    double la = INFINITY, s = (double)n->min_packet * (1 - 1e-9), rd = n->params.router_delay;
    uint64_t unit = n->params.credit_unit;
    double cs = unit && (double)unit < s ? (double)unit * (1 - 1e-9) : s; /* a credit's least bytes */
    net_watcher w[NET_MAX_WATCHERS];
    for (uint64_t r = 0; r < n->routers; r++) {
        int32_t k = n->topo_ops->radix(n->topo, r);
        double fastest = 0; /* the router's fastest output: its credits' least wait */
        for (int32_t p = 0; p < k; p++) {
            net_peer q = n->topo_ops->peer(n->topo, r, p);
            if (q.kind != NET_PEER_NONE && q.bandwidth > fastest)
                fastest = q.bandwidth;
        }
        /* With internal speed-up a packet leaves its input (and frees
         * its credit) in 1/internal_speedup of its time on the link. */
        double credit_wait = fastest > 0 ? cs / fastest / n->params.internal_speedup : 0;
        for (int32_t p = 0; p < k; p++) {
            net_peer q = n->topo_ops->peer(n->topo, r, p);
            double d = q.latency;
            if (q.kind == NET_PEER_ROUTER || q.kind == NET_PEER_TERMINAL) {
                double bytes = q.bandwidth > 0 ? s / q.bandwidth : 0;
                double in = q.latency + rd + (n->params.store_forward ? bytes : 0); /* a packet into a router */
                double credit = credit_wait + q.latency;
                d = in < credit ? in : credit;
                if (q.kind == NET_PEER_TERMINAL && bytes + q.latency < d) /* a packet out to it */
                    d = bytes + q.latency;
            }
            if (q.kind != NET_PEER_NONE && d < la)
                la = d;
            int32_t m = n->view_slots ? n->topo_ops->watchers(n->topo, r, p, w, NET_MAX_WATCHERS) : 0;
            for (int32_t i = 0; i < m; i++)
                if (w[i].delay < la)
                    la = w[i].delay;
        }
    }
    return isinf(la) ? 0 : la;
}

static double packet_lookahead(const void *net) { return net_fabric_lookahead(net); }

uint64_t net_input_buffer(const net_model *n, uint64_t router, int32_t port)
{
    uint64_t b = n->topo_ops->vc_buffer ? n->topo_ops->vc_buffer(n->topo, router, port) : 0;
    return b ? b : n->params.vc_buffer;
}

uint64_t net_downstream_buffer(const net_model *n, uint64_t router, int32_t port)
{
    net_peer q = n->topo_ops->peer(n->topo, router, port);
    return q.kind == NET_PEER_ROUTER ? net_input_buffer(n, q.id, q.port) : 0;
}

const net_network_ops net_packet_network = {
    .name = NULL,
    .section = "network",
    .setup = packet_setup,
    .destroy = packet_destroy,
    .lp_type = packet_lp_type,
    .map = packet_map,
    .lookahead = packet_lookahead,
};
