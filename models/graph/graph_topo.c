/* graph/graph_topo.c — any network read from a file (graph_read.h) as a
 * network-layer topology: ports in compressed rows, routing by
 * shortest-path tables with ECMP per message and a VC class per hop
 * (net/spt.h).
 * Invariant: peer() is symmetric; route() always takes a hop one closer to
 * the destination's router, so a packet's hops never exceed the diameter
 * (the VC classes). Called through graph_topology by models/net. */
#include <stdlib.h>
#include <string.h>

#include "graph/graph.h"
#include "graph/graph_read.h"
#include "graph/graph_routes.h"
#include "net/spt.h"

static const char *const format_names[] = {"anynet", "edges", NULL};
static const char *const routing_names[] = {"shortest", "adaptive", NULL};

typedef struct graph_topo {
    graph_desc d;
    char *path;
    graph_format format;
    /* router-router ports: entries off[r] .. off[r+1]-1 are ports 0.. of r */
    uint64_t *off, *to;
    int32_t *port, *peer_port;
    double *bandwidth, *latency;
    /* terminal ports: entries toff[r] .. toff[r+1]-1 follow r's router ports */
    uint64_t *toff, *tnode;
    int32_t *tport; /* port of each node at its router */
    int32_t max_radix;
    double term_bandwidth, term_latency;
    net_spt spt;
    char *routes_path;  /* [graph] routes, or NULL: shortest paths */
    graph_routes routes;
    int adaptive;       /* routing = adaptive: the least occupied candidate */
    int32_t classes, vcs;
} graph_topo;

/* Ports in compressed rows from the sorted links: a link's two ends take
 * the next free port of each router, in link order. */
static void wire(graph_topo *t, double bw, double lat)
{
    const graph_desc *d = &t->d;
    uint64_t R = d->routers, E = d->nlinks;
    t->off = warp_xcalloc(R + 1, sizeof *t->off);
    for (uint64_t i = 0; i < E; i++) {
        t->off[d->links[i].a + 1]++;
        t->off[d->links[i].b + 1]++;
    }
    for (uint64_t r = 0; r < R; r++)
        t->off[r + 1] += t->off[r];
    t->to = warp_xcalloc(2 * E + 1, sizeof *t->to);
    t->port = warp_xcalloc(2 * E + 1, sizeof *t->port);
    t->peer_port = warp_xcalloc(2 * E + 1, sizeof *t->peer_port);
    t->bandwidth = warp_xcalloc(2 * E + 1, sizeof *t->bandwidth);
    t->latency = warp_xcalloc(2 * E + 1, sizeof *t->latency);
    uint64_t *fill = warp_xcalloc(R, sizeof *fill);
    for (uint64_t i = 0; i < E; i++) {
        const graph_link *l = &d->links[i];
        uint64_t ea = t->off[l->a] + fill[l->a]++, eb = t->off[l->b] + fill[l->b]++;
        t->to[ea] = l->b;
        t->to[eb] = l->a;
        t->port[ea] = (int32_t)(ea - t->off[l->a]);
        t->port[eb] = (int32_t)(eb - t->off[l->b]);
        t->peer_port[ea] = t->port[eb];
        t->peer_port[eb] = t->port[ea];
        t->bandwidth[ea] = t->bandwidth[eb] = l->bandwidth > 0 ? l->bandwidth : bw;
        t->latency[ea] = t->latency[eb] = l->latency >= 0 ? l->latency : lat;
    }
    /* terminals of each router, in node order, after its router ports */
    t->toff = warp_xcalloc(R + 1, sizeof *t->toff);
    for (uint64_t n = 0; n < d->nodes; n++)
        t->toff[d->node_router[n] + 1]++;
    for (uint64_t r = 0; r < R; r++)
        t->toff[r + 1] += t->toff[r];
    t->tnode = warp_xcalloc(d->nodes, sizeof *t->tnode);
    t->tport = warp_xcalloc(d->nodes, sizeof *t->tport);
    memset(fill, 0, R * sizeof *fill);
    t->max_radix = 0;
    for (uint64_t n = 0; n < d->nodes; n++) {
        uint64_t r = d->node_router[n], i = fill[r]++;
        t->tnode[t->toff[r] + i] = n;
        t->tport[n] = (int32_t)(t->off[r + 1] - t->off[r] + i);
    }
    for (uint64_t r = 0; r < R; r++) {
        uint64_t radix = t->off[r + 1] - t->off[r] + t->toff[r + 1] - t->toff[r];
        t->max_radix = (int32_t)(radix > (uint64_t)t->max_radix ? radix : (uint64_t)t->max_radix);
    }
    free(fill);
}

