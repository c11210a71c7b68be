/* fattree_topo.c — adapts the pure fat-tree arithmetic (fattree.c) to the
 * network layer's topology interface: reads [fattree], answers wiring
 * questions and routes one hop at a time.
 * Invariant: the description is a few scalars, read-only after setup; up/down
 * routing needs one VC for deadlock freedom (no route turns down then up, so
 * the channel dependency graph has no cycle). Called by models/net. */
#include "fattree/fattree_topo.h"

#include <stdio.h>
#include <stdlib.h>

#include "fattree/fattree.h"

typedef struct ft_topo {
    fattree ft;
    fattree_routing routing;
    int per_packet;      /* ecmp = per-packet: hash a per-packet key, not the flow */
    double host_bw;      /* bytes/ns of node-switch links */
    double switch_bw;    /* bytes/ns of switch-switch links */
    double latency;      /* ns of propagation on switch-switch links */
    double term_latency; /* ns on the links to the nodes */
    uint64_t below;      /* k^(n-2): switches per group and level, top switches per pod pair */
    uint64_t per_pair;   /* (2n-1) * below: routers of one pod pair */
    fattree_divisor by_below, by_pair, by_pod; /* by below, per_pair, (n-1) * below */
} ft_topo;

static const char *const routing_names[] = {"ecmp", "adaptive", NULL};
static const char *const ecmp_names[] = {"per-flow", "per-packet", NULL};

#define SEC "fattree"

static void *ft_setup(warp_ini *ini, net_params *params)
{
    ft_topo *t = warp_xcalloc(1, sizeof *t);
    int64_t m, n;
    if (warp_ini_get(ini, SEC, "pods")) {
        /* the k-ary three-level data-centre fat-tree is the k-port 3-tree */
        if (warp_ini_get(ini, SEC, "ports") || warp_ini_get(ini, SEC, "levels"))
            warp_ini_fail(ini, SEC, "pods",
                          "give either pods (the k-ary 3-level form) or ports and levels, not both");
        m = warp_ini_int(ini, SEC, "pods", 8, 2, FATTREE_MAX_PORTS);
        n = 3;
        if (m % 2)
            warp_ini_fail(ini, SEC, "pods", "the pod count k must be even (k-ary fat-tree)");
    } else {
        m = warp_ini_int(ini, SEC, "ports", 8, 2, FATTREE_MAX_PORTS);
        n = warp_ini_int(ini, SEC, "levels", 3, 1, FATTREE_MAX_LEVELS);
        if (m % 2)
            warp_ini_fail(ini, SEC, "ports", "an m-port n-tree needs an even port count");
    }
    const char *why = fattree_init(&t->ft, (uint32_t)m, (uint32_t)n);
    if (why) {
        free(t); /* the run stops here; nothing may look leaked */
        warp_ini_fail(ini, SEC, warp_ini_get(ini, SEC, "pods") ? "pods" : "ports", "%s", why);
    }
    t->routing = (fattree_routing)warp_ini_choice(ini, SEC, "routing", routing_names, FATTREE_ECMP);
    t->per_packet = warp_ini_choice(ini, SEC, "ecmp", ecmp_names, 0);
    t->host_bw = warp_ini_bandwidth(ini, SEC, "host_bandwidth", params->link_bandwidth);
    t->switch_bw = warp_ini_bandwidth(ini, SEC, "switch_bandwidth", params->link_bandwidth);
    if (!(t->host_bw > 0))
        warp_ini_fail(ini, SEC, "host_bandwidth", "must be positive");
    if (!(t->switch_bw > 0))
        warp_ini_fail(ini, SEC, "switch_bandwidth", "must be positive");
    t->latency = params->link_latency;
    t->term_latency = params->terminal_latency;
    if (t->ft.n >= 2) {
        t->below = t->ft.kpow[t->ft.n - 2];
        t->per_pair = (2 * (uint64_t)t->ft.n - 1) * t->below;
        t->by_below = fattree_divisor_of(t->below);
        t->by_pair = fattree_divisor_of(t->per_pair);
        t->by_pod = fattree_divisor_of((t->ft.n - 1) * t->below);
    }
    return t;
}

