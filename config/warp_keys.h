/* warp_keys.h — declared run-file keys: every key a model reads from a run
 * file is declared once, in a table its ops structure points to, with its
 * kind, default, range and one-line help. The getters of warp_ini.h read
 * through the declarations attached to a warp_ini (warp_ini_declare): a key
 * read but not declared, or read with another default than the declared
 * one, is a programming error. The same tables drive `warpnet keys`,
 * `warpnet --help=SECTION`, docs/keys.md and the man page. */
#ifndef WARP_KEYS_H
#define WARP_KEYS_H

#include <stdio.h>

#include "warp_ini.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum warp_key_kind {
    WARP_KEY_TIME,   /* a time with its unit (50ns) */
    WARP_KEY_SIZE,   /* a size with its unit (4KiB) */
    WARP_KEY_RATE,   /* a bandwidth with its unit (12.5GB/s) */
    WARP_KEY_LENGTH, /* a length with its unit (10m) */
    WARP_KEY_COUNT,  /* a whole number */
    WARP_KEY_REAL,   /* a number without unit */
    WARP_KEY_FLAG,   /* yes/no */
    WARP_KEY_CHOICE, /* one of the names in range */
    WARP_KEY_FILE,   /* a path */
    WARP_KEY_LIST,   /* comma-separated values */
    WARP_KEY_TEXT,   /* anything else (a name, a value of several forms) */
} warp_key_kind;

/* One key. dflt is the default as a run file would write it ("50ns",
 * "cut-through"): the getters check that they use that default. A default
 * in parentheses describes one ("(required)", "(link_latency)", "(none)")
 * and is not checked. range: "1..64" or, for a choice, "a | b | c"; NULL
 * for none. */
typedef struct warp_key {
    const char *name;
    warp_key_kind kind;
    const char *dflt;
    const char *range;
    const char *help;
} warp_key;

/* Keys of one section, or of one part of a section that applies only
 * when [if_section] if_key = if_value (if_section NULL: the same section),
 * e.g. the input-queued router's keys of [network]. A section named
 * "job.N" stands for job.0, job.1, ... Tables end with a zeroed row;
 * lists of groups end with a NULL section. */
typedef struct warp_key_group {
    const char *section;
    const char *help; /* one line: what the section (or this part) is */
    const warp_key *keys;
    const char *if_section, *if_key, *if_value;
} warp_key_group;

/* Attaches a list of groups (static storage) to ini; getters then refuse
 * (exit 1, a programming error) any key of a section those groups declare
 * that none of them declares, and any default that differs from the
 * declared one. Sections no group declares are not checked. */
void warp_ini_declare(warp_ini *ini, const warp_key_group *groups);
/* The declaration of [sec] key among the attached groups, or NULL. */
const warp_key *warp_ini_declared(const warp_ini *ini, const char *sec, const char *key);

/* For every attached group whose condition does not hold, warns once on
 * `warn` (NULL: silently; lines start "PROG: warning: ") for each of its
 * keys the run file sets, naming
 * the condition and the value that rules the key out, and marks the key
 * used so that warp_ini_reject_unused accepts it; keys a preset set are
 * accepted silently. Call after the model has read its configuration. */
void warp_ini_warn_inapplicable(warp_ini *ini, FILE *warn, const char *prog);

/* A preset: values of keys of one section that [network] preset = NAME
 * sets (the network layer gathers the entries named NAME from the chosen
 * topology or network, the workload and itself, in that order, so the
 * more specific entry wins a key two of them set). Lists end with a NULL
 * name. */
typedef struct warp_preset {
    const char *name;
    const char *help;        /* one line: what it reproduces; NULL: said by another entry of the name */
    const char *section;
    const char *const *keys; /* "key", "value", ..., NULL */
} warp_preset;

/* Sets each key of p the run file leaves unset (origin "preset NAME"),
 * and marks every key of p read: a preset's key the run does not use is
 * no mistake of the user's. A key p names that its declared section does
 * not declare stops the run (a programming error). */
void warp_ini_apply_preset(warp_ini *ini, const warp_preset *p);
/* Whether [sec] key's value came from a preset. */
int warp_ini_from_preset(const warp_ini *ini, const char *sec, const char *key);

/* Whether the section pattern (e.g. "job.N") names section sec. */
int warp_key_section_matches(const char *pattern, const char *sec);
/* "time", "size", ... */
const char *warp_key_kind_name(warp_key_kind kind);

#ifdef __cplusplus
}
#endif
#endif