static void *graph_setup(warp_ini *ini, net_params *params)
{
    graph_topo *t = warp_xcalloc(1, sizeof *t);
    const char *path = warp_ini_string(ini, "graph", "file", NULL);
    if (!path || !*path)
        warp_ini_fail(ini, "graph", "file",
                      "missing; give the network file (BookSim anynet or an edge list: "
                      "models/graph/README.md)");
    t->path = warp_xstrdup(path);
    t->format = (graph_format)warp_ini_choice(ini, "graph", "format", format_names, GRAPH_ANYNET);
    int64_t terminals = warp_ini_int(ini, "graph", "terminals", 1, 1, 4096);
    if (t->format == GRAPH_ANYNET && warp_ini_string(ini, "graph", "terminals", NULL))
        warp_ini_fail(ini, "graph", "terminals",
                      "an anynet file attaches its nodes itself; remove terminals or use format = edges");
    t->adaptive = warp_ini_choice(ini, "graph", "routing", routing_names, 0) == 1;
    const char *routes = warp_ini_string(ini, "graph", "routes", NULL);
    if (routes && !*routes)
        warp_ini_fail(ini, "graph", "routes", "empty; give the routing table file or remove the key");
    double max_bytes = (double)warp_ini_bytes(ini, "graph", "max_memory", UINT64_C(4) << 30);
    double bw = warp_ini_bandwidth(ini, "graph", "link_bandwidth", params->link_bandwidth);
    if (!(bw > 0))
        warp_ini_fail(ini, "graph", "link_bandwidth", "must be positive (e.g. 100Gbps)");
    double lat = warp_ini_time_ns(ini, "graph", "link_latency", params->link_latency);
    if (lat < 0)
        warp_ini_fail(ini, "graph", "link_latency", "must not be negative");
    t->term_bandwidth = warp_ini_bandwidth(ini, "graph", "terminal_bandwidth", params->link_bandwidth);
    if (!(t->term_bandwidth > 0))
        warp_ini_fail(ini, "graph", "terminal_bandwidth", "must be positive (e.g. 100Gbps)");
    t->term_latency = warp_ini_time_ns(ini, "graph", "terminal_latency", params->terminal_latency);
    if (t->term_latency < 0)
        warp_ini_fail(ini, "graph", "terminal_latency", "must not be negative");

    graph_read(t->path, t->format, (uint64_t)terminals, max_bytes, &t->d);
    wire(t, bw, lat);
    t->spt = (net_spt){.routers = t->d.routers, .off = t->off, .to = t->to, .port = t->port};
    net_spt_build(&t->spt);
    if (t->spt.far_a != t->spt.far_b)
        warp_ini_fail(ini, "graph", "file",
                      "%s: router %llu cannot reach router %llu: the network is disconnected; link "
                      "its parts",
                      t->path, (unsigned long long)t->spt.far_a, (unsigned long long)t->spt.far_b);
    t->classes = t->spt.diameter > 0 ? (int32_t)t->spt.diameter : 1;
    if (routes) {
        if (graph_routes_bytes(t->d.routers) > max_bytes)
            warp_ini_fail(ini, "graph", "routes",
                          "a routing table of %llu routers needs about %.1f GiB to read and check; "
                          "the limit is %.1f GiB: raise [graph] max_memory",
                          (unsigned long long)t->d.routers, graph_routes_bytes(t->d.routers) / 1073741824.0,
                          max_bytes / 1073741824.0);
        t->routes_path = warp_xstrdup(routes);
        graph_wiring w = {.routers = t->d.routers, .off = t->off, .to = t->to, .toff = t->toff};
        graph_routes_read(t->routes_path, &w, &t->routes);
        t->classes = t->routes.max_hops > 0 ? (int32_t)t->routes.max_hops : 1;
    } else if (t->classes > NET_MAX_VCS) {
        warp_ini_fail(ini, "graph", "file",
                      "%s: the network's diameter is %d router hops, and shortest-path routing "
                      "takes a VC per hop to be deadlock-free, but a port has at most %d VCs; give a "
                      "network of diameter %d or less, or a routing table with shorter walks "
                      "([graph] routes)",
                      t->path, (int)t->classes, NET_MAX_VCS, NET_MAX_VCS);
    }
    t->vcs = (int32_t)warp_ini_int(ini, "graph", "vcs", t->classes, 1, NET_MAX_VCS);
    if (t->vcs < t->classes)
        warp_ini_fail(ini, "graph", "vcs",
                      "%s %d router hops and the routing needs a VC per hop to be deadlock-free; "
                      "set vcs to at least %d or remove it",
                      routes ? "the routing table's longest walk has" : "the network's diameter is",
                      (int)t->classes, (int)t->classes);
    return t;
}

