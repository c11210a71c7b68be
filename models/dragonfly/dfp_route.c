/* dfp_route.c — minimal, Valiant, UGAL and PAR next-hop decisions on a
 * Dragonfly+ (rules and the VC rule in dfp_route.h).
 * Invariant: a packet takes at most one global hop minimally and two
 * non-minimally, one up and one down hop per group it passes, so its hops
 * stay within dfp_route_max_hops and its class below dfp_route_vcs.
 * Called per router visit by the Dragonfly+ topology and by the tests. */
#include "dragonfly/dfp_route.h"

#include <assert.h>

#include "dragonfly/dragonfly_route.h"
#include "warp_draw.h"

int dfp_route_vcs(dfp_routing alg) { return alg == DFP_MINIMAL ? 1 : 2; }

int dfp_route_max_hops(dfp_routing alg) { return alg == DFP_MINIMAL ? 3 : 6; }

/* The spine's index in its group (cur must be a spine). */
static uint32_t spine_index(const dfp_shape *s, uint64_t cur)
{
    return dfp_place_of(s, cur) - s->leaves;
}

/* Group i's global port (j) of a link to group t, picked by the draw among
 * all of them (what a leaf does). */
static uint32_t group_exit(const dfp_shape *s, uint32_t i, uint32_t t, uint32_t draw)
{
    uint32_t links = dfly_links_between(&s->glob, i, t);
    assert(links > 0 && "every pair of groups is joined (g <= spines*h + 1)");
    return dfly_link_port(&s->glob, i, t, warp_rng_pick(draw, links));
}

/* The up port of a leaf to spine `spine`, copy picked by the draw. */
static int32_t up_port(const dfp_shape *s, uint32_t spine, uint64_t draw)
{
    return (int32_t)(spine * s->c + warp_rng_pick(warp_rng_subdraw(draw, 2), s->c));
}

/* Where group i's global port j lands: the far spine's router id. */
static uint64_t landing(const dfp_shape *s, uint32_t i, uint32_t j)
{
    uint32_t fg, fj;
    dfly_global_peer(&s->glob, i, j, &fg, &fj);
    return dfp_spine_id(s, fg, fj / s->h);
}

static double cost(const dfp_route_cfg *cfg, const dfp_occ *occ, int32_t port, uint32_t hops)
{
    double q = occ->port(occ->ctx, port);
    return cfg->hop_weight ? q * hops : q;
}

/* UGAL at the source leaf: the intermediate group + 1 (0: minimal) and the
 * first port. */
static uint32_t ugal_leaf(const dfp_shape *s, const dfp_route_cfg *cfg, uint64_t cur, uint64_t dst,
                          uint64_t draw, const dfp_occ *occ, int32_t *port)
{
    uint32_t gi = dfp_group_of(s, cur), gy = dfp_group_of(s, dst), best = 0;
    uint32_t j = group_exit(s, gi, gy, warp_rng_subdraw(draw, 0));
    *port = up_port(s, j / s->h, draw);
    double best_cost = cost(cfg, occ, *port, 2 + dfp_router_hops(s, landing(s, gi, j), dst)) -
                       cfg->threshold;
    for (int c = 0; c < cfg->n_indirect; c++) {
        uint32_t inter = dfly_valiant_group(&s->glob, gi, gy, warp_rng_subdraw(draw, 4 + 2 * c));
        uint32_t ji = group_exit(s, gi, inter, warp_rng_subdraw(draw, 5 + 2 * c));
        int32_t pi = up_port(s, ji / s->h, draw);
        double ci = cost(cfg, occ, pi, 2 + dfp_router_hops(s, landing(s, gi, ji), dst));
        if (ci < best_cost) {
            best_cost = ci;
            best = inter + 1;
            *port = pi;
        }
    }
    return best;
}

/* PAR's second look, at the source spine: its global port to the
 * destination group against its own global ports to other groups. */
