/* slimfly_route.c — minimal, Valiant and UGAL next-hop decisions on an MMS graph.
 * Invariant: every hop returned lies on a minimal path to the packet's
 * current target (intermediate, then destination), so minimal routes take at
 * most 2 hops and Valiant/UGAL routes at most 4, and the hop index stays below
 * sf_route_vcs. Called per router visit by the Slim Fly topology. */
#include "slimfly/slimfly_route.h"

#include <assert.h>

#include "warp_draw.h"

/* The first hops of minimal paths: a pair of explicit ports, or a list of
 * local ports from the graph's per-difference table. */
typedef struct cand {
    int n;
    int port[2];
    const uint16_t *list;
} cand;

static cand candidates(const sf_mms *g, uint32_t cur, uint32_t dst)
{
    const sf_field *f = &g->f;
    int s, a, b, t, u, v, h = g->h;
    cand c = {0, {-1, -1}, NULL};
    sf_coords(g, cur, &s, &a, &b);
    sf_coords(g, dst, &t, &u, &v);
    if (s == t && a == u) { /* one column: direct, or via local neighbours */
        int d = sf_sub(f, v, b);
        if (g->genpos[s][d] >= 0) {
            c.port[c.n++] = g->genpos[s][d];
        } else {
            c.list = g->via[s] + g->via_off[s][d];
            c.n = (int)(g->via_off[s][d + 1] - g->via_off[s][d]);
        }
        return c;
    }
    if (s == t) { /* the one global neighbour shared by both */
        int j = s == 0 ? sf_div(f, sf_sub(f, v, b), sf_sub(f, u, a)) /* slope of the line */
                       : sf_div(f, sf_sub(f, v, b), sf_sub(f, a, u)); /* column of the point */
        c.port[c.n++] = h + j;
        return c;
    }
    if (s == 0) { /* cur = (0,x,y) = (a,b), dst = (1,m,c) = (u,v) */
        int y_on = sf_add(f, sf_mul(f, u, a), v); /* dst's point in column x */
        if (y_on == b) {
            c.port[c.n++] = h + u;
            return c;
        }
        int gap = sf_sub(f, y_on, b);
        if (g->genpos[0][gap] >= 0) /* local to (0,x,y_on), then global */
            c.port[c.n++] = g->genpos[0][gap];
        if (g->genpos[1][gap] >= 0) /* global to (1,m,y-m*x), then local */
            c.port[c.n++] = h + u;
        return c;
    }
    /* cur = (1,m,c) = (a,b), dst = (0,x,y) = (u,v) */
    int y_on = sf_add(f, sf_mul(f, a, u), b); /* cur's point in column x */
    if (y_on == v) {
        c.port[c.n++] = h + u;
        return c;
    }
    int c_through = sf_sub(f, v, sf_mul(f, a, u)); /* line of slope m through dst */
    int gl = g->genpos[1][sf_sub(f, c_through, b)];
    if (gl >= 0) /* local to (1,m,c_through), then global */
        c.port[c.n++] = gl;
    if (g->genpos[0][sf_sub(f, v, y_on)] >= 0) /* global to (0,x,y_on), then local */
        c.port[c.n++] = h + u;
    return c;
}

/* The k-th candidate's port (0 <= k < c->n). */
static int cand_port(const cand *c, int k) { return c->list ? c->list[k] : c->port[k]; }

static int pick(uint32_t u, int n) { return (int)(((uint64_t)u * (uint64_t)n) >> 32); }

int sf_min_count(const sf_mms *g, uint32_t cur, uint32_t dst)
{
    return candidates(g, cur, dst).n;
}

int sf_min_choice(const sf_mms *g, uint32_t cur, uint32_t dst, int k)
{
    cand c = candidates(g, cur, dst);
    assert(k >= 0 && k < c.n && "minimal-path candidate index in range");
    return cand_port(&c, k);
}

int sf_min_ports(const sf_mms *g, uint32_t cur, uint32_t dst, int32_t *ports, int max)
{
    cand c = candidates(g, cur, dst);
    int n = c.n < max ? c.n : max;
    for (int k = 0; k < n; k++)
        ports[k] = cand_port(&c, k);
    return n;
}

