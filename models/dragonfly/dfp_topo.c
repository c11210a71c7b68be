/* dfp_topo.c — the Dragonfly+ as a network-layer topology: reads
 * [dragonflyplus], answers sizes and wiring from dfp_shape, routes with
 * dfp_route and gives each link kind its bandwidth, latency and buffers.
 * Invariant: the description is a few numbers fixed at setup (O(1) memory,
 * whatever the size). Called through dragonflyplus_topology by models/net. */
#include <stdlib.h>

#include "dragonfly/dragonfly.h"
#include "dragonfly/dfp_route.h"
#include "dragonfly/dragonflyplus.h"

#define SEC "dragonflyplus"

typedef struct dragonflyplus {
    dfp_shape s;
    dfp_route_cfg cfg;
    dfly_link local, global, terminal;
} dragonflyplus;

static const char *const arrangement_names[] = {"absolute", "relative", "circulant", NULL};
static const char *const routing_names[] = {"minimal", "valiant", "ugal", "par", NULL};

static void *dfp_setup(warp_ini *ini, net_params *params)
{
    dragonflyplus *t = calloc(1, sizeof *t);
    if (!t)
        warp_fatal(3, "warpnet: out of memory for the Dragonfly+ description");
    if (!warp_ini_string(ini, SEC, "leaves", NULL))
        warp_ini_fail(ini, SEC, "leaves",
                      "missing; give the leaf routers per group (e.g. leaves = 8 for groups "
                      "of 8 leaves and 8 spines)");
    int64_t leaves = warp_ini_int(ini, SEC, "leaves", 0, 1, DFP_MAX_ROUTERS);
    int64_t spines = warp_ini_int(ini, SEC, "spines", leaves, 1, DFP_MAX_ROUTERS);
    int64_t c = warp_ini_int(ini, SEC, "level_links", 1, 1, DFP_MAX_PARALLEL);
    int64_t p = warp_ini_int(ini, SEC, "p", spines * c, 1, DFP_MAX_PORTS);
    int64_t h = warp_ini_int(ini, SEC, "h", leaves * c, 1, DFP_MAX_PORTS);
    int64_t g = warp_ini_int(ini, SEC, "g", spines * h + 1, 2, INT32_MAX);
    if (g > spines * h + 1)
        warp_ini_fail(ini, SEC, "g",
                      "%lld groups cannot all be joined: a group has spines*h = %lld global "
                      "ports for g - 1 others; lower g to at most %lld or raise spines or h",
                      (long long)g, (long long)(spines * h), (long long)(spines * h + 1));
    dfly_arrangement arr =
        (dfly_arrangement)warp_ini_choice(ini, SEC, "arrangement", arrangement_names, 0);
    const char *why = dfp_shape_init(&t->s, (uint32_t)leaves, (uint32_t)spines, (uint32_t)p,
                                     (uint32_t)h, (uint32_t)c, (uint32_t)g, arr);
    if (why)
        warp_ini_fail(ini, SEC, "leaves", "%s", why);

    dfp_route_cfg *cfg = &t->cfg;
    cfg->alg = (dfp_routing)warp_ini_choice(ini, SEC, "routing", routing_names, 0);
    cfg->n_indirect = (int)warp_ini_int(ini, SEC, "n_indirect", 1, 1, 64);
    cfg->threshold = (double)warp_ini_bytes(ini, SEC, "ugal_threshold", 0);
    cfg->hop_weight = warp_ini_bool(ini, SEC, "ugal_hop_weight", 1);
    int need = dfp_route_vcs(cfg->alg);
    cfg->vcs = (int)warp_ini_int(ini, SEC, "vcs", need, 1, NET_MAX_VCS);
    if (cfg->vcs < need)
        warp_ini_fail(ini, SEC, "vcs",
                      "routing = %s needs %d VCs to be deadlock-free (class 1 after the turn "
                      "in the intermediate group, models/dragonfly/dfp_route.h); set vcs "
                      "to at least %d or remove it",
                      routing_names[cfg->alg], need, need);
    t->local = dfly_read_link(ini, SEC, "local", params);
    t->global = dfly_read_link(ini, SEC, "global", params);
    t->terminal = dfly_read_link(ini, SEC, "terminal", params);
    return t;
}

static void dfp_destroy(void *topo) { free(topo); }

static const dfp_shape *shape(const void *topo) { return &((const dragonflyplus *)topo)->s; }
static uint64_t dfp_nodes_of(const void *topo) { return dfp_nodes(shape(topo)); }
static uint64_t dfp_routers_of(const void *topo) { return dfp_routers(shape(topo)); }
static int32_t dfp_max_radix(const void *topo)
{
    int32_t l = dfp_leaf_radix(shape(topo)), s = dfp_spine_radix(shape(topo));
    return l > s ? l : s;
}
static int32_t dfp_radix(const void *topo, uint64_t r)
{
    const dfp_shape *s = shape(topo);
    return dfp_is_leaf(s, r) ? dfp_leaf_radix(s) : dfp_spine_radix(s);
}
static int32_t dfp_vcs(const void *topo) { return ((const dragonflyplus *)topo)->cfg.vcs; }