static void ft_destroy(void *topo)
{
    free(topo);
}

static const fattree *tree(const void *topo)
{
    return &((const ft_topo *)topo)->ft;
}

/* Router numbering seen by the network layer: pods in pairs, each pair's
 * 2(n-1)k^(n-2) switches (group by group, level by level) followed by its
 * share of k^(n-2) top switches. The network layer's block-linear LP map
 * then keeps each pod, its nodes and part of the top level on one PE, and
 * gives every PE the same number of pods. */
static uint64_t to_router(const ft_topo *t, uint64_t sw)
{
    if (t->ft.n == 1)
        return sw;
    uint32_t l;
    uint64_t g, w, n1 = t->ft.n - 1;
    fattree_switch_address(&t->ft, sw, &l, &g, &w);
    if (l == n1)
        return fattree_quot(&t->by_below, w) * t->per_pair + 2 * n1 * t->below +
               fattree_rem(&t->by_below, w);
    return g / 2 * t->per_pair + (g % 2 * n1 + l) * t->below + w;
}

static uint64_t to_switch(const ft_topo *t, uint64_t r)
{
    if (t->ft.n == 1)
        return r;
    uint64_t n1 = t->ft.n - 1;
    uint64_t pair = fattree_quot(&t->by_pair, r), o = fattree_rem(&t->by_pair, r);
    if (o >= 2 * n1 * t->below)
        return n1 * t->ft.per_level + pair * t->below + (o - 2 * n1 * t->below);
    uint64_t g = 2 * pair + fattree_quot(&t->by_pod, o), j = fattree_rem(&t->by_pod, o);
    return fattree_quot(&t->by_below, j) * t->ft.per_level + g * t->below +
           fattree_rem(&t->by_below, j);
}

static uint64_t ft_nodes(const void *topo)
{
    return tree(topo)->nodes;
}

static uint64_t ft_routers(const void *topo)
{
    return tree(topo)->switches;
}

static int32_t ft_radix(const void *topo, uint64_t router)
{
    return (int32_t)fattree_switch_ports(tree(topo), to_switch(topo, router));
}

static int32_t ft_max_radix(const void *topo)
{
    return (int32_t)tree(topo)->m;
}

static int32_t ft_vcs(const void *topo)
{
    return 1;
}

static net_peer ft_peer(const void *topo, uint64_t router, int32_t port)
{
    const ft_topo *t = topo;
    fattree_end e = fattree_switch_link(&t->ft, to_switch(t, router), (uint32_t)port);
    net_peer p;
    p.kind = e.kind == FATTREE_NODE ? NET_PEER_TERMINAL : NET_PEER_ROUTER;
    p.port = (int32_t)e.port;
    p.id = e.kind == FATTREE_NODE ? e.id : to_router(t, e.id);
    p.bandwidth = e.kind == FATTREE_NODE ? t->host_bw : t->switch_bw;
    p.latency = e.kind == FATTREE_NODE ? t->term_latency : t->latency;
    return p;
}

static net_attach ft_attach(const void *topo, uint64_t terminal)
{
    fattree_end e = fattree_node_link(tree(topo), terminal);
    net_attach a = {to_router(topo, e.id), (int32_t)e.port};
    return a;
}

/* Per-packet ECMP keys come from one draw of the router's stream, made at the
 * packet's first up decision and carried in aux[0] (0 = not drawn yet). */
