/* net/model.c — builds the read-only description of a network run from the
 * configuration: [network] parameters, the topology or analytic network, the
 * rank -> terminal placement, the workload, and the LP types; and answers the
 * accessors handlers use. Called once per process by the driver. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "net/model.h"
#include "net/net_impl.h"
#include "net/registry.h"

static const char *const switching_names[] = {"cut-through", "store-forward", NULL};

static void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        warp_fatal(3, "out of memory building the network (%zu x %zu bytes); use a "
                      "smaller network or more ranks", n, size);
    return p;
}

static void read_params(warp_ini *ini, net_params *p)
{
    p->link_bandwidth = warp_ini_bandwidth(ini, "network", "link_bandwidth", 12.5);
    if (!(p->link_bandwidth > 0))
        warp_ini_fail(ini, "network", "link_bandwidth", "must be positive (e.g. 100Gbps)");
    p->link_latency = warp_ini_time_ns(ini, "network", "link_latency", 50);
    if (p->link_latency < 0)
        warp_ini_fail(ini, "network", "link_latency", "must not be negative");
    p->router_delay = warp_ini_time_ns(ini, "network", "router_delay", 100);
    if (p->router_delay < 0)
        warp_ini_fail(ini, "network", "router_delay", "must not be negative");
    p->packet_size = warp_ini_bytes(ini, "network", "packet_size", 256);
    if (p->packet_size == 0 || p->packet_size > (1u << 30))
        warp_ini_fail(ini, "network", "packet_size", "must be between 1B and 1GiB");
    p->store_forward = warp_ini_choice(ini, "network", "switching", switching_names, 0);
    p->vc_buffer = 0;
}

/* vc_buffer = explicit, or port_buffer split evenly over the VCs. */
static void read_buffers(warp_ini *ini, net_params *p, int32_t vcs)
{
    uint64_t vcb = warp_ini_bytes(ini, "network", "vc_buffer", 0);
    uint64_t portb = warp_ini_bytes(ini, "network", "port_buffer", 0);
    if (vcb && portb)
        warp_ini_fail(ini, "network", "port_buffer", "give vc_buffer or port_buffer, not both");
    p->vc_buffer = vcb ? vcb : portb ? portb / (uint64_t)vcs : 8 * p->packet_size;
    if (p->vc_buffer < p->packet_size)
        warp_ini_fail(ini, "network", vcb ? "vc_buffer" : portb ? "port_buffer" : "packet_size",
                      "a VC buffer (%llu B) must hold at least one packet (%llu B)",
                      (unsigned long long)p->vc_buffer, (unsigned long long)p->packet_size);
}

static void read_analytic(warp_ini *ini, net_model *n)
{
    if (n->kind == NET_KIND_SIMPLE) {
        n->simple_latency = warp_ini_time_ns(ini, "simplenet", "latency", 1000);
        n->simple_bandwidth = warp_ini_bandwidth(ini, "simplenet", "bandwidth", 12.5);
        if (!(n->simple_bandwidth > 0))
            warp_ini_fail(ini, "simplenet", "bandwidth", "must be positive (e.g. 100Gbps)");
        n->inj_bandwidth = n->simple_bandwidth;
    } else {
        net_loggp_params *l = &n->loggp;
        l->L = warp_ini_time_ns(ini, "loggp", "L", 2500);
        l->o = warp_ini_time_ns(ini, "loggp", "o", 1500);
        l->g = warp_ini_time_ns(ini, "loggp", "g", 1000);
        l->G = warp_ini_time_ns(ini, "loggp", "G", 6);
        l->O = warp_ini_time_ns(ini, "loggp", "O", 0);
        l->S = warp_ini_bytes(ini, "loggp", "S", 65535);
        const char *k[] = {"L", "o", "g", "G", "O"};
        double v[] = {l->L, l->o, l->g, l->G, l->O};
        for (int i = 0; i < 5; i++)
            if (v[i] < 0)
                warp_ini_fail(ini, "loggp", k[i], "must not be negative");
        n->inj_bandwidth = l->G > 0 ? 1.0 / l->G : 1e9;
    }
    n->nodes = (uint64_t)warp_ini_int(ini, n->kind == NET_KIND_SIMPLE ? "simplenet" : "loggp",
                                      "nodes", 0, 0, INT64_C(1) << 40);
    n->routers = 0;
    n->vcs = 1;
    n->max_radix = 0;
}

