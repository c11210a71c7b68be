/* rng/philox.c — Philox4x32-10 (Salmon et al., SC11) and the reversible stream
 * helpers of warp_rng.h. Invariant: every helper consumes exactly one block,
 * so a stream's position is its draw count and reversal is a subtraction. */
#include "warp_rng.h"

#include <math.h>

#define PHILOX_M0 0xD2511F53u
#define PHILOX_M1 0xCD9E8D57u
#define PHILOX_W0 0x9E3779B9u
#define PHILOX_W1 0xBB67AE85u

static inline void philox_round(uint32_t c[4], const uint32_t k[2])
{
    uint64_t p0 = (uint64_t)PHILOX_M0 * c[0];
    uint64_t p1 = (uint64_t)PHILOX_M1 * c[2];
    uint32_t n0 = (uint32_t)(p1 >> 32) ^ c[1] ^ k[0];
    uint32_t n2 = (uint32_t)(p0 >> 32) ^ c[3] ^ k[1];
    c[0] = n0;
    c[1] = (uint32_t)p1;
    c[2] = n2;
    c[3] = (uint32_t)p0;
}

void warp_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4])
{
    uint32_t c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]};
    uint32_t k[2] = {key[0], key[1]};
    philox_round(c, k);
    /* Unrolled: the loop's first-round test and counter cost the model's
     * draws about a hundred instructions a block. */
#pragma GCC unroll 9
    for (int i = 1; i < 10; i++) {
        k[0] += PHILOX_W0;
        k[1] += PHILOX_W1;
        philox_round(c, k);
    }
    out[0] = c[0];
    out[1] = c[1];
    out[2] = c[2];
    out[3] = c[3];
}

/* The seed is spread over the key with a SplitMix64 step, so nearby seeds
 * (1, 2, 3...) give unrelated keys. */
static uint64_t splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

warp_rng warp_rng_stream(uint64_t seed, uint64_t id)
{
    uint64_t k = splitmix64(seed);
    warp_rng r = {.key = {(uint32_t)k, (uint32_t)(k >> 32)}, .stream = id, .counter = 0};
    return r;
}

/* Counter words: (counter lo, counter hi, stream lo, stream hi): distinct
 * streams never share a block, whatever their positions. */
void warp_rng_block(warp_rng *r, uint32_t out[4])
{
    uint32_t c[4] = {(uint32_t)r->counter, (uint32_t)(r->counter >> 32), (uint32_t)r->stream,
                     (uint32_t)(r->stream >> 32)};
    r->counter++;
    warp_philox4x32_10(c, r->key, out);
}

/* x * 2^-53 for a 53-bit x, with x = 0 moved to 2^-54: every result is exact
 * and inside (0, 1). (x + 0.5) * 2^-53 is not: above 2^52 the half is rounded
 * away, and x = 2^53 - 1 gives exactly 1.0. */
static inline double u53(uint32_t hi, uint32_t lo)
{
    uint64_t x = ((uint64_t)hi << 21) ^ (lo >> 11); /* 53 bits */
    return x ? (double)x * 0x1.0p-53 : 0x1.0p-54;
}

double warp_rng_unif(warp_rng *r)
{
    uint32_t b[4];
    warp_rng_block(r, b);
    return u53(b[0], b[1]);
}

int64_t warp_rng_integer(warp_rng *r, int64_t lo, int64_t hi)
{
    uint32_t b[4];
    warp_rng_block(r, b);
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1; /* 0 means the full 2^64 range */
    uint64_t rh = ((uint64_t)b[0] << 32) | b[1];
    uint64_t rl = ((uint64_t)b[2] << 32) | b[3];
    if (span == 0)
        return (int64_t)rh;
    unsigned __int128 a = (unsigned __int128)span * rh;
    unsigned __int128 c = ((unsigned __int128)span * rl) >> 64;
    return (int64_t)((uint64_t)lo + (uint64_t)((a + c) >> 64));
}

double warp_rng_exp(warp_rng *r, double mean)
{
    return -mean * log(warp_rng_unif(r));
}

static double std_normal(warp_rng *r)
{
    uint32_t b[4];
    warp_rng_block(r, b);
    double u1 = u53(b[0], b[1]), u2 = u53(b[2], b[3]);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

double warp_rng_normal(warp_rng *r, double mean, double sd)
{
    return mean + sd * std_normal(r);
}

double warp_rng_pareto(warp_rng *r, double xm, double alpha)
{
    return xm / pow(warp_rng_unif(r), 1.0 / alpha);
}

double warp_rng_lognormal(warp_rng *r, double mu, double sigma)
{
    return exp(mu + sigma * std_normal(r));
}

void warp_rng_reverse(warp_rng *r, uint64_t n)
{
    r->counter -= n;
}
