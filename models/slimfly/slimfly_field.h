/* slimfly_field.h — the Galois field GF(q), q = p^k, for the Slim Fly MMS graphs.
 * Elements are the integers 0 .. q-1: for k = 1 the residues mod p, for k > 1
 * the base-p digits of an element are the coefficients (lowest first) of a
 * polynomial reduced modulo a monic irreducible polynomial of degree k found
 * by search. 0 and 1 are the field's zero and one in both cases. */
#ifndef SLIMFLY_FIELD_H
#define SLIMFLY_FIELD_H

#include <stddef.h>
#include <stdint.h>

/* Largest field supported: 2 q^2 routers already exceed two million here. */
#define SF_FIELD_MAX_Q 1024
#define SF_FIELD_MAX_K 10 /* 2^10 = SF_FIELD_MAX_Q */

typedef struct sf_field {
    int q, p, k;
    int modulus[SF_FIELD_MAX_K + 1]; /* k > 1: monic irreducible, lowest coefficient first */
    int xi;                          /* a primitive element: multiplicative order q - 1 */
    uint16_t *add, *mul;             /* q*q tables */
    uint16_t *neg, *inv;             /* q entries; inv[0] is unused (0) */
    uint16_t *exp;                   /* exp[i] = xi^i, i in 0 .. q-2 */
    uint16_t *log;                   /* log[exp[i]] = i; log[0] unused */
} sf_field;

/* Builds GF(q). Returns 0, or -1 with a one-line reason in err when q is not
 * a prime power in [2, SF_FIELD_MAX_Q] (or memory runs out). */
int sf_field_init(sf_field *f, int q, char *err, size_t errlen);

/* Releases the tables; f may be zeroed or initialised. */
void sf_field_free(sf_field *f);

/* Sets *p and *k with q = p^k and returns 1 when q is a prime power, else 0. */
int sf_prime_power(int q, int *p, int *k);

/* The arithmetic: a, b must be field elements (0 .. q-1); b != 0 for sf_div. */
static inline int sf_add(const sf_field *f, int a, int b) { return f->add[a * f->q + b]; }
static inline int sf_mul(const sf_field *f, int a, int b) { return f->mul[a * f->q + b]; }
static inline int sf_neg(const sf_field *f, int a) { return f->neg[a]; }
static inline int sf_sub(const sf_field *f, int a, int b) { return sf_add(f, a, f->neg[b]); }
static inline int sf_inv(const sf_field *f, int a) { return f->inv[a]; }
static inline int sf_div(const sf_field *f, int a, int b) { return sf_mul(f, a, f->inv[b]); }
/* xi^e for any integer e >= 0. */
static inline int sf_xi_pow(const sf_field *f, long e) { return f->exp[e % (f->q - 1)]; }

#endif
