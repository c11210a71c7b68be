/* config/keys.c — declared keys (warp_keys.h) on their own: section
 * patterns, kind names, finding a key in lists of groups, and the stops
 * for a read that breaks a declaration (programming errors, exit 1).
 * Invariant: knows no run file (ini.c attaches the lists and calls this;
 * keys_warn.c reads a run file through both). */
#include "ini_internal.h"
#include "warp_keys.h"

#include <stdlib.h>
#include <string.h>

int warp_key_section_matches(const char *pattern, const char *sec)
{
    size_t n = strlen(pattern);
    /* "job.N" stands for job.0, job.1, ... */
    if (n >= 2 && !strcmp(pattern + n - 2, ".N")) {
        if (strncmp(pattern, sec, n - 1) != 0 || !sec[n - 1])
            return 0;
        for (const char *p = sec + n - 1; *p; p++)
            if (*p < '0' || *p > '9')
                return 0;
        return 1;
    }
    return !strcmp(pattern, sec);
}

const char *warp_key_kind_name(warp_key_kind kind)
{
    static const char *const names[] = {
        [WARP_KEY_TIME] = "time",   [WARP_KEY_SIZE] = "size",     [WARP_KEY_RATE] = "rate",
        [WARP_KEY_LENGTH] = "length", [WARP_KEY_COUNT] = "count", [WARP_KEY_REAL] = "real",
        [WARP_KEY_FLAG] = "flag",   [WARP_KEY_CHOICE] = "choice", [WARP_KEY_FILE] = "file",
        [WARP_KEY_LIST] = "list",   [WARP_KEY_TEXT] = "text",
    };
    return (unsigned)kind < sizeof names / sizeof names[0] ? names[kind] : "?";
}

static const warp_key *group_key(const warp_key_group *g, const char *key)
{
    for (const warp_key *k = g->keys; k && k->name; k++)
        if (!strcmp(k->name, key))
            return k;
    return NULL;
}

const warp_key *keys_find(const warp_key_group *const *lists, size_t n, const char *sec, const char *key,
                          int *declared)
{
    *declared = 0;
    for (size_t i = 0; i < n; i++)
        for (const warp_key_group *g = lists[i]; g->section; g++) {
            if (!warp_key_section_matches(g->section, sec))
                continue;
            *declared = 1;
            const warp_key *k = group_key(g, key);
            if (k)
                return k;
        }
    return NULL;
}

void ini_key_undeclared(const char *sec, const char *key)
{
    warp_fatal(WARP_EXIT_INTERNAL, "programming error: [%s] %s is read but not declared; add it to "
               "the section's warp_key table (warp_keys.h)", sec, key);
}

void ini_key_default_differs(const char *sec, const char *key, const char *declared, const char *used)
{
    warp_fatal(WARP_EXIT_INTERNAL, "programming error: [%s] %s is declared with default %s but read with "
               "default %s; make the declaration and the getter agree", sec, key, declared, used);
}

