/* dragonfly_route.c — minimal, Valiant, UGAL-L, UGAL-G and PAR next-hop decisions
 * on a dragonfly (rules and VC classes in dragonfly_route.h).
 * Invariant: a packet takes at most one local path per group it visits
 * (row, then column: dfly_local_diameter hops; one hop more in the source
 * group under par), at most one global hop minimally and two
 * non-minimally, so its hop count stays within dfly_route_max_hops and every
 * VC class below dfly_route_vcs. Called per router visit by the dragonfly
 * topology and by the tests. */
#include "dragonfly/dragonfly_route.h"

#include <assert.h>

#include "warp_draw.h"


int dfly_route_vcs(dfly_routing alg)
{
    return alg == DFLY_MINIMAL ? 2 : alg == DFLY_PAR ? 4 : 3;
}

int dfly_route_max_hops(const dfly_shape *s, dfly_routing alg)
{
    int d = (int)dfly_local_diameter(s);
    return alg == DFLY_MINIMAL ? 2 * d + 1 : alg == DFLY_PAR ? 3 * d + 3 : 3 * d + 2;
}

uint32_t dfly_exit_in(const dfly_shape *s, uint64_t cur, uint32_t t, uint32_t draw, int column)
{
    uint32_t i = dfly_group_of(s, cur), r = dfly_index_of(s, cur);
    uint32_t links = dfly_links_between(s, i, t), own = 0, col = 0;
    assert(links > 0 && "every pair of groups is joined (g <= a*h + 1)");
    for (uint32_t n = 0; n < links; n++) {
        uint32_t owner = dfly_link_port(s, i, t, n) / s->h;
        own += owner == r;
        col += column && owner % s->cols == r % s->cols;
    }
    /* Pick the k-th link whose owner is r (own), in r's column (col), or any. */
    int want = own ? 2 : col ? 1 : 0;
    uint32_t k = warp_rng_pick(draw, own ? own : col ? col : links);
    for (uint32_t n = 0;; n++) {
        uint32_t j = dfly_link_port(s, i, t, n), owner = j / s->h;
        int fits = want == 2 ? owner == r : want == 1 ? owner % s->cols == r % s->cols : 1;
        if (fits && k-- == 0)
            return j;
    }
}

uint32_t dfly_exit(const dfly_shape *s, uint64_t cur, uint32_t t, uint32_t draw)
{
    return dfly_exit_in(s, cur, t, draw, 0);
}

int32_t dfly_port_towards(const dfly_shape *s, uint64_t cur, uint32_t j, uint32_t draw)
{
    uint32_t r = dfly_index_of(s, cur), owner = j / s->h;
    return owner == r ? dfly_global_base(s) + (int32_t)(j - r * s->h)
                      : dfly_local_step(s, r, owner, draw);
}

/* Router hops from cur to dst leaving cur's group by global port j. */
static uint32_t hops_via(const dfly_shape *s, uint64_t cur, uint32_t j, uint64_t dst)
{
    uint32_t far_group, far_port;
    dfly_global_peer(s, dfly_group_of(s, cur), j, &far_group, &far_port);
    uint64_t landing = (uint64_t)far_group * s->a + far_port / s->h;
    return dfly_local_hops(s, dfly_index_of(s, cur), j / s->h) + 1 + dfly_router_hops(s, landing, dst);
}

uint32_t dfly_valiant_group(const dfly_shape *s, uint32_t i, uint32_t d, uint32_t draw)
{
    uint32_t lo = i < d ? i : d, hi = i < d ? d : i;
    uint32_t k = warp_rng_pick(draw, s->g - 2);
    if (k >= lo)
        k++;
    if (k >= hi)
        k++;
    return k;
}

/* UGAL's cost of a path whose first port at cur is `port`, leaving the
 * group by global port j, `hops` router hops long. */
static double path_cost(const dfly_shape *s, const dfly_route_cfg *cfg, const dfly_occ *occ,
                        int32_t port, uint32_t j, uint32_t hops)
{
    double q = occ->port(occ->ctx, port);
    if (cfg->alg == DFLY_UGAL_G && port < dfly_global_base(s))
        q += occ->global(occ->ctx, j);
    return cfg->hop_weight ? q * hops : q;
}

