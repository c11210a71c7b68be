/* config/hash.c — FNV-1a (warp_hash.h). */
#include "warp_hash.h"

uint64_t warp_fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * UINT64_C(0x100000001B3);
    return h;
}
