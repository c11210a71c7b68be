/* util.c — allocation helpers of the trace readers (util.h). Running out of
 * memory while loading a trace is a resource error: one line, exit 3. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/util.h"

static void out_of_memory(size_t n)
{
    fprintf(stderr, "warpnet: out of memory allocating %zu bytes for trace data; "
                    "replay fewer ranks per process or use more processes\n", n);
    exit(3);
}

void *replay_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        out_of_memory(n);
    return q;
}

void *replay_xcalloc(size_t n, size_t size)
{
    void *q = calloc(n ? n : 1, size ? size : 1);
    if (!q)
        out_of_memory(n * size);
    return q;
}

char *replay_xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        out_of_memory(strlen(s) + 1);
    return d;
}
