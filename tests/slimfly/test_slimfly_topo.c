/* test_slimfly_topo.c — the Slim Fly topology as the network layer sees it:
 * sizes from [slimfly], symmetric wiring, terminals where attach() says, and
 * routes (route() + peer() hop by hop) that reach the destination terminal
 * within the routing's hop bound on VC = hop index; the worst-case pairing
 * and the bisection cut through the optional hooks. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "slimfly/slimfly.h"
#include "slimfly/slimfly_mms.h"
#include "warp_ini.h"

static void *setup_q(const char *q, const char *routing, const char *p, net_params *params)
{
    warp_ini *ini = warp_ini_new();
    warp_ini_set(ini, "slimfly", "q", q, "test");
    if (p)
        warp_ini_set(ini, "slimfly", "p", p, "test");
    if (routing)
        warp_ini_set(ini, "slimfly", "routing", routing, "test");
    params->link_bandwidth = 12.5;
    params->link_latency = 50;
    params->terminal_latency = 20;
    void *t = slimfly_topology.setup(ini, params);
    warp_ini_free(ini);
    return t;
}

static void *setup(const char *routing, const char *p, net_params *params)
{
    return setup_q("5", routing, p, params);
}

Test(slimfly_topo, sizes_follow_q_and_p)
{
    net_params params = {0};
    void *t = setup(NULL, NULL, &params);
    cr_assert_eq(slimfly_topology.routers(t), 50);
    cr_assert_eq(slimfly_topology.nodes(t), 150, "default p = floor(7/2) = 3");
    cr_assert_eq(slimfly_topology.max_radix(t), 10);
    cr_assert_eq(slimfly_topology.vcs(t), 2);
    slimfly_topology.destroy(t);
    t = setup("valiant", "4", &params);
    cr_assert_eq(slimfly_topology.nodes(t), 200);
    cr_assert_eq(slimfly_topology.vcs(t), 4);
    slimfly_topology.destroy(t);
}

Test(slimfly_topo, wiring_is_symmetric)
{
    net_params params = {0};
    void *t = setup(NULL, NULL, &params);
    uint64_t terminals_seen = 0;
    for (uint64_t r = 0; r < 50; r++)
        for (int32_t p = 0; p < slimfly_topology.radix(t, r); p++) {
            net_peer a = slimfly_topology.peer(t, r, p);
            cr_assert_eq(a.bandwidth, 12.5);
            cr_assert_eq(a.latency, a.kind == NET_PEER_TERMINAL ? 20 : 50);
            if (a.kind == NET_PEER_TERMINAL) {
                net_attach at = slimfly_topology.attach(t, a.id);
                cr_assert(at.router == r && at.port == p, "terminal %llu", (unsigned long long)a.id);
                terminals_seen++;
                continue;
            }
            cr_assert_eq(a.kind, NET_PEER_ROUTER);
            net_peer b = slimfly_topology.peer(t, a.id, a.port);
            cr_assert(b.kind == NET_PEER_ROUTER && b.id == r && b.port == p,
                      "router %llu port %d -> %llu:%d does not lead back", (unsigned long long)r,
                      p, (unsigned long long)a.id, a.port);
        }
    cr_assert_eq(terminals_seen, 150);
    slimfly_topology.destroy(t);
}

/* Routes one packet s -> d hop by hop through route() and peer(), checking
 * it ejects at d with VC = hop index < vcs; counts each router-to-router
 * hop in flows[router * max_radix + port] when flows is given. Returns the
 * hops. */
static uint32_t walk(void *t, uint64_t s, uint64_t d, uint32_t vcs, warp_rng *rng, uint32_t *flows)
{
    int32_t k = slimfly_topology.max_radix(t);
    net_attach at = slimfly_topology.attach(t, s);
    net_route_in in = {.router = at.router, .in_port = at.port, .src = s, .dst = d, .rng = rng};
    for (;;) {
        net_route_out o = slimfly_topology.route(t, &in);
        net_peer nx = slimfly_topology.peer(t, in.router, o.port);
        if (nx.kind == NET_PEER_TERMINAL) {
            cr_assert_eq(nx.id, d, "%llu -> %llu ejected at terminal %llu", (unsigned long long)s,
                         (unsigned long long)d, (unsigned long long)nx.id);
            return in.hops;
        }
        cr_assert_eq((uint32_t)o.vc, in.hops, "hop %u on VC %d", in.hops, o.vc);
        cr_assert_lt((uint32_t)o.vc, vcs);
        if (flows)
            flows[in.router * (uint64_t)k + (uint64_t)o.port]++;
        in.router = nx.id;
        in.in_port = nx.port;
        in.in_vc = o.vc;
        in.hops++;
        in.aux[0] = o.aux[0];
        in.aux[1] = o.aux[1];
    }
}

