/* ini_internal.h — what config/ini.c, config/units.c and the INI fuzz harness
 * share; not installed. The *_parse functions never exit: they report errors
 * as values so that a fuzzer can drive them, and ini.c turns those into the
 * one-line "warpnet: ..." exit of warp_ini.h. */
#ifndef WARP_INI_INTERNAL_H
#define WARP_INI_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "warp_cfg.h"
#include "warp_error.h"
#include "warp_ini.h"
#include "warp_keys.h"

/* The `why` of the unit parsers for a bare number; ini.c compares the pointer
 * to add a hint with the user's own number. */
extern const char ini_why_missing_unit[];

/* Parses `len` bytes of INI text into ini, naming places "name:LINE". Returns
 * NULL, or a malloc'd one-line message "name:LINE: ..." (caller frees). */
char *ini_parse_buffer(warp_ini *ini, const char *name, const char *buf, size_t len);

/* Applies "--section.key=value": 1 applied, 0 not an override, -1 malformed
 * with a malloc'd message in *err (caller frees). */
int ini_apply_override(warp_ini *ini, const char *arg, char **err);

/* A whole number, exactly: "42", "-7", "1e6", "1.5e3" (not "1.5"). */
int ini_parse_int(const char *s, int64_t *out, const char **why);
/* A finite decimal number without unit ("0.5", "1e-3"). */
int ini_parse_double(const char *s, double *out, const char **why);

/* The lists warp_ini_declare attached, in order (keys.c reads them). */
const warp_key_group *const *ini_declarations(const warp_ini *ini, size_t *n);
/* The declaration of [sec] key among the n lists (keys.c), or NULL;
 * *declared tells whether any of them declares the section. */
const warp_key *keys_find(const warp_key_group *const *lists, size_t n, const char *sec, const char *key,
                          int *declared);
/* Stops (exit 1): [sec] key is read, its section declared, it not. */
void ini_key_undeclared(const char *sec, const char *key) __attribute__((noreturn));
/* The declared default of [sec] key when it is a value a run file could
 * hold, NULL when none is declared or it is a description "(...)". */
const char *ini_key_default(const warp_ini *ini, const char *sec, const char *key);
/* Stops (exit 1): the getter's default is not the declared one. */
void ini_key_default_differs(const char *sec, const char *key, const char *declared, const char *used)
    __attribute__((noreturn));

#endif
