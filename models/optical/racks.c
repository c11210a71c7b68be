/* optical/racks.c — the electrical part of the optical network as a
 * topology the packet network runs: one switch per rack, its first ports to
 * the rack's servers, its last port to the rack's ToR (a gateway, network.h).
 * Invariant: a packet for a server of this rack leaves on that server's
 * port, every other packet on the ToR's; so one switch hop in each rack.
 * Built by optical.c, which owns the description. */
#include <stdio.h>

#include "optical/optical_impl.h"

static uint64_t racks_nodes(const void *t)
{
    const opt_racks *r = t;
    return r->racks * r->spr;
}

static uint64_t racks_routers(const void *t) { return ((const opt_racks *)t)->racks; }
static int32_t racks_max_radix(const void *t) { return (int32_t)((const opt_racks *)t)->spr + 1; }
static int32_t racks_radix(const void *t, uint64_t router)
{
    (void)router; /* every rack switch has a port per server and one for the ToR */
    return racks_max_radix(t);
}
static int32_t racks_vcs(const void *t)
{
    (void)t; /* one switch hop: no cycle of buffers to break */
    return 1;
}

static net_peer racks_peer(const void *t, uint64_t router, int32_t port)
{
    const opt_racks *r = t;
    net_peer p = {.bandwidth = r->bandwidth, .latency = r->latency};
    if ((uint64_t)port < r->spr) {
        p.kind = NET_PEER_TERMINAL;
        p.id = router * r->spr + (uint64_t)port;
    } else {
        p.kind = NET_PEER_GATEWAY;
        p.id = r->tor0 + router;
    }
    return p;
}

static net_attach racks_attach(const void *t, uint64_t terminal)
{
    const opt_racks *r = t;
    return (net_attach){.router = terminal / r->spr, .port = (int32_t)(terminal % r->spr)};
}

static net_route_out racks_route(const void *t, const net_route_in *in)
{
    const opt_racks *r = t;
    net_route_out out = {.port = (int32_t)r->spr, .vc = 0, .aux = {0, 0}};
    if (in->dst / r->spr == in->router)
        out.port = (int32_t)(in->dst % r->spr);
    return out;
}

static void racks_label(const void *t, uint64_t router, char *buf, size_t n)
{
    (void)t;
    snprintf(buf, n, "rack%llu", (unsigned long long)router);
}

static uint32_t racks_min_hops(const void *t, uint64_t src, uint64_t dst)
{
    (void)t, (void)src, (void)dst; /* router-to-router links: none, optics are not routers */
    return 0;
}

const net_topology_ops opt_racks_topology = {
    .name = "optical",
    .section = "optical",
    .nodes = racks_nodes,
    .routers = racks_routers,
    .radix = racks_radix,
    .max_radix = racks_max_radix,
    .vcs = racks_vcs,
    .peer = racks_peer,
    .attach = racks_attach,
    .route = racks_route,
    .router_label = racks_label,
    .min_hops = racks_min_hops,
};
