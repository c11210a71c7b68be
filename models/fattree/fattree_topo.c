/* fattree_topo.c — adapts the pure fat-tree arithmetic (fattree.c) to the
 * network layer's topology interface: reads [fattree], answers wiring
 * questions and routes one hop at a time.
 * Invariant: the description is a few scalars, read-only after setup; up/down
 * routing needs one VC for deadlock freedom (no route turns down then up, so
 * the channel dependency graph has no cycle). Called by models/net. */
#include "fattree/fattree_topo.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fattree/fattree.h"

/* Router numbering (see to_router): groups (a_h) in chunks of `chunk`, each
 * chunk's switches below the top, group by group and level by level, then
 * its share of the top level. */
typedef struct ft_topo {
    fattree ft;
    fattree_routing routing;
    int per_packet;      /* ecmp = per-packet: hash a per-packet key, not the flow */
    double host_bw;      /* bytes/ns of node-switch links */
    double switch_bw;    /* bytes/ns of switch-switch links */
    double latency;      /* ns of propagation on switch-switch links */
    double term_latency; /* ns on the links to the nodes */
    uint64_t chunk;      /* groups per chunk */
    uint64_t pg[FATTREE_MAX_LEVELS + 1];  /* switches of one group on level L < h */
    uint64_t off[FATTREE_MAX_LEVELS + 2]; /* routers of one group below level L */
    uint64_t top_share;  /* top switches per chunk */
    uint64_t per_chunk;  /* routers of one chunk */
    fattree_divisor by_pg[FATTREE_MAX_LEVELS + 1], by_group, by_chunk, by_share;
} ft_topo;

static const char *const routing_names[] = {"ecmp", "adaptive", "d-mod-k", "s-mod-k", NULL};
static const char *const ecmp_names[] = {"per-flow", "per-packet", NULL};
static const char *const rail_names[] = {"static", "round-robin", "adaptive", NULL}; /* net_rail_select */

