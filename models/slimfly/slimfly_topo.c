/* slimfly_topo.c — the Slim Fly topology for the network layer: reads
 * [slimfly], builds the MMS graph once per process, and answers wiring and
 * routing questions from it (sf_mms, sf_route). Memory: one partner per
 * router and tables of O(q²) (neighbours are computed, not stored). Invariant: route() only returns
 * ports on minimal paths to the packet's current target, with VC = hop
 * index. Called through slimfly_topology by models/net. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "slimfly/slimfly.h"
#include "slimfly/slimfly_route.h"
#include "slimfly/slimfly_traffic.h"

typedef struct slimfly {
    sf_mms g;
    sf_route_cfg cfg;
    int p;
    uint32_t *partner; /* worst-case router pairing */
    double bandwidth, latency, term_latency;
} slimfly;

static const char *const routing_names[] = {"minimal", "valiant", "ugal", NULL};

/* Reads X or Xprime when given; returns the count (0 when absent). */
static int read_set(warp_ini *ini, const char *key, int64_t *raw, int *out)
{
    if (!warp_ini_string(ini, "slimfly", key, NULL))
        return 0;
    int n = warp_ini_int_list(ini, "slimfly", key, raw, SF_FIELD_MAX_Q);
    for (int i = 0; i < n; i++)
        out[i] = raw[i] > INT32_MAX ? INT32_MAX : (int)raw[i]; /* refused by the set check */
    return n;
}

static void *sf_setup(warp_ini *ini, net_params *params)
{
    slimfly *t = warp_xcalloc(1, sizeof *t);
    int64_t *raw = warp_xcalloc(SF_FIELD_MAX_Q, sizeof *raw);
    int *sets = warp_xcalloc(2 * SF_FIELD_MAX_Q, sizeof *sets);
    if (!warp_ini_string(ini, "slimfly", "q", NULL))
        warp_ini_fail(ini, "slimfly", "q",
                      "missing; give a prime power q = 4w + d, d in {-1,0,1} (e.g. 5, 13, 37)");
    int q = (int)warp_ini_int(ini, "slimfly", "q", 0, 3, SF_FIELD_MAX_Q);
    int nx = read_set(ini, "X", raw, sets);
    int nxp = read_set(ini, "Xprime", raw, sets + SF_FIELD_MAX_Q);
    char err[300];
    if (sf_mms_build(&t->g, q, nx ? sets : NULL, nx, nxp ? sets + SF_FIELD_MAX_Q : NULL, nxp, err,
                     sizeof err) != 0) {
        if (nx || nxp)
            warp_ini_fail(ini, "slimfly", nx ? "X" : "Xprime", "%s; fix the sets or remove both",
                          err);
        warp_ini_fail(ini, "slimfly", "q", "%s", err);
    }
    free(raw);
    free(sets);
    t->p = (int)warp_ini_int(ini, "slimfly", "p", t->g.radix / 2, 1, 1024);
    t->cfg.alg = (sf_routing)warp_ini_choice(ini, "slimfly", "routing", routing_names, 0);
    t->cfg.n_indirect = (int)warp_ini_int(ini, "slimfly", "n_indirect", 3, 1, 64);
    t->cfg.c_sf = warp_ini_double(ini, "slimfly", "c_sf", 1.0, 1e-9, 1e9);
    t->cfg.threshold = (double)warp_ini_bytes(ini, "slimfly", "ugal_threshold", 0);
    t->partner = warp_xcalloc(t->g.nrouters, sizeof *t->partner);
    sf_worst_case_pairs(&t->g, t->partner);
    t->bandwidth = params->link_bandwidth;
    t->latency = params->link_latency;
    t->term_latency = params->terminal_latency;
    return t;
}

static void sf_destroy(void *topo)
{
    slimfly *t = topo;
    sf_mms_free(&t->g);
    free(t->partner);
    free(t);
}

static uint64_t sf_nodes(const void *topo)
{
    const slimfly *t = topo;
    return (uint64_t)t->g.nrouters * (uint64_t)t->p;
}
static uint64_t sf_routers(const void *topo) { return ((const slimfly *)topo)->g.nrouters; }
static int32_t sf_max_radix(const void *topo)
{
    const slimfly *t = topo;
    return t->g.radix + t->p;
}
static int32_t sf_radix(const void *topo, uint64_t r) { return sf_max_radix(topo); }
static int32_t sf_vcs(const void *topo) { return sf_route_vcs(((const slimfly *)topo)->cfg.alg); }

