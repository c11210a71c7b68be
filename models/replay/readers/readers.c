/* readers.c — the table of trace readers (readers.h): each reader's
 * descriptor, listed from the generated reader_list.h, and what is done by
 * going through the list (guessing a format, checking settings, opening).
 * Invariant: a reader gets only the settings of the keys it declares,
 * applied over its defaults. Called by the replay workload, warpnet-trace
 * and the tests; names no reader itself. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/readers.h"
#include "warp_error.h"

#define REPLAY_READER(desc) extern const replay_reader desc;
#define REPLAY_READER_UNBUILT(name, package)
#include "reader_list.h"
#undef REPLAY_READER

#define REPLAY_READER(desc) &desc,
static const replay_reader *const readers[] = {
#include "reader_list.h"
    NULL,
};
#undef REPLAY_READER
#undef REPLAY_READER_UNBUILT

/* Formats this build has no reader for, with the package that brings one. */
#define REPLAY_READER(desc)
#define REPLAY_READER_UNBUILT(name, package) {name, package},
static const struct {
    const char *name, *package;
} unbuilt[] = {
#include "reader_list.h"
    {NULL, NULL},
};
#undef REPLAY_READER
#undef REPLAY_READER_UNBUILT

const replay_reader *const *replay_readers(void) { return readers; }

const replay_reader *replay_reader_find(const char *name)
{
    for (const replay_reader *const *r = readers; *r; r++)
        if (strcmp((*r)->name, name) == 0)
            return *r;
    return NULL;
}

const char *replay_guess_format(const char *path)
{
    const replay_reader *best = NULL;
    int best_score = 0;
    for (const replay_reader *const *r = readers; *r; r++) {
        int score = (*r)->sniff(path);
        if (score > best_score) {
            best = *r;
            best_score = score;
        }
    }
    return best ? best->name : "native";
}

/* Appends ", name" (or "name" first) to buf. */
static void add_name(char *buf, size_t cap, const char *name)
{
    size_t len = strlen(buf);
    snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", name);
}

/* Whether a reader before `upto` in the table declares key. */
static int declared_before(const replay_reader *const *upto, const char *key)
{
    for (const replay_reader *const *r = readers; r != upto; r++)
        if ((*r)->keys && warp_cfg_find((*r)->keys, key))
            return 1;
    return 0;
}

/* "a, b, c": the readers' names, or (keys) every key once. */
static void list_names(char *buf, size_t cap, int keys)
{
    buf[0] = 0;
    for (const replay_reader *const *r = readers; *r; r++) {
        if (!keys)
            add_name(buf, cap, (*r)->name);
        for (const warp_cfg_opt *k = keys ? (*r)->keys : NULL; k && k->name; k++)
            if (!declared_before(r, k->name))
                add_name(buf, cap, k->name);
    }
}

/* Applies value to a fresh copy of r's defaults (or to opts when given):
 * NULL, or the key's reason. */
static const char *apply(const replay_reader *r, const warp_cfg_opt *k, void *opts, const char *value)
{
    if (opts)
        return k->set(opts, value);
    void *scratch = warp_xcalloc(1, r->opts_size ? r->opts_size : 1);
    if (r->opts_size)
        memcpy(scratch, r->dflt, r->opts_size);
    const char *why = k->set(scratch, value);
    free(scratch);
    return why;
}

const char *replay_opts_set(replay_opts *o, const char *key, const char *value)
{
    static char why[512];
    int known = 0;
    for (const replay_reader *const *r = readers; *r; r++) {
        const warp_cfg_opt *k = (*r)->keys ? warp_cfg_find((*r)->keys, key) : NULL;
        if (!k)
            continue;
        known = 1;
        const char *bad = apply(*r, k, NULL, value);
        if (bad)
            return bad;
    }
    if (!known) {
        char keys[256];
        list_names(keys, sizeof keys, 1);
        snprintf(why, sizeof why, "no trace reader has the key %s; their keys are %s", key, keys);
        return why;
    }
    if (!value)
        value = "1"; /* a flag given alone */
    if (strlen(key) >= sizeof o->set[0].key || strlen(value) >= sizeof o->set[0].value)
        return "value too long";
    int i = 0;
    while (i < o->n && strcmp(o->set[i].key, key) != 0)
        i++;
    if (i == REPLAY_OPTS_MAX)
        return "too many reader settings";
    if (i == o->n)
        o->n++;
    snprintf(o->set[i].key, sizeof o->set[i].key, "%s", key);
    snprintf(o->set[i].value, sizeof o->set[i].value, "%s", value);
    return NULL;
}

/* The format's own message when this build has no reader for it. */
static int unknown_format(const char *path, const char *format, replay_err *err)
{
    for (int i = 0; unbuilt[i].name; i++)
        if (strcmp(unbuilt[i].name, format) == 0) {
            char upper[32];
            size_t n = 0;
            for (; format[n] && n + 1 < sizeof upper; n++)
                upper[n] = (char)toupper((unsigned char)format[n]);
            upper[n] = 0;
            return replay_errf(err, "%s: %s support was not built; install %s and reconfigure (--with-%s)",
                               path, upper, unbuilt[i].package, format);
        }
    char names[256];
    list_names(names, sizeof names, 0);
    return replay_errf(err, "%s: unknown trace format '%s'; use %s", path, format, names);
}

int replay_source_open(const char *path, const char *format, const replay_opts *opts,
                       replay_source **out, replay_err *err)
{
    *out = NULL;
    if (!format || !*format)
        format = replay_guess_format(path);
    const replay_reader *r = replay_reader_find(format);
    if (!r)
        return unknown_format(path, format, err);
    void *ro = r->opts_size ? warp_xcalloc(1, r->opts_size) : NULL;
    if (ro)
        memcpy(ro, r->dflt, r->opts_size);
    for (int i = 0; opts && i < opts->n; i++) {
        const warp_cfg_opt *k = r->keys ? warp_cfg_find(r->keys, opts->set[i].key) : NULL;
        const char *why = k ? apply(r, k, ro, opts->set[i].value) : NULL;
        if (why) {
            free(ro);
            return replay_errf(err, "%s: %s = %s: %s", path, opts->set[i].key, opts->set[i].value, why);
        }
    }
    int rc = r->open(path, ro, out, err);
    free(ro);
    if (!rc && opts)
        (*out)->coll = opts->coll;
    return rc;
}