#define SEC "fattree"

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Chunks of at least two groups when the top level splits evenly over them
 * (the m-port n-tree's pod pairs), so that a block-linear LP map gives
 * every PE whole groups and an equal share of the top. */
static void number_routers(ft_topo *t)
{
    const fattree *ft = &t->ft;
    uint32_t h = ft->n;
    if (h < 2)
        return;
    uint64_t groups = ft->down[h], c0 = groups / gcd(groups, ft->top);
    t->chunk = c0 >= 2 ? c0 : groups % 2 == 0 ? 2 : 1;
    t->off[1] = 0;
    for (uint32_t L = 1; L < h; L++) {
        t->pg[L] = ft->count[L] / groups;
        t->off[L + 1] = t->off[L] + t->pg[L];
        t->by_pg[L] = fattree_divisor_of(t->pg[L]);
    }
    t->top_share = ft->top * t->chunk / groups;
    t->per_chunk = t->chunk * t->off[h] + t->top_share;
    t->by_group = fattree_divisor_of(t->off[h]);
    t->by_chunk = fattree_divisor_of(t->per_chunk);
    t->by_share = fattree_divisor_of(t->top_share);
}

/* The `key` list of [fattree] into out[0 .. h-1], each 1 .. FATTREE_MAX_PORTS;
 * returns h. */
static uint32_t read_counts(warp_ini *ini, const char *key, uint32_t *out)
{
    int64_t v[FATTREE_MAX_LEVELS + 1];
    int h = warp_ini_int_list(ini, SEC, key, v, FATTREE_MAX_LEVELS + 1);
    if (h < 1 || h > FATTREE_MAX_LEVELS)
        warp_ini_fail(ini, SEC, key, "give 1 to %d counts, one per level from the leaves up "
                                     "(e.g. %s = 4,4,4)", FATTREE_MAX_LEVELS, key);
    for (int i = 0; i < h; i++) {
        if (v[i] < 1 || v[i] > FATTREE_MAX_PORTS)
            warp_ini_fail(ini, SEC, key, "level %d has %lld; counts are 1 .. %d", i + 1,
                          (long long)v[i], FATTREE_MAX_PORTS);
        out[i] = (uint32_t)v[i];
    }
    return (uint32_t)h;
}

/* down = m1,..,mh and up = w1,..,wh: the XGFT form. */
static fattree_shape xgft_shape(warp_ini *ini)
{
    fattree_shape s;
    memset(&s, 0, sizeof s);
    const char *other = warp_ini_get(ini, SEC, "ports") ? "ports" : warp_ini_get(ini, SEC, "pods") ? "pods" : NULL;
    if (other)
        warp_ini_fail(ini, SEC, other, "give either down and up (the XGFT form) or %s, not both", other);
    if (!warp_ini_get(ini, SEC, "down") || !warp_ini_get(ini, SEC, "up"))
        warp_ini_fail(ini, SEC, warp_ini_get(ini, SEC, "down") ? "up" : "down",
                      "the XGFT form needs both down = m1,..,mh and up = w1,..,wh");
    s.h = read_counts(ini, "down", s.down);
    uint32_t w[FATTREE_MAX_LEVELS];
    if (read_counts(ini, "up", w) != s.h)
        warp_ini_fail(ini, SEC, "up", "give as many up counts as down counts (%u)", s.h);
    memcpy(s.up, w, sizeof w);
    if (s.up[0] > FATTREE_MAX_PLANES)
        warp_ini_fail(ini, SEC, "up", "w1 = %u: w1 is the planes (NIC ports per node), 1 .. %d",
                      s.up[0], FATTREE_MAX_PLANES);
    if (warp_ini_get(ini, SEC, "levels") &&
        warp_ini_int(ini, SEC, "levels", s.h, 1, FATTREE_MAX_LEVELS) != (int64_t)s.h)
        warp_ini_fail(ini, SEC, "levels", "down and up give %u levels", s.h);
    s.fold = (uint32_t)warp_ini_int(ini, SEC, "top_fold", 1, 1, FATTREE_MAX_PORTS);
    if (s.fold > 1 && (s.h < 3 || s.up[s.h - 2] % s.fold != 0))
        warp_ini_fail(ini, SEC, "top_fold", "top_fold must divide the next-to-last up count "
                                            "(w%u) in a tree of 3 levels or more", s.h - 1);
    return s;
}

/* ports/levels or pods, pruned to `nodes` as CODES prunes it. */
static fattree_shape mport_shape(warp_ini *ini, const char **key)
{
    int64_t m, n;
    if (warp_ini_get(ini, SEC, "top_fold"))
        warp_ini_fail(ini, SEC, "top_fold", "with ports and levels the fold follows from nodes; "
                                            "give down and up to choose it");
    if (warp_ini_get(ini, SEC, "pods")) {
        /* the k-ary three-level data-centre fat-tree is the k-port 3-tree */
        if (warp_ini_get(ini, SEC, "ports") || warp_ini_get(ini, SEC, "levels"))
            warp_ini_fail(ini, SEC, "pods",
                          "give either pods (the k-ary 3-level form) or ports and levels, not both");
        m = warp_ini_int(ini, SEC, "pods", 8, 2, FATTREE_MAX_PORTS);
        n = 3;
        *key = "pods";
        if (m % 2)
            warp_ini_fail(ini, SEC, "pods", "the pod count k must be even (k-ary fat-tree)");
    } else {
        m = warp_ini_int(ini, SEC, "ports", 8, 2, FATTREE_MAX_PORTS);
        n = warp_ini_int(ini, SEC, "levels", 3, 1, FATTREE_MAX_LEVELS);
        *key = "ports";
        if (m % 2)
            warp_ini_fail(ini, SEC, "ports", "an m-port n-tree needs an even port count");
    }
    fattree t;
    const char *why = fattree_init(&t, (uint32_t)m, (uint32_t)n);
    if (why)
        warp_ini_fail(ini, SEC, *key, "%s", why);
    uint64_t nodes = 0;
    if (warp_ini_get(ini, SEC, "nodes"))
        nodes = (uint64_t)warp_ini_int(ini, SEC, "nodes", 1, 1, (int64_t)t.nodes);
    return fattree_pruned_shape((uint32_t)m, (uint32_t)n, nodes == t.nodes ? 0 : nodes);
}

static void *ft_setup(warp_ini *ini, net_params *params)
{
    const char *key = "down";
    int xgft = warp_ini_get(ini, SEC, "down") || warp_ini_get(ini, SEC, "up");
    fattree_shape s = xgft ? xgft_shape(ini) : mport_shape(ini, &key);
    if (xgft && warp_ini_get(ini, SEC, "nodes")) {
        uint64_t full = 1;
        for (uint32_t L = 0; L < s.h && full <= (UINT64_C(1) << 50); L++)
            full *= s.down[L];
        s.nodes = (uint64_t)warp_ini_int(ini, SEC, "nodes", 1, 1,
                                         (int64_t)(full < (UINT64_C(1) << 50) ? full : UINT64_C(1) << 50));
    }
    if (warp_ini_get(ini, SEC, "planes")) {
        uint32_t planes = (uint32_t)warp_ini_int(ini, SEC, "planes", 1, 1, FATTREE_MAX_PLANES);
        if (s.up[0] != 1 && s.up[0] != planes)
            warp_ini_fail(ini, SEC, "planes", "up gives w1 = %u planes; give planes = %u or up = 1,...",
                          s.up[0], s.up[0]);
        s.up[0] = planes;
    }
    if (s.up[0] > 1) {
        params->nic_ports = (int32_t)s.up[0];
        params->rail_select = warp_ini_choice(ini, SEC, "rail_select", rail_names, NET_RAIL_STATIC);
    } else if (warp_ini_get(ini, SEC, "rail_select")) {
        warp_ini_fail(ini, SEC, "rail_select", "needs planes = 2 or more (NIC ports per node)");
    }
    ft_topo *t = warp_xcalloc(1, sizeof *t);
    const char *why = fattree_init_xgft(&t->ft, &s);
    if (why) {
        free(t); /* the run stops here; nothing may look leaked */
        warp_ini_fail(ini, SEC, key, "%s", why);
    }
    if (!xgft && !s.nodes && s.up[0] == 1) /* the plain m-port n-tree keeps its k and per_level */
        fattree_init(&t->ft, s.down[s.h - 1], s.h);
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
    number_routers(t);
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

/* Router numbering seen by the network layer: groups (a_h) in chunks,
 * each chunk's switches below the top (group by group, level by level)
 * followed by its share of the top level (number_routers). The network
 * layer's block-linear LP map then keeps each group, its nodes and part of
 * the top level on one PE, and gives every PE the same number of groups.
 * For the m-port n-tree the chunks are pod pairs. */
static uint64_t to_router(const ft_topo *t, uint64_t sw)
{
    const fattree *ft = &t->ft;
    uint32_t h = ft->n, L = fattree_switch_level(ft, sw) + 1;
    if (h == 1)
        return sw;
    uint64_t i = sw - ft->first[L];
    if (L == h)
        return fattree_quot(&t->by_share, i) * t->per_chunk + t->chunk * t->off[h] +
               fattree_rem(&t->by_share, i);
    uint64_t g = fattree_quot(&t->by_pg[L], i), j = fattree_rem(&t->by_pg[L], i);
    return g / t->chunk * t->per_chunk + g % t->chunk * t->off[h] + t->off[L] + j;
}

static uint64_t to_switch(const ft_topo *t, uint64_t r)
{
    const fattree *ft = &t->ft;
    uint32_t h = ft->n;
    if (h == 1)
        return r;
    uint64_t q = fattree_quot(&t->by_chunk, r), o = fattree_rem(&t->by_chunk, r);
    uint64_t below = t->chunk * t->off[h];
    if (o >= below)
        return ft->first[h] + q * t->top_share + (o - below);
    uint64_t g = q * t->chunk + fattree_quot(&t->by_group, o), j = fattree_rem(&t->by_group, o);
    uint32_t L = 1;
    while (j >= t->off[L + 1])
        L++;
    return ft->first[L] + g * t->pg[L] + (j - t->off[L]);
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
    int sw = e.kind == FATTREE_SWITCH;
    p.kind = sw ? NET_PEER_ROUTER : e.kind == FATTREE_NODE ? NET_PEER_TERMINAL : NET_PEER_NONE;
    p.port = (int32_t)e.port;
    p.id = sw ? to_router(t, e.id) : e.id;
    p.bandwidth = sw ? t->switch_bw : t->host_bw;
    p.latency = sw ? t->latency : t->term_latency;
    return p;
}

static net_attach ft_attach(const void *topo, uint64_t terminal)
{
    fattree_end e = fattree_node_link(tree(topo), terminal);
    net_attach a = {to_router(topo, e.id), (int32_t)e.port};
    return a;
}

static net_attach ft_attach_port(const void *topo, uint64_t terminal, int32_t nic_port)
{
    fattree_end e = fattree_node_plane_link(tree(topo), terminal, (uint32_t)nic_port);
    net_attach a = {to_router(topo, e.id), (int32_t)e.port};
    return a;
}

/* Per-packet ECMP keys come from one draw of the router's stream, made at the
 * packet's first free choice and carried in aux[0] (0 = not drawn yet). */
static net_route_out ft_route(const void *topo, const net_route_in *in)
{
    const ft_topo *t = topo;
    const fattree *ft = &t->ft;
    net_route_out out = {0, 0, {in->aux[0], in->aux[1]}};
    uint64_t sw = to_switch(t, in->router);
    uint32_t first;
    int up;
    uint32_t ways = fattree_ways(ft, sw, in->dst, &first, &up);
    if (ways == 1 && !up) {
        out.port = (int32_t)first;
        return out;
    }
    fattree_flow f = {in->src, in->dst, in->flow};
    if (t->per_packet && (t->routing == FATTREE_ECMP || t->routing == FATTREE_ADAPTIVE)) {
        if (!out.aux[0])
            out.aux[0] = (uint32_t)warp_rng_integer(in->rng, 1, UINT32_MAX);
        f.key = (uint64_t)out.aux[0] << 32 | in->flow;
    }
    uint64_t occ[FATTREE_MAX_PORTS], draw = 0;
    if (t->routing == FATTREE_ADAPTIVE) {
        for (uint32_t i = 0; i < ways; i++)
            occ[i] = net_port_occupancy(in->router_state, (int32_t)(first + i));
        draw = fattree_flow_hash(&f, fattree_switch_level(ft, sw));
    }
    out.port = (int32_t)fattree_route(ft, sw, &f, t->routing, occ, draw);
    return out;
}

static size_t ft_mem_bytes(const void *topo)
{
    return sizeof(ft_topo);
}

/* Appends the mixed-radix digits of v (radices rad[0..n-1], most significant
 * first) to buf as "d.d.d". */
static void put_digits(char *buf, size_t size, int len, uint64_t v, const uint64_t *rad, uint32_t n)
{
    uint64_t place = 1;
    for (uint32_t i = 0; i < n; i++)
        place *= rad[i];
    for (uint32_t i = 0; i < n && len >= 0 && (size_t)len < size; i++) {
        place /= rad[i];
        len += snprintf(buf + len, size - (size_t)len, "%llu%s", (unsigned long long)(v / place % rad[i]),
                        i + 1 < n ? "." : "");
    }
}

/* "L1 g3 w0.2" below the top, "L2 t1.3" at the top: level, group (a_h), and
 * the other digits of the label: a_{h-1} .. a_{L+1}, then b_L .. b_2 (b_1 is
 * always 0); at a folded top b_{h-1} counts groups of r. */
static void ft_router_label(const void *topo, uint64_t router, char *buf, size_t n)
{
    const fattree *ft = tree(topo);
    uint32_t l, h = ft->n, nd = 0;
    uint64_t g, w, rad[2 * FATTREE_MAX_LEVELS];
    fattree_switch_address(ft, to_switch(topo, router), &l, &g, &w);
    uint32_t L = l + 1;
    if (L < h)
        for (uint32_t i = h - 1; i > L; i--)
            rad[nd++] = ft->down[i];
    for (uint32_t i = L; i >= 2; i--)
        rad[nd++] = ft->up[i] / (L == h && i == h - 1 ? ft->fold : 1);
    int len = L == h ? snprintf(buf, n, "L%u t", l)
                     : snprintf(buf, n, "L%u g%llu w", l, (unsigned long long)g);
    put_digits(buf, n, len, w, rad, nd);
}

/* Router-to-router hops: 2h links minus the two host links. */
static uint32_t ft_min_hops(const void *topo, uint64_t src, uint64_t dst)
{
    return fattree_route_hops(tree(topo), src, dst) - 2;
}

/* The routers in the order runs of a partition take them: the router
 * numbering (to_router) lists each chunk with its share of top switches.
 * Inside a group whose levels hold equally many switches the order
 * alternates levels (switch j of each level in turn), so a run that takes
 * part of a group takes both ends of its links. With spread, the chunk's
 * top switches are spaced evenly among its group switches instead of
 * following them: a run that takes part of a chunk then takes its share
 * of the tops rather than all or none of them. */
static void chunk_order(const ft_topo *t, bool spread, uint64_t *order)
{
    uint32_t h = t->ft.n;
    uint64_t routers = t->ft.switches, chunks = h > 1 ? routers / t->per_chunk : 0, i = 0;
    int even = 1;
    for (uint32_t L = 2; L < h; L++)
        even &= t->pg[L] == t->pg[1];
    uint64_t in_groups = t->chunk * t->off[h]; /* a chunk's switches below the top */
    for (uint64_t q = 0; q < chunks; q++) {
        uint64_t base = q * t->per_chunk, seen = 0, tops = 0;
        for (uint64_t g = 0; g < t->chunk; g++) {
            uint64_t gb = base + g * t->off[h];
            for (uint64_t j = 0; j < t->off[h]; j++) {
                /* even: switch j / (h - 1) of level 1 + j % (h - 1) */
                order[i++] = even ? gb + t->off[1 + j % (h - 1)] + j / (h - 1) : gb + j;
                /* Top switch k follows the first (k + 1) / top_share of them. */
                seen++;
                while (spread && tops < t->top_share && (tops + 1) * in_groups <= seen * t->top_share)
                    order[i++] = base + in_groups + tops++;
            }
        }
        for (; tops < t->top_share; tops++)
            order[i++] = base + in_groups + tops;
    }
    for (; i < routers; i++) /* a one-level tree has no groups */
        order[i] = i;
}

/* Groups stay whole while there are enough chunks. With more ranks than
 * chunks the runs split chunks, and which of the two orders does better
 * depends on the tree and the rank count (the 8-port 3-tree: tops after
 * the pod, 1.21 times the mean events on 16 ranks, 1.01 on 12; spread,
 * 1.00 and 1.08), so both are run and the one expected to cost less is
 * kept (net_partition_cost; spread on a tie). */
static void ft_partition(const void *topo, const double *load, uint32_t parts, uint32_t *part)
{
    const ft_topo *t = topo;
    uint64_t routers = t->ft.switches, chunks = t->ft.n > 1 ? routers / t->per_chunk : 0;
    uint64_t unit = parts <= chunks ? t->per_chunk : 1;
    uint64_t *order = warp_xcalloc(routers, sizeof *order);
    uint32_t *after = warp_xcalloc(routers, sizeof *after);
    chunk_order(t, true, order);
    net_partition_runs(load, routers, order, unit, parts, part);
    chunk_order(t, false, order);
    net_partition_runs(load, routers, order, unit, parts, after);
    if (net_partition_cost(&fattree_topology, t, load, parts, after) <
        net_partition_cost(&fattree_topology, t, load, parts, part))
        memcpy(part, after, routers * sizeof *part);
    free(after);
    free(order);
}

/* Shift by the largest subtree below the top: every packet crosses the top
 * level (an adversary for tapered trees and the folded top). */
static uint64_t ft_worst_case_dst(const void *topo, uint64_t terminal)
{
    const fattree *ft = tree(topo);
    uint64_t shift = 1;
    for (uint32_t L = 1; L < ft->n; L++)
        if (ft->mprod[L] < ft->nodes)
            shift = ft->mprod[L];
    return (terminal + shift) % ft->nodes;
}

/* Half the nodes' links through the narrowest level: host links at the
 * host bandwidth, switch levels at the switch bandwidth. */
static double ft_bisection_bandwidth(const void *topo)
{
    const ft_topo *t = topo;
    double best = (double)fattree_links(&t->ft, 1) * t->host_bw;
    for (uint32_t L = 2; L <= t->ft.n; L++)
        if ((double)fattree_links(&t->ft, L) * t->switch_bw < best)
            best = (double)fattree_links(&t->ft, L) * t->switch_bw;
    return best / 2;
}

static void put_list(FILE *f, const char *key, const uint64_t *v, uint32_t n)
{
    fprintf(f, "%s: ", key);
    for (uint32_t i = 0; i < n; i++)
        fprintf(f, "%llu%s", (unsigned long long)v[i], i + 1 < n ? "," : "\n");
}

/* The XGFT numbers, switches and links per level (formulas, not loops). */
static void ft_describe(const void *topo, FILE *f)
{
    const ft_topo *t = topo;
    const fattree *ft = &t->ft;
    uint64_t v[FATTREE_MAX_LEVELS] = {0}; /* h <= FATTREE_MAX_LEVELS; zeroed for -O2 -fsanitize builds, which cannot see that */
    uint32_t h = ft->n;
    for (uint32_t L = 1; L <= h; L++)
        v[L - 1] = ft->down[L];
    put_list(f, "xgft_down", v, h);
    for (uint32_t L = 1; L <= h; L++)
        v[L - 1] = ft->up[L];
    put_list(f, "xgft_up", v, h);
    fprintf(f, "top_fold: %u\n", ft->fold);
    for (uint32_t L = 1; L <= h; L++)
        v[L - 1] = ft->count[L];
    put_list(f, "switches_per_level", v, h);
    for (uint32_t L = 1; L <= h; L++)
        v[L - 1] = fattree_links(ft, L);
    put_list(f, "links_per_level", v, h);
    fprintf(f, "bisection_GBps: %g (%.4g of injection)\n", ft_bisection_bandwidth(t),
            ft_bisection_bandwidth(t) / ((double)ft->nodes / 2 * t->host_bw));
}

static const warp_key ft_keys[] = {
    {"ports", WARP_KEY_COUNT, "8", "2..1024, even", "switch ports of the m-port n-tree"},
    {"levels", WARP_KEY_COUNT, "(3, or as many as down)", "1..16", "levels of the m-port n-tree"},
    {"pods", WARP_KEY_COUNT, "(none)", "2..1024, even", "the k-ary three-level tree (instead of ports and levels)"},
    {"down", WARP_KEY_LIST, "(none)", "1..1024 each",
     "XGFT form: children per switch per level, leaves first (with up)"},
    {"up", WARP_KEY_LIST, "(none)", "1..1024 each", "XGFT form: parents per element per level, w1 = planes"},
    {"top_fold", WARP_KEY_COUNT, "1", "1..1024", "XGFT form: top switches merged r to one (CODES's pruned core)"},
    {"nodes", WARP_KEY_COUNT, "(all)", "1..the full tree's",
     "prune to this many nodes (CODES's way with ports/levels; empty leaf ports with down/up)"},
    {"planes", WARP_KEY_COUNT, "1", "1..16", "NIC ports per node, one copy of the tree each"},
    {"rail_select", WARP_KEY_CHOICE, "static", "static | round-robin | adaptive",
     "how a node with several planes picks one for a packet"},
    {"routing", WARP_KEY_CHOICE, "ecmp", "ecmp | adaptive | d-mod-k | s-mod-k", "routing algorithm"},
    {"ecmp", WARP_KEY_CHOICE, "per-flow", "per-flow | per-packet", "ECMP's hashing: per message or per packet"},
    {"host_bandwidth", WARP_KEY_RATE, "([network] link_bandwidth)", "> 0", "node-switch links"},
    {"switch_bandwidth", WARP_KEY_RATE, "([network] link_bandwidth)", "> 0", "switch-switch links"},
    {0},
};

static const warp_key_group ft_groups[] = {
    {SEC, "fat-trees: m-port n-trees, k-ary trees, XGFTs, pruned and multi-plane", ft_keys, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL, NULL},
};

/* BookSim's fat-tree routes nca, a random up port per packet; CODES's
 * fat-tree (fattree-8p3l-codes.ini): 12.5 GB/s links, no wire delay (as CODES), 90 ns
 * store-and-forward switches, 512-byte packets, 64 KiB buffers, adaptive. */
static const warp_preset ft_presets[] = {
    {"booksim", NULL, SEC, (const char *const[]){"ecmp", "per-packet", NULL}},
    {"codes-fattree", "CODES's fat-tree model (fattree-8p3l-codes.ini): 12.5 GB/s links, no wire delay, 90 ns "
                      "store-and-forward switches, 512-byte packets, 64 KiB buffers, adaptive routing", "network",
     (const char *const[]){"link_latency", "0ns", "router_delay", "90ns", "packet_size", "512B",
                           "vc_buffer", "64KiB", "switching", "store-forward", NULL}},
    {"codes-fattree", NULL, SEC,
     (const char *const[]){"routing", "adaptive", "host_bandwidth", "12.5GB/s", "switch_bandwidth", "12.5GB/s",
                           NULL}},
    {NULL, NULL, NULL, NULL},
};

static int ft_adaptive(const void *topo) { return ((const ft_topo *)topo)->routing == FATTREE_ADAPTIVE; }

const net_topology_ops fattree_topology = {
    .name = "fattree",
    .section = SEC,
    .keys = ft_groups,
    .presets = ft_presets,
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
    .attach_port = ft_attach_port,
    .route = ft_route,
    .mem_bytes = ft_mem_bytes,
    .router_label = ft_router_label,
    .min_hops = ft_min_hops,
    .partition = ft_partition,
    .worst_case_dst = ft_worst_case_dst,
    .bisection_bandwidth = ft_bisection_bandwidth,
    .describe = ft_describe,
    .adaptive = ft_adaptive,
};