static net_peer sf_peer(const void *topo, uint64_t r, int32_t port)
{
    const slimfly *t = topo;
    net_peer q = {.kind = NET_PEER_ROUTER, .bandwidth = t->bandwidth, .latency = t->latency};
    if (port >= t->g.radix) {
        q.kind = NET_PEER_TERMINAL;
        q.latency = t->term_latency;
        q.id = r * (uint64_t)t->p + (uint64_t)(port - t->g.radix);
        return q;
    }
    q.id = sf_neighbor(&t->g, (uint32_t)r, port);
    q.port = sf_peer_port(&t->g, (uint32_t)r, port);
    return q;
}

/* The link alone (every network link alike): no neighbour to compute. */
static net_peer sf_link(const void *topo, uint64_t r, int32_t port)
{
    const slimfly *t = topo;
    if (port >= t->g.radix)
        return (net_peer){.kind = NET_PEER_TERMINAL, .bandwidth = t->bandwidth,
                          .latency = t->term_latency};
    return (net_peer){.kind = NET_PEER_ROUTER, .bandwidth = t->bandwidth, .latency = t->latency};
}

static net_attach sf_attach(const void *topo, uint64_t term)
{
    const slimfly *t = topo;
    net_attach a = {term / (uint64_t)t->p, (int32_t)(t->g.radix + (int)(term % (uint64_t)t->p))};
    return a;
}

static double occupancy(const void *ctx, int port)
{
    return (double)net_port_occupancy(ctx, port);
}

static net_route_out sf_route(const void *topo, const net_route_in *in)
{
    const slimfly *t = topo;
    uint32_t dst = (uint32_t)(in->dst / (uint64_t)t->p);
    sf_pkt_route st = {in->aux[0], (uint8_t)in->aux[1], (uint8_t)in->hops, {0, 0}};
    uint32_t block[4];
    warp_rng_block(in->rng, block);
    uint64_t draw = (uint64_t)block[0] << 32 | block[1];
    sf_hop h = sf_route_hop(&t->g, &t->cfg, st, (uint32_t)in->router, dst, draw, occupancy,
                            in->router_state);
    net_route_out o = {.aux = {h.next.inter, h.next.phase}};
    if (h.port == SF_EJECT) {
        o.port = (int32_t)(t->g.radix + (int)(in->dst % (uint64_t)t->p));
        o.vc = 0;
    } else {
        o.port = h.port;
        o.vc = h.vc;
    }
    return o;
}

/* Minimal routing's choices need only the destination; the other
 * routings' depend on the packet's phase and (UGAL) occupancy. */
static int32_t sf_route_ports(const void *topo, uint64_t router, uint64_t dst, int32_t *ports, int32_t max)
{
    const slimfly *t = topo;
    if (t->cfg.alg != SF_ROUTE_MINIMAL || max < 1)
        return 0;
    net_attach at = sf_attach(topo, dst);
    if (at.router == router) {
        ports[0] = at.port;
        return 1;
    }
    return sf_min_ports(&t->g, (uint32_t)router, (uint32_t)at.router, ports, max);
}

static uint32_t sf_min_hops(const void *topo, uint64_t src, uint64_t dst)
{
    const slimfly *t = topo;
    return (uint32_t)sf_distance(&t->g, (uint32_t)(src / (uint64_t)t->p),
                                 (uint32_t)(dst / (uint64_t)t->p));
}

static size_t sf_mem(const void *topo)
{
    const slimfly *t = topo;
    size_t q = (size_t)t->g.q, n = t->g.nrouters, h = (size_t)t->g.h;
    return sizeof *t + n * sizeof *t->partner +
           2 * q * q * sizeof(uint16_t) + 2 * (q * h * sizeof(uint16_t) + q * 2 * sizeof(int));
}

static void sf_label(const void *topo, uint64_t r, char *buf, size_t n)
{
    const slimfly *t = topo;
    int s, a, b;
    sf_coords(&t->g, (uint32_t)r, &s, &a, &b);
    snprintf(buf, n, "r(%d,%d,%d)", s, a, b);
}

