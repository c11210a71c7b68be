/* config/xalloc.c — the project's one out-of-memory wrapper (warp_error.h)
 * for memory outside the engine's event pools and arenas: running out is a
 * resource error, one line and WARP_EXIT_RESOURCE. Called by the
 * configuration reader, the network layer, the topologies and the trace
 * readers. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warp_error.h"

static void out_of_memory(size_t bytes) __attribute__((noreturn));
static void out_of_memory(size_t bytes)
{
    warp_fatal(WARP_EXIT_RESOURCE, "out of memory allocating %zu bytes; use more processes "
                                   "(fewer nodes, ranks or trace ranks per process) or a smaller run",
               bytes);
}

void *warp_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        out_of_memory(n * size);
    return p;
}

void *warp_xrealloc(void *p, size_t bytes)
{
    void *q = realloc(p, bytes ? bytes : 1);
    if (!q)
        out_of_memory(bytes);
    return q;
}

char *warp_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = warp_xrealloc(NULL, n);
    memcpy(d, s, n);
    return d;
}

char *warp_xvformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0)
        n = 0;
    char *d = warp_xrealloc(NULL, (size_t)n + 1);
    if (vsnprintf(d, (size_t)n + 1, fmt, ap) < 0)
        d[0] = '\0';
    return d;
}