static uint32_t ugal_spine(const dfp_shape *s, const dfp_route_cfg *cfg, uint64_t cur,
                           uint64_t dst, uint64_t draw, const dfp_occ *occ, int32_t *port)
{
    uint32_t gi = dfp_group_of(s, cur), gy = dfp_group_of(s, dst), sp = spine_index(s, cur);
    uint32_t j = dfly_exit(&s->glob, (uint64_t)gi * s->spines + sp, gy, warp_rng_subdraw(draw, 0));
    assert(j / s->h == sp && "a minimal packet reaches a spine that owns a link to its group");
    *port = dfp_global_port(s, j);
    uint32_t best = 0;
    double best_cost = cost(cfg, occ, *port, 1 + dfp_router_hops(s, landing(s, gi, j), dst)) -
                       cfg->threshold;
    for (int c = 0; c < cfg->n_indirect; c++) {
        uint32_t ji = sp * s->h + warp_rng_pick(warp_rng_subdraw(draw, 4 + 2 * c), s->h), fg, fj;
        if (!dfly_global_peer(&s->glob, gi, ji, &fg, &fj) || fg == gy)
            continue;
        int32_t pi = dfp_global_port(s, ji);
        double ci = cost(cfg, occ, pi, 1 + dfp_router_hops(s, dfp_spine_id(s, fg, fj / s->h), dst));
        if (ci < best_cost) {
            best_cost = ci;
            best = fg + 1;
            *port = pi;
        }
    }
    return best;
}

/* The port at cur towards `target` (a group), or inside cur's group to
 * leaf dst when target is cur's group. */
static int32_t next_port(const dfp_shape *s, uint64_t cur, uint32_t target, uint64_t dst,
                         uint64_t draw)
{
    uint32_t gi = dfp_group_of(s, cur);
    uint32_t m = warp_rng_pick(warp_rng_subdraw(draw, 2), s->c);
    if (dfp_is_leaf(s, cur)) {
        if (target == gi)
            return up_port(s, warp_rng_pick(warp_rng_subdraw(draw, 0), s->spines), draw);
        return up_port(s, group_exit(s, gi, target, warp_rng_subdraw(draw, 0)) / s->h, draw);
    }
    if (target == gi)
        return (int32_t)(dfp_place_of(s, dst) * s->c + m);
    uint32_t sp = spine_index(s, cur);
    uint32_t j = dfly_exit(&s->glob, (uint64_t)gi * s->spines + sp, target, warp_rng_subdraw(draw, 0));
    if (j / s->h == sp)
        return dfp_global_port(s, j);
    /* No link of this spine reaches target: down to a leaf, which goes up
     * to one that has (only in the intermediate group). */
    return (int32_t)(warp_rng_pick(warp_rng_subdraw(draw, 3), s->leaves) * s->c + m);
}

dfp_hop dfp_route_hop(const dfp_shape *s, const dfp_route_cfg *cfg, dfp_pkt in, uint32_t hops,
                      uint32_t flow, uint64_t cur, uint64_t dst, uint64_t draw, const dfp_occ *occ)
{
    dfp_hop hop = {DFP_EJECT, 0, in};
    if (cur == dst)
        return hop;
    dfp_pkt *st = &hop.next;
    uint32_t gi = dfp_group_of(s, cur), gy = dfp_group_of(s, dst);
    int leaf = dfp_is_leaf(s, cur);
    int32_t port = -1;
    if (gi != gy && s->g >= 3 && st->inter == 0 && cfg->alg != DFP_MINIMAL) {
        assert((cfg->alg == DFP_VALIANT || (occ && occ->port)) &&
               "adaptive routing needs the deciding router's occupancies");
        if (hops == 0 && cfg->alg == DFP_VALIANT)
            st->inter = dfly_valiant_group(&s->glob, gi, gy, warp_rng_subdraw(draw, 1)) + 1;
        else if (hops == 0 && leaf && cfg->alg != DFP_VALIANT)
            st->inter = ugal_leaf(s, cfg, cur, dst, draw, occ, &port);
        else if (hops == 1 && !leaf && cfg->alg == DFP_PAR)
            st->inter = ugal_spine(s, cfg, cur, dst, draw, occ, &port);
    }
    int in_inter = st->inter && gi == st->inter - 1;
    if (in_inter)
        st->reached = 1;
    uint32_t target = st->inter && !st->reached ? st->inter - 1 : gy;
    if (port < 0)
        port = next_port(s, cur, target, dst, draw);
    int down = !leaf && port < dfp_spine_global_base(s);
    if (st->reached && !(in_inter && down))
        st->turned = 1;
    int cls = st->turned, need = dfp_route_vcs(cfg->alg);
    assert(cls < need && (leaf ? port < dfp_leaf_terminal_base(s) : port < dfp_spine_radix(s)) &&
           "a router port and a VC class below the routing's need");
    uint32_t lanes = (uint32_t)((cfg->vcs - cls + need - 1) / need);
    hop.port = port;
    hop.vc = cls + need * (int)(flow % lanes);
    return hop;
}