static uint64_t sf_worst_case_dst(const void *topo, uint64_t term)
{
    const slimfly *t = topo;
    uint64_t p = (uint64_t)t->p;
    return (uint64_t)t->partner[term / p] * p + term % p;
}

/* The column/slope cut of slimfly.h: q(a² + b²) links of one bandwidth. */
static double sf_bisection(const void *topo)
{
    const slimfly *t = topo;
    double q = t->g.q, a = (double)(t->g.q / 2), b = q - a;
    return q * (a * a + b * b) * t->bandwidth;
}

/* Router groups (s, a) of the MMS graph stay whole (local links never
 * cut), and each part takes columns of both subgraphs: a router's global
 * links reach every group of the other subgraph once, so a part holding
 * half of each subgraph keeps half of them, where index blocks (subgraph
 * 0 on one side) cut them all. Whole groups can leave a part up to a
 * group's load off its share, and the shortfalls add up (q = 163 on 16
 * ranks: 20.4 groups a rank, the busiest 1.031 times the mean), so runs
 * that may end inside a group are tried too and kept when expected to
 * cost less for the local links they cut (net_partition_cost). */
static void sf_partition(const void *topo, const double *load, uint32_t parts, uint32_t *part)
{
    const slimfly *t = topo;
    uint64_t q = (uint64_t)t->g.q, n = t->g.nrouters;
    uint64_t *order = warp_xcalloc(n, sizeof *order);
    uint32_t *split = warp_xcalloc(n, sizeof *split);
    for (uint64_t i = 0; i < n; i++) {
        uint64_t group = i / q; /* 2a + s in the order: columns interleaved */
        order[i] = (group % 2) * q * q + (group / 2) * q + i % q;
    }
    net_partition_runs(load, n, order, q, parts, part);
    net_partition_runs(load, n, order, 1, parts, split);
    if (net_partition_cost(&slimfly_topology, t, load, parts, split) <
        net_partition_cost(&slimfly_topology, t, load, parts, part))
        memcpy(part, split, n * sizeof *part);
    free(split);
    free(order);
}

static const warp_key sf_keys[] = {
    {"q", WARP_KEY_COUNT, "(required)", "a prime power 4w + d, d in {-1, 0, 1}", "the field order: 2q^2 routers"},
    {"p", WARP_KEY_COUNT, "(floor(k'/2))", "1..1024", "terminals per router"},
    {"routing", WARP_KEY_CHOICE, "minimal", "minimal | valiant | ugal", "routing algorithm"},
    {"n_indirect", WARP_KEY_COUNT, "3", "1..64", "Valiant candidates per UGAL decision"},
    {"c_sf", WARP_KEY_REAL, "1", "> 0", "UGAL's weight of the minimal path's cost"},
    {"ugal_threshold", WARP_KEY_SIZE, "0B", ">= 0", "bytes a non-minimal path must save"},
    {"X", WARP_KEY_LIST, "(computed)", NULL, "the generator set X (checked)"},
    {"Xprime", WARP_KEY_LIST, "(computed)", NULL, "the generator set X' (checked)"},
    {0},
};

static const warp_key_group sf_groups[] = {
    {"slimfly", "Slim Fly (MMS graphs), minimal, Valiant or UGAL routing", sf_keys, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

static int sf_adaptive(const void *topo) { return ((const slimfly *)topo)->cfg.alg == SF_ROUTE_UGAL; }

const net_topology_ops slimfly_topology = {
    .name = "slimfly",
    .section = "slimfly",
    .keys = sf_groups,
    .routings = routing_names,
    .setup = sf_setup,
    .destroy = sf_destroy,
    .nodes = sf_nodes,
    .routers = sf_routers,
    .radix = sf_radix,
    .max_radix = sf_max_radix,
    .vcs = sf_vcs,
    .peer = sf_peer,
    .link = sf_link,
    .attach = sf_attach,
    .route = sf_route,
    .route_ports = sf_route_ports,
    .mem_bytes = sf_mem,
    .router_label = sf_label,
    .min_hops = sf_min_hops,
    .worst_case_dst = sf_worst_case_dst,
    .bisection_bandwidth = sf_bisection,
    .partition = sf_partition,
    .adaptive = sf_adaptive,
};