/* The kind of link on port `port` of router r. */
static const dfly_link *link_of(const dragonflyplus *t, uint64_t r, int32_t port)
{
    const dfp_shape *s = &t->s;
    if (dfp_is_leaf(s, r))
        return port < dfp_leaf_terminal_base(s) ? &t->local : &t->terminal;
    return port < dfp_spine_global_base(s) ? &t->local : &t->global;
}

static net_peer dfp_peer(const void *topo, uint64_t r, int32_t port)
{
    const dragonflyplus *t = topo;
    const dfp_shape *s = &t->s;
    const dfly_link *l = link_of(t, r, port);
    net_peer q = {.kind = NET_PEER_ROUTER, .bandwidth = l->bandwidth, .latency = l->latency};
    uint32_t i = dfp_group_of(s, r), x = dfp_place_of(s, r);
    if (x < s->leaves) {
        if (port >= dfp_leaf_terminal_base(s)) {
            q.kind = NET_PEER_TERMINAL;
            q.id = ((uint64_t)i * s->leaves + x) * s->p + (uint64_t)(port - dfp_leaf_terminal_base(s));
            return q;
        }
        q.id = dfp_spine_id(s, i, (uint32_t)port / s->c);
        q.port = (int32_t)(x * s->c + (uint32_t)port % s->c);
        return q;
    }
    uint32_t sp = x - s->leaves;
    if (port < dfp_spine_global_base(s)) {
        q.id = dfp_leaf_id(s, i, (uint32_t)port / s->c);
        q.port = (int32_t)(sp * s->c + (uint32_t)port % s->c);
        return q;
    }
    uint32_t j = sp * s->h + (uint32_t)(port - dfp_spine_global_base(s)), fg, fj;
    if (!dfly_global_peer(&s->glob, i, j, &fg, &fj))
        return (net_peer){.kind = NET_PEER_NONE, .bandwidth = l->bandwidth};
    q.id = dfp_spine_id(s, fg, fj / s->h);
    q.port = dfp_global_port(s, fj);
    return q;
}

static net_attach dfp_attach(const void *topo, uint64_t term)
{
    const dfp_shape *s = shape(topo);
    net_attach at = {dfp_leaf_of_terminal(s, term),
                     dfp_leaf_terminal_base(s) + (int32_t)(term % s->p)};
    return at;
}

static double port_occupancy(const void *ctx, int32_t port)
{
    return (double)net_port_occupancy(ctx, port);
}

static net_route_out dfp_route(const void *topo, const net_route_in *in)
{
    const dragonflyplus *t = topo;
    const dfp_shape *s = &t->s;
    uint32_t block[4];
    warp_rng_block(in->rng, block);
    uint64_t draw = (uint64_t)block[0] << 32 | block[1];
    dfp_occ occ = {port_occupancy, in->router_state};
    dfp_hop h = dfp_route_hop(s, &t->cfg, dfp_pkt_unpack(in->aux), in->hops, in->flow, in->router,
                              dfp_leaf_of_terminal(s, in->dst), draw, &occ);
    net_route_out o = {.port = h.port, .vc = h.vc};
    if (h.port == DFP_EJECT) {
        o.port = dfp_leaf_terminal_base(s) + (int32_t)(in->dst % s->p);
        o.vc = 0;
    }
    dfp_pkt_pack(h.next, o.aux);
    return o;
}

static uint32_t dfp_min_hops(const void *topo, uint64_t src, uint64_t dst)
{
    const dfp_shape *s = shape(topo);
    return dfp_router_hops(s, dfp_leaf_of_terminal(s, src), dfp_leaf_of_terminal(s, dst));
}

static size_t dfp_mem(const void *topo) { return sizeof(dragonflyplus); }

static void dfp_label(const void *topo, uint64_t r, char *buf, size_t n)
{
    const dfp_shape *s = shape(topo);
    uint32_t x = dfp_place_of(s, r);
    if (x < s->leaves)
        snprintf(buf, n, "g%u leaf%u", dfp_group_of(s, r), x);
    else
        snprintf(buf, n, "g%u spine%u", dfp_group_of(s, r), x - s->leaves);
}

static uint64_t dfp_worst_case_dst(const void *topo, uint64_t term)
{
    return dfp_shift_dst(shape(topo), term);
}

static uint64_t dfp_group_terminals(const void *topo)
{
    return (uint64_t)shape(topo)->leaves * shape(topo)->p;
}

static uint64_t dfp_vc_buffer(const void *topo, uint64_t r, int32_t port)
{
    return link_of(topo, r, port)->vc_buffer;
}

