/* warp_ini.h — INI run files with units, part of libwarp's configuration
 * layer (below the engine; it knows no engine, network or model).
 * One file per run: `[section]` headers, `key = value` lines, `#` or `;`
 * comments. Command-line overrides `--section.key=value` replace or add keys.
 * Every value remembers where it came from (file:line or the option), and every
 * error names that place, the key, the value, and what would fix it, then
 * stops the program through warp_fatal (exit code 2). Getters mark keys as
 * used so that warp_ini_reject_unused can refuse typos, suggesting the
 * closest known name. Quantities carry mandatory units: time (in ns), size
 * (in bytes) and rate (in bytes per ns: 1 GB/s = 1 byte/ns). */
#ifndef WARP_INI_H
#define WARP_INI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct warp_ini warp_ini;

/* Reads and parses a file; stops with "FILE:LINE: ..." on a syntax error or a
 * duplicate key, or with "FILE: ..." when it cannot be read. */
warp_ini *warp_ini_load(const char *path);
/* An empty configuration (for runs without a file). */
warp_ini *warp_ini_new(void);
void warp_ini_free(warp_ini *ini);

/* Applies "--section.key=value"; returns 1 if applied, 0 if `arg` does not
 * have that form (then it is not an override). Stops on a malformed one. */
int warp_ini_override(warp_ini *ini, const char *arg);
/* Sets section.key = value with `where` as its origin (for messages). */
void warp_ini_set(warp_ini *ini, const char *section, const char *key, const char *value,
                  const char *where);

/* The raw value, or NULL when absent. Marks the key used. */
const char *warp_ini_get(warp_ini *ini, const char *section, const char *key);
/* Where section.key was set ("run.ini:12", "--torus.dims"), or NULL. */
const char *warp_ini_where(const warp_ini *ini, const char *section, const char *key);
int warp_ini_has_section(const warp_ini *ini, const char *section);
/* Calls fn for every key of a section in file order (keys are marked used). */
void warp_ini_each(warp_ini *ini, const char *section,
                   void (*fn)(const char *key, const char *value, const char *where, void *arg),
                   void *arg);
/* Calls fn for every key of every section, in the order first set, without
 * marking any used (for hashing or printing the whole configuration). */
void warp_ini_visit(const warp_ini *ini,
                    void (*fn)(const char *sec, const char *key, const char *value, void *arg),
                    void *arg);
/* A hash of every key and value outside skip_section (NULL: none), in any
 * order: equal for run files that say the same (checkpoints compare it). */
uint64_t warp_ini_hash(const warp_ini *ini, const char *skip_section);
/* Names of all sections, in file order; *n receives the count. */
const char *const *warp_ini_sections(const warp_ini *ini, int *n);

/* Typed getters: return dflt when the key is absent; stop with a message
 * naming place, key and value when it is malformed or out of [min, max]. */
const char *warp_ini_string(warp_ini *ini, const char *sec, const char *key, const char *dflt);
int64_t warp_ini_int(warp_ini *ini, const char *sec, const char *key, int64_t dflt, int64_t min,
                     int64_t max);
double warp_ini_double(warp_ini *ini, const char *sec, const char *key, double dflt, double min,
                       double max);
int warp_ini_bool(warp_ini *ini, const char *sec, const char *key, int dflt);
/* Index of the value in choices (NULL-terminated), or dflt when absent. */
int warp_ini_choice(warp_ini *ini, const char *sec, const char *key, const char *const *choices,
                    int dflt);
/* Values with a mandatory unit; a bare number is an error. */
double warp_ini_time_ns(warp_ini *ini, const char *sec, const char *key, double dflt); /* ps ns us ms s */
uint64_t warp_ini_bytes(warp_ini *ini, const char *sec, const char *key, uint64_t dflt); /* B KB KiB MB MiB GB GiB */
double warp_ini_bandwidth(warp_ini *ini, const char *sec, const char *key, double dflt); /* bytes/ns: bps..Tbps, B/s..TiB/s */
double warp_ini_length_m(warp_ini *ini, const char *sec, const char *key, double dflt); /* metres: mm cm m km */
/* Comma-separated list of positive integers ("8,8,8"); returns the count
 * (at most max) and stops on a malformed list. */
int warp_ini_int_list(warp_ini *ini, const char *sec, const char *key, int64_t *out, int max);

/* Stops with "PLACE: [section] key = value: unknown key ..." for the first key
 * of a listed section (NULL-terminated list, or NULL for every section) that
 * no getter asked for; also for sections not in `known_sections` when given. */
void warp_ini_reject_unused(const warp_ini *ini, const char *const *known_sections);

/* Stops with "PLACE: [section] key = value: MESSAGE" (a model's own check). */
void warp_ini_fail(const warp_ini *ini, const char *sec, const char *key, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 4, 5)));

/* The unit parsers on their own (for command-line options): return 0 and set
 * *out, or return -1 and point *why at a short reason. */
int warp_parse_time_ns(const char *s, double *out, const char **why);
int warp_parse_bytes(const char *s, uint64_t *out, const char **why);
int warp_parse_bandwidth(const char *s, double *out, const char **why);
int warp_parse_length_m(const char *s, double *out, const char **why);

#ifdef __cplusplus
}
#endif
#endif