int sf_min_port(const sf_mms *g, uint32_t cur, uint32_t dst, uint32_t draw)
{
    cand c = candidates(g, cur, dst);
    assert(c.n > 0 && "diameter 2: every pair of distinct routers has a minimal first hop");
    int k = pick(draw, c.n);
    return cand_port(&c, k);
}

uint32_t sf_valiant_pick(const sf_mms *g, uint32_t src, uint32_t dst, uint32_t draw)
{
    uint32_t lo = src < dst ? src : dst, hi = src < dst ? dst : src;
    uint32_t n = g->nrouters - (src == dst ? 1u : 2u);
    uint32_t r = (uint32_t)(((uint64_t)draw * n) >> 32);
    if (r >= lo)
        r++;
    if (src != dst && r >= hi)
        r++;
    return r;
}

uint32_t sf_subdraw(uint64_t draw, int k) { return warp_rng_subdraw(draw, k); }

sf_pkt_route sf_route_start(void)
{
    sf_pkt_route r = {SF_NONE, SF_PHASE_SOURCE, 0, {0, 0}};
    return r;
}

int sf_route_vcs(sf_routing alg) { return alg == SF_ROUTE_MINIMAL ? 2 : 4; }

/* UGAL's choice at the source: the intermediate router (SF_NONE for the
 * minimal path) and the first port. */
static uint32_t ugal_choose(const sf_mms *g, const sf_route_cfg *cfg, uint32_t src, uint32_t dst,
                            uint64_t draw, sf_occ_fn occ, const void *ctx, int *port)
{
    uint32_t best = SF_NONE;
    double l_min = sf_distance(g, src, dst);
    *port = sf_min_port(g, src, dst, sf_subdraw(draw, 0));
    double best_cost = occ(ctx, *port) - cfg->threshold;
    for (int i = 0; i < cfg->n_indirect; i++) {
        uint32_t inter = sf_valiant_pick(g, src, dst, sf_subdraw(draw, 2 * i + 1));
        int p = sf_min_port(g, src, inter, sf_subdraw(draw, 2 * i + 2));
        double len = sf_distance(g, src, inter) + sf_distance(g, inter, dst);
        double cost = len / l_min * cfg->c_sf * occ(ctx, p);
        if (cost < best_cost) {
            best_cost = cost;
            best = inter;
            *port = p;
        }
    }
    return best;
}

sf_hop sf_route_hop(const sf_mms *g, const sf_route_cfg *cfg, sf_pkt_route in, uint32_t cur,
                    uint32_t dst, uint64_t draw, sf_occ_fn occ, const void *occ_ctx)
{
    sf_hop hop = {SF_EJECT, 0, in};
    if (in.phase == SF_PHASE_SOURCE) {
        hop.next.phase = SF_PHASE_TO_DST;
        if (cur == dst)
            return hop;
        if (cfg->alg == SF_ROUTE_VALIANT) {
            hop.next.inter = sf_valiant_pick(g, cur, dst, sf_subdraw(draw, 0));
            hop.next.phase = SF_PHASE_TO_INTER;
            hop.port = sf_min_port(g, cur, hop.next.inter, sf_subdraw(draw, 1));
        } else if (cfg->alg == SF_ROUTE_UGAL) {
            assert(occ && "UGAL needs the source router's port occupancy");
            hop.next.inter = ugal_choose(g, cfg, cur, dst, draw, occ, occ_ctx, &hop.port);
            if (hop.next.inter != SF_NONE)
                hop.next.phase = SF_PHASE_TO_INTER;
        } else {
            hop.port = sf_min_port(g, cur, dst, sf_subdraw(draw, 0));
        }
    } else {
        if (in.phase == SF_PHASE_TO_INTER && cur == in.inter) {
            hop.next.phase = SF_PHASE_TO_DST;
            hop.next.inter = SF_NONE;
        }
        uint32_t target = hop.next.phase == SF_PHASE_TO_INTER ? hop.next.inter : dst;
        if (cur == target)
            return hop;
        hop.port = sf_min_port(g, cur, target, sf_subdraw(draw, 0));
    }
    hop.vc = in.hops;
    hop.next.hops = (uint8_t)(in.hops + 1);
    assert(hop.vc < sf_route_vcs(cfg->alg) && "hop index below the routing's VC count");
    return hop;
}
