/* hyperx/hyperx_topo.c — the HyperX as a network-layer topology: reads
 * [hyperx], answers sizes and wiring by coordinate arithmetic
 * (hyperx_shape.h) and routes with hyperx_route.c.
 * Invariant: the description is a few numbers per dimension (O(L) memory
 * whatever the size) and peer() is symmetric. Called through
 * hyperx_topology by models/net. */
#include <stdlib.h>
#include <string.h>

#include "hyperx/hyperx.h"
#include "hyperx/hyperx_shape.h"

static const char *const routing_names[] = {"dor", "dal", NULL};

/* Reads the size list of dims and the trunking (one value for all, or one
 * per dimension) into h. */
static void read_dims(warp_ini *ini, hyperx *h)
{
    int64_t v[HYPERX_MAX_DIMS + 1];
    if (!warp_ini_string(ini, "hyperx", "dims", NULL))
        warp_ini_fail(ini, "hyperx", "dims",
                      "missing; give the routers in each dimension (dims = 8,8,8)");
    int n = warp_ini_int_list(ini, "hyperx", "dims", v, HYPERX_MAX_DIMS + 1);
    if (n < 1 || n > HYPERX_MAX_DIMS)
        warp_ini_fail(ini, "hyperx", "dims", "give 1 to %d dimensions", HYPERX_MAX_DIMS);
    h->n = n;
    uint64_t routers = 1;
    int wide = 0;
    for (int d = 0; d < n; d++) {
        if (v[d] < 1 || v[d] > (INT64_C(1) << 20))
            warp_ini_fail(ini, "hyperx", "dims", "dimension %d has size %lld; sizes are 1 .. 2^20",
                          d, (long long)v[d]);
        h->S[d] = v[d];
        h->stride[d] = routers;
        if (routers > (UINT64_C(1) << 40) / (uint64_t)v[d])
            warp_ini_fail(ini, "hyperx", "dims", "more than 2^40 routers; give smaller dimensions");
        routers *= (uint64_t)v[d];
        wide |= v[d] >= 2;
    }
    if (!wide)
        warp_ini_fail(ini, "hyperx", "dims", "every dimension has size 1 (one router); give a "
                                             "dimension of size 2 or more");
    h->routers = routers;
    int k = 1;
    v[0] = 1;
    if (warp_ini_string(ini, "hyperx", "trunking", NULL))
        k = warp_ini_int_list(ini, "hyperx", "trunking", v, HYPERX_MAX_DIMS + 1);
    if (k != 1 && k != n)
        warp_ini_fail(ini, "hyperx", "trunking",
                      "%d values for %d dimensions; give one value (every dimension) or one per "
                      "dimension",
                      k, n);
    int64_t ports = 0;
    for (int d = 0; d < n; d++) {
        h->K[d] = v[k == 1 ? 0 : d];
        if (h->K[d] < 1 || h->K[d] > 1024)
            warp_ini_fail(ini, "hyperx", "trunking",
                          "dimension %d has %lld links per router pair; give 1 .. 1024", d,
                          (long long)h->K[d]);
        h->base[d] = (int32_t)ports;
        ports += (h->S[d] - 1) * h->K[d];
        if (ports > 65536)
            warp_ini_fail(ini, "hyperx", "dims",
                          "a router would have more than 65536 network ports ((S_d - 1) x K_d "
                          "summed over the dimensions); give smaller dimensions or trunking");
    }
    h->net_ports = (int32_t)ports;
}

