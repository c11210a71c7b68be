/* test_fattree_topo.c — the fat-tree as the network layer sees it (fattree_topology):
 * symmetric wiring with the right bandwidths through the ops, routes that
 * reach their destination in min_hops router hops, and a router numbering
 * whose block-linear split gives every PE whole pods and an equal share of
 * the top level. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fattree/fattree_topo.h"
#include "warp_ini.h"

static const net_topology_ops *ops = &fattree_topology;

static void *make(const char *ports, const char *levels, const char *ecmp, net_params *p)
{
    warp_ini *ini = warp_ini_new();
    warp_ini_set(ini, "fattree", "ports", ports, "test");
    warp_ini_set(ini, "fattree", "levels", levels, "test");
    warp_ini_set(ini, "fattree", "ecmp", ecmp, "test");
    warp_ini_set(ini, "fattree", "host_bandwidth", "25GB/s", "test");
    warp_ini_set(ini, "fattree", "switch_bandwidth", "10GB/s", "test");
    memset(p, 0, sizeof *p);
    p->link_bandwidth = 12.5;
    p->link_latency = 40;
    p->terminal_latency = 15;
    void *t = ops->setup(ini, p);
    warp_ini_free(ini);
    return t;
}

static const char *shapes[][2] = {{"4", "1"}, {"4", "2"}, {"4", "3"}, {"6", "3"},
                                  {"8", "3"}, {"4", "4"}, {"16", "3"}};
#define NSHAPES (sizeof shapes / sizeof shapes[0])

Test(fattree_topo, ops_wiring_is_symmetric_with_host_and_switch_bandwidths)
{
    for (size_t s = 0; s < NSHAPES; s++) {
        net_params prm;
        void *t = make(shapes[s][0], shapes[s][1], "per-flow", &prm);
        uint64_t terms = 0;
        for (uint64_t r = 0; r < ops->routers(t); r++) {
            cr_assert_eq(ops->radix(t, r), ops->max_radix(t));
            for (int32_t p = 0; p < ops->radix(t, r); p++) {
                net_peer e = ops->peer(t, r, p);
                cr_assert_eq(e.latency, e.kind == NET_PEER_TERMINAL ? 15.0 : 40.0,
                             "[network] terminal_latency on node links, link_latency between switches");
                if (e.kind == NET_PEER_TERMINAL) {
                    terms++;
                    cr_assert_eq(e.bandwidth, 25.0, "host link at %.1f B/ns", e.bandwidth);
                    net_attach a = ops->attach(t, e.id);
                    cr_assert(a.router == r && a.port == p, "(%s,%s) terminal %llu attach mismatch",
                              shapes[s][0], shapes[s][1], (unsigned long long)e.id);
                    continue;
                }
                cr_assert_eq(e.kind, NET_PEER_ROUTER);
                cr_assert_eq(e.bandwidth, 10.0, "switch link at %.1f B/ns", e.bandwidth);
                net_peer back = ops->peer(t, e.id, e.port);
                cr_assert(back.kind == NET_PEER_ROUTER && back.id == r && back.port == p,
                          "(%s,%s) router %llu port %d -> %llu:%d -> %llu:%d", shapes[s][0],
                          shapes[s][1], (unsigned long long)r, p, (unsigned long long)e.id,
                          e.port, (unsigned long long)back.id, back.port);
            }
        }
        cr_assert_eq(terms, ops->nodes(t), "every terminal attached once");
        ops->destroy(t);
    }
}

/* Follows route() from src to dst; returns router-to-router hops. */
static uint32_t walk(const void *t, uint64_t src, uint64_t dst, uint32_t flow, warp_rng *rng)
{
    net_attach a = ops->attach(t, src);
    net_route_in in = {.router = a.router, .in_port = a.port, .src = src, .dst = dst,
                       .flow = flow, .rng = rng};
    for (;;) {
        net_route_out o = ops->route(t, &in);
        cr_assert_eq(o.vc, 0, "one VC suffices for up/down routing");
        net_peer e = ops->peer(t, in.router, o.port);
        if (e.kind == NET_PEER_TERMINAL) {
            cr_assert_eq(e.id, dst, "route %llu -> %llu ends at %llu", (unsigned long long)src,
                         (unsigned long long)dst, (unsigned long long)e.id);
            return in.hops;
        }
        in.router = e.id;
        in.in_port = e.port;
        in.hops++;
        in.aux[0] = o.aux[0];
        in.aux[1] = o.aux[1];
        cr_assert_leq(in.hops, 2 * 16, "route %llu -> %llu does not end",
                      (unsigned long long)src, (unsigned long long)dst);
    }
}