static void graph_destroy(void *topo)
{
    graph_topo *t = topo;
    net_spt_free(&t->spt);
    graph_routes_free(&t->routes);
    free(t->routes_path);
    graph_desc_free(&t->d);
    free(t->off);
    free(t->to);
    free(t->port);
    free(t->peer_port);
    free(t->bandwidth);
    free(t->latency);
    free(t->toff);
    free(t->tnode);
    free(t->tport);
    free(t->path);
    free(t);
}

static uint64_t graph_nodes(const void *topo) { return ((const graph_topo *)topo)->d.nodes; }
static uint64_t graph_routers(const void *topo) { return ((const graph_topo *)topo)->d.routers; }
static int32_t graph_radix(const void *topo, uint64_t r)
{
    const graph_topo *t = topo;
    return (int32_t)(t->off[r + 1] - t->off[r] + t->toff[r + 1] - t->toff[r]);
}
static int32_t graph_max_radix(const void *topo) { return ((const graph_topo *)topo)->max_radix; }
static int32_t graph_vcs(const void *topo) { return ((const graph_topo *)topo)->vcs; }

static net_peer graph_peer(const void *topo, uint64_t r, int32_t port)
{
    const graph_topo *t = topo;
    uint64_t deg = t->off[r + 1] - t->off[r];
    if ((uint64_t)port < deg) {
        uint64_t e = t->off[r] + (uint64_t)port;
        return (net_peer){.kind = NET_PEER_ROUTER, .id = t->to[e], .port = t->peer_port[e],
                          .bandwidth = t->bandwidth[e], .latency = t->latency[e]};
    }
    uint64_t n = t->tnode[t->toff[r] + (uint64_t)port - deg];
    return (net_peer){.kind = NET_PEER_TERMINAL, .id = n,
                      .bandwidth = t->d.node_bandwidth[n] > 0 ? t->d.node_bandwidth[n] : t->term_bandwidth,
                      .latency = t->d.node_latency[n] >= 0 ? t->d.node_latency[n] : t->term_latency};
}

static net_attach graph_attach(const void *topo, uint64_t term)
{
    const graph_topo *t = topo;
    return (net_attach){t->d.node_router[term], t->tport[term]};
}

static net_route_out graph_route(const void *topo, const net_route_in *in)
{
    const graph_topo *t = topo;
    net_route_out o = {.aux = {in->aux[0], in->aux[1]}};
    uint64_t dr = t->d.node_router[in->dst];
    if (in->router == dr) {
        o.port = t->tport[in->dst];
        return o;
    }
    const net_route_in *adapt = t->adaptive ? in : NULL;
    if (t->routes_path) {
        int32_t n;
        const int32_t *ports = graph_routes_at(&t->routes, in->router, dr, &n);
        o.port = net_spt_choose(ports, n, in->router, in->flow, adapt);
    } else {
        o.port = net_spt_next(&t->spt, in->router, dr, in->flow, adapt);
    }
    o.vc = net_spt_vc(t->classes, t->vcs, in->hops, in->flow);
    return o;
}

static int32_t graph_route_ports(const void *topo, uint64_t r, uint64_t dst, int32_t *ports, int32_t max)
{
    const graph_topo *t = topo;
    uint64_t dr = t->d.node_router[dst];
    if (t->routes_path) {
        int32_t n;
        const int32_t *cand = graph_routes_at(&t->routes, r, dr, &n);
        n = r == dr ? 0 : n < max ? n : max;
        memcpy(ports, cand, (size_t)n * sizeof *ports);
        return n;
    }
    return net_spt_ports(&t->spt, r, dr, ports, max);
}

static uint32_t graph_min_hops(const void *topo, uint64_t src, uint64_t dst)
{
    const graph_topo *t = topo;
    return net_spt_hops(&t->spt, t->d.node_router[src], t->d.node_router[dst]);
}

static size_t graph_mem(const void *topo)
{
    const graph_topo *t = topo;
    uint64_t R = t->d.routers, E = t->d.nlinks, N = t->d.nodes;
    return sizeof *t + (size_t)(E * sizeof(graph_link) + N * 48 + 2 * (R + 1) * 8 + 2 * E * 40) +
           (size_t)net_spt_table_bytes(R) + (t->routes_path ? (size_t)(R * R * 5) : 0);
}