/* Places ranks on terminals: linear, random (seeded), or a file listing one
 * terminal per line for ranks 0, 1, ... */
static void place(warp_ini *ini, net_model *n, uint64_t seed)
{
    const char *how = warp_ini_string(ini, "network", "placement", "linear");
    n->rank_term = xcalloc(n->ranks, sizeof *n->rank_term);
    n->term_rank = xcalloc(n->nodes, sizeof *n->term_rank);
    for (uint64_t t = 0; t < n->nodes; t++)
        n->term_rank[t] = -1;
    if (strcmp(how, "linear") == 0) {
        for (uint64_t r = 0; r < n->ranks; r++)
            n->rank_term[r] = r;
    } else if (strcmp(how, "random") == 0) {
        uint64_t *perm = xcalloc(n->nodes, sizeof *perm);
        for (uint64_t t = 0; t < n->nodes; t++)
            perm[t] = t;
        warp_rng rng = warp_rng_stream(seed, UINT64_MAX);
        for (uint64_t i = n->nodes - 1; i > 0; i--) {
            uint64_t j = (uint64_t)warp_rng_integer(&rng, 0, (int64_t)i);
            uint64_t tmp = perm[i];
            perm[i] = perm[j];
            perm[j] = tmp;
        }
        for (uint64_t r = 0; r < n->ranks; r++)
            n->rank_term[r] = perm[r];
        free(perm);
    } else {
        FILE *f = fopen(how, "r");
        if (!f)
            warp_ini_fail(ini, "network", "placement",
                          "not linear, random, or a readable file of terminal numbers");
        for (uint64_t r = 0; r < n->ranks; r++) {
            unsigned long long t;
            if (fscanf(f, "%llu", &t) != 1 || t >= n->nodes) {
                fclose(f);
                warp_ini_fail(ini, "network", "placement",
                              "entry %llu (rank %llu) is missing or not a terminal below %llu",
                              (unsigned long long)r + 1, (unsigned long long)r,
                              (unsigned long long)n->nodes);
            }
            n->rank_term[r] = t;
        }
        fclose(f);
    }
    for (uint64_t r = 0; r < n->ranks; r++) {
        if (n->term_rank[n->rank_term[r]] >= 0)
            warp_ini_fail(ini, "network", "placement", "terminal %llu holds two ranks",
                          (unsigned long long)n->rank_term[r]);
        n->term_rank[n->rank_term[r]] = (int64_t)r;
    }
}

/* [network] sample (the driver's --sample=INTERVAL): the time-series grid.
 * Its result arrays live on every process until the reduction, so a grid
 * too fine for memory is refused here, with the interval that would fit. */
static void read_sampling(warp_ini *ini, net_model *n)
{
    net_sampling *s = &n->sampling;
    memset(s, 0, sizeof *s);
    double iv = warp_ini_time_ns(ini, "network", "sample", 0);
    if (iv == 0)
        return;
    if (!(iv > 0))
        warp_ini_fail(ini, "network", "sample", "must be a positive time (e.g. 1us)");
    if (n->kind != NET_KIND_PACKET)
        warp_ini_fail(ini, "network", "sample",
                      "time series need a packet network (routers and ports), not %s; "
                      "drop --sample or pick a topology",
                      n->kind == NET_KIND_SIMPLE ? "simplenet" : "loggp");
    double count = ceil(n->end / iv);
    const double limit = (double)(UINT64_C(2) << 30); /* bytes of results per process */
    uint32_t ports = (uint32_t)(n->max_radix * n->vcs);
    double per = net_sample_interval_bytes(ports, n->nodes, n->routers);
    if (count * per > limit)
        warp_ini_fail(ini, "network", "sample",
                      "%.0f intervals of %g ns make %.1f GiB of time series per process; "
                      "use an interval of at least %g ns",
                      count, iv, count * per / (double)(UINT64_C(1) << 30),
                      ceil(n->end * per / limit));
    s->interval = iv;
    s->end = n->end;
    s->count = (uint32_t)count;
    s->ports = ports;
}

