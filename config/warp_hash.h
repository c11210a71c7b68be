/* config/warp_hash.h — the one string hash libwarp uses to compare
 * configurations (run files in checkpoints, settings across ranks). */
#ifndef WARP_HASH_H
#define WARP_HASH_H

#include <stddef.h>
#include <stdint.h>

#define WARP_FNV1A_INIT UINT64_C(0xCBF29CE484222325)

/* FNV-1a of n bytes at p, continuing from h (start with WARP_FNV1A_INIT). */
uint64_t warp_fnv1a(uint64_t h, const void *p, size_t n);

#endif