Test(fattree_topo, routes_arrive_in_min_hops)
{
    warp_rng rng = warp_rng_stream(5, 1);
    for (size_t s = 0; s < NSHAPES; s++) {
        for (int pp = 0; pp < 2; pp++) {
            net_params prm;
            void *t = make(shapes[s][0], shapes[s][1], pp ? "per-packet" : "per-flow", &prm);
            uint64_t n = ops->nodes(t);
            for (uint64_t a = 0; a < n; a += 1 + n / 64)
                for (uint64_t b = 0; b < n; b++)
                    cr_assert_eq(walk(t, a, b, (uint32_t)(a ^ b), &rng), ops->min_hops(t, a, b),
                                 "(%s,%s) %llu -> %llu", shapes[s][0], shapes[s][1],
                                 (unsigned long long)a, (unsigned long long)b);
            ops->destroy(t);
        }
    }
}

/* Per-packet ECMP: packets of one flow (same flow id) take several paths. */
Test(fattree_topo, per_packet_ecmp_sprays_one_flow)
{
    net_params prm;
    void *t = make("8", "3", "per-packet", &prm);
    warp_rng rng = warp_rng_stream(6, 2);
    uint64_t seen = 0;
    for (int pkt = 0; pkt < 100; pkt++) {
        net_attach a = ops->attach(t, 0);
        net_route_in in = {.router = a.router, .src = 0, .dst = 127, .flow = 9, .rng = &rng};
        net_route_out o = ops->route(t, &in);
        seen |= UINT64_C(1) << (o.port - 4);
    }
    cr_assert_eq(seen, 0xf, "100 packets of one flow used up ports %#llx", (unsigned long long)seen);
    ops->destroy(t);
}

static int is_top(const void *t, uint64_t r, const char *levels)
{
    char label[64], want[24];
    ops->router_label(t, r, label, sizeof label);
    snprintf(want, sizeof want, "L%d t", atoi(levels) - 1);
    return strncmp(label, want, strlen(want)) == 0;
}

/* The network layer maps router r to PE r*npes/routers and a terminal to its
 * router's PE: every PE must get the same nodes and top switches, and a
 * pod's switches must stay on the PE of its nodes. */
Test(fattree_topo, block_linear_split_keeps_pods_whole)
{
    static const char *split[][3] = {{"8", "3", "2"}, {"8", "3", "4"}, {"16", "3", "8"},
                                     {"4", "2", "2"}, {"8", "4", "4"}};
    for (size_t s = 0; s < sizeof split / sizeof split[0]; s++) {
        net_params prm;
        void *t = make(split[s][0], split[s][1], "per-flow", &prm);
        uint64_t R = ops->routers(t), N = ops->nodes(t), npes = (uint64_t)atoi(split[s][2]);
        uint64_t nodes_on[8] = {0}, tops_on[8] = {0};
        for (uint64_t v = 0; v < N; v++)
            nodes_on[ops->attach(t, v).router * npes / R]++;
        for (uint64_t r = 0; r < R; r++) {
            uint64_t pe = r * npes / R;
            tops_on[pe] += (uint64_t)is_top(t, r, split[s][1]);
            if (is_top(t, r, split[s][1]))
                continue;
            /* a switch below the top reaches only nodes of its own pod, on its PE */
            net_route_in in = {.router = r, .src = 0, .flow = 0};
            for (uint64_t v = 0; v < N; v++) {
                in.dst = v;
                net_route_out o = ops->route(t, &in);
                if (o.port < ops->max_radix(t) / 2) /* goes down: v is below r */
                    cr_assert_eq(ops->attach(t, v).router * npes / R, pe,
                                 "(%s,%s) node %llu below router %llu on another PE",
                                 split[s][0], split[s][1], (unsigned long long)v,
                                 (unsigned long long)r);
            }
        }
        for (uint64_t pe = 0; pe < npes; pe++) {
            cr_assert_eq(nodes_on[pe], N / npes, "(%s,%s) PE %llu of %llu has %llu nodes",
                         split[s][0], split[s][1], (unsigned long long)pe,
                         (unsigned long long)npes, (unsigned long long)nodes_on[pe]);
            cr_assert_eq(tops_on[pe], tops_on[0], "(%s,%s) PE %llu has %llu top switches",
                         split[s][0], split[s][1], (unsigned long long)pe,
                         (unsigned long long)tops_on[pe]);
        }
        ops->destroy(t);
    }
}

