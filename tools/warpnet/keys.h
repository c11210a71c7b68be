/* keys.h — `warpnet keys` and `warpnet --help=SECTION`: the run-file keys
 * from their declarations (warp_keys.h). */
#ifndef WN_KEYS_H
#define WN_KEYS_H

#include <stdio.h>

/* Prints the keys of section `only` (NULL: every section, [engine] first)
 * in `format` ("json", "markdown", "man", or NULL for text); stops with a
 * usage error naming the sections when `only` is none of them. Returns 0. */
int wn_keys_print(FILE *f, const char *only, const char *format);
/* `warpnet keys [SECTION] [--json|--markdown|--man]` (argv[0] is "keys");
 * returns the exit code. */
int wn_keys_main(int argc, char **argv);

#endif
