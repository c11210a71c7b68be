/* slimfly_field.c — builds the addition, multiplication, inverse and power tables
 * of GF(q). For a prime q the tables are residues mod q; for q = p^k they come
 * from polynomial arithmetic modulo the first monic irreducible polynomial of
 * degree k (in digit order) found by trial division. Invariant: after a
 * successful sf_field_init every table entry is a field element. Called by
 * the MMS graph builder (slimfly_mms.c) and the tests. */
#include "slimfly/slimfly_field.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sf_prime_power(int q, int *p, int *k)
{
    if (q < 2)
        return 0;
    int d = 2;
    while (d * d <= q && q % d != 0)
        d++;
    if (q % d != 0)
        d = q; /* q itself is prime */
    int n = q, e = 0;
    while (n % d == 0) {
        n /= d;
        e++;
    }
    if (n != 1)
        return 0;
    *p = d;
    *k = e;
    return 1;
}

/* Digits of element a (base p, lowest first) into c[0 .. k-1]. */
static void digits(int a, int p, int k, int *c)
{
    for (int i = 0; i < k; i++) {
        c[i] = a % p;
        a /= p;
    }
}

static int undigits(const int *c, int p, int k)
{
    int a = 0;
    for (int i = k - 1; i >= 0; i--)
        a = a * p + c[i];
    return a;
}

/* r = a mod m over GF(p); a has degree < na, m is monic of degree dm.
 * Leaves the remainder in a[0 .. dm-1]. */
static void poly_mod(int *a, int na, const int *m, int dm, int p)
{
    for (int i = na - 1; i >= dm; i--) {
        int lead = a[i];
        if (lead == 0)
            continue;
        for (int j = 0; j <= dm; j++)
            a[i - dm + j] = ((a[i - dm + j] - lead * m[j]) % p + p) % p;
    }
}

/* 1 when the monic degree-k polynomial f has no monic factor of degree
 * 1 .. k/2 (which is irreducibility). */
static int irreducible(const int *f, int k, int p)
{
    int g[SF_FIELD_MAX_K + 1], r[SF_FIELD_MAX_K + 1];
    for (int d = 1; d <= k / 2; d++) {
        int count = 1;
        for (int i = 0; i < d; i++)
            count *= p;
        for (int low = 0; low < count; low++) {
            digits(low, p, d, g);
            g[d] = 1;
            memcpy(r, f, (size_t)(k + 1) * sizeof *r);
            poly_mod(r, k + 1, g, d, p);
            int zero = 1;
            for (int i = 0; i < d; i++)
                zero &= r[i] == 0;
            if (zero)
                return 0;
        }
    }
    return 1;
}

static int find_modulus(sf_field *f)
{
    int count = f->q; /* candidates for the k low coefficients */
    for (int low = 0; low < count; low++) {
        digits(low, f->p, f->k, f->modulus);
        f->modulus[f->k] = 1;
        if (f->modulus[0] != 0 && irreducible(f->modulus, f->k, f->p))
            return 0;
    }
    return -1; /* unreachable: irreducible polynomials of every degree exist */
}

static int poly_mul_mod(const sf_field *f, int a, int b)
{
    int ca[SF_FIELD_MAX_K], cb[SF_FIELD_MAX_K], prod[2 * SF_FIELD_MAX_K] = {0};
    digits(a, f->p, f->k, ca);
    digits(b, f->p, f->k, cb);
    for (int i = 0; i < f->k; i++)
        for (int j = 0; j < f->k; j++)
            prod[i + j] = (prod[i + j] + ca[i] * cb[j]) % f->p;
    poly_mod(prod, 2 * f->k - 1, f->modulus, f->k, f->p);
    return undigits(prod, f->p, f->k);
}

static int poly_add(const sf_field *f, int a, int b)
{
    int ca[SF_FIELD_MAX_K], cb[SF_FIELD_MAX_K];
    digits(a, f->p, f->k, ca);
    digits(b, f->p, f->k, cb);
    for (int i = 0; i < f->k; i++)
        ca[i] = (ca[i] + cb[i]) % f->p;
    return undigits(ca, f->p, f->k);
}

/* The smallest element whose order is q - 1: a^((q-1)/r) != 1 for every
 * prime r dividing q - 1. */
static int find_primitive(const sf_field *f)
{
    int n = f->q - 1, primes[16], np = 0;
    for (int d = 2, m = n; m > 1; d++) {
        if (d * d > m)
            d = m;
        if (m % d == 0) {
            primes[np++] = d;
            while (m % d == 0)
                m /= d;
        }
    }
    for (int a = 1; a < f->q; a++) {
        int ok = 1;
        for (int i = 0; i < np && ok; i++) {
            int x = 1;
            for (int e = 0; e < n / primes[i]; e++)
                x = sf_mul(f, x, a);
            ok = x != 1;
        }
        if (ok)
            return a;
    }
    return -1; /* unreachable: the multiplicative group of a field is cyclic */
}

int sf_field_init(sf_field *f, int q, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    if (q > SF_FIELD_MAX_Q || !sf_prime_power(q, &f->p, &f->k)) {
        snprintf(err, errlen, "q = %d is not a prime power in [2, %d]", q, SF_FIELD_MAX_Q);
        return -1;
    }
    f->q = q;
    size_t qq = (size_t)q * (size_t)q;
    f->add = malloc(qq * sizeof *f->add);
    f->mul = malloc(qq * sizeof *f->mul);
    f->neg = calloc((size_t)q, sizeof *f->neg);
    f->inv = calloc((size_t)q, sizeof *f->inv);
    f->exp = calloc((size_t)q, sizeof *f->exp);
    f->log = calloc((size_t)q, sizeof *f->log);
    if (!f->add || !f->mul || !f->neg || !f->inv || !f->exp || !f->log) {
        sf_field_free(f);
        snprintf(err, errlen, "out of memory for the GF(%d) tables", q);
        return -1;
    }
    if (f->k > 1 && find_modulus(f) != 0) {
        sf_field_free(f);
        snprintf(err, errlen, "no irreducible polynomial of degree %d over GF(%d)", f->k, f->p);
        return -1;
    }
    for (int a = 0; a < q; a++)
        for (int b = 0; b < q; b++) {
            size_t i = (size_t)a * (size_t)q + (size_t)b;
            f->add[i] = (uint16_t)(f->k == 1 ? (a + b) % q : poly_add(f, a, b));
            f->mul[i] = (uint16_t)(f->k == 1 ? (a * b) % q : poly_mul_mod(f, a, b));
        }
    for (int a = 0; a < q; a++)
        for (int b = 0; b < q; b++) {
            if (sf_add(f, a, b) == 0)
                f->neg[a] = (uint16_t)b;
            if (sf_mul(f, a, b) == 1)
                f->inv[a] = (uint16_t)b;
        }
    f->xi = find_primitive(f);
    if (f->xi < 0) {
        sf_field_free(f);
        snprintf(err, errlen, "GF(%d): no primitive element found", q);
        return -1;
    }
    int x = 1;
    for (int i = 0; i < q - 1; i++) {
        f->exp[i] = (uint16_t)x;
        f->log[x] = (uint16_t)i;
        x = sf_mul(f, x, f->xi);
    }
    return 0;
}

void sf_field_free(sf_field *f)
{
    free(f->add);
    free(f->mul);
    free(f->neg);
    free(f->inv);
    free(f->exp);
    free(f->log);
    f->add = f->mul = f->neg = f->inv = f->exp = f->log = NULL;
}
