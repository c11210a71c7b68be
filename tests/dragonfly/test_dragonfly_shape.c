/* test_dragonfly_shape.c — the dragonfly as the network layer sees it (through
 * dragonfly_topology): sizes from the formulas, symmetric wiring, every pair
 * of groups joined by as many links as the arrangement says (counted from
 * the wiring, port by port), each arrangement's slot rule, minimal router
 * distances against a breadth-first search, and the worst-case shift. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dragonfly/dragonfly_shape.h"
#include "dragonfly/dragonfly.h"
#include "warp_ini.h"

static const char *const arrangements[] = {"absolute", "relative", "circulant"};

/* A dragonfly from [dragonfly] keys; g = 0 leaves g at its default. */
static void *build(unsigned a, unsigned p, unsigned h, unsigned g, const char *arr,
                   net_params *params)
{
    warp_ini *ini = warp_ini_new();
    char v[32];
    snprintf(v, sizeof v, "%u", a);
    warp_ini_set(ini, "dragonfly", "a", v, "test");
    snprintf(v, sizeof v, "%u", p);
    warp_ini_set(ini, "dragonfly", "p", v, "test");
    snprintf(v, sizeof v, "%u", h);
    warp_ini_set(ini, "dragonfly", "h", v, "test");
    if (g) {
        snprintf(v, sizeof v, "%u", g);
        warp_ini_set(ini, "dragonfly", "g", v, "test");
    }
    warp_ini_set(ini, "dragonfly", "arrangement", arr, "test");
    params->link_bandwidth = 12.5;
    params->link_latency = 50;
    params->terminal_latency = 50;
    params->packet_size = 256;
    void *t = dragonfly_topology.setup(ini, params);
    warp_ini_free(ini);
    return t;
}

/* The shapes every test walks: balanced (a = 2p = 2h, g = a·h + 1), fewer
 * groups with spares (even, odd, with and without antipodes), a = 1. */
typedef struct shape_case {
    unsigned a, p, h, g;
} shape_case;
static const shape_case cases[] = {
    {4, 2, 2, 0}, {8, 4, 4, 0}, {4, 2, 2, 5}, {4, 2, 2, 4}, {3, 1, 2, 4},
    {3, 2, 1, 3}, {2, 1, 3, 4}, {1, 1, 3, 3}, {6, 3, 3, 8}, {5, 2, 3, 10},
    {2, 1, 2, 4}, {1, 2, 4, 4},
};
#define NCASES (sizeof cases / sizeof cases[0])

static unsigned groups_of(const shape_case *c) { return c->g ? c->g : c->a * c->h + 1; }

Test(dfly_shape, sizes_follow_the_formulas)
{
    for (size_t k = 0; k < NCASES; k++) {
        const shape_case *c = &cases[k];
        net_params params = {0};
        void *t = build(c->a, c->p, c->h, c->g, "absolute", &params);
        unsigned g = groups_of(c);
        cr_assert_eq(dragonfly_topology.routers(t), (uint64_t)g * c->a, "case %zu", k);
        cr_assert_eq(dragonfly_topology.nodes(t), (uint64_t)g * c->a * c->p, "case %zu", k);
        cr_assert_eq(dragonfly_topology.max_radix(t), (int32_t)(c->a - 1 + c->h + c->p));
        cr_assert_eq(dragonfly_topology.vcs(t), 2, "minimal routing needs 2 VCs");
        dragonfly_topology.destroy(t);
    }
    net_params params = {0};
    void *t = build(16, 8, 8, 0, "relative", &params);
    cr_assert_eq(dragonfly_topology.routers(t), 2064, "a = 16, h = 8: 129 groups of 16");
    cr_assert_eq(dragonfly_topology.nodes(t), 16512);
    cr_assert_eq(dragonfly_topology.max_radix(t), 31);
    dragonfly_topology.destroy(t);
}

/* Counts, from the wiring alone, local and global links and the global
 * links joining each ordered pair of groups (pairs[i*g + d]); checks
 * symmetry and terminal attachment on the way. */
static void count_links(void *t, unsigned a, unsigned h, unsigned g, uint64_t *local,
                        uint64_t *global, uint64_t *unconnected, unsigned *pairs)
{
    *local = *global = *unconnected = 0;
    uint64_t terminals = 0;
    for (uint64_t r = 0; r < (uint64_t)g * a; r++)
        for (int32_t port = 0; port < dragonfly_topology.radix(t, r); port++) {
            net_peer q = dragonfly_topology.peer(t, r, port);
            if (q.kind == NET_PEER_NONE) {
                cr_assert(port >= (int32_t)a - 1 && port < (int32_t)(a - 1 + h),
                          "only global ports may be unconnected");
                (*unconnected)++;
                continue;
            }
            if (q.kind == NET_PEER_TERMINAL) {
                net_attach at = dragonfly_topology.attach(t, q.id);
                cr_assert(at.router == r && at.port == port, "terminal %llu attaches elsewhere",
                          (unsigned long long)q.id);
                terminals++;
                continue;
            }
            net_peer back = dragonfly_topology.peer(t, q.id, q.port);
            cr_assert(back.kind == NET_PEER_ROUTER && back.id == r && back.port == port,
                      "router %llu port %d -> %llu:%d does not lead back", (unsigned long long)r,
                      port, (unsigned long long)q.id, q.port);
            unsigned gr = (unsigned)(r / a), gq = (unsigned)(q.id / a);
            if (port < (int32_t)a - 1) {
                cr_assert_eq(gr, gq, "a local port leaves the group");
                (*local)++;
            } else {
                cr_assert_neq(gr, gq, "a global port stays in its group");
                (*global)++;
                pairs[gr * g + gq]++;
            }
        }
    *local /= 2;
    *global /= 2;
    cr_assert_eq(terminals, dragonfly_topology.nodes(t));
}