static void graph_describe(const void *topo, FILE *f)
{
    const graph_topo *t = topo;
    uint64_t R = t->d.routers, N = t->d.nodes;
    fprintf(f, "file: %s\n", t->path);
    fprintf(f, "format: %s\n", format_names[t->format]);
    fprintf(f, "router_links: %llu\n", (unsigned long long)t->d.nlinks);
    int32_t lo = graph_radix(t, 0);
    for (uint64_t r = 1; r < R; r++)
        lo = graph_radix(t, r) < lo ? graph_radix(t, r) : lo;
    fprintf(f, "radix_min: %d\n", (int)lo);
    fprintf(f, "diameter: %u\n", t->spt.diameter);
    /* mean router hops between two distinct nodes */
    double sum = 0;
    for (uint64_t a = 0; a < R; a++)
        for (uint64_t b = 0; b < R; b++)
            sum += (double)(t->toff[a + 1] - t->toff[a]) * (double)(t->toff[b + 1] - t->toff[b]) *
                   net_spt_hops(&t->spt, a, b);
    fprintf(f, "mean_hops: %.4g\n", N > 1 ? sum / ((double)N * (double)(N - 1)) : 0.0);
    const char *pick = t->adaptive ? "the least occupied, ties by ECMP" : "ECMP per message";
    if (t->routes_path) {
        fprintf(f, "routes: %s\n", t->routes_path);
        fprintf(f, "routes_max_hops: %u\n", t->routes.max_hops);
        fprintf(f, "routing: table from the routes file (%s, a VC per hop)\n", pick);
    } else {
        fprintf(f, "routing: %s (%s%s, a VC per hop)\n", t->adaptive ? "adaptive" : "shortest",
                t->adaptive ? "shortest paths, " : "", pick);
    }
}

static int graph_adaptive(const void *topo) { return ((const graph_topo *)topo)->adaptive; }

static const warp_key graph_keys[] = {
    {"file", WARP_KEY_FILE, "(required)", NULL, "the network file (relative to where warpnet runs)"},
    {"format", WARP_KEY_CHOICE, "anynet", "anynet | edges",
     "BookSim's anynet, or A B [BANDWIDTH] [LATENCY] per line"},
    {"terminals", WARP_KEY_COUNT, "1", "1..4096", "edges format only: terminals per router"},
    {"routing", WARP_KEY_CHOICE, "shortest", "shortest | adaptive",
     "among the minimal next hops (or the routes file's): ECMP per message, or the least occupied"},
    {"routes", WARP_KEY_FILE, "(none: shortest paths)", NULL,
     "a routing table: ROUTER DEST|* PORT [PORT ...] per line (models/graph/README.md)"},
    {"vcs", WARP_KEY_COUNT, "(the diameter)", "1..8", "VCs (a VC per hop; fewer is an error)"},
    {"link_bandwidth", WARP_KEY_RATE, "([network] link_bandwidth)", "> 0", "links the file gives no bandwidth"},
    {"link_latency", WARP_KEY_TIME, "([network] link_latency)", ">= 0", "links the file gives no latency"},
    {"terminal_bandwidth", WARP_KEY_RATE, "([network] link_bandwidth)", "> 0", "router-terminal links"},
    {"terminal_latency", WARP_KEY_TIME, "([network] terminal_latency)", ">= 0", "router-terminal links"},
    {"max_memory", WARP_KEY_SIZE, "4GiB", "> 0",
     "files whose arrays and routing table would need more are refused before reading on"},
    {0},
};

static const warp_key_group graph_groups[] = {
    {"graph", "a network read from a file (BookSim anynet or an edge list)", graph_keys, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

const net_topology_ops graph_topology = {
    .name = "graph",
    .section = "graph",
    .keys = graph_groups,
    .routings = routing_names,
    .setup = graph_setup,
    .destroy = graph_destroy,
    .nodes = graph_nodes,
    .routers = graph_routers,
    .radix = graph_radix,
    .max_radix = graph_max_radix,
    .vcs = graph_vcs,
    .peer = graph_peer,
    .attach = graph_attach,
    .route = graph_route,
    .route_ports = graph_route_ports,
    .mem_bytes = graph_mem,
    .min_hops = graph_min_hops,
    .describe = graph_describe,
    .adaptive = graph_adaptive,
};
