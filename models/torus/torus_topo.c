/* torus/torus_topo.c — the torus topology: wiring and dimension-order routing by
 * coordinate arithmetic (memory O(dimensions)), dateline VC selection.
 * Invariant: peer() is symmetric and route() is minimal (see torus.h).
 * Called by the network layer through torus_topology. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "torus/torus.h"

/* Which way a packet goes when both ways round a ring are equally long. */
typedef enum torus_ties { TIES_PLUS, TIES_RANDOM, TIES_BALANCED } torus_ties;
static const char *const ties_names[] = {"plus", "random", "balanced", NULL};
/* When a packet takes VC class 1 in a ring (see torus.h). */
typedef enum torus_dateline { DATELINE_HOP, DATELINE_DIMENSION } torus_dateline;
static const char *const dateline_names[] = {"hop", "dimension", NULL};

typedef struct torus {
    int n;
    uint8_t ties;     /* torus_ties */
    uint8_t dateline; /* torus_dateline */
    int64_t k[TORUS_MAX_DIMS];
    uint64_t stride[TORUS_MAX_DIMS];
    int64_t p;
    uint64_t routers;
    double bandwidth, latency;
    double term_bandwidth, term_latency; /* links between a router and its terminals */
} torus;

static int64_t coord(const torus *t, uint64_t r, int d)
{
    return (int64_t)(r / t->stride[d] % (uint64_t)t->k[d]);
}

/* Router one step from r in dimension d, direction +1 or -1. */
static uint64_t step(const torus *t, uint64_t r, int d, int dir)
{
    int64_t c = coord(t, r, d);
    int64_t c2 = c + dir; /* wraps without a third division (peer() runs per packet) */
    c2 = c2 == t->k[d] ? 0 : c2 < 0 ? t->k[d] - 1 : c2;
    return r + (uint64_t)(c2 - c) * t->stride[d];
}

static void *torus_setup(warp_ini *ini, net_params *params)
{
    torus *t = warp_xcalloc(1, sizeof *t);
    int64_t dims[TORUS_MAX_DIMS + 1];
    if (!warp_ini_string(ini, "torus", "dims", NULL))
        warp_ini_fail(ini, "torus", "dims", "missing; give the size of each dimension (dims = 8,8,8)");
    int n = warp_ini_int_list(ini, "torus", "dims", dims, TORUS_MAX_DIMS + 1);
    if (n < 1 || n > TORUS_MAX_DIMS)
        warp_ini_fail(ini, "torus", "dims", "give 1 to %d dimensions", TORUS_MAX_DIMS);
    t->n = n;
    uint64_t routers = 1;
    for (int d = 0; d < n; d++) {
        if (dims[d] < 1 || dims[d] > (INT64_C(1) << 31))
            warp_ini_fail(ini, "torus", "dims", "dimension %d has size %lld; sizes are 1 .. 2^31",
                          d, (long long)dims[d]);
        t->k[d] = dims[d];
        t->stride[d] = routers;
        if (routers > (UINT64_C(1) << 40) / (uint64_t)dims[d])
            warp_ini_fail(ini, "torus", "dims", "more than 2^40 routers");
        routers *= (uint64_t)dims[d];
    }
    t->routers = routers;
    t->p = warp_ini_int(ini, "torus", "nodes_per_router", 1, 1, 1024);
    int64_t want = warp_ini_int(ini, "torus", "nodes", 0, 0, INT64_MAX);
    if (want && (uint64_t)want != routers * (uint64_t)t->p)
        warp_ini_fail(ini, "torus", "nodes",
                      "dims multiply to %llu routers x %lld nodes_per_router = %llu nodes, not %lld; "
                      "fix dims, nodes_per_router or nodes",
                      (unsigned long long)routers, (long long)t->p,
                      (unsigned long long)(routers * (uint64_t)t->p), (long long)want);
    t->bandwidth = params->link_bandwidth;
    t->term_bandwidth = warp_ini_bandwidth(ini, "torus", "terminal_bandwidth", params->link_bandwidth);
    if (!(t->term_bandwidth > 0))
        warp_ini_fail(ini, "torus", "terminal_bandwidth", "must be positive (e.g. 100Gbps)");
    t->latency = params->link_latency;
    t->term_latency = params->terminal_latency;
    t->ties = (uint8_t)warp_ini_choice(ini, "torus", "ties", ties_names, TIES_BALANCED);
    t->dateline = (uint8_t)warp_ini_choice(ini, "torus", "dateline", dateline_names, DATELINE_HOP);
    return t;
}