/* Routes from every terminal to every 7th terminal; returns the longest. */
static uint32_t route_all(void *t, uint32_t vcs)
{
    uint32_t longest = 0;
    uint64_t nodes = slimfly_topology.nodes(t);
    warp_rng rng = warp_rng_stream(7, 1);
    for (uint64_t s = 0; s < nodes; s++)
        for (uint64_t d = s % 7; d < nodes; d += 7) {
            uint32_t hops = walk(t, s, d, vcs, &rng, NULL);
            if (s / 3 != d / 3)
                cr_assert_geq(hops, slimfly_topology.min_hops(t, s, d));
            longest = hops > longest ? hops : longest;
        }
    return longest;
}

Test(slimfly_topo, minimal_routes_reach_the_terminal_in_2_hops)
{
    net_params params = {0};
    void *t = setup("minimal", NULL, &params);
    cr_assert_eq(route_all(t, 2), 2);
    slimfly_topology.destroy(t);
}

Test(slimfly_topo, valiant_routes_reach_the_terminal_in_4_hops)
{
    net_params params = {0};
    void *t = setup("valiant", NULL, &params);
    cr_assert_eq(route_all(t, 4), 4);
    slimfly_topology.destroy(t);
}

/* route_ports, the prefetch hint, names every port route() picks under
 * minimal routing (32 draws per router and destination; at q = 7, unlike
 * the girth-5 graph of q = 5, some pairs have several minimal first hops),
 * the terminal's own port at its router, and declines (0) where the
 * choice needs the packet's phase. */
Test(slimfly_topo, route_ports_name_every_minimal_choice)
{
    net_params params = {0};
    void *t = setup_q("7", "minimal", NULL, &params);
    warp_rng rng = warp_rng_stream(11, 2);
    uint64_t nodes = slimfly_topology.nodes(t), several = 0;
    for (uint64_t r = 0; r < slimfly_topology.routers(t); r++)
        for (uint64_t d = 0; d < nodes; d++) {
            int32_t ports[8];
            int32_t k = slimfly_topology.route_ports(t, r, d, ports, 8);
            cr_assert(k >= 1 && k <= 8, "router %llu, terminal %llu: %d ports", (unsigned long long)r,
                      (unsigned long long)d, k);
            net_attach at = slimfly_topology.attach(t, d);
            if (at.router == r)
                cr_assert(k == 1 && ports[0] == at.port, "router %llu ejects terminal %llu on its port",
                          (unsigned long long)r, (unsigned long long)d);
            several += k > 1;
            net_route_in in = {.router = r, .src = (r == 0 ? nodes - 1 : 0), .dst = d, .rng = &rng};
            for (int i = 0; i < 32; i++) {
                int32_t port = slimfly_topology.route(t, &in).port, j = 0;
                while (j < k && ports[j] != port)
                    j++;
                cr_assert_lt(j, k, "router %llu, terminal %llu: route() took port %d, not named",
                             (unsigned long long)r, (unsigned long long)d, port);
            }
        }
    cr_assert_gt(several, 0, "some pairs have several minimal first hops");
    int32_t one[1];
    cr_assert_eq(slimfly_topology.route_ports(t, 0, nodes - 1, one, 1), 1, "max bounds what it writes");
    slimfly_topology.destroy(t);
    int32_t ports[8];
    t = setup_q("7", "valiant", NULL, &params);
    cr_assert_eq(slimfly_topology.route_ports(t, 0, nodes - 1, ports, 8), 0);
    slimfly_topology.destroy(t);
    t = setup_q("7", "ugal", NULL, &params);
    cr_assert_eq(slimfly_topology.route_ports(t, 0, nodes - 1, ports, 8), 0);
    slimfly_topology.destroy(t);
}

/* Every terminal's worst-case destination holds the same index on a router
 * at distance 2, the pairing is an involution, and routing all those flows
 * minimally through route() loads no directed link with more than two router
 * pairs (2p terminal flows); for even q exactly 2 links per quadruple, i.e.
 * q² of them, carry two. */