static void *hx_setup(warp_ini *ini, net_params *params)
{
    hyperx *h = warp_xcalloc(1, sizeof *h);
    read_dims(ini, h);
    h->T = warp_ini_int(ini, "hyperx", "terminals", 1, 1, 4096);
    int64_t want = warp_ini_int(ini, "hyperx", "nodes", 0, 0, INT64_MAX);
    if (want && (uint64_t)want != h->routers * (uint64_t)h->T)
        warp_ini_fail(ini, "hyperx", "nodes",
                      "dims multiply to %llu routers x %lld terminals = %llu nodes, not %lld; fix "
                      "dims, terminals or nodes",
                      (unsigned long long)h->routers, (long long)h->T,
                      (unsigned long long)(h->routers * (uint64_t)h->T), (long long)want);
    h->routing = (hx_routing)warp_ini_choice(ini, "hyperx", "routing", routing_names, HX_DOR);
    h->classes = hx_route_classes(h, h->routing);
    if (h->classes > NET_MAX_VCS)
        warp_ini_fail(ini, "hyperx", "routing",
                      "dal needs a VC per hop of its longest path, %d here (one minimal hop and one "
                      "deroute per dimension of size 3 or more), but a port has at most %d; use "
                      "routing = dor or fewer dimensions",
                      h->classes, NET_MAX_VCS);
    h->vcs = (int)warp_ini_int(ini, "hyperx", "vcs", h->classes, 1, NET_MAX_VCS);
    if (h->vcs < h->classes)
        warp_ini_fail(ini, "hyperx", "vcs",
                      "routing = %s needs %d VCs to be deadlock-free (a VC class per hop of its "
                      "longest path, models/hyperx/README.md); set vcs to at least %d or remove it",
                      routing_names[h->routing], h->classes, h->classes);
    h->threshold = (double)warp_ini_bytes(ini, "hyperx", "dal_threshold", 0);
    h->bandwidth = warp_ini_bandwidth(ini, "hyperx", "link_bandwidth", params->link_bandwidth);
    if (!(h->bandwidth > 0))
        warp_ini_fail(ini, "hyperx", "link_bandwidth", "must be positive (e.g. 100Gbps)");
    h->latency = warp_ini_time_ns(ini, "hyperx", "link_latency", params->link_latency);
    if (h->latency < 0)
        warp_ini_fail(ini, "hyperx", "link_latency", "must not be negative");
    h->term_bandwidth = warp_ini_bandwidth(ini, "hyperx", "terminal_bandwidth", params->link_bandwidth);
    if (!(h->term_bandwidth > 0))
        warp_ini_fail(ini, "hyperx", "terminal_bandwidth", "must be positive (e.g. 100Gbps)");
    h->term_latency = warp_ini_time_ns(ini, "hyperx", "terminal_latency", params->terminal_latency);
    if (h->term_latency < 0)
        warp_ini_fail(ini, "hyperx", "terminal_latency", "must not be negative");
    return h;
}

static void hx_destroy(void *topo) { free(topo); }
static uint64_t hx_nodes(const void *topo)
{
    const hyperx *h = topo;
    return h->routers * (uint64_t)h->T;
}
static uint64_t hx_routers(const void *topo) { return ((const hyperx *)topo)->routers; }
static int32_t hx_max_radix(const void *topo)
{
    const hyperx *h = topo;
    return h->net_ports + (int32_t)h->T;
}
static int32_t hx_radix(const void *topo, uint64_t r) { return hx_max_radix(topo); }
static int32_t hx_vcs(const void *topo) { return ((const hyperx *)topo)->vcs; }

/* The dimension port p belongs to (p < net_ports). */
static int dim_of(const hyperx *h, int32_t p)
{
    int d = 0;
    while (d + 1 < h->n && p >= h->base[d + 1])
        d++;
    return d;
}

static net_peer hx_link(const void *topo, uint64_t r, int32_t port)
{
    (void)r;
    const hyperx *h = topo;
    if (port >= h->net_ports)
        return (net_peer){.kind = NET_PEER_TERMINAL, .bandwidth = h->term_bandwidth,
                          .latency = h->term_latency};
    return (net_peer){.kind = NET_PEER_ROUTER, .bandwidth = h->bandwidth, .latency = h->latency};
}

