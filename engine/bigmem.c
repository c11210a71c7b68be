/* engine/bigmem.c — the big zeroed mappings of setup (big_map): LP records,
 * states and outputs, which the kernel zeroes on first touch, with or without
 * transparent huge pages (--huge-pages). Called by setup.c and pool.c. */
#include "internal.h"

#include <stdint.h>
#include <sys/mman.h>

#ifndef MAP_ANONYMOUS
#define MAP_ANONYMOUS MAP_ANON
#endif
#define HUGE_BYTES ((size_t)2 << 20)

static size_t huge_round(size_t bytes)
{
    return (bytes + HUGE_BYTES - 1) & ~(HUGE_BYTES - 1);
}

void big_advise_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    /* Best effort: a kernel without THP (or with it off) says EINVAL, and
     * the run goes on with small pages, as with --huge-pages=off. */
    (void)madvise(p, bytes, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

void *big_map(size_t bytes, bool huge)
{
    if (!bytes)
        bytes = 1;
    if (!huge) {
        void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        return p == MAP_FAILED ? NULL : p;
    }
    /* Aligned to 2 MiB, so that every 2 MiB of the array can be one page:
     * a mapping starting mid-way wastes a partial huge page at each end. */
    size_t size = huge_round(bytes), over = size + HUGE_BYTES;
    char *p = mmap(NULL, over, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    char *a = (char *)(((uintptr_t)p + HUGE_BYTES - 1) & ~(uintptr_t)(HUGE_BYTES - 1));
    if (a > p)
        munmap(p, (size_t)(a - p));
    if (a + size < p + over)
        munmap(a + size, (size_t)(p + over - (a + size)));
    big_advise_huge(a, size);
    return a;
}

void big_unmap(void *p, size_t bytes, bool huge)
{
    if (p)
        munmap(p, huge ? huge_round(bytes ? bytes : 1) : (bytes ? bytes : 1));
}