/* The UGAL choice at cur: the intermediate group + 1 (0 for the minimal
 * path) and the first port. */
static uint32_t ugal_choose(const dfly_shape *s, const dfly_route_cfg *cfg, uint64_t cur,
                            uint64_t dst, uint64_t draw, const dfly_occ *occ, int32_t *port)
{
    assert(occ && occ->port && (cfg->alg != DFLY_UGAL_G || occ->global) &&
           "UGAL needs the deciding router's occupancies");
    uint32_t gi = dfly_group_of(s, cur), gy = dfly_group_of(s, dst), best = 0;
    uint32_t j = dfly_exit(s, cur, gy, warp_rng_subdraw(draw, 0));
    *port = dfly_port_towards(s, cur, j, warp_rng_subdraw(draw, DFLY_LINK_DRAW));
    double best_cost = path_cost(s, cfg, occ, *port, j, hops_via(s, cur, j, dst)) - cfg->threshold;
    for (int c = 0; c < cfg->n_indirect; c++) {
        uint32_t inter = dfly_valiant_group(s, gi, gy, warp_rng_subdraw(draw, 2 * c + 1));
        uint32_t ji = dfly_exit(s, cur, inter, warp_rng_subdraw(draw, 2 * c + 2));
        int32_t pi = dfly_port_towards(s, cur, ji, warp_rng_subdraw(draw, DFLY_LINK_DRAW));
        double cost = path_cost(s, cfg, occ, pi, ji, hops_via(s, cur, ji, dst));
        if (cost < best_cost) {
            best_cost = cost;
            best = inter + 1;
            *port = pi;
        }
    }
    return best;
}

dfly_hop dfly_route_hop(const dfly_shape *s, const dfly_route_cfg *cfg, dfly_pkt in, uint32_t hops,
                        uint32_t flow, uint64_t cur, uint64_t dst, uint64_t draw,
                        const dfly_occ *occ)
{
    dfly_hop hop = {DFLY_EJECT, 0, in};
    if (cur == dst)
        return hop;
    dfly_pkt *st = &hop.next;
    uint32_t gi = dfly_group_of(s, cur), gy = dfly_group_of(s, dst);
    int32_t port = -1;
    if (gi != gy && s->g >= 3 && st->inter == 0) {
        dfly_routing alg = cfg->alg;
        if (hops == 0 && alg == DFLY_VALIANT)
            st->inter = dfly_valiant_group(s, gi, gy, warp_rng_subdraw(draw, 1)) + 1;
        else if ((hops == 0 && alg != DFLY_MINIMAL && alg != DFLY_VALIANT) ||
                 (alg == DFLY_PAR && hops == 1 && st->ghops == 0))
            st->inter = ugal_choose(s, cfg, cur, dst, draw, occ, &port);
    }
    if (st->inter && !st->reached && gi == st->inter - 1)
        st->reached = 1;
    uint32_t target = st->inter && !st->reached ? st->inter - 1 : gy;
    if (port < 0) {
        uint32_t link = warp_rng_subdraw(draw, DFLY_LINK_DRAW);
        if (target == gi)
            port = dfly_local_step(s, dfly_index_of(s, cur), dfly_index_of(s, dst), link);
        else
            port = dfly_port_towards(
                s, cur, dfly_exit_in(s, cur, target, warp_rng_subdraw(draw, 0), st->row), link);
    }
    st->row = s->rows > 1 && port < (int32_t)((s->cols - 1) * s->row_links);
    int par = cfg->alg == DFLY_PAR;
    int cls;
    if (port >= dfly_global_base(s)) {
        cls = st->ghops++;
    } else if (st->ghops == 0) {
        assert(st->src_lhops < dfly_local_diameter(s) + (uint32_t)par &&
               "a local path in the source group (and one hop more under par)");
        cls = par && st->src_lhops > 0;
        st->src_lhops++;
    } else {
        cls = st->ghops + par;
    }
    int need = dfly_route_vcs(cfg->alg);
    assert(cls < need && port < dfly_terminal_base(s) && "VC class below the routing's need");
    uint32_t lanes = (uint32_t)((cfg->vcs - cls + need - 1) / need);
    hop.port = port;
    hop.vc = cls + need * (int)(flow % lanes);
    return hop;
}