static const warp_lp_type *lp_type_of(warp_lpid gid, const void *arg)
{
    const net_model *n = arg;
    if (gid < n->nodes)
        return &n->term_type;
    if (gid < n->nodes + n->routers)
        return &n->router_type;
    return n->wl_type;
}

/* Keeps a router, its terminals and their ranks on one PE. */
static int map_of(warp_lpid gid, int npes, const void *arg)
{
    const net_model *n = arg;
    uint64_t t;
    if (gid < n->nodes)
        t = gid;
    else if (gid < n->nodes + n->routers)
        return (int)((gid - n->nodes) * (uint64_t)npes / n->routers);
    else
        t = n->rank_term[gid - n->nodes - n->routers];
    if (n->kind != NET_KIND_PACKET)
        return (int)(t * (uint64_t)npes / n->nodes);
    uint64_t r = n->topo_ops->attach(n->topo, t).router;
    return (int)(r * (uint64_t)npes / n->routers);
}

net_model *net_model_build(warp_ini *ini, double end, uint64_t seed)
{
    net_model *n = xcalloc(1, sizeof *n);
    const char *topo = warp_ini_string(ini, "network", "topology", NULL);
    if (!topo)
        warp_ini_fail(ini, "network", "topology", "missing; choose one of: %s",
                      net_topology_names());
    if (strcmp(topo, "simplenet") == 0 || strcmp(topo, "loggp") == 0) {
        n->kind = strcmp(topo, "simplenet") == 0 ? NET_KIND_SIMPLE : NET_KIND_LOGGP;
        read_analytic(ini, n);
        if (n->nodes == 0)
            warp_ini_fail(ini, topo, "nodes", "missing; give the number of nodes (e.g. 64)");
    } else {
        n->topo_ops = net_topology_find(topo);
        if (!n->topo_ops)
            warp_ini_fail(ini, "network", "topology", "unknown; choose one of: %s",
                          net_topology_names());
        n->kind = NET_KIND_PACKET;
        read_params(ini, &n->params);
        n->topo = n->topo_ops->setup(ini, &n->params);
        n->nodes = n->topo_ops->nodes(n->topo);
        n->routers = n->topo_ops->routers(n->topo);
        n->vcs = n->topo_ops->vcs(n->topo);
        n->max_radix = n->topo_ops->max_radix(n->topo);
        if (n->vcs < 1 || n->vcs > NET_MAX_VCS)
            warp_fatal(2, "topology %s asks for %d VCs; at most %d are supported", topo,
                       (int)n->vcs, NET_MAX_VCS);
        read_buffers(ini, &n->params, n->vcs);
        n->view_slots = n->topo_ops->view_slots && n->topo_ops->watchers
                            ? n->topo_ops->view_slots(n->topo)
                            : 0;
        net_attach a = n->topo_ops->attach(n->topo, 0);
        n->inj_bandwidth = n->topo_ops->peer(n->topo, a.router, a.port).bandwidth;
    }
    n->ranks = (uint64_t)warp_ini_int(ini, "network", "ranks", (int64_t)n->nodes, 1,
                                      (int64_t)n->nodes);
    place(ini, n, seed);
    n->end = end;
    n->warmup = warp_ini_time_ns(ini, "workload", "warmup", 0);
    if (n->warmup < 0 || n->warmup >= end)
        warp_ini_fail(ini, "workload", "warmup", "must lie in [0, end) (end is %g ns)", end);

    read_sampling(ini, n);

    if (n->kind == NET_KIND_PACKET) {
        net_terminal_type(n, &n->term_type);
        net_router_type(n, &n->router_type);
    } else if (n->kind == NET_KIND_SIMPLE) {
        simplenet_nic_type(n, &n->term_type);
    } else {
        loggp_nic_type(n, &n->term_type);
    }
    const char *wname = warp_ini_string(ini, "workload", "type", "traffic");
    n->wl_ops = net_workload_find(wname);
    if (!n->wl_ops)
        warp_ini_fail(ini, "workload", "type", "unknown; choose one of: %s", net_workload_names());
    n->wl = n->wl_ops->setup(ini, n);
    n->wl_type = n->wl_ops->lp_type(n->wl);

    n->res = net_results_new(n->nodes, n->routers, n->max_radix);
    if (!n->res || net_sample_results_alloc(n->res, &n->sampling) != 0)
        warp_fatal(3, "out of memory for per-terminal statistics of %llu nodes",
                   (unsigned long long)n->nodes);
    n->model.name = "warpnet";
    n->model.total_lps = n->nodes + n->routers + n->ranks;
    n->model.msg_size = sizeof(net_event);
    n->model.lookahead = 0; /* net_send reaches the NIC with no delay */
    n->model.lp_type = lp_type_of;
    n->model.map = map_of;
    n->model.arg = n;
    return n;
}