static net_route_out ft_route(const void *topo, const net_route_in *in)
{
    const ft_topo *t = topo;
    const fattree *ft = &t->ft;
    net_route_out out = {0, 0, {in->aux[0], in->aux[1]}};
    uint64_t sw = to_switch(t, in->router);
    uint32_t port;
    if (fattree_descend(ft, sw, in->dst, &port)) {
        out.port = (int32_t)port;
        return out;
    }
    fattree_flow f = {in->src, in->dst, in->flow};
    if (t->per_packet) {
        if (!out.aux[0])
            out.aux[0] = (uint32_t)warp_rng_integer(in->rng, 1, UINT32_MAX);
        f.key = (uint64_t)out.aux[0] << 32 | in->flow;
    }
    uint32_t u;
    if (t->routing == FATTREE_ADAPTIVE) {
        uint64_t occ[FATTREE_MAX_PORTS / 2];
        for (uint32_t i = 0; i < ft->k; i++)
            occ[i] = net_port_occupancy(in->router_state, (int32_t)(ft->k + i));
        u = fattree_adaptive_choice(ft, occ,
                                    fattree_flow_hash(&f, fattree_switch_level(ft, sw)));
    } else {
        u = fattree_ecmp_choice(ft, sw, &f);
    }
    out.port = (int32_t)(ft->k + u);
    return out;
}

static size_t ft_mem_bytes(const void *topo)
{
    return sizeof(ft_topo);
}

/* "L1 g3 w0.2" below the top, "L2 t1.3" at the top: level, group, digits. */
static void ft_router_label(const void *topo, uint64_t router, char *buf, size_t n)
{
    const fattree *ft = tree(topo);
    uint32_t l;
    uint64_t g, w;
    fattree_switch_address(ft, to_switch(topo, router), &l, &g, &w);
    int top = l == ft->n - 1;
    uint32_t digits = top ? ft->n - 1 : ft->n - 2;
    int len = top ? snprintf(buf, n, "L%u t", l)
                  : snprintf(buf, n, "L%u g%llu w", l, (unsigned long long)g);
    for (uint32_t i = digits; i-- > 0 && len >= 0 && (size_t)len < n;)
        len += snprintf(buf + len, n - (size_t)len, "%llu%s",
                        (unsigned long long)(w / ft->kpow[i] % ft->k), i ? "." : "");
}

/* Router-to-router hops: 2h links minus the two host links. */
static uint32_t ft_min_hops(const void *topo, uint64_t src, uint64_t dst)
{
    return fattree_route_hops(tree(topo), src, dst) - 2;
}

/* Pods stay whole while there are enough pod pairs: the router numbering
 * (to_router) lists each pod pair with its share of top switches. Inside a
 * pod the order alternates levels (switch w of each level in turn), so a
 * run that takes part of a pod takes both ends of its links. */
static void ft_partition(const void *topo, const double *load, uint32_t parts, uint32_t *part)
{
    const ft_topo *t = topo;
    uint64_t routers = t->ft.switches, n1 = t->ft.n - 1, pairs = routers / t->per_pair;
    uint64_t *order = warp_xcalloc(routers, sizeof *order), i = 0;
    for (uint64_t pair = 0; pair < pairs; pair++) {
        uint64_t base = pair * t->per_pair;
        for (uint64_t pod = 0; pod < 2; pod++)
            for (uint64_t w = 0; w < t->below; w++)
                for (uint64_t l = 0; l < n1; l++)
                    order[i++] = base + (pod * n1 + l) * t->below + w;
        for (uint64_t w = 0; w < t->below; w++)
            order[i++] = base + 2 * n1 * t->below + w;
    }
    for (; i < routers; i++) /* a one-level tree has no pods */
        order[i] = i;
    net_partition_runs(load, routers, order, parts <= pairs ? t->per_pair : 1, parts, part);
    free(order);
}

const net_topology_ops fattree_topology = {
    .name = "fattree",
    .section = SEC,
    .routings = routing_names,
    .setup = ft_setup,
    .destroy = ft_destroy,
    .nodes = ft_nodes,
    .routers = ft_routers,
    .radix = ft_radix,
    .max_radix = ft_max_radix,
    .vcs = ft_vcs,
    .peer = ft_peer,
    .attach = ft_attach,
    .route = ft_route,
    .mem_bytes = ft_mem_bytes,
    .router_label = ft_router_label,
    .min_hops = ft_min_hops,
    .partition = ft_partition,
};
