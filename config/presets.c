/* config/presets.c — presets (warp_keys.h): named groups of key values a
 * run file takes with one key, each overridable. Invariant: a preset only
 * fills keys the run file leaves unset, and marks them read (a preset's key
 * the run does not use is no mistake of the user's), through warp_ini.h.
 * Called by the network layer's setup. */
#include "ini_internal.h"
#include "warp_keys.h"

#include <stdio.h>
#include <string.h>

void warp_ini_apply_preset(warp_ini *ini, const warp_preset *p)
{
    char origin[96];
    snprintf(origin, sizeof origin, "preset %s", p->name);
    for (const char *const *kv = p->keys; kv[0]; kv += 2) {
        if (!warp_ini_where(ini, p->section, kv[0]))
            warp_ini_set(ini, p->section, kv[0], kv[1], origin);
        warp_ini_get(ini, p->section, kv[0]); /* declared (or stops), and read */
    }
}

int warp_ini_from_preset(const warp_ini *ini, const char *sec, const char *key)
{
    const char *where = warp_ini_where(ini, sec, key);
    return where && strncmp(where, "preset ", 7) == 0;
}
