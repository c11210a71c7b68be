/* hyperx/hyperx_route.c — HyperX routing: dimension order and DAL (adaptive
 * dimension order with at most one deroute per dimension), and their VCs.
 * Invariant: a dor path corrects dimensions in rising order, one hop each; a
 * dal hop's VC class is the hops taken before it (hyperx_shape.h), so
 * classes rise strictly along every path. Called by hyperx_topo.c's route. */
#include "hyperx/hyperx_shape.h"
#include "net/spt.h"
#include "warp_draw.h"

uint32_t hx_distance(const hyperx *h, uint64_t a, uint64_t b)
{
    uint32_t n = 0;
    for (int d = 0; d < h->n; d++)
        n += hx_coord(h, a, d) != hx_coord(h, b, d);
    return n;
}

int hx_route_classes(const hyperx *h, hx_routing alg)
{
    if (alg == HX_DOR)
        return 1;
    int hops = 0;
    for (int d = 0; d < h->n; d++)
        hops += (h->S[d] >= 2) + (h->S[d] >= 3);
    return hops > 0 ? hops : 1;
}

/* A mix of the flow and a salt, for choices a message must repeat. */
static uint64_t mix(uint64_t flow, uint64_t salt)
{
    uint64_t z = (flow + 1) * UINT64_C(0x9E3779B97F4A7C15) ^ (salt + 1) * UINT64_C(0xBF58476D1CE4E5B9);
    z ^= z >> 31;
    z *= UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 29);
}

/* The least occupied of the K_d links from r (coordinate c) to coordinate v
 * in dimension d, looked at from trunk `start` on (ties: the first seen). */
static int32_t best_trunk(const hyperx *h, const net_route_in *in, int d, int64_t c, int64_t v,
                          uint32_t start, uint64_t *occ)
{
    int32_t best = -1;
    uint64_t q = 0;
    for (int64_t i = 0; i < h->K[d]; i++) {
        int32_t p = hx_port(h, d, c, v, (int64_t)((start + (uint64_t)i) % (uint64_t)h->K[d]));
        uint64_t o = net_port_occupancy(in->router_state, p);
        if (best < 0 || o < q) {
            best = p;
            q = o;
        }
    }
    *occ = q;
    return best;
}

static net_route_out route_dor(const hyperx *h, const net_route_in *in, uint64_t dr)
{
    net_route_out o = {.aux = {in->aux[0], in->aux[1]}};
    for (int d = 0; d < h->n; d++) {
        int64_t c = hx_coord(h, in->router, d), t = hx_coord(h, dr, d);
        if (c == t)
            continue;
        int64_t k = h->K[d] > 1 ? (int64_t)(mix(in->flow, (uint64_t)d) % (uint64_t)h->K[d]) : 0;
        o.port = hx_port(h, d, c, t, k);
        o.vc = net_spt_vc(h->classes, h->vcs, 0, in->flow);
        return o;
    }
    return o; /* at the destination router: the caller ejects */
}

/* DAL: among the unaligned dimensions the least occupied minimal hop
 * (dimensions looked at from a random one on, ties to the first seen), and
 * one random deroute per dimension that may still take one; the cheapest
 * deroute wins only when it saves more than the threshold. */
static net_route_out route_dal(const hyperx *h, const net_route_in *in, uint64_t dr)
{
    net_route_out o = {.aux = {in->aux[0], in->aux[1]}};
    uint32_t block[4];
    warp_rng_block(in->rng, block);
    uint64_t draw = (uint64_t)block[0] << 32 | block[1];
    uint32_t left = hx_distance(h, in->router, dr);
    uint32_t first = warp_rng_pick(warp_rng_subdraw(draw, 0), (uint32_t)h->n);
    int32_t min_port = -1, nm_port = -1;
    int nm_dim = -1;
    uint64_t min_q = 0, nm_q = 0;
    for (int i = 0; i < h->n; i++) {
        int d = (int)((first + (uint32_t)i) % (uint32_t)h->n);
        int64_t c = hx_coord(h, in->router, d), t = hx_coord(h, dr, d);
        if (c == t)
            continue;
        uint32_t u = warp_rng_subdraw(draw, 1 + 2 * d);
        uint64_t q;
        int32_t p = best_trunk(h, in, d, c, t, u, &q);
        if (min_port < 0 || q < min_q) {
            min_port = p;
            min_q = q;
        }
        if (in->aux[0] >> d & 1 || h->S[d] < 3)
            continue;
        /* a third coordinate, uniform among the S_d - 2 others */
        int64_t v = (int64_t)warp_rng_pick(warp_rng_subdraw(draw, 2 + 2 * d), (uint32_t)(h->S[d] - 2));
        v += v >= (c < t ? c : t);
        v += v >= (c < t ? t : c);
        p = best_trunk(h, in, d, c, v, u, &q);
        if (nm_port < 0 || q < nm_q) {
            nm_port = p;
            nm_q = q;
            nm_dim = d;
        }
    }
    int cls = (int)in->hops;
    o.port = min_port;
    if (nm_port >= 0 && (double)nm_q * (left + 1) + h->threshold < (double)min_q * left) {
        o.port = nm_port;
        o.aux[0] |= UINT32_C(1) << nm_dim;
    }
    o.vc = net_spt_vc(h->classes, h->vcs, (uint32_t)cls, in->flow);
    return o;
}

net_route_out hx_route(const hyperx *h, const net_route_in *in)
{
    uint64_t dr = in->dst / (uint64_t)h->T;
    if (in->router == dr) {
        net_route_out o = {.aux = {in->aux[0], in->aux[1]}};
        o.port = h->net_ports + (int32_t)(in->dst % (uint64_t)h->T);
        o.vc = 0;
        return o;
    }
    return h->routing == HX_DOR ? route_dor(h, in, dr) : route_dal(h, in, dr);
}
