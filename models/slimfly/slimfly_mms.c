/* slimfly_mms.c — builds the MMS graph of a Slim Fly: generator sets and the
 * per-difference tables minimal routing reads (neighbours by port are
 * computed, sf_neighbor in slimfly_mms.h).
 * Invariant: a built graph is k'-regular, simple, and of diameter 2 — the
 * generator sets pass sf_mms_check_sets before any link is made. Called by
 * the Slim Fly topology (slimfly_topo.c), the tests and the benchmarks. */
#include "slimfly/slimfly_mms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sf_delta(int q)
{
    switch (q % 4) {
    case 1: return 1;
    case 0: return 0;
    case 3: return -1;
    default: return 2;
    }
}

/* The construction of SC14 / Hafner, exponents of ξ listed per δ. */
static void default_sets(const sf_field *f, int delta, int w, int *X, int *Xp)
{
    int q = f->q, nx = 0, nxp = 0;
    if (delta == 1) {
        for (int e = 0; e <= q - 3; e += 2)
            X[nx++] = sf_xi_pow(f, e);
        for (int e = 1; e <= q - 2; e += 2)
            Xp[nxp++] = sf_xi_pow(f, e);
    } else if (delta == -1) {
        for (int e = 0; e <= 2 * w - 2; e += 2)
            X[nx++] = sf_xi_pow(f, e);
        for (int e = 2 * w - 1; e <= 4 * w - 3; e += 2)
            X[nx++] = sf_xi_pow(f, e);
        for (int e = 1; e <= 2 * w - 1; e += 2)
            Xp[nxp++] = sf_xi_pow(f, e);
        for (int e = 2 * w; e <= 4 * w - 2; e += 2)
            Xp[nxp++] = sf_xi_pow(f, e);
    } else {
        for (int e = 0; e <= q - 2; e += 2)
            X[nx++] = sf_xi_pow(f, e);
        for (int e = 1; e <= q - 1; e += 2)
            Xp[nxp++] = sf_xi_pow(f, e);
    }
}

/* Membership flags of a set, with the set's own checks: elements in
 * 1 .. q-1, no repeats, closed under negation. */
static int set_flags(const sf_field *f, const int *S, int h, const char *name, char *in, char *err,
                     size_t errlen)
{
    memset(in, 0, (size_t)f->q);
    for (int i = 0; i < h; i++) {
        if (S[i] < 1 || S[i] >= f->q) {
            snprintf(err, errlen, "%s element %d is not a nonzero element of GF(%d) (1 .. %d)",
                     name, S[i], f->q, f->q - 1);
            return -1;
        }
        if (in[S[i]]) {
            snprintf(err, errlen, "%s lists element %d twice", name, S[i]);
            return -1;
        }
        in[S[i]] = 1;
    }
    for (int i = 0; i < h; i++)
        if (!in[sf_neg(f, S[i])]) {
            snprintf(err, errlen, "%s is not symmetric: it has %d but not its negative %d", name,
                     S[i], sf_neg(f, S[i]));
            return -1;
        }
    return 0;
}

/* Diameter 2 holds iff (derivation in the comment of each check):
 *  - two routers of one column (s, a, *) at difference d are adjacent
 *    (d ∈ G_s) or share a local neighbour (d - g ∈ G_s for some g ∈ G_s); no
 *    global neighbour is shared, so every d != 0 needs one of the two;
 *  - routers of one subgraph in different columns always share exactly one
 *    global neighbour (the line through two points; two lines' intersection);
 *  - (0,x,y) and (1,m,c) with g = m·x + c - y != 0 share (0,x,m·x+c) iff
 *    g ∈ X and (1,m,y-m·x) iff g ∈ X', so X ∪ X' must cover GF(q)*. */
int sf_mms_check_sets(const sf_field *f, const int *X, const int *Xp, int h, char *err,
                      size_t errlen)
{
    int q = f->q, rc = -1;
    char *in[2] = {malloc((size_t)q), malloc((size_t)q)};
    const int *G[2] = {X, Xp};
    const char *names[2] = {"X", "Xprime"};
    if (!in[0] || !in[1]) {
        snprintf(err, errlen, "out of memory checking the generator sets");
        goto out;
    }
    for (int s = 0; s < 2; s++)
        if (set_flags(f, G[s], h, names[s], in[s], err, errlen) != 0)
            goto out;
    for (int d = 1; d < q; d++)
        if (!in[0][d] && !in[1][d]) {
            snprintf(err, errlen,
                     "X and Xprime together miss element %d: routers (0,x,y) and (1,m,c) with "
                     "m*x+c-y = %d would be 3 hops apart",
                     d, d);
            goto out;
        }
    for (int s = 0; s < 2; s++)
        for (int d = 1; d < q; d++) {
            int ok = in[s][d];
            for (int i = 0; i < h && !ok; i++)
                ok = in[s][sf_sub(f, d, G[s][i])];
            if (!ok) {
                snprintf(err, errlen,
                         "%s gives diameter 3: difference %d is neither in %s nor a sum of two "
                         "of its elements",
                         names[s], d, names[s]);
                goto out;
            }
        }
    rc = 0;
out:
    free(in[0]);
    free(in[1]);
    return rc;
}