static void torus_destroy(void *topo) { free(topo); }
static uint64_t torus_nodes(const void *topo)
{
    const torus *t = topo;
    return t->routers * (uint64_t)t->p;
}
static uint64_t torus_routers(const void *topo) { return ((const torus *)topo)->routers; }
static int32_t torus_max_radix(const void *topo)
{
    const torus *t = topo;
    return (int32_t)(2 * t->n + t->p);
}
static int32_t torus_radix(const void *topo, uint64_t r) { return torus_max_radix(topo); }
static int32_t torus_vcs(const void *topo) { return 2; }

/* torus_peer without the far end: no coordinate division (a router event
 * asks for its links' kind and bandwidth 2-4 times). */
static net_peer torus_link(const void *topo, uint64_t r, int32_t port)
{
    (void)r;
    const torus *t = topo;
    net_peer q = {.kind = NET_PEER_NONE, .bandwidth = t->bandwidth, .latency = t->latency};
    if (port >= 2 * t->n) {
        q.kind = NET_PEER_TERMINAL;
        q.bandwidth = t->term_bandwidth;
        q.latency = t->term_latency;
    } else if (t->k[port / 2] != 1) {
        q.kind = NET_PEER_ROUTER;
    }
    return q;
}

static net_peer torus_peer(const void *topo, uint64_t r, int32_t port)
{
    const torus *t = topo;
    net_peer q = torus_link(topo, r, port);
    if (q.kind == NET_PEER_TERMINAL) {
        q.id = r * (uint64_t)t->p + (uint64_t)(port - 2 * t->n);
        q.port = 0;
    } else if (q.kind == NET_PEER_ROUTER) {
        q.id = step(t, r, port / 2, port % 2 ? -1 : 1);
        q.port = port ^ 1;
    }
    return q;
}

static net_attach torus_attach(const void *topo, uint64_t term)
{
    const torus *t = topo;
    net_attach a = {term / (uint64_t)t->p, (int32_t)(2 * t->n + (int64_t)(term % (uint64_t)t->p))};
    return a;
}

/* Direction of a packet at distance k/2 in dimension d from coordinate c.
 * Only the first router of the dimension can see a tie (one step later the
 * rest is shorter than k/2), so the choice holds for the whole dimension.
 * `plus` loads + links with every tie; `balanced` sends even coordinates +
 * and odd ones -, which splits uniform traffic's ties evenly; `random` hashes
 * the message's flow, so a message's packets share a path and reruns agree. */
static int tie_dir(const torus *t, const net_route_in *in, int d, int64_t c)
{
    switch (t->ties) {
    case TIES_BALANCED:
        return c % 2 ? -1 : 1;
    case TIES_RANDOM: {
        uint64_t h = (in->flow + 1) * UINT64_C(0x9E3779B97F4A7C15) ^ (uint64_t)d * UINT64_C(0xBF58476D1CE4E5B9);
        h ^= h >> 31;
        return (h >> 17) & 1 ? 1 : -1;
    }
    case TIES_PLUS:
        break;
    }
    return 1;
}

static net_route_out torus_route(const void *topo, const net_route_in *in)
{
    const torus *t = topo;
    net_route_out o = {.aux = {in->aux[0], in->aux[1]}};
    uint64_t dr = in->dst / (uint64_t)t->p;
    for (int d = 0; d < t->n; d++) {
        int64_t c = coord(t, in->router, d), c2 = coord(t, dr, d);
        if (c == c2)
            continue;
        int64_t fwd = (c2 - c + t->k[d]) % t->k[d];
        int dir = fwd < t->k[d] - fwd ? 1 : fwd > t->k[d] - fwd ? -1 : tie_dir(t, in, d, c);
        o.port = 2 * d + (dir < 0);
        int same_dim = in->in_port < 2 * t->n && in->in_port / 2 == d;
        if (t->dateline == DATELINE_DIMENSION) /* class 1 from the start if the wrap lies ahead */
            o.vc = same_dim ? in->in_vc : dir > 0 ? c > c2 : c < c2;
        else /* class 1 from the wrap link on */
            o.vc = (same_dim ? in->in_vc : 0) | (dir > 0 ? c == t->k[d] - 1 : c == 0);
        return o;
    }
    o.port = (int32_t)(2 * t->n + (int64_t)(in->dst % (uint64_t)t->p));
    o.vc = 0;
    return o;
}

