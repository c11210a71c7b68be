/* net/spt.c — shortest-path tables: a breadth-first search from every router
 * fills the routers x routers distance table; next hops are the neighbours
 * one hop closer, picked per message by a hash.
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

int32_t net_spt_next(const net_spt *s, uint64_t r, uint64_t dst, uint32_t flow)
{
    uint32_t want = net_spt_hops(s, r, dst), n = 0;
    for (uint64_t e = s->off[r]; e < s->off[r + 1]; e++)
        n += net_spt_hops(s, s->to[e], dst) + 1 == want;
    uint64_t h = ((uint64_t)flow + 1) * UINT64_C(0x9E3779B97F4A7C15) ^ (r + 1) * UINT64_C(0xBF58476D1CE4E5B9);
    h ^= h >> 31;
    h *= UINT64_C(0x94D049BB133111EB);
    h ^= h >> 29;
    uint32_t pick = n ? (uint32_t)(h % n) : 0;
    for (uint64_t e = s->off[r]; e < s->off[r + 1]; e++)
        if (net_spt_hops(s, s->to[e], dst) + 1 == want && pick-- == 0)
            return s->port[e];
    return -1;
}

int32_t net_spt_vc(int32_t classes, int32_t vcs, uint32_t cls, uint32_t flow)
{
    uint32_t lanes = (uint32_t)((vcs - (int32_t)cls + classes - 1) / classes);
    return (int32_t)cls + classes * (int32_t)(flow % lanes);
}
