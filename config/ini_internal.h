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

#endif
