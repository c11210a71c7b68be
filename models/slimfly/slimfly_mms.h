/* slimfly_mms.h — the McKay–Miller–Širáň graph of a Slim Fly network.
 *
 * q = 4w + δ (δ ∈ {-1, 0, 1}) is a prime power; routers are (s, a, b) with
 * s ∈ {0, 1} and a, b ∈ GF(q): (0, x, y) and (1, m, c). Edges:
 *   (0,x,y) – (0,x,y')  iff y - y' ∈ X
 *   (1,m,c) – (1,m,c')  iff c - c' ∈ X'
 *   (0,x,y) – (1,m,c)   iff y = m·x + c
 * Router id r = s·q² + a·q + b. |X| = |X'| = h = (q - δ)/2, radix k' = h + q.
 *
 * Port numbering (same for every router, s its subgraph, G_0 = X, G_1 = X'):
 *   port i,     0 <= i < h : local link to (s, a, b + G_s[i])
 *   port h + j, 0 <= j < q : global link; for s = 0 to (1, j, y - j·x) (the
 *                            line of slope j through the point), for s = 1 to
 *                            (0, j, m·j + c) (the line's point in column j).
 * The link back from a local port i arrives on the port of -G_s[i]; from a
 * global port h + j on port h + a (see sf_peer_port).
 *
 * Default generator sets, from a primitive element ξ (Besta & Hoefler, SC14,
 * following Hafner's description of the MMS construction):
 *   δ =  1: X = {1, ξ², ..., ξ^(q-3)},                 X' = {ξ, ξ³, ..., ξ^(q-2)}
 *   δ = -1: X = {1, ξ², ..., ξ^(2w-2)} ∪ {ξ^(2w-1), ξ^(2w+1), ..., ξ^(4w-3)},
 *           X' = {ξ, ξ³, ..., ξ^(2w-1)} ∪ {ξ^(2w), ξ^(2w+2), ..., ξ^(4w-2)}
 *   δ =  0: X = {1, ξ², ..., ξ^(q-2)},                 X' = {ξ, ξ³, ..., ξ^(q-1)}
 */
#ifndef SLIMFLY_MMS_H
#define SLIMFLY_MMS_H

#include <stddef.h>
#include <stdint.h>

#include "slimfly/slimfly_field.h"

#define SF_NONE UINT32_MAX /* "no router" */

typedef struct sf_mms {
    sf_field f;
    int q, delta, w;
    int h;            /* |X| = |X'| */
    int radix;        /* k' = h + q network ports per router */
    uint32_t nrouters; /* 2 q^2 */
    int *gen[2];      /* X and X' (h elements each) */
    int *genpos[2];   /* q entries: index of an element in gen[s], or -1 */
    /* For a difference d ∉ G_s ∪ {0}: the local ports i with d - G_s[i] ∈ G_s
     * (two-hop paths inside one column), via[s][via_off[s][d] ..
     * via_off[s][d+1]-1]. */
    uint32_t *via_off[2];
    uint16_t *via[2];
} sf_mms;

/* Builds the MMS graph for q. X and Xp give the generator sets explicitly (h
 * elements each, as field element numbers 1 .. q-1, see slimfly_field.h) or are
 * NULL for the default construction above. Returns 0, or -1 with a one-line
 * reason in err (q not a prime power of the form 4w + δ, a bad set: wrong
 * size, an element out of range or repeated, not closed under negation, or a
 * graph whose diameter would exceed 2). nX and nXp are the given sizes. */
int sf_mms_build(sf_mms *g, int q, const int *X, int nX, const int *Xp, int nXp, char *err,
                 size_t errlen);

/* Releases the graph; g may be zeroed or built. */
void sf_mms_free(sf_mms *g);

/* δ for q (q mod 4 = 1, 0, 3 give 1, 0, -1); returns 2 when q mod 4 = 2. */
int sf_delta(int q);

/* Router id of (s, a, b) and back. */
static inline uint32_t sf_router(const sf_mms *g, int s, int a, int b)
{
    return (uint32_t)((s * g->q + a) * g->q + b);
}
static inline void sf_coords(const sf_mms *g, uint32_t r, int *s, int *a, int *b)
{
    uint32_t qq = (uint32_t)(g->q * g->q);
    *s = (int)(r / qq);
    *a = (int)(r % qq) / g->q;
    *b = (int)(r % qq) % g->q;
}

/* The router at the far end of `port` of router r, by the port numbering
 * above: a few lookups in the q x q field tables (106 KB at q = 163, which
 * stay in cache) where a 2q² x k' table (52 MB at q = 163) missed on every
 * call from a router event. */
static inline uint32_t sf_neighbor(const sf_mms *g, uint32_t r, int port)
{
    int s, a, b;
    sf_coords(g, r, &s, &a, &b);
    const sf_field *f = &g->f;
    if (port < g->h)
        return sf_router(g, s, a, sf_add(f, b, g->gen[s][port]));
    int j = port - g->h;
    return s == 0 ? sf_router(g, 1, j, sf_sub(f, b, sf_mul(f, j, a)))
                  : sf_router(g, 0, j, sf_add(f, sf_mul(f, a, j), b));
}

/* The port of sf_neighbor(g, r, port) whose link leads back to r. */
int sf_peer_port(const sf_mms *g, uint32_t r, int port);

/* The port of r that leads to its neighbour n, or -1 when not adjacent. */
int sf_port_to(const sf_mms *g, uint32_t r, uint32_t n);

/* Hop distance between routers a and b: 0, 1 or 2 (the diameter is 2). */
int sf_distance(const sf_mms *g, uint32_t a, uint32_t b);

/* Checks the algebraic conditions for diameter 2 on given sets (see
 * slimfly_mms.c); returns 0, or -1 with the reason in err. */
int sf_mms_check_sets(const sf_field *f, const int *X, const int *Xp, int h, char *err,
                      size_t errlen);

#endif
