/* dragonfly_topo.c — the dragonfly as a network-layer topology: reads
 * [dragonfly], answers sizes and wiring from dfly_shape, routes with
 * dfly_route and gives each link kind its bandwidth, latency and buffers.
 * Invariant: the description is a few numbers fixed at setup (O(1) memory,
 * whatever the size). Called through dragonfly_topology by models/net. */
#include <stdlib.h>
#include <string.h>

#include "dragonfly/dragonfly_files.h"
#include "dragonfly/dragonfly_route.h"
#include "dragonfly/dragonfly.h"

typedef struct dragonfly {
    dfly_shape s;
    dfly_wiring *wire; /* global links from inter_file, or NULL */
    int cascade;       /* rows and columns given */
    dfly_route_cfg cfg;
    dfly_link local, global, terminal;
} dragonfly;

static const char *const arrangement_names[] = {"absolute", "relative", "circulant", NULL};
static const char *const routing_names[] = {"minimal", "valiant", "ugal-l", "ugal-g", "par", NULL};

/* A file key's path: as given when absolute or set on the command line,
 * else relative to the directory of the run file that sets it. */
static const char *file_path(warp_ini *ini, const char *key, char *buf, size_t n)
{
    const char *v = warp_ini_string(ini, "dragonfly", key, NULL);
    const char *where = warp_ini_where(ini, "dragonfly", key);
    const char *slash = where ? strrchr(where, '/') : NULL;
    if (v[0] == '/' || !where || strncmp(where, "--", 2) == 0 || !slash)
        snprintf(buf, n, "%s", v);
    else
        snprintf(buf, n, "%.*s/%s", (int)(slash - where), where, v);
    return buf;
}

/* A reader's message without its leading "PATH: " when PATH is the key's
 * value as written (warp_ini_fail prints that already). */
