/* config/keys_warn.c — warns about the keys a run file sets in a declared
 * group whose condition does not hold (warp_ini_warn_inapplicable), and
 * accepts them. Invariant: reads the run file through warp_ini.h and the
 * lists ini.c attached. Called by the warpnet driver once the model has
 * read its configuration. */
#include "ini_internal.h"
#include "warp_keys.h"

#include <string.h>

/* The value of [sec] key the run uses: set, else declared default. */
static const char *value_or_default(warp_ini *ini, const char *sec, const char *key)
{
    if (warp_ini_where(ini, sec, key))
        return warp_ini_get(ini, sec, key);
    return ini_key_default(ini, sec, key);
}

void warp_ini_warn_inapplicable(warp_ini *ini, FILE *warn, const char *prog)
{
    size_t n;
    const warp_key_group *const *lists = ini_declarations(ini, &n);
    int nsec;
    const char *const *secs = warp_ini_sections(ini, &nsec);
    for (size_t i = 0; i < n; i++)
        for (const warp_key_group *g = lists[i]; g->section; g++) {
            if (!g->if_key)
                continue;
            const char *csec = g->if_section ? g->if_section : g->section;
            const char *v = value_or_default(ini, csec, g->if_key);
            if (v && !strcmp(v, g->if_value))
                continue;
            for (int s = 0; s < nsec; s++) {
                if (!warp_key_section_matches(g->section, secs[s]))
                    continue;
                for (const warp_key *k = g->keys; k->name; k++) {
                    const char *where = warp_ini_where(ini, secs[s], k->name);
                    if (!where || warp_ini_from_preset(ini, secs[s], k->name))
                        continue;
                    /* A key declared again by a group that applies is not ruled out. */
                    const warp_key *d = warp_ini_declared(ini, secs[s], k->name);
                    if (d != k)
                        continue;
                    warp_ini_get(ini, secs[s], k->name);
                    if (warn)
                        fprintf(warn, "%s: warning: %s: [%s] %s applies only with [%s] %s = %s (this run has %s); "
                                "it is ignored\n", prog, where,
                                secs[s], k->name, csec, g->if_key, g->if_value, v ? v : "none");
                }
            }
        }
}
