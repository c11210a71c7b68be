/* net/failures.c — a topology with failed links and routers: the inner
 * topology's wiring with failed ports unconnected, routed by shortest-path
 * table around them (failures.h).
 * Invariant: a failed link is failed at both ends (peer() stays symmetric);
 * every two routers holding nodes are connected, within NET_MAX_VCS hops.
 * Called by the packet network's setup (packet.c) through net_failures_apply. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/failures.h"
#include "net/spt.h"

typedef struct failed_topo {
    net_topology_ops ops; /* failed_topology less the hooks the inner one lacks */
    const net_topology_ops *in;
    void *topo;
    uint64_t routers;
    uint64_t *poff;   /* ports of router r: poff[r] .. poff[r+1]-1 */
    uint8_t *failed;  /* per port */
    uint64_t *off, *to;
    int32_t *port;
    net_spt spt;
    int32_t classes;
    int adaptive;     /* the least occupied minimal next hop, not the hash's */
    uint64_t links, failed_links, failed_routers;
    double cut_all, cut_left; /* bytes/ns across the two partition halves */
} failed_topo;

/* The largest distance table failures may build (bytes). */
#define FAILED_TABLE_MAX (4.0 * 1073741824.0)

static const char *const table_routing[] = {"table around failures", NULL};
static const char *const adaptive_routing[] = {"adaptive table around failures", NULL};
static const char *const failure_routing_names[] = {"auto", "static", "adaptive", NULL};