/* Planes through the ops: setup raises [network]'s NIC ports and rail
 * selection, every terminal port j of a leaf leads back through
 * attach_port(t, j), and a route entered in plane j arrives on port j. */
Test(fattree_topo, planes_wire_one_nic_port_per_plane)
{
    warp_ini *ini = warp_ini_new();
    warp_ini_set(ini, "fattree", "down", "3,4,3", "test");
    warp_ini_set(ini, "fattree", "up", "1,2,4", "test");
    warp_ini_set(ini, "fattree", "top_fold", "2", "test");
    warp_ini_set(ini, "fattree", "planes", "3", "test");
    warp_ini_set(ini, "fattree", "rail_select", "round-robin", "test");
    net_params prm;
    memset(&prm, 0, sizeof prm);
    prm.link_bandwidth = 12.5;
    prm.nic_ports = 1;
    void *t = ops->setup(ini, &prm);
    warp_ini_free(ini);
    cr_assert_eq(prm.nic_ports, 3);
    cr_assert_eq(prm.rail_select, NET_RAIL_ROUND_ROBIN);
    uint64_t ends = 0;
    for (uint64_t r = 0; r < ops->routers(t); r++)
        for (int32_t p = 0; p < ops->max_radix(t); p++) {
            net_peer e = ops->peer(t, r, p);
            if (e.kind != NET_PEER_TERMINAL)
                continue;
            ends++;
            cr_assert(e.port >= 0 && e.port < 3);
            net_attach a = ops->attach_port(t, e.id, e.port);
            cr_assert(a.router == r && a.port == p, "terminal %llu port %d", (unsigned long long)e.id, e.port);
            if (e.port == 0) {
                net_attach z = ops->attach(t, e.id);
                cr_assert(z.router == r && z.port == p);
            }
        }
    cr_assert_eq(ends, 3 * ops->nodes(t), "every node has a port in each plane");
    warp_rng rng = warp_rng_stream(3, 3);
    for (uint64_t a = 0; a < ops->nodes(t); a++)
        for (uint64_t b = 0; b < ops->nodes(t); b++)
            for (int32_t j = 0; j < 3; j++) {
                net_attach at = ops->attach_port(t, a, j);
                net_route_in in = {.router = at.router, .in_port = at.port, .src = a, .dst = b,
                                   .flow = (uint32_t)(a * 7 + b), .rng = &rng};
                for (int hop = 0;; hop++) {
                    cr_assert_lt(hop, 8);
                    net_route_out o = ops->route(t, &in);
                    net_peer e = ops->peer(t, in.router, o.port);
                    if (e.kind == NET_PEER_TERMINAL) {
                        cr_assert(e.id == b && e.port == j, "%llu -> %llu in plane %d arrives at %llu port %d",
                                  (unsigned long long)a, (unsigned long long)b, j,
                                  (unsigned long long)e.id, e.port);
                        break;
                    }
                    cr_assert_eq(e.kind, NET_PEER_ROUTER);
                    in.router = e.id;
                    in.in_port = e.port;
                    in.aux[0] = o.aux[0];
                    in.aux[1] = o.aux[1];
                }
            }
    ops->destroy(t);
}
