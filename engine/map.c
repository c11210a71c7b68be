/* engine/map.c — the gid -> LP map: which rank owns a global LP id and,
 * on its own rank, which local record. Block-linear without a model mapper;
 * with one, a dense table (gid -> local index or owner) or, on many ranks, a
 * hash table of the local gids. Built once by setup.c (map_build), read by
 * delivery (map_dest), the transport and checkpoint reading. */
#include "internal.h"

#include <stdlib.h>

static void block_range(uint64_t n, int npes, int pe, uint64_t *first, uint64_t *count)
{
    uint64_t q = n / (uint64_t)npes, r = n % (uint64_t)npes, p = (uint64_t)pe;
    *first = p * q + (p < r ? p : r);
    *count = q + (p < r ? 1 : 0);
}

int map_pe_of(const warp_ctx *w, warp_lpid gid)
{
    const warp_model *m = w->m;
    if (w->gid_dense) {
        int32_t v = w->gid_dense[gid];
        return v >= 0 ? w->rank : (int)(-v - 1);
    }
    if (m->map)
        return m->map(gid, w->nranks, m->arg);
    uint64_t n = w->total_lps, P = (uint64_t)w->nranks, q = n / P, r = n % P;
    if (gid < r * (q + 1))
        return (int)(gid / (q + 1));
    return (int)(r + (gid - r * (q + 1)) / q);
}

static uint64_t hash_gid(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

warp_lp *map_local_lp(const warp_ctx *w, warp_lpid gid)
{
    if (w->gid_dense) {
        WARP_ASSERT(w->gid_dense[gid] >= 0, "an event delivered here is for a local LP");
        return &w->lps[w->gid_dense[gid]];
    }
    if (!w->gid_table) {
        WARP_ASSERT(gid - w->first_gid < w->nlocal, "an event delivered here is for a local LP");
        return &w->lps[gid - w->first_gid];
    }
    for (uint64_t h = hash_gid(gid) & w->gid_mask;; h = (h + 1) & w->gid_mask) {
        uint64_t v = w->gid_table[h];
        WARP_ASSERT(v != 0, "an event delivered here is for a local LP");
        if (w->gids[v - 1] == gid)
            return &w->lps[v - 1];
    }
}

/* The dense table is read at a random entry on every send to another LP:
 * from 4 MiB (a million LPs) in huge pages, as the states are, so that the
 * lookup's cache miss is not a TLB miss too. */
#define DENSE_HUGE_BYTES (UINT64_C(4) << 20)

static bool dense_huge(const warp_ctx *w)
{
    return w->opt.huge_pages == WARP_HUGE_ON ||
           (w->opt.huge_pages == WARP_HUGE_AUTO && w->total_lps * sizeof *w->gid_dense >= DENSE_HUGE_BYTES);
}

void map_build(warp_ctx *w)
{
    const warp_model *m = w->m;
    if (!m->map) {
        block_range(w->total_lps, w->nranks, w->rank, &w->first_gid, &w->nlocal);
        return;
    }
    /* The dense table costs 4 bytes per LP of the whole model; the hash
     * table 24 per local LP. Dense while it is at most 16 MiB or no larger
     * than the hash table would be (few ranks), so runs on hundreds of
     * ranks keep memory proportional to their own LPs. */
    uint64_t count = 0;
    bool dense = w->total_lps < INT32_MAX;
    if (dense) {
        w->gid_dense = big_map(w->total_lps * sizeof *w->gid_dense, dense_huge(w));
        dense = w->gid_dense != NULL;
    }
    for (warp_lpid g = 0; g < w->total_lps; g++) {
        if ((g & 0x3FF) == 0)
            warp_poll_interrupt("mapping the LPs to ranks");
        int pe = m->map(g, w->nranks, m->arg);
        if (pe < 0 || pe >= w->nranks)
            warp_fatal(WARP_EXIT_USAGE, "model %s maps LP %llu to rank %d of %d", m->name,
                       (unsigned long long)g, pe, w->nranks);
        if (dense)
            w->gid_dense[g] = pe == w->rank ? (int32_t)count : -(int32_t)pe - 1;
        count += pe == w->rank;
    }
    w->nlocal = count;
    if (dense && w->total_lps * sizeof *w->gid_dense > ((uint64_t)16 << 20) &&
        w->total_lps * sizeof *w->gid_dense > 24 * count) {
        big_unmap(w->gid_dense, w->total_lps * sizeof *w->gid_dense, dense_huge(w));
        w->gid_dense = NULL;
    }
    w->gids = malloc((count ? count : 1) * sizeof *w->gids);
    uint64_t size = 16;
    while (size < 2 * count)
        size <<= 1;
    w->gid_mask = size - 1;
    w->gid_table = w->gid_dense ? NULL : calloc(size, sizeof *w->gid_table);
    if (!w->gids || (!w->gid_dense && !w->gid_table))
        warp_fatal(WARP_EXIT_RESOURCE, "out of memory mapping %llu LPs", (unsigned long long)count);
    uint64_t i = 0;
    for (warp_lpid g = 0; g < w->total_lps; g++) {
        if (w->gid_dense ? w->gid_dense[g] < 0 : m->map(g, w->nranks, m->arg) != w->rank)
            continue;
        w->gids[i] = g;
        if (w->gid_dense) {
            i++;
            continue;
        }
        uint64_t h = hash_gid(g) & w->gid_mask;
        while (w->gid_table[h])
            h = (h + 1) & w->gid_mask;
        w->gid_table[h] = ++i;
    }
}

void map_free(warp_ctx *w)
{
    free(w->gids);
    free(w->gid_table);
    if (w->gid_dense)
        big_unmap(w->gid_dense, w->total_lps * sizeof *w->gid_dense, dense_huge(w));
    w->gid_dense = NULL;
    w->gids = NULL;
    w->gid_table = NULL;
}