/* splitmix64: the failure draw, the same on every rank. */
static uint64_t mix(uint64_t *s)
{
    uint64_t z = (*s += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

/* Whether port p of router r, leading to q, is the end a link is counted
 * at (its lower (router, port) end). */
static int counted_end(uint64_t r, int32_t p, net_peer q)
{
    return q.kind == NET_PEER_ROUTER && (q.id > r || (q.id == r && q.port > p));
}

static void fail_link(failed_topo *f, uint64_t r, int32_t p)
{
    net_peer q = f->in->peer(f->topo, r, p);
    f->failed[f->poff[r] + (uint64_t)p] = 1;
    f->failed[f->poff[q.id] + (uint64_t)q.port] = 1;
}

/* Reads failed_links: `R P` or `R` per line. */
static void read_file(failed_topo *f, warp_ini *ini, const char *path)
{
    FILE *in = fopen(path, "r");
    if (!in)
        warp_ini_fail(ini, "network", "failed_links", "cannot open %s (%s); give a file of `ROUTER PORT` lines",
                      path, strerror(errno));
    char buf[512];
    unsigned long long line = 0;
    while (fgets(buf, sizeof buf, in)) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        unsigned long long v[2];
        int n = 0;
        for (char *tok = strtok(buf, " \t\r\n"); tok; tok = strtok(NULL, " \t\r\n")) {
            char *end;
            errno = 0;
            unsigned long long x = strtoull(tok, &end, 10);
            if (n == 2 || *tok < '0' || *tok > '9' || *end || errno) {
                n = -1;
                break;
            }
            v[n++] = x;
        }
        if (n == 0)
            continue; /* blank */
        if (n < 0)
            warp_fatal(WARP_EXIT_USAGE, "%s:%llu: not `ROUTER PORT` or `ROUTER`; write one failed link "
                       "(router and port) or router per line", path, line);
        unsigned long long r = v[0];
        long long p = n == 2 ? (long long)(v[1] > INT32_MAX ? INT32_MAX : v[1]) : 0;
        if (r >= f->routers)
            warp_fatal(WARP_EXIT_USAGE, "%s:%llu: router %llu does not exist (routers are 0 .. %llu)",
                       path, line, r, (unsigned long long)(f->routers - 1));
        int32_t radix = f->in->radix(f->topo, r);
        if (n == 2) {
            if (p < 0 || p >= radix)
                warp_fatal(WARP_EXIT_USAGE, "%s:%llu: router %llu has ports 0 .. %d, not %lld", path,
                           line, r, (int)radix - 1, p);
            if (f->in->peer(f->topo, r, (int32_t)p).kind != NET_PEER_ROUTER)
                warp_fatal(WARP_EXIT_USAGE, "%s:%llu: port %lld of router %llu does not lead to a router; "
                           "only links between routers can fail", path, line, p, r);
            fail_link(f, r, (int32_t)p);
            continue;
        }
        for (int32_t q = 0; q < radix; q++) {
            net_peer e = f->in->peer(f->topo, r, q);
            if (e.kind == NET_PEER_TERMINAL || e.kind == NET_PEER_GATEWAY)
                warp_fatal(WARP_EXIT_USAGE, "%s:%llu: router %llu holds nodes (port %d); only routers "
                           "without nodes can fail", path, line, r, (int)q);
            if (e.kind == NET_PEER_ROUTER)
                fail_link(f, r, q);
        }
        f->failed_routers++;
    }
    fclose(in);
}

/* Fails round(frac x links) of the links not failed yet, drawn uniformly. */
static void draw_failures(failed_topo *f, double frac, uint64_t seed)
{
    uint64_t n = 0, *pick = warp_xcalloc(f->links ? f->links : 1, sizeof *pick);
    for (uint64_t r = 0; r < f->routers; r++)
        for (int32_t p = 0; p < f->in->radix(f->topo, r); p++) {
            net_peer q = f->in->peer(f->topo, r, p);
            if (counted_end(r, p, q) && !f->failed[f->poff[r] + (uint64_t)p])
                pick[n++] = f->poff[r] + (uint64_t)p;
        }
    uint64_t k = (uint64_t)llround(frac * (double)f->links), s = seed;
    for (uint64_t i = 0; i < k && i < n; i++) {
        uint64_t j = i + mix(&s) % (n - i), t = pick[i];
        pick[i] = pick[j];
        pick[j] = t;
        uint64_t lo = 0, hi = f->routers; /* the router of port index pick[i] */
        while (hi - lo > 1) {
            uint64_t mid = (lo + hi) / 2;
            if (f->poff[mid] <= pick[i])
                lo = mid;
            else
                hi = mid;
        }
        fail_link(f, lo, (int32_t)(pick[i] - f->poff[lo]));
    }
    free(pick);
}

/* The working router links in compressed rows, the table over them. */
static void route_table(failed_topo *f)
{
    uint64_t R = f->routers, e = 0;
    f->off = warp_xcalloc(R + 1, sizeof *f->off);
    f->to = warp_xcalloc(f->poff[R] + 1, sizeof *f->to);
    f->port = warp_xcalloc(f->poff[R] + 1, sizeof *f->port);
    for (uint64_t r = 0; r < R; r++) {
        f->off[r] = e;
        for (int32_t p = 0; p < f->in->radix(f->topo, r); p++) {
            net_peer q = f->in->peer(f->topo, r, p);
            if (q.kind != NET_PEER_ROUTER || f->failed[f->poff[r] + (uint64_t)p])
                continue;
            f->to[e] = q.id;
            f->port[e++] = p;
        }
    }
    f->off[R] = e;
    f->spt = (net_spt){.routers = R, .off = f->off, .to = f->to, .port = f->port};
    net_spt_build(&f->spt);
}

/* Bandwidth across the two halves the topology's partition makes (index
 * halves without one), before and after the failures. */
static void cut(failed_topo *f)
{
    uint64_t R = f->routers;
    uint32_t *part = warp_xcalloc(R, sizeof *part);
    double *load = warp_xcalloc(R, sizeof *load);
    for (uint64_t r = 0; r < R; r++) {
        load[r] = 1;
        part[r] = r >= R / 2;
    }
    if (f->in->partition && R >= 2)
        f->in->partition(f->topo, load, 2, part);
    for (uint64_t r = 0; r < R; r++)
        for (int32_t p = 0; p < f->in->radix(f->topo, r); p++) {
            net_peer q = f->in->peer(f->topo, r, p);
            if (q.kind != NET_PEER_ROUTER || part[r] != 0 || part[q.id] != 1)
                continue;
            f->cut_all += q.bandwidth;
            if (!f->failed[f->poff[r] + (uint64_t)p])
                f->cut_left += q.bandwidth;
        }
    free(part);
    free(load);
}

/* Every two routers holding nodes must stay connected; the classes are
 * the longest of their distances. */
static void check_connected(failed_topo *f, warp_ini *ini, const char *key)
{
    uint64_t R = f->routers, nodes = f->in->nodes(f->topo);
    uint8_t *holds = warp_xcalloc(R, 1);
    for (uint64_t t = 0; t < nodes; t++)
        holds[f->in->attach(f->topo, t).router] = 1;
    uint32_t far = 0;
    for (uint64_t a = 0; a < R; a++)
        for (uint64_t b = 0; holds[a] && b < R; b++) {
            if (!holds[b])
                continue;
            uint32_t d = net_spt_hops(&f->spt, a, b);
            if (d == NET_SPT_FAR)
                warp_ini_fail(ini, "network", key,
                              "router %llu cannot reach router %llu (both hold nodes): the failures "
                              "disconnect the network; fail fewer links",
                              (unsigned long long)a, (unsigned long long)b);
            far = d > far ? d : far;
        }
    free(holds);
    f->classes = far ? (int32_t)far : 1;
    if (f->classes > NET_MAX_VCS)
        warp_ini_fail(ini, "network", key,
                      "around the failures the longest shortest path has %d router hops, and "
                      "routing by table takes a VC per hop to be deadlock-free, but a port has at most "
                      "%d VCs; fail fewer links or use a network of smaller diameter",
                      (int)f->classes, NET_MAX_VCS);
}

static void ft_destroy(void *topo)
{
    failed_topo *f = topo;
    f->in->destroy(f->topo);
    net_spt_free(&f->spt);
    free(f->poff);
    free(f->failed);
    free(f->off);
    free(f->to);
    free(f->port);
    free(f);
}

static uint64_t ft_nodes(const void *topo)
{
    const failed_topo *f = topo;
    return f->in->nodes(f->topo);
}
static uint64_t ft_routers(const void *topo) { return ((const failed_topo *)topo)->routers; }
static int32_t ft_radix(const void *topo, uint64_t r)
{
    const failed_topo *f = topo;
    return f->in->radix(f->topo, r);
}
static int32_t ft_max_radix(const void *topo)
{
    const failed_topo *f = topo;
    return f->in->max_radix(f->topo);
}
static int32_t ft_vcs(const void *topo) { return ((const failed_topo *)topo)->classes; }

static net_peer ft_peer(const void *topo, uint64_t r, int32_t port)
{
    const failed_topo *f = topo;
    net_peer q = f->in->peer(f->topo, r, port);
    if (f->failed[f->poff[r] + (uint64_t)port])
        q = (net_peer){.kind = NET_PEER_NONE, .bandwidth = q.bandwidth, .latency = q.latency};
    return q;
}

static net_attach ft_attach(const void *topo, uint64_t term)
{
    const failed_topo *f = topo;
    return f->in->attach(f->topo, term);
}

static net_route_out ft_route(const void *topo, const net_route_in *in)
{
    const failed_topo *f = topo;
    net_route_out o = {.aux = {in->aux[0], in->aux[1]}};
    net_attach a = f->in->attach(f->topo, in->dst);
    if (in->router == a.router) {
        o.port = a.port;
        return o;
    }
    o.port = net_spt_next(&f->spt, in->router, a.router, in->flow, f->adaptive ? in : NULL);
    o.vc = net_spt_vc(f->classes, f->classes, in->hops, in->flow);
    return o;
}

static int32_t ft_route_ports(const void *topo, uint64_t r, uint64_t dst, int32_t *ports, int32_t max)
{
    const failed_topo *f = topo;
    return net_spt_ports(&f->spt, r, f->in->attach(f->topo, dst).router, ports, max);
}

static size_t ft_mem(const void *topo)
{
    const failed_topo *f = topo;
    return (f->in->mem_bytes ? f->in->mem_bytes(f->topo) : 0) + sizeof *f +
           (size_t)(f->poff[f->routers] * 13 + (f->routers + 1) * 16) +
           (size_t)net_spt_table_bytes(f->routers);
}

static void ft_label(const void *topo, uint64_t r, char *buf, size_t n)
{
    const failed_topo *f = topo;
    f->in->router_label(f->topo, r, buf, n);
}

static uint32_t ft_min_hops(const void *topo, uint64_t src, uint64_t dst)
{
    const failed_topo *f = topo;
    return net_spt_hops(&f->spt, f->in->attach(f->topo, src).router, f->in->attach(f->topo, dst).router);
}

static uint64_t ft_worst(const void *topo, uint64_t term)
{
    const failed_topo *f = topo;
    return f->in->worst_case_dst(f->topo, term);
}

static uint64_t ft_vc_buffer(const void *topo, uint64_t r, int32_t port)
{
    const failed_topo *f = topo;
    return f->in->vc_buffer(f->topo, r, port);
}

static void ft_describe(const void *topo, FILE *out)
{
    const failed_topo *f = topo;
    if (f->in->describe)
        f->in->describe(f->topo, out);
    fprintf(out, "failed_links: %llu of %llu router links\n", (unsigned long long)f->failed_links,
            (unsigned long long)f->links);
    fprintf(out, "failed_routers: %llu\n", (unsigned long long)f->failed_routers);
    fprintf(out, "failure_routing: %s shortest-path table around the failures (%s, a VC per hop)\n",
            f->adaptive ? "adaptive" : "static",
            f->adaptive ? "the least occupied minimal next hop, ties by ECMP" : "ECMP per message");
    fprintf(out, "diameter_after_failures: %d\n", (int)f->classes);
    fprintf(out, "cut_GBps: %g of %g left (the links between the topology's two partition halves)\n",
            f->cut_left, f->cut_all);
}

static void ft_partition(const void *topo, const double *load, uint32_t parts, uint32_t *part)
{
    const failed_topo *f = topo;
    f->in->partition(f->topo, load, parts, part);
}

static const net_topology_ops failed_topology = {
    .name = "failed",
    .section = "network",
    .routings = table_routing,
    .destroy = ft_destroy,
    .nodes = ft_nodes,
    .routers = ft_routers,
    .radix = ft_radix,
    .max_radix = ft_max_radix,
    .vcs = ft_vcs,
    .peer = ft_peer,
    .attach = ft_attach,
    .route = ft_route,
    .route_ports = ft_route_ports,
    .mem_bytes = ft_mem,
    .router_label = ft_label,
    .min_hops = ft_min_hops,
    .worst_case_dst = ft_worst,
    .vc_buffer = ft_vc_buffer,
    .describe = ft_describe,
    .partition = ft_partition,
};

void *net_failures_apply(warp_ini *ini, const net_topology_ops **ops, void *topo)
{
    const char *file = warp_ini_string(ini, "network", "failed_links", NULL);
    double frac = warp_ini_double(ini, "network", "failed_fraction", 0, 0, 0.999999);
    uint64_t seed = (uint64_t)warp_ini_int(ini, "network", "failed_seed", 1, 0, INT64_MAX);
    int how = warp_ini_choice(ini, "network", "failure_routing", failure_routing_names, 0);
    if (!file && frac == 0)
        return topo;
    const char *key = file ? "failed_links" : "failed_fraction";
    uint64_t R = (*ops)->routers(topo);
    if (net_spt_table_bytes(R) > FAILED_TABLE_MAX)
        warp_ini_fail(ini, "network", key,
                      "routing around failures keeps a routers x routers table: %llu routers need "
                      "%.1f GiB, above the %.0f GiB allowed; give failures on a smaller network",
                      (unsigned long long)R, net_spt_table_bytes(R) / 1073741824.0,
                      FAILED_TABLE_MAX / 1073741824.0);
    failed_topo *f = warp_xcalloc(1, sizeof *f);
    f->in = *ops;
    f->topo = topo;
    f->routers = f->in->routers(topo);
    f->poff = warp_xcalloc(f->routers + 1, sizeof *f->poff);
    for (uint64_t r = 0; r < f->routers; r++) {
        f->poff[r + 1] = f->poff[r] + (uint64_t)f->in->radix(topo, r);
        for (int32_t p = 0; p < f->in->radix(topo, r); p++) {
            net_peer q = f->in->peer(topo, r, p);
            f->links += counted_end(r, p, q);
        }
    }
    f->failed = warp_xcalloc(f->poff[f->routers] + 1, 1);
    if (file)
        read_file(f, ini, file);
    if (frac > 0)
        draw_failures(f, frac, seed);
    for (uint64_t r = 0; r < f->routers; r++)
        for (int32_t p = 0; p < f->in->radix(topo, r); p++) {
            net_peer q = f->in->peer(topo, r, p);
            f->failed_links += counted_end(r, p, q) && f->failed[f->poff[r] + (uint64_t)p];
        }
    route_table(f);
    check_connected(f, ini, key);
    cut(f);
    f->adaptive = how == 2 || (how == 0 && f->in->adaptive && f->in->adaptive(topo));
    f->ops = failed_topology;
    if (f->adaptive)
        f->ops.routings = adaptive_routing;
    if (!f->in->router_label)
        f->ops.router_label = NULL;
    if (!f->in->worst_case_dst)
        f->ops.worst_case_dst = NULL;
    if (!f->in->vc_buffer)
        f->ops.vc_buffer = NULL;
    if (!f->in->partition)
        f->ops.partition = NULL;
    *ops = &f->ops;
    return f;
}