Test(slimfly_topo, worst_case_flows_share_middle_links_two_by_two)
{
    static const char *const qs[] = {"4", "5", "8", "9"};
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        net_params params = {0};
        void *t = setup_q(qs[i], "minimal", NULL, &params);
        uint64_t nodes = slimfly_topology.nodes(t), routers = slimfly_topology.routers(t);
        uint64_t p = nodes / routers;
        int32_t k = slimfly_topology.max_radix(t);
        int q = atoi(qs[i]);
        uint32_t *flows = calloc(routers * (uint64_t)k, sizeof *flows);
        warp_rng rng = warp_rng_stream(3, 1);
        for (uint64_t s = 0; s < nodes; s++) {
            uint64_t d = slimfly_topology.worst_case_dst(t, s);
            cr_assert_eq(slimfly_topology.worst_case_dst(t, d), s, "q = %s: not an involution", qs[i]);
            cr_assert_eq(d % p, s % p, "q = %s: same terminal index on the partner router", qs[i]);
            cr_assert_eq(slimfly_topology.min_hops(t, s, d), 2, "q = %s: terminal %llu", qs[i],
                         (unsigned long long)s);
            cr_assert_eq(walk(t, s, d, 2, &rng, flows), 2);
        }
        uint64_t doubled = 0;
        for (uint64_t l = 0; l < routers * (uint64_t)k; l++) {
            cr_assert_leq(flows[l], 2 * p, "q = %s: %u flows on one link", qs[i], flows[l]);
            doubled += flows[l] == 2 * p;
        }
        if (q % 2 == 0)
            cr_assert_eq(doubled, (uint64_t)q * (uint64_t)q, "q = %s: %llu shared links", qs[i],
                         (unsigned long long)doubled);
        else
            cr_assert_geq(doubled, (uint64_t)(q / 2) * (uint64_t)q * 2);
        free(flows);
        slimfly_topology.destroy(t);
    }
}

/* bisection_bandwidth is the cut of slimfly.h, counted here link by link:
 * points of the first floor(q/2) columns and lines of the first
 * q - floor(q/2) slopes on one side, q² routers each. */
Test(slimfly_topo, bisection_is_the_counted_column_slope_cut)
{
    static const char *const qs[] = {"4", "5", "7", "8", "9", "13"};
    for (size_t i = 0; i < sizeof qs / sizeof qs[0]; i++) {
        net_params params = {0};
        void *t = setup_q(qs[i], NULL, NULL, &params);
        uint64_t q = (uint64_t)atoi(qs[i]), a = q / 2, b = q - a, inside = 0, cut = 0;
        uint64_t routers = slimfly_topology.routers(t);
        for (uint64_t r = 0; r < routers; r++) {
            int side = (r % (q * q)) / q < (r < q * q ? a : b);
            inside += side;
            for (int32_t port = 0; port < slimfly_topology.radix(t, r); port++) {
                net_peer nx = slimfly_topology.peer(t, r, port);
                if (nx.kind != NET_PEER_ROUTER || nx.id < r)
                    continue;
                cut += side != ((nx.id % (q * q)) / q < (nx.id < q * q ? a : b));
            }
        }
        cr_assert_eq(inside, q * q, "q = %s: unbalanced cut", qs[i]);
        cr_assert_eq(slimfly_topology.bisection_bandwidth(t), (double)cut * 12.5,
                     "q = %s: %g B/ns, counted %llu links", qs[i],
                     slimfly_topology.bisection_bandwidth(t), (unsigned long long)cut);
        slimfly_topology.destroy(t);
    }
}

static void setup_with(const char *key, const char *value)
{
    warp_ini *ini = warp_ini_new();
    warp_ini_set(ini, "slimfly", "q", "13", "test");
    warp_ini_set(ini, "slimfly", key, value, "test");
    if (strcmp(key, "X") == 0)
        warp_ini_set(ini, "slimfly", "Xprime", "2,5,6,7,8,11", "test");
    net_params params = {0};
    slimfly_topology.setup(ini, &params);
}

Test(slimfly_topo, q_not_a_prime_power_exits_2, .exit_code = 2) { setup_with("q", "15"); }
Test(slimfly_topo, q_of_form_4w_plus_2_exits_2, .exit_code = 2) { setup_with("q", "6"); }
Test(slimfly_topo, asymmetric_x_exits_2, .exit_code = 2) { setup_with("X", "1,3,4,9,10,11"); }
Test(slimfly_topo, x_without_xprime_exits_2, .exit_code = 2) { setup_with("Xprime", "1,2"); }
Test(slimfly_topo, unknown_routing_exits_2, .exit_code = 2) { setup_with("routing", "adaptive"); }
Test(slimfly_topo, good_explicit_sets_are_accepted)
{
    setup_with("X", "1,3,4,9,10,12");
}