Test(dfly_shape, wiring_is_symmetric_and_counts_links)
{
    for (size_t k = 0; k < NCASES; k++)
        for (int arr = 0; arr < 3; arr++) {
            const shape_case *c = &cases[k];
            unsigned g = groups_of(c), n = g - 1;
            net_params params = {0};
            void *t = build(c->a, c->p, c->h, c->g, arrangements[arr], &params);
            unsigned *pairs = calloc((size_t)g * g, sizeof *pairs);
            uint64_t local, global, unconnected;
            count_links(t, c->a, c->h, g, &local, &global, &unconnected, pairs);
            cr_assert_eq(local, (uint64_t)g * c->a * (c->a - 1) / 2, "case %zu %s", k,
                         arrangements[arr]);
            /* R full rounds, S spares per group, paired ±1, ±2, ...; an odd
             * last spare joins antipodes (even g) or stays open (odd g). */
            unsigned rounds = c->a * c->h / n, spare = c->a * c->h - rounds * n;
            uint64_t open = spare % 2 == 1 && g % 2 == 1 ? g : 0;
            cr_assert_eq(unconnected, open, "case %zu %s: %llu open ports", k, arrangements[arr],
                         (unsigned long long)unconnected);
            cr_assert_eq(global, ((uint64_t)g * c->a * c->h - open) / 2);
            for (unsigned i = 0; i < g; i++)
                for (unsigned d = 0; d < g; d++) {
                    unsigned o = (d + g - i) % g, dist = o < g - o ? o : g - o;
                    unsigned want = i == d ? 0
                                           : rounds + (dist <= spare / 2) +
                                                 (spare % 2 == 1 && g % 2 == 0 && 2 * o == g);
                    cr_assert_eq(pairs[i * g + d], want,
                                 "case %zu %s: groups %u -> %u joined by %u links, want %u", k,
                                 arrangements[arr], i, d, pairs[i * g + d], want);
                }
            free(pairs);
            dragonfly_topology.destroy(t);
        }
}

/* With g = a·h + 1 global port j of group i (router j / h, its global port
 * j mod h) leads where the arrangement's rule says. */
Test(dfly_shape, arrangements_follow_their_rules)
{
    unsigned a = 4, p = 2, h = 2, g = 9;
    for (int arr = 0; arr < 3; arr++) {
        net_params params = {0};
        void *t = build(a, p, h, 0, arrangements[arr], &params);
        for (unsigned i = 0; i < g; i++)
            for (unsigned j = 0; j < a * h; j++) {
                unsigned want;
                if (arr == 0)
                    want = j < i ? j : j + 1;
                else if (arr == 1)
                    want = (i + j + 1) % g;
                else
                    want = j % 2 == 0 ? (i + j / 2 + 1) % g : (i + g - (j / 2 + 1)) % g;
                net_peer q = dragonfly_topology.peer(t, (uint64_t)i * a + j / h,
                                                     (int32_t)(a - 1 + j % h));
                cr_assert_eq(q.id / a, want, "%s: group %u port %u -> group %llu, want %u",
                             arrangements[arr], i, j, (unsigned long long)(q.id / a), want);
            }
        dragonfly_topology.destroy(t);
    }
}

/* Breadth-first distances from router x over the wiring. */
static void bfs(void *t, uint64_t routers, uint64_t x, uint32_t *dist)
{
    uint64_t *queue = malloc(routers * sizeof *queue), head = 0, tail = 0;
    for (uint64_t r = 0; r < routers; r++)
        dist[r] = UINT32_MAX;
    dist[x] = 0;
    queue[tail++] = x;
    while (head < tail) {
        uint64_t r = queue[head++];
        for (int32_t port = 0; port < dragonfly_topology.radix(t, r); port++) {
            net_peer q = dragonfly_topology.peer(t, r, port);
            if (q.kind == NET_PEER_ROUTER && dist[q.id] == UINT32_MAX) {
                dist[q.id] = dist[r] + 1;
                queue[tail++] = q.id;
            }
        }
    }
    free(queue);
}