static int build_tables(sf_mms *g)
{
    int q = g->q, h = g->h;
    for (int s = 0; s < 2; s++) {
        g->genpos[s] = malloc((size_t)q * sizeof *g->genpos[s]);
        g->via_off[s] = calloc((size_t)q + 1, sizeof *g->via_off[s]);
        g->via[s] = malloc((size_t)q * (size_t)h * sizeof *g->via[s] + 1);
        if (!g->genpos[s] || !g->via_off[s] || !g->via[s])
            return -1;
        for (int d = 0; d < q; d++)
            g->genpos[s][d] = -1;
        for (int i = 0; i < h; i++)
            g->genpos[s][g->gen[s][i]] = i;
        uint32_t n = 0;
        for (int d = 0; d < q; d++) {
            g->via_off[s][d] = n;
            if (d != 0 && g->genpos[s][d] < 0)
                for (int i = 0; i < h; i++)
                    if (g->genpos[s][sf_sub(&g->f, d, g->gen[s][i])] >= 0)
                        g->via[s][n++] = (uint16_t)i;
        }
        g->via_off[s][q] = n;
    }
    return 0;
}

int sf_mms_build(sf_mms *g, int q, const int *X, int nX, const int *Xp, int nXp, char *err,
                 size_t errlen)
{
    memset(g, 0, sizeof *g);
    int delta = sf_delta(q), p, k;
    if (q < 3 || delta == 2 || !sf_prime_power(q, &p, &k)) {
        snprintf(err, errlen,
                 "q = %d is not a prime power of the form 4w + d with d in {-1, 0, 1}; use one "
                 "such as 5, 7, 8, 9, 11, 13, 37",
                 q);
        return -1;
    }
    if (sf_field_init(&g->f, q, err, errlen) != 0)
        return -1;
    g->q = q;
    g->delta = delta;
    g->w = (q - delta) / 4;
    g->h = (q - delta) / 2;
    g->radix = g->h + q;
    g->nrouters = 2u * (uint32_t)q * (uint32_t)q;
    if ((X == NULL) != (Xp == NULL)) {
        snprintf(err, errlen, "give both X and Xprime, or neither");
        goto fail;
    }
    if (X && (nX != g->h || nXp != g->h)) {
        snprintf(err, errlen, "X has %d and Xprime %d elements; q = %d needs (q - d)/2 = %d each",
                 nX, nXp, q, g->h);
        goto fail;
    }
    for (int s = 0; s < 2; s++)
        if (!(g->gen[s] = malloc((size_t)g->h * sizeof *g->gen[s]))) {
            snprintf(err, errlen, "out of memory");
            goto fail;
        }
    if (X) {
        memcpy(g->gen[0], X, (size_t)g->h * sizeof *X);
        memcpy(g->gen[1], Xp, (size_t)g->h * sizeof *Xp);
    } else {
        default_sets(&g->f, delta, g->w, g->gen[0], g->gen[1]);
    }
    if (sf_mms_check_sets(&g->f, g->gen[0], g->gen[1], g->h, err, errlen) != 0)
        goto fail;
    if (build_tables(g) != 0) {
        snprintf(err, errlen, "out of memory for the routing tables of q = %d", q);
        goto fail;
    }
    return 0;
fail:
    sf_mms_free(g);
    return -1;
}

void sf_mms_free(sf_mms *g)
{
    sf_field_free(&g->f);
    for (int s = 0; s < 2; s++) {
        free(g->gen[s]);
        free(g->genpos[s]);
        free(g->via_off[s]);
        free(g->via[s]);
    }
    memset(g, 0, sizeof *g);
}

int sf_peer_port(const sf_mms *g, uint32_t r, int port)
{
    int s, a, b;
    sf_coords(g, r, &s, &a, &b);
    if (port < g->h)
        return g->genpos[s][sf_neg(&g->f, g->gen[s][port])];
    return g->h + a;
}

int sf_port_to(const sf_mms *g, uint32_t r, uint32_t n)
{
    int s, a, b, t, u, v;
    sf_coords(g, r, &s, &a, &b);
    sf_coords(g, n, &t, &u, &v);
    const sf_field *f = &g->f;
    if (s == t)
        return a == u && b != v ? g->genpos[s][sf_sub(f, v, b)] : -1;
    if (s == 0) /* r = (0,x,y) = (a,b), n = (1,m,c) = (u,v) */
        return b == sf_add(f, sf_mul(f, u, a), v) ? g->h + u : -1;
    return v == sf_add(f, sf_mul(f, a, u), b) ? g->h + u : -1;
}

int sf_distance(const sf_mms *g, uint32_t a, uint32_t b)
{
    if (a == b)
        return 0;
    return sf_port_to(g, a, b) >= 0 ? 1 : 2;
}
