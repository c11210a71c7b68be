/* replay/reader_opts.c — the trace readers' settings from a run file: the
 * keys of [replay] each reader declares, checked as they are read. Apart
 * from readers.c, which the parser fuzzers link without the INI layer.
 * Called by the replay's setup and its sizing. */
#include "replay/workload_impl.h"

/* [replay]'s keys of the trace readers (each reader declares its own):
 * every one given goes to every reader that has it; [collectives]' keys go
 * to every source. */
void replay_opts_read(warp_ini *ini, replay_opts *o)
{
    *o = replay_opts_default();
    for (const replay_reader *const *r = replay_readers(); *r; r++)
        for (const warp_cfg_opt *k = (*r)->keys; k && k->name; k++) {
            const char *v = warp_ini_get(ini, "replay", k->name), *why;
            if (v && (why = replay_opts_set(o, k->name, v)) != NULL)
                warp_ini_fail(ini, "replay", k->name, "%s", why);
        }
    for (const char *const *k = coll_keys; *k; k++) {
        const char *v = warp_ini_get(ini, "collectives", *k), *why;
        if (v && (why = coll_cfg_set(&o->coll, *k, v)) != NULL)
            warp_ini_fail(ini, "collectives", *k, "%s", why);
    }
}
