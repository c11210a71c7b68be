/* test_spt.c — shortest-path tables (net/spt.h): breadth-first distances,
 * next hops that are always one hop closer, ECMP that uses every minimal
 * port across messages and keeps one per message, unreachable pairs found,
 * and lanes that keep each VC to one class. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "net/spt.h"

/* A ring of n routers, router r's port 0 to r+1, port 1 to r-1. */
static net_spt ring(uint64_t n, uint64_t *off, uint64_t *to, int32_t *port)
{
    for (uint64_t r = 0; r < n; r++) {
        off[r] = 2 * r;
        to[2 * r] = (r + 1) % n;
        to[2 * r + 1] = (r + n - 1) % n;
        port[2 * r] = 0;
        port[2 * r + 1] = 1;
    }
    off[n] = 2 * n;
    net_spt s = {.routers = n, .off = off, .to = to, .port = port};
    net_spt_build(&s);
    return s;
}

Test(spt, ring_distances_and_diameter)
{
    uint64_t off[9], to[16];
    int32_t port[16];
    net_spt s = ring(8, off, to, port);
    for (uint64_t a = 0; a < 8; a++)
        for (uint64_t b = 0; b < 8; b++) {
            uint64_t f = (b - a + 8) % 8, want = f < 8 - f ? f : 8 - f;
            cr_assert_eq(net_spt_hops(&s, a, b), want, "%llu -> %llu", (unsigned long long)a,
                         (unsigned long long)b);
        }
    cr_assert_eq(s.diameter, 4);
    cr_assert_eq(s.far_a, s.far_b, "a ring is connected");
    net_spt_free(&s);
}

Test(spt, next_hop_is_one_closer_and_ecmp_uses_both_ways_to_the_antipode)
{
    uint64_t off[9], to[16];
    int32_t port[16];
    net_spt s = ring(8, off, to, port);
    int used[2] = {0, 0};
    for (uint32_t flow = 0; flow < 64; flow++) {
        int32_t p = net_spt_next(&s, 0, 4, flow, NULL);
        cr_assert(p == 0 || p == 1);
        used[p]++;
        cr_assert_eq(net_spt_next(&s, 0, 4, flow, NULL), p, "a message keeps its path");
        for (uint64_t d = 1; d < 8; d++) {
            int32_t q = net_spt_next(&s, 0, d, flow, NULL);
            uint64_t nb = to[off[0] + (uint64_t)q];
            cr_assert_eq(net_spt_hops(&s, nb, d) + 1, net_spt_hops(&s, 0, d));
        }
    }
    cr_assert(used[0] > 10 && used[1] > 10, "ECMP: %d and %d of 64 flows each way", used[0], used[1]);
    int32_t ports[4];
    cr_assert_eq(net_spt_ports(&s, 0, 4, ports, 4), 2);
    cr_assert_eq(net_spt_ports(&s, 0, 3, ports, 4), 1);
    cr_assert_eq(ports[0], 0);
    net_spt_free(&s);
}

Test(spt, two_rings_are_disconnected)
{
    /* routers 0-2 and 3-5, two triangles */
    uint64_t off[7] = {0, 2, 4, 6, 8, 10, 12};
    uint64_t to[12] = {1, 2, 0, 2, 0, 1, 4, 5, 3, 5, 3, 4};
    int32_t port[12] = {0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1};
    net_spt s = {.routers = 6, .off = off, .to = to, .port = port};
    net_spt_build(&s);
    cr_assert_neq(s.far_a, s.far_b);
    cr_assert_eq(net_spt_hops(&s, s.far_a, s.far_b), NET_SPT_FAR);
    cr_assert_eq(s.diameter, 1);
    net_spt_free(&s);
}

Test(spt, lanes_keep_each_vc_to_one_class)
{
    /* 3 classes over 8 VCs: class 0 owns 0, 3, 6; 1 owns 1, 4, 7; 2 owns 2, 5 */
    for (uint32_t cls = 0; cls < 3; cls++)
        for (uint32_t flow = 0; flow < 30; flow++) {
            int32_t vc = net_spt_vc(3, 8, cls, flow);
            cr_assert(vc >= 0 && vc < 8);
            cr_assert_eq((uint32_t)vc % 3, cls, "VC %d of class %u", vc, cls);
        }
    cr_assert_eq(net_spt_vc(3, 8, 2, 1), 5);
    cr_assert_eq(net_spt_vc(1, 1, 0, 77), 0);
}