/* Dragonfly-minimal hops from x to y (one global hop at most) found from
 * the wiring alone: over every global link from x's group to y's, (x owns
 * it ? 0 : 1) + 1 + (it lands on y ? 0 : 1). */
static uint32_t wired_min_hops(void *t, unsigned a, unsigned h, uint64_t x, uint64_t y)
{
    if (x == y)
        return 0;
    if (x / a == y / a)
        return 1;
    uint32_t best = UINT32_MAX;
    for (uint64_t r = x / a * a; r < x / a * a + a; r++)
        for (unsigned k = 0; k < h; k++) {
            net_peer q = dragonfly_topology.peer(t, r, (int32_t)(a - 1 + k));
            if (q.kind != NET_PEER_ROUTER || q.id / a != y / a)
                continue;
            uint32_t hops = (r == x ? 0 : 1) + 1 + (q.id == y ? 0 : 1);
            best = hops < best ? hops : best;
        }
    return best;
}

/* min_hops is the length of the dragonfly's minimal route (one global
 * hop), which the wiring confirms, and never shorter than the graph
 * allows (a path over two global links can be shorter). */
Test(dfly_shape, min_hops_match_the_wiring)
{
    for (size_t k = 0; k < NCASES; k++)
        for (int arr = 0; arr < 3; arr++) {
            const shape_case *c = &cases[k];
            net_params params = {0};
            void *t = build(c->a, c->p, c->h, c->g, arrangements[arr], &params);
            uint64_t routers = dragonfly_topology.routers(t);
            uint32_t *dist = malloc(routers * sizeof *dist);
            for (uint64_t x = 0; x < routers; x++) {
                bfs(t, routers, x, dist);
                for (uint64_t y = 0; y < routers; y++) {
                    uint32_t m = dragonfly_topology.min_hops(t, x * c->p, y * c->p);
                    uint32_t w = wired_min_hops(t, c->a, c->h, x, y);
                    cr_assert_eq(m, w, "case %zu %s: %llu -> %llu min_hops %u, wiring says %u", k,
                                 arrangements[arr], (unsigned long long)x, (unsigned long long)y,
                                 m, w);
                    cr_assert_geq(m, dist[y], "case %zu: min_hops %u below the graph's %u", k, m,
                                  dist[y]);
                }
            }
            free(dist);
            dragonfly_topology.destroy(t);
        }
}

Test(dfly_shape, worst_case_shifts_every_terminal_one_group_on)
{
    net_params params = {0};
    void *t = build(4, 2, 2, 5, "circulant", &params);
    uint64_t nodes = dragonfly_topology.nodes(t);
    char *hit = calloc(nodes, 1);
    for (uint64_t s = 0; s < nodes; s++) {
        uint64_t d = dragonfly_topology.worst_case_dst(t, s);
        cr_assert_lt(d, nodes);
        cr_assert_eq(d / 8, (s / 8 + 1) % 5, "terminal %llu: group %llu -> %llu",
                     (unsigned long long)s, (unsigned long long)(s / 8), (unsigned long long)(d / 8));
        cr_assert_eq(d % 8, s % 8, "same router index and terminal in the next group");
        cr_assert(!hit[d], "terminal %llu receives twice: not a permutation", (unsigned long long)d);
        hit[d] = 1;
    }
    free(hit);
    dragonfly_topology.destroy(t);
}

Test(dfly_shape, link_kinds_have_their_parameters)
{
    warp_ini *ini = warp_ini_new();
    warp_ini_set(ini, "dragonfly", "a", "4", "test");
    warp_ini_set(ini, "dragonfly", "local_bandwidth", "10GB/s", "test");
    warp_ini_set(ini, "dragonfly", "global_bandwidth", "4GB/s", "test");
    warp_ini_set(ini, "dragonfly", "global_latency", "300ns", "test");
    warp_ini_set(ini, "dragonfly", "terminal_vc_buffer", "4KiB", "test");
    warp_ini_set(ini, "dragonfly", "global_vc_buffer", "8KiB", "test");
    net_params params = {.link_bandwidth = 12.5, .link_latency = 50, .terminal_latency = 20,
                         .packet_size = 512};
    void *t = dragonfly_topology.setup(ini, &params);
    warp_ini_free(ini);
    net_peer l = dragonfly_topology.peer(t, 0, 0), gl = dragonfly_topology.peer(t, 0, 3),
             term = dragonfly_topology.peer(t, 0, 5);
    cr_assert(l.bandwidth == 10 && l.latency == 50, "local link");
    cr_assert(gl.bandwidth == 4 && gl.latency == 300, "global link");
    cr_assert(term.bandwidth == 12.5 && term.latency == 20, "terminal link: [network] defaults");
    cr_assert_eq(dragonfly_topology.vc_buffer(t, 0, 0), 0, "local: [network] vc_buffer");
    cr_assert_eq(dragonfly_topology.vc_buffer(t, 0, 3), 8192);
    cr_assert_eq(dragonfly_topology.vc_buffer(t, 0, 5), 4096);
    dragonfly_topology.destroy(t);
}
