/* codes_conf.h — a CODES configuration file as its own grammar defines it:
 * nested sections `NAME { ... }`, keys `name = "value";` or
 * `name = ("a", "b");`, comments `#`, `//` and C-style blocks. Sections are named by
 * their path ("LPGROUPS/MODELNET_GRP", "PARAMS"). Used by `warpnet convert
 * codes`. */
#ifndef WN_CODES_CONF_H
#define WN_CODES_CONF_H

#include <stddef.h>

typedef struct codes_kv {
    char *section; /* path of the enclosing sections, joined by '/' */
    char *key;
    char **val;
    int nval;
    int line;
    int used;      /* the converter consumed it */
} codes_kv;

typedef struct codes_conf {
    char *path;
    codes_kv *kv;
    int n;
} codes_conf;

/* Parses path. Returns 0, or -1 with a one-line message "FILE:LINE: ..." in err. */
int codes_conf_read(const char *path, codes_conf *c, char *err, size_t errlen);
void codes_conf_free(codes_conf *c);

/* The key in that section (NULL if absent); marks it used. */
codes_kv *codes_find(codes_conf *c, const char *section, const char *key);

#endif
