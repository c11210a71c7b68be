/* util.h — small helpers shared by the trace readers: allocation that stops
 * the program on exhaustion (exit 3, the resource error code) and
 * little-endian byte access. */
#ifndef REPLAY_UTIL_H
#define REPLAY_UTIL_H

#include <stddef.h>
#include <stdint.h>

/* realloc/calloc that print "warpnet: out of memory ..." and exit 3 on failure. */
void *replay_xrealloc(void *p, size_t n);
void *replay_xcalloc(size_t n, size_t size);
/* strdup with the same failure rule. */
char *replay_xstrdup(const char *s);

#endif
