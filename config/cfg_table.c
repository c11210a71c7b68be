/* config/cfg_table.c — option tables (warp_cfg.h): lookup, setting with
 * one-line errors, help lines, and the value parsers options share.
 * Invariant: every refusal names where the value came from (the option, or
 * the file and line with its section) and the value as the user wrote it.
 * Called by the engine's option parser and by host programs. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "warp_cfg.h"
#include "warp_error.h"

const warp_cfg_opt *warp_cfg_find(const warp_cfg_opt *table, const char *name)
{
    for (const warp_cfg_opt *o = table; o && o->name; o++)
        if (!strcmp(o->name, name))
            return o;
    return NULL;
}

void warp_cfg_set(const warp_cfg_opt *opt, void *target, const char *value, const char *where,
                  const char *section)
{
    const char *why = opt->set(target, value);
    if (!why)
        return;
    if (!where)
        warp_fatal(WARP_EXIT_USAGE, "--%s=%s: %s", opt->name, value ? value : "", why);
    if (!strncmp(where, "--", 2))
        warp_fatal(WARP_EXIT_USAGE, "%s=%s: %s", where, value ? value : "", why);
    warp_fatal(WARP_EXIT_USAGE, "%s: [%s] %s = %s: %s", where, section, opt->name,
               value ? value : "", why);
}

void warp_cfg_print_help(FILE *f, const warp_cfg_opt *table)
{
    for (const warp_cfg_opt *o = table; o && o->name; o++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", o->name, o->arg ? "=" : "", o->arg ? o->arg : "");
        /* Two blanks at least between option and text: mkman.sh splits
         * there, and a long option with one blank ran into its text. */
        fprintf(f, "  %-22s%s%s", left, strlen(left) >= 22 ? "  " : " ", o->help);
        if (o->dflt)
            fprintf(f, " (default: %s)", o->dflt);
        fputc('\n', f);
    }
}

const char *warp_cfg_uint(const char *v, uint64_t min, uint64_t *out)
{
    static char reason[48];
    char *end;
    errno = 0;
    if (!v || !*v || *v == '-')
        return "expected a non-negative integer";
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || *end)
        return "expected a non-negative integer";
    if (x < min) {
        snprintf(reason, sizeof reason, "must be at least %llu", (unsigned long long)min);
        return reason;
    }
    *out = x;
    return NULL;
}

const char *warp_cfg_double(const char *v, double *out)
{
    char *end;
    errno = 0;
    if (!v || !*v)
        return "expected a number";
    double x = strtod(v, &end);
    if (errno || *end || !isfinite(x))
        return "expected a finite number";
    *out = x;
    return NULL;
}

const char *warp_cfg_flag(const char *v, int *out)
{
    if (!v || !strcmp(v, "1") || !strcmp(v, "true") || !strcmp(v, "yes") || !strcmp(v, "on"))
        *out = 1;
    else if (!strcmp(v, "0") || !strcmp(v, "false") || !strcmp(v, "no") || !strcmp(v, "off"))
        *out = 0;
    else
        return "expected 0/1, true/false, yes/no or on/off";
    return NULL;
}