static net_peer hx_peer(const void *topo, uint64_t r, int32_t port)
{
    const hyperx *h = topo;
    net_peer q = hx_link(topo, r, port);
    if (q.kind == NET_PEER_TERMINAL) {
        q.id = r * (uint64_t)h->T + (uint64_t)(port - h->net_ports);
        return q;
    }
    int d = dim_of(h, port);
    int64_t off = port - h->base[d], j = off / h->K[d], k = off % h->K[d];
    int64_t c = hx_coord(h, r, d), v = j + (j >= c);
    q.id = r + (uint64_t)v * h->stride[d] - (uint64_t)c * h->stride[d];
    q.port = hx_port(h, d, v, c, k);
    return q;
}

static net_attach hx_attach(const void *topo, uint64_t term)
{
    const hyperx *h = topo;
    return (net_attach){term / (uint64_t)h->T, h->net_ports + (int32_t)(term % (uint64_t)h->T)};
}

static net_route_out hx_route_op(const void *topo, const net_route_in *in)
{
    return hx_route(topo, in);
}

static uint32_t hx_min_hops(const void *topo, uint64_t src, uint64_t dst)
{
    const hyperx *h = topo;
    return hx_distance(h, src / (uint64_t)h->T, dst / (uint64_t)h->T);
}

static size_t hx_mem(const void *topo) { return sizeof(hyperx); }

static void hx_label(const void *topo, uint64_t r, char *buf, size_t n)
{
    const hyperx *h = topo;
    size_t used = (size_t)snprintf(buf, n, "r(");
    for (int d = 0; d < h->n && used < n; d++)
        used += (size_t)snprintf(buf + used, n - used, "%s%lld", d ? "," : "",
                                 (long long)hx_coord(h, r, d));
    if (used < n)
        snprintf(buf + used, n - used, ")");
}

/* The dimension of the worst case: fewest links per router pair, the
 * first such of size 2 or more. */
static int worst_dim(const hyperx *h)
{
    int w = -1;
    for (int d = 0; d < h->n; d++)
        if (h->S[d] >= 2 && (w < 0 || h->K[d] < h->K[w]))
            w = d;
    return w;
}

static uint64_t hx_worst_case_dst(const void *topo, uint64_t term)
{
    const hyperx *h = topo;
    int d = worst_dim(h);
    uint64_t r = term / (uint64_t)h->T;
    int64_t c = hx_coord(h, r, d), c2 = (c + 1) % h->S[d];
    r = r + (uint64_t)c2 * h->stride[d] - (uint64_t)c * h->stride[d];
    return r * (uint64_t)h->T + term % (uint64_t)h->T;
}

/* Cutting dimension d into halves of floor(S_d/2) and ceil(S_d/2) coordinates
 * cuts (R / S_d) floor(S_d/2) ceil(S_d/2) K_d links (equal halves when S_d
 * is even); the narrowest such cut. */
static double hx_bisection(const void *topo)
{
    const hyperx *h = topo;
    double best = -1;
    for (int pass = 0; pass < 2 && best < 0; pass++) /* even dimensions first */
        for (int d = 0; d < h->n; d++) {
            if (h->S[d] < 2 || (pass == 0 && h->S[d] % 2))
                continue;
            double cut = (double)h->routers / (double)h->S[d] * (double)(h->S[d] / 2) *
                         (double)((h->S[d] + 1) / 2) * (double)h->K[d];
            if (best < 0 || cut < best)
                best = cut;
        }
    return best * h->bandwidth;
}

static void hx_describe(const void *topo, FILE *f)
{
    const hyperx *h = topo;
    fprintf(f, "dimensions: %d\n", h->n);
    fprintf(f, "dims:");
    for (int d = 0; d < h->n; d++)
        fprintf(f, "%s%lld", d ? "," : " ", (long long)h->S[d]);
    fprintf(f, "\ntrunking:");
    for (int d = 0; d < h->n; d++)
        fprintf(f, "%s%lld", d ? "," : " ", (long long)h->K[d]);
    fprintf(f, "\nterminals_per_router: %lld\n", (long long)h->T);
    fprintf(f, "network_ports: %d\n", (int)h->net_ports);
    fprintf(f, "router_links: %llu\n", (unsigned long long)(h->routers * (uint64_t)h->net_ports / 2));
    int diameter = 0;
    for (int d = 0; d < h->n; d++)
        diameter += h->S[d] >= 2;
    fprintf(f, "diameter: %d\n", diameter);
    fprintf(f, "bisection_GBps: %g\n", hx_bisection(topo));
    fprintf(f, "routing: %s\n", routing_names[h->routing]);
}

