/* warp_rng.h — reversible, counter-based random numbers (Philox4x32-10).
 * A stream is (seed, stream id); its position is a 64-bit counter. Every draw
 * of every helper below consumes exactly ONE generator block (one counter
 * step), so n draws of any mix of helpers are undone by warp_rng_reverse(n),
 * and the engine undoes a rolled-back event's draws by restoring the counter. */
#ifndef WARP_RNG_H
#define WARP_RNG_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct warp_rng {
    uint32_t key[2];  /* from the seed */
    uint64_t stream;  /* the LP's global id for LP streams */
    uint64_t counter; /* number of blocks drawn so far */
} warp_rng;

/* The stream for (seed, id): independent of how LPs are placed on PEs. */
warp_rng warp_rng_stream(uint64_t seed, uint64_t id);

/* Philox4x32-10 of (ctr, key): the raw generator, for known-answer tests. */
void warp_philox4x32_10(const uint32_t ctr[4], const uint32_t key[2], uint32_t out[4]);

/* One block at the current counter (then counter += 1). */
void warp_rng_block(warp_rng *r, uint32_t out[4]);

/* Uniform double in (0, 1), 53-bit resolution; never returns 0 or 1. */
double warp_rng_unif(warp_rng *r);

/* Uniform integer in [lo, hi] (lo <= hi). Uses a 128-bit fixed-point product
 * of the block, so its bias is below 2^-64 for any range and it always costs
 * one block. */
int64_t warp_rng_integer(warp_rng *r, int64_t lo, int64_t hi);

/* Exponential with the given mean (> 0). */
double warp_rng_exp(warp_rng *r, double mean);

/* Normal(mean, sd) by Box-Muller on the two halves of one block. */
double warp_rng_normal(warp_rng *r, double mean, double sd);

/* Pareto with scale xm > 0 and shape alpha > 0. */
double warp_rng_pareto(warp_rng *r, double xm, double alpha);

/* Lognormal: exp(Normal(mu, sigma)). */
double warp_rng_lognormal(warp_rng *r, double mu, double sigma);

/* Steps the stream back by n draws (n <= draws made). */
void warp_rng_reverse(warp_rng *r, uint64_t n);

/* Number of draws made from this stream so far. */
static inline uint64_t warp_rng_count(const warp_rng *r) { return r->counter; }

#ifdef __cplusplus
}
#endif
#endif