void net_model_free(net_model *n)
{
    if (!n)
        return;
    if (n->wl_ops && n->wl_ops->destroy)
        n->wl_ops->destroy(n->wl);
    if (n->topo_ops)
        n->topo_ops->destroy(n->topo);
    net_results_free(n->res);
    free(n->rank_term);
    free(n->term_rank);
    free(n);
}

const warp_model *net_model_warp(const net_model *n) { return &n->model; }
net_results *net_model_results(net_model *n) { return n->res; }
uint64_t net_model_routers(const net_model *n) { return n->routers; }
int32_t net_model_radix(const net_model *n) { return n->max_radix; }

const char *net_model_topology_name(const net_model *n)
{
    return n->kind == NET_KIND_SIMPLE ? "simplenet"
           : n->kind == NET_KIND_LOGGP ? "loggp"
                                       : n->topo_ops->name;
}

const net_workload_ops *net_model_workload(const net_model *n, const void **wl)
{
    *wl = n->wl;
    return n->wl_ops;
}

uint64_t net_model_links(const net_model *n)
{
    uint64_t links = 0;
    for (uint64_t r = 0; r < n->routers; r++) {
        int32_t k = n->topo_ops->radix(n->topo, r);
        for (int32_t p = 0; p < k; p++) {
            net_peer q = n->topo_ops->peer(n->topo, r, p);
            if (q.kind == NET_PEER_ROUTER && (q.id > r || (q.id == r && q.port > p)))
                links++;
        }
    }
    return links;
}

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

/* ---- Accessors for handlers (net.h) --------------------------------------- */

const net_model *net_of(const warp_lp *lp) { return warp_model_arg(lp); }
const void *net_workload_of(const warp_lp *lp) { return net_of(lp)->wl; }
uint64_t net_ranks(const net_model *n) { return n->ranks; }
uint64_t net_nodes(const net_model *n) { return n->nodes; }
double net_injection_bandwidth(const net_model *n) { return n->inj_bandwidth; }
double net_warmup(const net_model *n) { return n->warmup; }
uint64_t net_rank_terminal(const net_model *n, uint64_t rank) { return n->rank_term[rank]; }

uint64_t net_rank_of(const warp_lp *lp)
{
    const net_model *n = net_of(lp);
    return warp_lp_id(lp) - n->nodes - n->routers;
}

const net_topology_ops *net_topology(const net_model *n, const void **topo)
{
    *topo = n->topo;
    return n->topo_ops;
}

const char *net_event_name(const void *msg)
{
    static const char *const names[] = {"?",     "send",    "packet", "credit", "port-free",
                                        "ready", "deliver", "arrive", "sent",   "status"};
    const net_event *e = msg;
    return e->kind < sizeof names / sizeof names[0] ? names[e->kind] : "workload";
}