/* Blocks of whole dimension-0 lines: routers r .. r + S_0 - 1 are
 * all-to-all, so a part holds whole lines where balance allows. */
static void hx_partition(const void *topo, const double *load, uint32_t parts, uint32_t *part)
{
    const hyperx *h = topo;
    net_partition_runs(load, h->routers, NULL, (uint64_t)h->S[0], parts, part);
}

static int32_t hx_route_ports(const void *topo, uint64_t r, uint64_t dst, int32_t *ports, int32_t max)
{
    const hyperx *h = topo;
    if (h->routing != HX_DOR || max < 1 || r == dst / (uint64_t)h->T)
        return 0;
    uint64_t dr = dst / (uint64_t)h->T;
    for (int d = 0; d < h->n; d++) {
        int64_t c = hx_coord(h, r, d), t = hx_coord(h, dr, d);
        if (c != t) {
            if (h->K[d] > 1)
                return 0;
            ports[0] = hx_port(h, d, c, t, 0);
            return 1;
        }
    }
    return 0;
}

static const warp_key hx_keys[] = {
    {"dims", WARP_KEY_LIST, "(required)", "1 to 16 dimensions", "routers per dimension (8,8,8)"},
    {"trunking", WARP_KEY_LIST, "1", "one value, or one per dimension",
     "links between two routers of a dimension"},
    {"terminals", WARP_KEY_COUNT, "1", "1..4096", "terminals per router"},
    {"nodes", WARP_KEY_COUNT, "0", ">= 0", "when given, checked against the product"},
    {"routing", WARP_KEY_CHOICE, "dor", "dor | dal", "dimension order, or DAL (adaptive deroutes)"},
    {"dal_threshold", WARP_KEY_SIZE, "0B", ">= 0", "bytes a deroute must save"},
    {"vcs", WARP_KEY_COUNT, "(what the routing needs)", "1..8", "VCs (dor 1, dal one per hop of its longest path)"},
    {"link_bandwidth", WARP_KEY_RATE, "([network] link_bandwidth)", "> 0", "router-router links"},
    {"link_latency", WARP_KEY_TIME, "([network] link_latency)", ">= 0", "router-router links"},
    {"terminal_bandwidth", WARP_KEY_RATE, "([network] link_bandwidth)", "> 0", "router-terminal links"},
    {"terminal_latency", WARP_KEY_TIME, "([network] terminal_latency)", ">= 0", "router-terminal links"},
    {0},
};

static const warp_key_group hx_groups[] = {
    {"hyperx", "HyperX (flattened butterfly): all-to-all in every dimension", hx_keys, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

static int hx_adaptive(const void *topo) { return ((const hyperx *)topo)->routing == HX_DAL; }

const net_topology_ops hyperx_topology = {
    .name = "hyperx",
    .section = "hyperx",
    .keys = hx_groups,
    .routings = routing_names,
    .setup = hx_setup,
    .destroy = hx_destroy,
    .nodes = hx_nodes,
    .routers = hx_routers,
    .radix = hx_radix,
    .max_radix = hx_max_radix,
    .vcs = hx_vcs,
    .peer = hx_peer,
    .link = hx_link,
    .attach = hx_attach,
    .route = hx_route_op,
    .route_ports = hx_route_ports,
    .mem_bytes = hx_mem,
    .router_label = hx_label,
    .min_hops = hx_min_hops,
    .worst_case_dst = hx_worst_case_dst,
    .bisection_bandwidth = hx_bisection,
    .describe = hx_describe,
    .partition = hx_partition,
    .adaptive = hx_adaptive,
};
