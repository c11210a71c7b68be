/* test_slimfly_topo.c — the Slim Fly topology as the network layer sees it:
 * sizes from [slimfly], symmetric wiring, terminals where attach() says, and
 * routes (route() + peer() hop by hop) that reach the destination terminal
 * within the routing's hop bound on VC = hop index. */
#include <criterion/criterion.h>

#include "slimfly/slimfly.h"
#include "slimfly/sf_mms.h"
#include "warp_ini.h"

static void *setup(const char *routing, const char *p, net_params *params)
{
    warp_ini *ini = warp_ini_new();
    warp_ini_set(ini, "slimfly", "q", "5", "test");
    if (p)
        warp_ini_set(ini, "slimfly", "p", p, "test");
    if (routing)
        warp_ini_set(ini, "slimfly", "routing", routing, "test");
    params->link_bandwidth = 12.5;
    params->link_latency = 50;
    void *t = slimfly_topology.setup(ini, params);
    warp_ini_free(ini);
    return t;
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
            cr_assert_eq(a.latency, 50);
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

/* Routes from every terminal to every 7th terminal; returns the longest. */
static uint32_t route_all(void *t, uint32_t vcs)
{
    uint32_t longest = 0;
    uint64_t nodes = slimfly_topology.nodes(t);
    warp_rng rng = warp_rng_stream(7, 1);
    for (uint64_t s = 0; s < nodes; s++)
        for (uint64_t d = s % 7; d < nodes; d += 7) {
            net_attach at = slimfly_topology.attach(t, s);
            net_route_in in = {.router = at.router, .in_port = at.port, .src = s, .dst = d,
                               .rng = &rng};
            for (;;) {
                net_route_out o = slimfly_topology.route(t, &in);
                net_peer nx = slimfly_topology.peer(t, in.router, o.port);
                if (nx.kind == NET_PEER_TERMINAL) {
                    cr_assert_eq(nx.id, d, "%llu -> %llu ejected at terminal %llu",
                                 (unsigned long long)s, (unsigned long long)d,
                                 (unsigned long long)nx.id);
                    break;
                }
                cr_assert_eq((uint32_t)o.vc, in.hops, "hop %u on VC %d", in.hops, o.vc);
                cr_assert_lt((uint32_t)o.vc, vcs);
                in.router = nx.id;
                in.in_port = nx.port;
                in.in_vc = o.vc;
                in.hops++;
                in.aux[0] = o.aux[0];
                in.aux[1] = o.aux[1];
            }
            if (s / 3 != d / 3)
                cr_assert_geq(in.hops, slimfly_topology.min_hops(t, s, d));
            longest = in.hops > longest ? in.hops : longest;
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

Test(slimfly_topo, worst_case_partner_is_two_hops_away)
{
    net_params params = {0};
    void *t = setup(NULL, NULL, &params);
    for (uint64_t s = 0; s < 150; s++) {
        uint64_t d = slimfly_worst_case_dst(t, s);
        cr_assert_eq(slimfly_worst_case_dst(t, d), s);
        cr_assert_eq(d % 3, s % 3, "same terminal index on the partner router");
        cr_assert_eq(slimfly_topology.min_hops(t, s, d), 2);
    }
    slimfly_topology.destroy(t);
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