static const char *unprefixed(warp_ini *ini, const char *key, const char *msg)
{
    const char *v = warp_ini_string(ini, "dragonfly", key, "");
    size_t n = strlen(v);
    return strncmp(msg, v, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ' ? msg + n + 2 : msg;
}

/* The Cascade keys: row and column link counts, from intra_file when given
 * (the keys, if set too, must agree with it). */
static void read_cascade(warp_ini *ini, dragonfly *t, uint32_t rows, uint32_t cols)
{
    int64_t rl = warp_ini_int(ini, "dragonfly", "row_links", 1, 1, 64);
    int64_t cl = warp_ini_int(ini, "dragonfly", "column_links", 1, 1, 64);
    if (warp_ini_string(ini, "dragonfly", "intra_file", NULL)) {
        char path[4096], msg[1024];
        uint32_t frl, fcl;
        if (dfly_read_codes_intra(file_path(ini, "intra_file", path, sizeof path), rows, cols,
                                  &frl, &fcl, msg, sizeof msg))
            warp_ini_fail(ini, "dragonfly", "intra_file", "%s", unprefixed(ini, "intra_file", msg));
        if (warp_ini_string(ini, "dragonfly", "row_links", NULL) && rl != frl)
            warp_ini_fail(ini, "dragonfly", "row_links", "%s has %u links per pair of a row; "
                          "remove row_links or make it agree", path, frl);
        if (warp_ini_string(ini, "dragonfly", "column_links", NULL) && cl != fcl)
            warp_ini_fail(ini, "dragonfly", "column_links", "%s has %u links per pair of a "
                          "column; remove column_links or make it agree", path, fcl);
        rl = frl;
        cl = fcl;
    }
    const char *why = dfly_shape_cascade(&t->s, rows, cols, (uint32_t)rl, (uint32_t)cl);
    if (why)
        warp_ini_fail(ini, "dragonfly", "columns", "%s", why);
}

static void *df_setup(warp_ini *ini, net_params *params)
{
    dragonfly *t = calloc(1, sizeof *t);
    if (!t)
        warp_fatal(3, "warpnet: out of memory for the dragonfly description");
    int64_t rows = warp_ini_int(ini, "dragonfly", "rows", 1, 1, DFLY_MAX_A);
    int64_t cols = warp_ini_int(ini, "dragonfly", "columns", 0, 1, DFLY_MAX_A);
    t->cascade = warp_ini_string(ini, "dragonfly", "rows", NULL) ||
                 warp_ini_string(ini, "dragonfly", "columns", NULL);
    if (t->cascade && !warp_ini_string(ini, "dragonfly", "columns", NULL))
        warp_ini_fail(ini, "dragonfly", "columns",
                      "missing; a Cascade group is rows x columns routers: give both "
                      "(e.g. rows = 6, columns = 16 as Cray XC)");
    if (t->cascade && rows * cols > DFLY_MAX_A)
        warp_ini_fail(ini, "dragonfly", "columns",
                      "rows x columns = %lld routers per group; at most %d",
                      (long long)(rows * cols), DFLY_MAX_A);
    if (!t->cascade && !warp_ini_string(ini, "dragonfly", "a", NULL))
        warp_ini_fail(ini, "dragonfly", "a",
                      "missing; give the routers per group (e.g. a = 8 for a balanced "
                      "a = 2p = 2h dragonfly of 33 groups) or rows and columns");
    int64_t a = warp_ini_int(ini, "dragonfly", "a", rows * cols, 1, DFLY_MAX_A);
    if (t->cascade && a != rows * cols)
        warp_ini_fail(ini, "dragonfly", "a",
                      "%lld routers per group, but rows x columns = %lld; remove a or make "
                      "them agree", (long long)a, (long long)(rows * cols));
    int64_t half = a / 2 > 0 ? a / 2 : 1;
    int64_t p = warp_ini_int(ini, "dragonfly", "p", half, 1, DFLY_MAX_P);
    int64_t h = warp_ini_int(ini, "dragonfly", "h", half, 1, DFLY_MAX_H);
    int64_t g = warp_ini_int(ini, "dragonfly", "g", a * h + 1, 2, INT32_MAX);
    if (g > a * h + 1)
        warp_ini_fail(ini, "dragonfly", "g",
                      "%lld groups cannot all be joined: a group has a*h = %lld global ports "
                      "for g - 1 others; lower g to at most %lld or raise a or h",
                      (long long)g, (long long)(a * h), (long long)(a * h + 1));
    const char *inter = warp_ini_string(ini, "dragonfly", "inter_file", NULL);
    if (inter && warp_ini_string(ini, "dragonfly", "arrangement", NULL))
        warp_ini_fail(ini, "dragonfly", "arrangement",
                      "the global links come from inter_file; remove arrangement or inter_file");
    dfly_arrangement arr =
        (dfly_arrangement)warp_ini_choice(ini, "dragonfly", "arrangement", arrangement_names, 0);
    const char *why = dfly_shape_init(&t->s, (uint32_t)a, (uint32_t)p, (uint32_t)h, (uint32_t)g, arr);
    if (why)
        warp_ini_fail(ini, "dragonfly", "g", "%s", why);
    if (t->cascade)
        read_cascade(ini, t, (uint32_t)rows, (uint32_t)cols);
    else if (warp_ini_string(ini, "dragonfly", "intra_file", NULL))
        warp_ini_fail(ini, "dragonfly", "intra_file",
                      "describes a rows x columns group; give rows and columns too");
    if (inter) {
        char path[4096], msg[1024];
        t->wire = dfly_read_codes_inter(file_path(ini, "inter_file", path, sizeof path), &t->s,
                                        msg, sizeof msg);
        if (!t->wire)
            warp_ini_fail(ini, "dragonfly", "inter_file", "%s", unprefixed(ini, "inter_file", msg));
        t->s.wire = t->wire;
    }

    dfly_route_cfg *c = &t->cfg;
    c->alg = (dfly_routing)warp_ini_choice(ini, "dragonfly", "routing", routing_names, 0);
    c->n_indirect = (int)warp_ini_int(ini, "dragonfly", "n_indirect", 1, 1, 64);
    c->threshold = (double)warp_ini_bytes(ini, "dragonfly", "ugal_threshold", 0);
    c->hop_weight = warp_ini_bool(ini, "dragonfly", "ugal_hop_weight", 1);
    int need = dfly_route_vcs(c->alg);
    c->vcs = (int)warp_ini_int(ini, "dragonfly", "vcs", need, 1, NET_MAX_VCS);
    if (c->vcs < need)
        warp_ini_fail(ini, "dragonfly", "vcs",
                      "routing = %s needs %d VCs to be deadlock-free (one per class of hop, "
                      "models/dragonfly/dragonfly_route.h); set vcs to at least %d or remove it",
                      routing_names[c->alg], need, need);
    if (c->alg == DFLY_UGAL_G && a - 1 > NET_MAX_WATCHERS)
        warp_ini_fail(ini, "dragonfly", "routing",
                      "ugal-g keeps every router informed of its group's global ports, which "
                      "needs a <= %d (a = %lld); use ugal-l or par",
                      NET_MAX_WATCHERS + 1, (long long)a);
    t->local = dfly_read_link(ini, "dragonfly", "local", params);
    t->global = dfly_read_link(ini, "dragonfly", "global", params);
    t->terminal = dfly_read_link(ini, "dragonfly", "terminal", params);
    return t;
}

static void df_destroy(void *topo)
{
    dfly_wiring_free(((dragonfly *)topo)->wire);
    free(topo);
}

static uint64_t df_nodes(const void *topo) { return dfly_nodes(&((const dragonfly *)topo)->s); }
static uint64_t df_routers(const void *topo) { return dfly_routers(&((const dragonfly *)topo)->s); }
static int32_t df_max_radix(const void *topo) { return dfly_radix(&((const dragonfly *)topo)->s); }
static int32_t df_radix(const void *topo, uint64_t r) { return df_max_radix(topo); }
static int32_t df_vcs(const void *topo) { return ((const dragonfly *)topo)->cfg.vcs; }

/* The kind of link on port `port`: local, global or terminal. */
static const dfly_link *link_of(const dragonfly *t, int32_t port)
{
    return port < dfly_global_base(&t->s)     ? &t->local
           : port < dfly_terminal_base(&t->s) ? &t->global
                                              : &t->terminal;
}

static net_peer df_peer(const void *topo, uint64_t r, int32_t port)
{
    const dragonfly *t = topo;
    const dfly_shape *s = &t->s;
    const dfly_link *l = link_of(t, port);
    net_peer q = {.kind = NET_PEER_ROUTER, .bandwidth = l->bandwidth, .latency = l->latency};
    uint32_t i = dfly_group_of(s, r), idx = dfly_index_of(s, r);
    if (port < dfly_global_base(s)) {
        uint32_t other;
        dfly_local_far(s, idx, port, &other, &q.port);
        q.id = (uint64_t)i * s->a + other;
    } else if (port < dfly_terminal_base(s)) {
        uint32_t j = idx * s->h + (uint32_t)(port - dfly_global_base(s)), d, jp;
        if (!dfly_global_peer(s, i, j, &d, &jp))
            return (net_peer){.kind = NET_PEER_NONE, .bandwidth = l->bandwidth};
        q.id = (uint64_t)d * s->a + jp / s->h;
        q.port = dfly_global_base(s) + (int32_t)(jp % s->h);
    } else {
        q.kind = NET_PEER_TERMINAL;
        q.id = r * s->p + (uint64_t)(port - dfly_terminal_base(s));
    }
    return q;
}

static net_attach df_attach(const void *topo, uint64_t term)
{
    const dfly_shape *s = &((const dragonfly *)topo)->s;
    net_attach at = {term / s->p, dfly_terminal_base(s) + (int32_t)(term % s->p)};
    return at;
}

static double port_occupancy(const void *ctx, int32_t port)
{
    return (double)net_port_occupancy(ctx, port);
}

static double view_occupancy(const void *ctx, uint32_t j)
{
    return (double)net_view_occupancy(ctx, (int32_t)j);
}

static net_route_out df_route(const void *topo, const net_route_in *in)
{
    const dragonfly *t = topo;
    const dfly_shape *s = &t->s;
    uint32_t block[4];
    warp_rng_block(in->rng, block);
    uint64_t draw = (uint64_t)block[0] << 32 | block[1];
    dfly_occ occ = {port_occupancy, view_occupancy, in->router_state};
    uint64_t dst = in->dst / s->p;
    dfly_hop h = dfly_route_hop(s, &t->cfg, dfly_pkt_unpack(in->aux), in->hops, in->flow,
                                in->router, dst, draw, &occ);
    net_route_out o = {.port = h.port, .vc = h.vc};
    if (h.port == DFLY_EJECT) {
        o.port = dfly_terminal_base(s) + (int32_t)(in->dst % s->p);
        o.vc = 0;
    }
    dfly_pkt_pack(h.next, o.aux);
    return o;
}

static uint32_t df_min_hops(const void *topo, uint64_t src, uint64_t dst)
{
    const dfly_shape *s = &((const dragonfly *)topo)->s;
    return dfly_router_hops(s, src / s->p, dst / s->p);
}

static size_t df_mem(const void *topo)
{
    const dragonfly *t = topo;
    return sizeof(dragonfly) + dfly_wiring_bytes(t->wire, &t->s);
}

static void df_label(const void *topo, uint64_t r, char *buf, size_t n)
{
    const dfly_shape *s = &((const dragonfly *)topo)->s;
    snprintf(buf, n, "g%u r%u", dfly_group_of(s, r), dfly_index_of(s, r));
}

static uint64_t df_worst_case_dst(const void *topo, uint64_t term)
{
    return dfly_shift_dst(&((const dragonfly *)topo)->s, term);
}

static uint64_t df_group_terminals(const void *topo)
{
    const dfly_shape *s = &((const dragonfly *)topo)->s;
    return (uint64_t)s->a * s->p;
}

static uint64_t df_vc_buffer(const void *topo, uint64_t r, int32_t port)
{
    return link_of(topo, port)->vc_buffer;
}

static void df_describe(const void *topo, FILE *f)
{
    const dragonfly *t = topo;
    const dfly_shape *s = &t->s;
    fprintf(f, "groups: %u\n", s->g);
    fprintf(f, "routers_per_group: %u\n", s->a);
    fprintf(f, "terminals_per_router: %u\n", s->p);
    fprintf(f, "global_links_per_router: %u\n", s->h);
    if (t->cascade) {
        fprintf(f, "rows: %u\n", s->rows);
        fprintf(f, "columns: %u\n", s->cols);
        fprintf(f, "row_links: %u\n", s->row_links);
        fprintf(f, "column_links: %u\n", s->col_links);
        fprintf(f, "local_ports: %d\n", s->local_ports);
    }
    fprintf(f, "arrangement: %s\n", t->wire ? "inter_file" : arrangement_names[s->arr]);
    fprintf(f, "local_links: %llu\n", (unsigned long long)dfly_local_links(s));
    dfly_describe_global(s, f);
    fprintf(f, "routing: %s\n", routing_names[t->cfg.alg]);
}

/* UGAL-G: every router keeps the occupancy of its group's a·h global ports,
 * slot j for the group's global port j. */
static int32_t df_view_slots(const void *topo)
{
    const dragonfly *t = topo;
    return t->cfg.alg == DFLY_UGAL_G ? (int32_t)(t->s.a * t->s.h) : 0;
}

static int32_t df_watchers(const void *topo, uint64_t r, int32_t port, net_watcher *w, int32_t max)
{
    const dragonfly *t = topo;
    const dfly_shape *s = &t->s;
    if (t->cfg.alg != DFLY_UGAL_G || port < dfly_global_base(s) || port >= dfly_terminal_base(s))
        return 0;
    uint32_t i = dfly_group_of(s, r), idx = dfly_index_of(s, r);
    int32_t slot = (int32_t)(idx * s->h) + port - dfly_global_base(s), n = 0;
    for (uint32_t k = 0; k < s->a && n < max; k++)
        if (k != idx)
            w[n++] = (net_watcher){.router = (uint64_t)i * s->a + k,
                                   .slot = slot,
                                   .delay = t->local.latency * dfly_local_hops(s, idx, k)};
    return n;
}

/* Groups stay whole (router id = group x a + index): only global links
 * are cut. */
static void df_partition(const void *topo, const double *load, uint32_t parts, uint32_t *part)
{
    const dragonfly *d = topo;
    net_partition_runs(load, dragonfly_topology.routers(topo), NULL, d->s.a, parts, part);
}

const warp_key dfly_link_keys[] = {
    {"local_bandwidth", WARP_KEY_RATE, "([network] link_bandwidth)", "> 0", "links inside a group"},
    {"global_bandwidth", WARP_KEY_RATE, "([network] link_bandwidth)", "> 0", "links between groups"},
    {"terminal_bandwidth", WARP_KEY_RATE, "([network] link_bandwidth)", "> 0", "router-terminal links"},
    {"local_latency", WARP_KEY_TIME, "([network] link_latency)", ">= 0", "links inside a group"},
    {"global_latency", WARP_KEY_TIME, "([network] link_latency)", ">= 0", "links between groups"},
    {"terminal_latency", WARP_KEY_TIME, "([network] terminal_latency)", ">= 0", "router-terminal links"},
    {"local_vc_buffer", WARP_KEY_SIZE, "([network] vc_buffer)", "packet_size..1GiB",
     "per VC, at the inputs local links feed"},
    {"global_vc_buffer", WARP_KEY_SIZE, "([network] vc_buffer)", "packet_size..1GiB",
     "per VC, at the inputs global links feed"},
    {"terminal_vc_buffer", WARP_KEY_SIZE, "([network] vc_buffer)", "packet_size..1GiB",
     "per VC, at the inputs terminals feed"},
    {0},
};

static const warp_key df_keys[] = {
    {"a", WARP_KEY_COUNT, "(required, or rows x columns)", "1..1024", "routers per group"},
    {"p", WARP_KEY_COUNT, "(max(1, a/2))", NULL, "terminals per router"},
    {"h", WARP_KEY_COUNT, "(max(1, a/2))", NULL, "global links per router"},
    {"g", WARP_KEY_COUNT, "(a*h + 1)", "2..a*h + 1", "groups"},
    {"arrangement", WARP_KEY_CHOICE, "absolute", "absolute | relative | circulant",
     "how each group's global ports reach the other groups"},
    {"routing", WARP_KEY_CHOICE, "minimal", "minimal | valiant | ugal-l | ugal-g | par", "routing algorithm"},
    {"n_indirect", WARP_KEY_COUNT, "1", "1..64", "Valiant candidates per UGAL/PAR decision"},
    {"ugal_threshold", WARP_KEY_SIZE, "0B", ">= 0", "bytes a non-minimal path must save"},
    {"ugal_hop_weight", WARP_KEY_FLAG, "yes", "yes | no",
     "cost = occupancy x hops (no: occupancy alone, as CODES's adaptive routing)"},
    {"vcs", WARP_KEY_COUNT, "(what the routing needs)", "1..8",
     "VCs (minimal 2, valiant/ugal-l/ugal-g 3, par 4; more become lanes)"},
    {0},
};

static const warp_key df_cascade_keys[] = {
    {"rows", WARP_KEY_COUNT, "1", "1..1024", "Cascade groups: rows of the rows x columns array"},
    {"columns", WARP_KEY_COUNT, "(none)", "1..1024", "Cascade groups: columns of the array"},
    {"row_links", WARP_KEY_COUNT, "1", "1..64", "links per pair of routers of a row"},
    {"column_links", WARP_KEY_COUNT, "1", "1..64", "links per pair of routers of a column"},
    {"intra_file", WARP_KEY_FILE, "(none)", NULL,
     "CODES dragonfly-custom intra-group connections (binary; relative to the run file)"},
    {"inter_file", WARP_KEY_FILE, "(none)", NULL,
     "CODES dragonfly-custom global connections (binary; replaces arrangement)"},
    {0},
};

static const warp_key_group df_groups[] = {
    {"dragonfly", "the dragonfly: a groups of routers, h global links each", df_keys, NULL, NULL, NULL},
    {"dragonfly", "Cascade (Cray XC) groups and CODES wiring files", df_cascade_keys, NULL, NULL, NULL},
    {"dragonfly", "per link kind: bandwidth, latency, buffers", dfly_link_keys, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

/* CODES's synthetic dragonfly (dragonfly-codes-1056.ini). */
static const warp_preset df_presets[] = {
    {"codes-dragonfly", "CODES's dragonfly model (dragonfly-codes-1056.ini): no wire delay, 50 ns routers, "
                        "512-byte packets, GiB/s links and 4/8/4 KiB buffers, UGAL-L on occupancy alone",
     "network", (const char *const[]){"link_latency", "0ns", "router_delay", "50ns", "packet_size", "512B",
                                      "vc_buffer", "4KiB", NULL}},
    {"codes-dragonfly", NULL, "dragonfly",
     (const char *const[]){"arrangement", "absolute", "routing", "ugal-l", "n_indirect", "1",
                           "ugal_hop_weight", "no", "local_bandwidth", "5.25GiB/s", "global_bandwidth", "4.7GiB/s",
                           "terminal_bandwidth", "5.25GiB/s", "local_vc_buffer", "4KiB", "global_vc_buffer", "8KiB",
                           "terminal_vc_buffer", "4KiB", NULL}},
    {NULL, NULL, NULL, NULL},
};

static int df_adaptive(const void *topo)
{
    dfly_routing a = ((const dragonfly *)topo)->cfg.alg;
    return a == DFLY_UGAL_L || a == DFLY_UGAL_G || a == DFLY_PAR;
}

const net_topology_ops dragonfly_topology = {
    .name = "dragonfly",
    .section = "dragonfly",
    .keys = df_groups,
    .presets = df_presets,
    .routings = routing_names,
    .setup = df_setup,
    .destroy = df_destroy,
    .nodes = df_nodes,
    .routers = df_routers,
    .radix = df_radix,
    .max_radix = df_max_radix,
    .vcs = df_vcs,
    .peer = df_peer,
    .attach = df_attach,
    .route = df_route,
    .mem_bytes = df_mem,
    .router_label = df_label,
    .min_hops = df_min_hops,
    .worst_case_dst = df_worst_case_dst,
    .group_terminals = df_group_terminals,
    .vc_buffer = df_vc_buffer,
    .describe = df_describe,
    .view_slots = df_view_slots,
    .watchers = df_watchers,
    .partition = df_partition,
    .adaptive = df_adaptive,
};

dfly_link dfly_read_link(warp_ini *ini, const char *section, const char *kind,
                         const net_params *params)
{
    /* Spelt out, so that every key read appears as written (and declared,
     * dfly_link_keys; tests/docs/test_keys_declared.sh). */
    static const char *const names[3][4] = {
        {"local", "local_bandwidth", "local_latency", "local_vc_buffer"},
        {"global", "global_bandwidth", "global_latency", "global_vc_buffer"},
        {"terminal", "terminal_bandwidth", "terminal_latency", "terminal_vc_buffer"},
    };
    int i = 0;
    while (i < 2 && strcmp(names[i][0], kind) != 0)
        i++;
    const char *key = names[i][1];
    dfly_link l;
    l.bandwidth = warp_ini_bandwidth(ini, section, key, params->link_bandwidth);
    if (!(l.bandwidth > 0))
        warp_ini_fail(ini, section, key, "must be positive (e.g. 5.25GiB/s)");
    key = names[i][2];
    l.latency = warp_ini_time_ns(ini, section, key,
                                 strcmp(kind, "terminal") ? params->link_latency
                                                          : params->terminal_latency);
    if (l.latency < 0)
        warp_ini_fail(ini, section, key, "must not be negative");
    key = names[i][3];
    l.vc_buffer = warp_ini_bytes(ini, section, key, 0);
    if (warp_ini_string(ini, section, key, NULL) && l.vc_buffer < params->packet_size)
        warp_ini_fail(ini, section, key,
                      "a VC buffer must hold at least one packet ([network] packet_size = %lluB)",
                      (unsigned long long)params->packet_size);
    if (l.vc_buffer > NET_VC_BUFFER_MAX)
        warp_ini_fail(ini, section, key, "a VC buffer may hold at most 1 GiB; give a smaller one");
    return l;
}

void dfly_describe_global(const dfly_shape *s, FILE *f)
{
    fprintf(f, "global_links: %llu\n", (unsigned long long)dfly_global_links(s));
    if (s->wire && s->wire->min_pair != s->wire->max_pair)
        fprintf(f, "links_per_group_pair: %u to %u\n", s->wire->min_pair, s->wire->max_pair);
    else if (s->wire)
        fprintf(f, "links_per_group_pair: %u\n", s->wire->min_pair);
    else if (s->spare >= 2 || (s->spare == 1 && s->g % 2 == 0))
        fprintf(f, "links_per_group_pair: %u to %u\n", s->rounds, s->rounds + 1);
    else
        fprintf(f, "links_per_group_pair: %u\n", s->rounds);
    if (dfly_unconnected_ports(s))
        fprintf(f, "unconnected_global_ports: %llu\n",
                (unsigned long long)dfly_unconnected_ports(s));
}
