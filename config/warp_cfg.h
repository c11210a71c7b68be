/* warp_cfg.h — option tables, part of libwarp's configuration layer (below
 * the engine). An option is declared once, as one row: its name, its
 * argument, its default and its help line, and the function that sets it.
 * The same row drives the command line (--name=ARG), a run file's section
 * (name = ARG), --help and manual pages. Errors name the option or the file
 * and line, the value and the reason, and suggest the closest known name
 * for a misspelt one. */
#ifndef WARP_CFG_H
#define WARP_CFG_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct warp_cfg_opt {
    const char *name; /* "batch": --batch=ARG, or `batch = ARG` in the table's section */
    const char *arg;  /* the argument as help shows it ("N"); NULL: a flag, --name alone sets it */
    const char *dflt; /* the default as help and manual pages show it, or NULL */
    const char *help; /* one line: what it does */
    /* Sets the option in target from value (NULL for a flag given alone).
     * Returns NULL, or a short reason ("must be at least 1") for the error
     * line; the caller names the place and the value. */
    const char *(*set)(void *target, const char *value);
} warp_cfg_opt;

/* The row named `name` in a table that ends with a zeroed row, or NULL. */
const warp_cfg_opt *warp_cfg_find(const warp_cfg_opt *table, const char *name);

/* Sets opt in target from value, or stops with WARP_EXIT_USAGE and one
 * line: "--name=VALUE: REASON" when `where` is NULL (the command line),
 * "WHERE=VALUE: REASON" when it is another option ("--out"), else
 * "WHERE: [section] name = VALUE: REASON" (a run file's line). */
void warp_cfg_set(const warp_cfg_opt *opt, void *target, const char *value, const char *where,
                  const char *section);

/* Writes one help line per row: "  --name=ARG   help (default: DFLT)". */
void warp_cfg_print_help(FILE *f, const warp_cfg_opt *table);

/* ---- Values: NULL on success, else a short reason ---------------------------- */

/* A non-negative whole number >= min ("16"). */
const char *warp_cfg_uint(const char *v, uint64_t min, uint64_t *out);
/* A finite number ("0.5", "1e-3"). */
const char *warp_cfg_double(const char *v, double *out);
/* 0/1, true/false, yes/no, on/off; NULL (given alone) means 1. */
const char *warp_cfg_flag(const char *v, int *out);

/* A byte count in the largest binary unit it fills, one decimal ("512 B",
 * "1.0 KiB", "5.0 GiB"), written into buf (cap >= 16); returns buf. */
char *warp_cfg_fmt_bytes(char *buf, size_t cap, double bytes);

/* ---- Did you mean ------------------------------------------------------------ */

/* Collects candidate names for a misspelt `target`: all of them (a
 * comma-separated list) and the closest within 2 edits. */
typedef struct warp_suggest {
    const char *target;
    const char *best; /* the closest candidate, or NULL */
    size_t best_d;
    char *list;       /* "a, b, c" (heap) */
    size_t len;
} warp_suggest;

void warp_suggest_init(warp_suggest *sg, const char *target);
/* Adds a candidate (a name ending in ".*" is listed, never suggested). */
void warp_suggest_add(warp_suggest *sg, const char *name);
void warp_suggest_free(warp_suggest *sg);
/* The closest row name of a table to `name`, or NULL. */
const char *warp_cfg_suggest(const warp_cfg_opt *table, const char *name);

#ifdef __cplusplus
}
#endif
#endif
