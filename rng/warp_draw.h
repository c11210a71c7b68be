/* rng/warp_draw.h — several independent choices from one random draw: routing
 * functions take one 64-bit draw from the LP's reversible stream per
 * decision and derive sub-draw k from it by SplitMix64, so a decision's
 * choices are reproducible from the draw alone. Used by the Slim Fly and
 * dragonfly routings. */
#ifndef WARP_DRAW_H
#define WARP_DRAW_H

#include <stdint.h>

/* Sub-draw k of `draw`: the high 32 bits of SplitMix64(draw + (k+1)·γ),
 * γ = 0x9E3779B97F4A7C15. */
static inline uint32_t warp_rng_subdraw(uint64_t draw, int k)
{
    uint64_t z = draw + (uint64_t)(k + 1) * 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return (uint32_t)(z >> 32);
}

/* Option floor(u·n / 2^32) of n, for a 32-bit draw u. */
static inline uint32_t warp_rng_pick(uint32_t u, uint32_t n)
{
    return (uint32_t)(((uint64_t)u * n) >> 32);
}

#endif
