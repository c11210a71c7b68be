/* slimfly_traffic.c — the Slim Fly worst-case router pairing (algorithm in
 * slimfly_traffic.h). Invariant: partner is a fixed-point-free involution over all
 * 2q² routers whose pairs are at distance 2. Called by the Slim Fly topology
 * when the workload asks for the worst-case pattern, and by the tests. */
#include "slimfly/slimfly_traffic.h"

static void pair_up(uint32_t *partner, uint32_t a, uint32_t b)
{
    partner[a] = b;
    partner[b] = a;
}

uint32_t sf_worst_case_pairs(const sf_mms *g, uint32_t *partner)
{
    const sf_field *f = &g->f;
    int q = g->q;
    uint32_t quads = 0;
    for (int i = 0; i < q / 2; i++) {
        int a = 2 * i, b = 2 * i + 1, m0 = 2 * i, m1 = 2 * i + 1;
        for (int y = 0; y < q; y++) {
            int c2 = sf_sub(f, y, sf_mul(f, m0, a));
            int c4 = sf_sub(f, y, sf_mul(f, m1, a));
            int y1 = sf_add(f, sf_mul(f, m0, b), c2);
            pair_up(partner, sf_router(g, 0, b, y1), sf_router(g, 0, a, y));
            pair_up(partner, sf_router(g, 1, m0, c2), sf_router(g, 1, m1, c4));
            quads++;
        }
    }
    if (q % 2 == 1) {
        int x = q - 1, m = q - 1, gap = g->gen[1][0];
        for (int i = 0; i < g->h; i++)
            if (g->genpos[0][g->gen[1][i]] < 0) {
                gap = g->gen[1][i];
                break;
            }
        for (int y = 0; y < q; y++) {
            int c = sf_add(f, sf_sub(f, y, sf_mul(f, m, x)), gap);
            pair_up(partner, sf_router(g, 0, x, y), sf_router(g, 1, m, c));
        }
    }
    return quads;
}
