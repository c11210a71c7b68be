/* net/spt.c — shortest-path tables: a breadth-first search from every router
 * fills the routers x routers distance table; next hops are the neighbours
 * one hop closer, picked per message by a hash or, adaptive, by the least
 * occupied output.
 * Invariant: dist is symmetric for symmetric wiring and dist[r][r] = 0; a
 * chosen next hop is always one hop closer to the destination. Called at
 * setup and from route() of table-routed topologies (spt.h). */
#include <stdlib.h>
#include <string.h>

#include "net/spt.h"
#include "warp.h"

double net_spt_table_bytes(uint64_t routers) { return (double)routers * (double)routers; }

void net_spt_build(net_spt *s)
{
    uint64_t R = s->routers;
    s->dist = warp_xcalloc(R * R, 1);
    memset(s->dist, NET_SPT_FAR, R * R);
    uint64_t *queue = warp_xcalloc(R ? R : 1, sizeof *queue);
    s->diameter = 0;
    s->far_a = s->far_b = 0;
    for (uint64_t src = 0; src < R; src++) {
        uint8_t *row = s->dist + src * R;
        uint64_t head = 0, tail = 0;
        row[src] = 0;
        queue[tail++] = src;
        while (head < tail) {
            uint64_t r = queue[head++];
            uint32_t d = row[r];
            if (d + 1 >= NET_SPT_FAR)
                continue;
            for (uint64_t e = s->off[r]; e < s->off[r + 1]; e++)
                if (row[s->to[e]] == NET_SPT_FAR) {
                    row[s->to[e]] = (uint8_t)(d + 1);
                    queue[tail++] = s->to[e];
                }
        }
        for (uint64_t b = 0; b < R; b++) {
            if (row[b] == NET_SPT_FAR) {
                if (s->far_a == s->far_b) {
                    s->far_a = src;
                    s->far_b = b;
                }
            } else if (row[b] > s->diameter) {
                s->diameter = row[b];
            }
        }
    }
    free(queue);
}

void net_spt_free(net_spt *s)
{
    free(s->dist);
    s->dist = NULL;
}

int32_t net_spt_ports(const net_spt *s, uint64_t r, uint64_t dst, int32_t *ports, int32_t max)
{
    uint32_t want = net_spt_hops(s, r, dst);
    int32_t n = 0;
    if (want == 0 || want == NET_SPT_FAR)
        return 0;
    for (uint64_t e = s->off[r]; e < s->off[r + 1] && n < max; e++)
        if (net_spt_hops(s, s->to[e], dst) + 1 == want)
            ports[n++] = s->port[e];
    return n;
}

/* The ECMP hash of (flow, router): a message keeps one choice per router. */
static uint64_t flow_hash(uint32_t flow, uint64_t r)
{
    uint64_t h = ((uint64_t)flow + 1) * UINT64_C(0x9E3779B97F4A7C15) ^ (r + 1) * UINT64_C(0xBF58476D1CE4E5B9);
    h ^= h >> 31;
    h *= UINT64_C(0x94D049BB133111EB);
    h ^= h >> 29;
    return h;
}

static int minimal(const net_spt *s, uint64_t e, uint64_t dst, uint32_t want)
{
    return net_spt_hops(s, s->to[e], dst) + 1 == want;
}

int32_t net_spt_next(const net_spt *s, uint64_t r, uint64_t dst, uint32_t flow, const net_route_in *adapt)
{
    uint32_t want = net_spt_hops(s, r, dst), n = 0;
    for (uint64_t e = s->off[r]; e < s->off[r + 1]; e++)
        n += minimal(s, e, dst, want);
    if (!n)
        return -1;
    uint32_t pick = (uint32_t)(flow_hash(flow, r) % n);
    uint64_t first = s->off[r];
    for (uint64_t e = s->off[r]; e < s->off[r + 1]; e++)
        if (minimal(s, e, dst, want) && pick-- == 0) {
            first = e;
            break;
        }
    if (!adapt)
        return s->port[first];
    /* the hash's pick first, then the other minimal ports cyclically: a
     * strictly smaller occupancy wins, so ties keep the earliest */
    uint64_t deg = s->off[r + 1] - s->off[r], best = first, low = UINT64_MAX;
    for (uint64_t i = 0; i < deg; i++) {
        uint64_t e = s->off[r] + (first - s->off[r] + i) % deg;
        if (!minimal(s, e, dst, want))
            continue;
        uint64_t occ = adapt->occupancy(adapt->router_state, s->port[e]);
        if (occ < low) {
            low = occ;
            best = e;
        }
    }
    return s->port[best];
}

int32_t net_spt_choose(const int32_t *ports, int32_t n, uint64_t r, uint32_t flow, const net_route_in *adapt)
{
    int32_t first = (int32_t)(flow_hash(flow, r) % (uint32_t)n);
    if (!adapt || n == 1)
        return ports[first];
    int32_t best = ports[first];
    uint64_t low = UINT64_MAX;
    for (int32_t i = 0; i < n; i++) {
        int32_t p = ports[(first + i) % n];
        uint64_t occ = adapt->occupancy(adapt->router_state, p);
        if (occ < low) {
            low = occ;
            best = p;
        }
    }
    return best;
}

int32_t net_spt_vc(int32_t classes, int32_t vcs, uint32_t cls, uint32_t flow)
{
    uint32_t lanes = (uint32_t)((vcs - (int32_t)cls + classes - 1) / classes);
    return (int32_t)cls + classes * (int32_t)(flow % lanes);
}