static uint32_t torus_min_hops(const void *topo, uint64_t src, uint64_t dst)
{
    const torus *t = topo;
    uint64_t a = src / (uint64_t)t->p, b = dst / (uint64_t)t->p;
    uint32_t h = 0;
    for (int d = 0; d < t->n; d++) {
        int64_t fwd = (coord(t, b, d) - coord(t, a, d) + t->k[d]) % t->k[d];
        h += (uint32_t)(fwd < t->k[d] - fwd ? fwd : t->k[d] - fwd);
    }
    return h;
}

static size_t torus_mem(const void *topo) { return sizeof(torus); }

static void torus_label(const void *topo, uint64_t r, char *buf, size_t n)
{
    const torus *t = topo;
    size_t used = (size_t)snprintf(buf, n, "r(");
    for (int d = 0; d < t->n && used < n; d++)
        used += (size_t)snprintf(buf + used, n - used, "%s%lld", d ? "," : "",
                                 (long long)coord(t, r, d));
    if (used < n)
        snprintf(buf + used, n - used, ")");
}

/* Recursive coordinate bisection: the box [lo, hi) takes parts first ..
 * first+parts-1; it is split across its longest dimension (the smallest
 * cross-section, so the fewest cut links) in proportion to the parts each
 * side gets, so the parts are blocks balanced in every dimension rather
 * than slabs. */
/* Where to cut the box's dimension d (extent ext, `rest` routers per
 * slice) so that the first side holds p1 of `parts` parts. */
static int64_t cut_at(int64_t ext, int64_t rest, uint32_t p1, uint32_t parts)
{
    uint32_t p2 = parts - p1;
    int64_t cut = (ext * p1 + parts / 2) / parts;
    if (cut * rest < (int64_t)p1)
        cut = ((int64_t)p1 + rest - 1) / rest;
    if ((ext - cut) * rest < (int64_t)p2)
        cut = ext - ((int64_t)p2 + rest - 1) / rest;
    return cut < 1 ? 1 : cut > ext - 1 ? ext - 1 : cut;
}

/* Recursive coordinate bisection: the box [lo, hi) takes parts first ..
 * first+parts-1. It is split in proportion to the parts each side gets,
 * across the dimension that balances the sides best and, among those, the
 * longest (the smallest cross-section, so the fewest cut links), the
 * highest of equally long ones (the slowest-varying, as index blocks cut
 * first: same cut, and workloads laid out along dimension 0 keep their
 * neighbours): the parts are blocks balanced in every dimension rather
 * than slabs. */
static void bisect(const torus *t, int64_t *lo, int64_t *hi, uint32_t first, uint32_t parts,
                   uint32_t *part)
{
    uint64_t vol = 1;
    for (int e = 0; e < t->n; e++)
        vol *= (uint64_t)(hi[e] - lo[e]);
    uint32_t p1 = parts / 2;
    int d = -1;
    int64_t cut = 0;
    double best = 0;
    for (int e = 0; parts > 1 && e < t->n; e++) {
        int64_t ext = hi[e] - lo[e];
        if (ext < 2)
            continue;
        int64_t rest = (int64_t)(vol / (uint64_t)ext), c = cut_at(ext, rest, p1, parts);
        double dev = fabs((double)(c * rest) - (double)vol * p1 / parts);
        if (d < 0 || dev < best || (dev == best && ext >= hi[d] - lo[d])) {
            d = e;
            cut = c;
            best = dev;
        }
    }
    if (d < 0) {
        int64_t c[TORUS_MAX_DIMS];
        memcpy(c, lo, sizeof c);
        for (uint64_t i = 0; i < vol; i++) {
            uint64_t r = 0;
            for (int e = 0; e < t->n; e++)
                r += (uint64_t)c[e] * t->stride[e];
            part[r] = first;
            for (int e = 0; e < t->n && ++c[e] == hi[e]; e++)
                c[e] = lo[e];
        }
        return;
    }
    int64_t save = hi[d];
    hi[d] = lo[d] + cut;
    bisect(t, lo, hi, first, p1, part);
    hi[d] = save;
    save = lo[d];
    lo[d] += cut;
    bisect(t, lo, hi, first + p1, parts - p1, part);
    lo[d] = save;
}