static void dfp_describe(const void *topo, FILE *f)
{
    const dragonflyplus *t = topo;
    const dfp_shape *s = &t->s;
    const dfly_shape *gl = &s->glob;
    fprintf(f, "groups: %u\n", s->g);
    fprintf(f, "leaves_per_group: %u\n", s->leaves);
    fprintf(f, "spines_per_group: %u\n", s->spines);
    fprintf(f, "terminals_per_leaf: %u\n", s->p);
    fprintf(f, "global_links_per_spine: %u\n", s->h);
    fprintf(f, "global_ports_per_group: %u\n", s->spines * s->h);
    fprintf(f, "arrangement: %s\n", arrangement_names[gl->arr]);
    fprintf(f, "leaf_spine_links: %llu\n", (unsigned long long)dfp_local_links(s));
    dfly_describe_global(gl, f);
    fprintf(f, "diameter: %u\n", s->g > 1 ? 3u : 2u);
    fprintf(f, "routing: %s\n", routing_names[t->cfg.alg]);
}

/* Groups stay whole (router id = group x (leaves + spines) + place): only
 * global links are cut. */
static void dfp_partition(const void *topo, const double *load, uint32_t parts, uint32_t *part)
{
    net_partition_runs(load, dfp_routers_of(topo), NULL, dfp_per_group(shape(topo)), parts, part);
}

static const warp_key dfp_keys[] = {
    {"leaves", WARP_KEY_COUNT, "(required)", "1..1024", "leaf routers per group"},
    {"spines", WARP_KEY_COUNT, "(leaves)", "1..1024", "spine routers per group"},
    {"level_links", WARP_KEY_COUNT, "1", "1..16", "links between each leaf and each spine"},
    {"p", WARP_KEY_COUNT, "(spines x level_links)", "1..1024", "terminals per leaf"},
    {"h", WARP_KEY_COUNT, "(leaves x level_links)", "1..1024", "global links per spine"},
    {"g", WARP_KEY_COUNT, "(spines x h + 1)", "2..spines x h + 1", "groups"},
    {"arrangement", WARP_KEY_CHOICE, "absolute", "absolute | relative | circulant",
     "the dragonfly's wiring of a group's global ports"},
    {"routing", WARP_KEY_CHOICE, "minimal", "minimal | valiant | ugal | par", "routing algorithm"},
    {"n_indirect", WARP_KEY_COUNT, "1", "1..64", "Valiant candidates per UGAL/PAR decision"},
    {"ugal_threshold", WARP_KEY_SIZE, "0B", ">= 0", "bytes a non-minimal path must save"},
    {"ugal_hop_weight", WARP_KEY_FLAG, "yes", "yes | no", "cost = occupancy x hops (no: occupancy alone)"},
    {"vcs", WARP_KEY_COUNT, "(what the routing needs)", "1..8", "VCs (minimal 1, the others 2)"},
    {0},
};

static const warp_key_group dfp_groups[] = {
    {SEC, "Dragonfly+: groups of leaves and spines, global links between spines", dfp_keys, NULL, NULL, NULL},
    {SEC, "per link kind (local: leaf-spine): bandwidth, latency, buffers", dfly_link_keys, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

/* CODES's dragonfly-plus (dfp_8k.conf as warpnet convert codes writes it:
 * dragonflyplus-codes-8448.ini). */
static const warp_preset dfp_presets[] = {
    {"codes-dragonfly-plus", "CODES's dragonfly-plus model (dragonflyplus-codes-8448.ini, its dfp_8k.conf): "
                             "output-queued store-and-forward routers of 100 ns, no wire delay, 4 KiB packets, "
                             "32 KiB buffers, 25 GiB/s links, PAR on occupancy alone",
     "network", (const char *const[]){"router", "output-queued", "link_latency", "0ns", "router_delay", "100ns",
                                      "packet_size", "4KiB", "vc_buffer", "32KiB", "switching", "store-forward",
                                      NULL}},
    {"codes-dragonfly-plus", NULL, SEC,
     (const char *const[]){"arrangement", "relative", "routing", "par", "ugal_hop_weight", "no",
                           "ugal_threshold", "128KiB", "local_bandwidth", "25GiB/s", "global_bandwidth", "25GiB/s",
                           "terminal_bandwidth", "25GiB/s", "local_vc_buffer", "32KiB", "global_vc_buffer", "32KiB",
                           "terminal_vc_buffer", "32KiB", NULL}},
    {NULL, NULL, NULL, NULL},
};

static int dfp_adaptive(const void *topo)
{
    dfp_routing a = ((const dragonflyplus *)topo)->cfg.alg;
    return a == DFP_UGAL || a == DFP_PAR;
}

const net_topology_ops dragonflyplus_topology = {
    .name = "dragonflyplus",
    .section = SEC,
    .keys = dfp_groups,
    .presets = dfp_presets,
    .routings = routing_names,
    .setup = dfp_setup,
    .destroy = dfp_destroy,
    .nodes = dfp_nodes_of,
    .routers = dfp_routers_of,
    .radix = dfp_radix,
    .max_radix = dfp_max_radix,
    .vcs = dfp_vcs,
    .peer = dfp_peer,
    .attach = dfp_attach,
    .route = dfp_route,
    .mem_bytes = dfp_mem,
    .router_label = dfp_label,
    .min_hops = dfp_min_hops,
    .worst_case_dst = dfp_worst_case_dst,
    .group_terminals = dfp_group_terminals,
    .vc_buffer = dfp_vc_buffer,
    .describe = dfp_describe,
    .partition = dfp_partition,
    .adaptive = dfp_adaptive,
};
