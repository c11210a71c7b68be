/* net/model.c — the accessors of a run's read-only description: what the
 * driver asks of a built model (model.h), what handlers ask (net.h) and
 * what networks ask (network.h). Calls no other file of the network layer,
 * so every file there may use it (build.c fills the description). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "net/model.h"
#include "net/net_impl.h"

const warp_model *net_model_warp(const net_model *n) { return &n->model; }
net_results *net_model_results(net_model *n) { return n->res; }
uint64_t net_model_routers(const net_model *n) { return n->routers; }
int32_t net_model_radix(const net_model *n) { return n->max_radix; }

const char *net_model_topology_name(const net_model *n) { return n->name; }

const char *net_model_routing(const net_model *n, warp_ini *ini)
{
    if (!n->topo_ops || !n->topo_ops->routings)
        return NULL;
    if (!n->topo_ops->routings[1]) /* one fixed routing: no key to read */
        return n->topo_ops->routings[0];
    const char *given = warp_ini_get(ini, n->topo_ops->section, "routing");
    return given ? given : n->topo_ops->routings[0];
}

const char *net_model_path_name(const net_model *n, int path)
{
    return path < n->npaths ? n->net_ops->paths[path] : NULL;
}

void net_model_network_reduce(net_model *n)
{
    if (n->net_ops->reduce)
        n->net_ops->reduce(n->net, n);
}

void net_model_network_report(const net_model *n, FILE *f)
{
    if (n->net_ops->report)
        n->net_ops->report(n->net, n, f);
}

void net_model_network_json(const net_model *n, FILE *f)
{
    if (n->net_ops->json)
        n->net_ops->json(n->net, n, f);
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

/* ---- Accessors for handlers (net.h) --------------------------------------- */

const net_model *net_of(const warp_lp *lp) { return warp_model_arg(lp); }
const void *net_workload_of(const warp_lp *lp) { return net_of(lp)->wl; }
uint64_t net_ranks(const net_model *n) { return n->ranks; }
const warp_ctx *net_engine(const net_model *n) { return n->engine; }
uint64_t net_nodes(const net_model *n) { return n->nodes; }
double net_grid_index(double t, double period) { return ceil(t / period - 1e-9); }

double net_injection_bandwidth(const net_model *n) { return n->inj_bandwidth; }
double net_warmup(const net_model *n) { return n->warmup; }
uint64_t net_rank_terminal(const net_model *n, uint64_t rank) { return net_term_of_rank(n, rank); }

int32_t net_nic_ports(const net_model *n) { return n->params.nic_ports > 1 ? n->params.nic_ports : 1; }

uint64_t net_rank_of(const warp_lp *lp)
{
    const net_model *n = net_of(lp);
    return warp_lp_id(lp) - n->nodes - n->lps;
}

uint64_t net_eager_limit(const net_model *n)
{
    return n->net_ops->eager_limit ? n->net_ops->eager_limit(n->net) : 0;
}

/* ---- For networks (network.h) --------------------------------------------- */

void net_declare(net_model *n, uint64_t nodes, uint64_t lps, double injection_bandwidth)
{
    n->nodes = nodes;
    n->lps = lps;
    n->inj_bandwidth = injection_bandwidth;
}

double net_end(const net_model *n) { return n->end; }
uint64_t net_ranks_hint(const net_model *n) { return n->ranks_hint; }
const void *net_network_of(const net_model *n) { return n->net; }
warp_lpid net_rank_lp(const net_model *n, uint64_t rank) { return n->nodes + n->lps + rank; }

const net_topology_ops *net_topology(const net_model *n, const void **topo)
{
    *topo = n->topo;
    return n->topo_ops;
}

const char *net_event_name(const void *msg)
{
    static const char *const names[] = {"?",     "send",    "packet", "credit", "port-free",
                                        "ready", "deliver", "arrive", "sent",   "status", "alloc"};
    const net_event *e = msg;
    return e->kind < sizeof names / sizeof names[0] ? names[e->kind] : "workload";
}