static void torus_partition(const void *topo, const double *load, uint32_t parts, uint32_t *part)
{
    (void)load; /* equal-volume blocks: a workload's ranks fill the grid's nodes evenly */
    const torus *t = topo;
    int64_t lo[TORUS_MAX_DIMS] = {0}, hi[TORUS_MAX_DIMS] = {0};
    for (int d = 0; d < t->n; d++)
        hi[d] = t->k[d];
    bisect(t, lo, hi, 0, parts, part);
}

static const warp_key torus_keys[] = {
    {"dims", WARP_KEY_LIST, "(required)", "1..2^31 each, up to 16 dimensions",
     "routers per dimension (8,8,8)"},
    {"nodes_per_router", WARP_KEY_COUNT, "1", "1..1024", "terminals per router"},
    {"nodes", WARP_KEY_COUNT, "0", ">= 0", "when given, checked against dims x nodes_per_router"},
    {"terminal_bandwidth", WARP_KEY_RATE, "([network] link_bandwidth)", "> 0", "router-terminal links"},
    {"ties", WARP_KEY_CHOICE, "balanced", "plus | random | balanced",
     "which way round for equal-length ways: +, per message at random, or + from even coordinates"},
    {"dateline", WARP_KEY_CHOICE, "hop", "hop | dimension",
     "when a packet takes VC class 1: from the wrap link on, or for the whole dimension when the wrap "
     "lies ahead (BookSim's)"},
    {0},
};

static const warp_key_group torus_groups[] = {
    {"torus", "k-ary n-cube torus, dimension-order routing, two dateline VCs", torus_keys, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

/* BookSim's torus: channels of 2 cycles (its use_noc_latency doubles them
 * for the wrap-around), the VC class fixed for a whole dimension, random
 * choice between the two equal ways round (bench/booksim.sh). CODES's
 * torus (torus-32k-codes.ini): 2 GiB/s links, 50 ns wires, 100 ns routers,
 * 512-byte packets, 4 KiB buffers. */
static const warp_preset torus_presets[] = {
    {"booksim", NULL, "network", (const char *const[]){"link_latency", "2ns", NULL}},
    {"booksim", NULL, "torus", (const char *const[]){"dateline", "dimension", "ties", "random", NULL}},
    {"codes-torus", "CODES's torus model (torus-32k-codes.ini): 2 GiB/s links, 50 ns wires, 100 ns routers, "
                    "512-byte packets, 4 KiB buffers", "network",
     (const char *const[]){"link_bandwidth", "2GiB/s", "link_latency", "50ns", "router_delay", "100ns",
                           "packet_size", "512B", "vc_buffer", "4KiB", NULL}},
    {NULL, NULL, NULL, NULL},
};

const net_topology_ops torus_topology = {
    .name = "torus",
    .section = "torus",
    .keys = torus_groups,
    .presets = torus_presets,
    .routings = (const char *const[]){"dimension-order", NULL},
    .setup = torus_setup,
    .destroy = torus_destroy,
    .nodes = torus_nodes,
    .routers = torus_routers,
    .radix = torus_radix,
    .max_radix = torus_max_radix,
    .vcs = torus_vcs,
    .peer = torus_peer,
    .link = torus_link,
    .attach = torus_attach,
    .route = torus_route,
    .mem_bytes = torus_mem,
    .router_label = torus_label,
    .min_hops = torus_min_hops,
    .partition = torus_partition,
};
