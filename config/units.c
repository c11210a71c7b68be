/* config/units.c — numbers with mandatory units (time, size, bandwidth) and
 * plain numbers, for INI values and command-line options. Invariant: all of
 * the string is one number and (where required) one known unit; conversions
 * are one correctly rounded step (sizes exact integers). Never exits: errors
 * come back as a short static reason. Called by config/ini.c and option parsers;
 * warp_cfg_fmt_bytes, the way back for messages, by the models. */
#include "ini_internal.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char ini_why_missing_unit[] = "missing unit";

/* A unit and its factor to the internal unit: value * num / den. Factors are
 * reduced so that one of num, den is 1 or a power of two, which makes the
 * conversion one rounding step. */
typedef struct unit {
    const char *name;
    double num, den;
} unit;

static const unit time_units[] = {
    {"ps", 1, 1000},
    {"ns", 1, 1},
    {"us", 1e3, 1},
    {"\xC2\xB5s", 1e3, 1}, /* U+00B5 MICRO SIGN */
    {"\xCE\xBCs", 1e3, 1}, /* U+03BC GREEK SMALL LETTER MU */
    {"ms", 1e6, 1},
    {"s", 1e9, 1},
    {NULL, 0, 0},
};

static const unit length_units[] = {
    {"mm", 1, 1000},
    {"cm", 1, 100},
    {"m", 1, 1},
    {"km", 1000, 1},
    {NULL, 0, 0},
};

/* To bytes per ns: 1 GB/s = 1e9 B / 1e9 ns = 1; 1 Gbps = 1/8. */
static const unit bandwidth_units[] = {
    {"bps", 1, 8e9},    {"b/s", 1, 8e9},    {"Kbps", 1, 8e6},   {"kbps", 1, 8e6},
    {"Kb/s", 1, 8e6},   {"kb/s", 1, 8e6},   {"Mbps", 1, 8e3},   {"Mb/s", 1, 8e3},
    {"Gbps", 1, 8},     {"Gb/s", 1, 8},     {"Tbps", 125, 1},   {"Tb/s", 125, 1},
    {"B/s", 1, 1e9},    {"KB/s", 1, 1e6},   {"kB/s", 1, 1e6},   {"MB/s", 1, 1e3},
    {"GB/s", 1, 1},     {"TB/s", 1e3, 1},   {"KiB/s", 1024.0, 1e9},
    {"MiB/s", 1048576.0, 1e9},              {"GiB/s", 1073741824.0, 1e9},
    {"TiB/s", 1099511627776.0, 1e9},        {NULL, 0, 0},
};

typedef struct size_unit {
    const char *name;
    uint64_t mult;
} size_unit;

static const size_unit size_units[] = {
    {"B", 1},
    {"KB", 1000},
    {"kB", 1000},
    {"MB", 1000000},
    {"GB", 1000000000},
    {"TB", 1000000000000},
    {"KiB", 1ull << 10},
    {"MiB", 1ull << 20},
    {"GiB", 1ull << 30},
    {"TiB", 1ull << 40},
    {NULL, 0},
};

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* End of the decimal number [+-](d+[.d*]|.d+)([eE][+-]?d+)? at s, or NULL.
 * No hex, inf or nan: strtod would take them, we do not. */
static const char *scan_number(const char *s)
{
    const char *p = s;
    if (*p == '+' || *p == '-')
        p++;
    int digits = 0;
    while (is_digit(*p)) {
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        while (is_digit(*p)) {
            p++;
            digits++;
        }
    }
    if (!digits)
        return NULL;
    if (*p == 'e' || *p == 'E') {
        const char *q = p + 1;
        if (*q == '+' || *q == '-')
            q++;
        if (is_digit(*q)) {
            while (is_digit(*q))
                q++;
            p = q;
        }
    }
    return p;
}

/* A value split into its number s..end and the unit text u (length un,
 * blanks around it skipped). */
typedef struct parts {
    const char *s, *end, *u;
    size_t un;
} parts;

/* Splits s; -1 with *why when no number starts it, or
 * when want_unit says a unit must follow (1) or must not (0) and that fails. */
static int split_number(const char *s, parts *p, int want_unit, const char **why)
{
    while (is_space(*s))
        s++;
    p->s = s;
    p->end = scan_number(s);
    if (!p->end) {
        *why = "not a number";
        return -1;
    }
    p->u = p->end;
    while (is_space(*p->u))
        p->u++;
    p->un = strlen(p->u);
    while (p->un > 0 && is_space(p->u[p->un - 1]))
        p->un--;
    if (want_unit && p->un == 0) {
        *why = ini_why_missing_unit;
        return -1;
    }
    if (!want_unit && p->un != 0) {
        *why = "text after the number";
        return -1;
    }
    return 0;
}

/* strtod on a span already checked by scan_number; -1 if strtod disagrees
 * about where the number ends (it never should in the C locale). */
static int span_to_double(const char *s, const char *end, double *out)
{
    char *stop;
    errno = 0;
    double v = strtod(s, &stop);
    if (stop != end)
        return -1;
    *out = v;
    return 0;
}

static int unit_is(const char *u, size_t n, const char *name)
{
    return strlen(name) == n && memcmp(u, name, n) == 0;
}

static const unit *find_unit(const unit *table, const char *u, size_t n)
{
    for (const unit *t = table; t->name; t++)
        if (unit_is(u, n, t->name))
            return t;
    return NULL;
}

/* A number with a unit of `table`, converted; errors for the caller to word. */
static int parse_with_unit(const char *s, const unit *table, const char *unknown, double *out,
                           const char **why)
{
    parts p;
    if (split_number(s, &p, 1, why) < 0)
        return -1;
    const unit *t = find_unit(table, p.u, p.un);
    if (!t) {
        *why = unknown;
        return -1;
    }
    double v;
    if (span_to_double(p.s, p.end, &v) < 0) {
        *why = "not a number";
        return -1;
    }
    *out = v * t->num / t->den;
    return 0;
}

/* A quantity that cannot be negative (a time, a length), with the reasons
 * to give for a negative and for an infinite value. */
static int parse_nonnegative(const char *s, const unit *table, const char *unknown,
                             const char *negative, const char *too_large, double *out,
                             const char **why)
{
    double v;
    if (parse_with_unit(s, table, unknown, &v, why) < 0)
        return -1;
    if (v < 0) {
        *why = negative;
        return -1;
    }
    if (!isfinite(v)) {
        *why = too_large;
        return -1;
    }
    *out = v + 0.0; /* -0 becomes +0 */
    return 0;
}

int warp_parse_time_ns(const char *s, double *out, const char **why)
{
    return parse_nonnegative(s, time_units, "unknown unit (use ps, ns, us, ms or s)",
                             "negative time", "time too large", out, why);
}

int warp_parse_length_m(const char *s, double *out, const char **why)
{
    return parse_nonnegative(s, length_units, "unknown unit (use mm, cm, m or km)",
                             "negative length", "length too large", out, why);
}

int warp_parse_bandwidth(const char *s, double *out, const char **why)
{
    double v;
    if (parse_with_unit(s, bandwidth_units,
                        "unknown unit (use bps, Kbps, Mbps, Gbps, Tbps or B/s, KB/s, MB/s, "
                        "GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s)",
                        &v, why) < 0)
        return -1;
    if (!(v > 0)) {
        *why = "bandwidth must be positive";
        return -1;
    }
    if (!isfinite(v)) {
        *why = "bandwidth too large";
        return -1;
    }
    *out = v;
    return 0;
}

enum exact_err { EXACT_OK = 0, EXACT_FRACTION = -1, EXACT_TOO_LARGE = -2, EXACT_DIGITS = -3 };

/* Exact value of the decimal span s..end times mult, as a magnitude and a
 * sign. Works on the digits, not on a double, so 18446744073709551615B and
 * 1.5KiB are exact and 0.3KiB is refused. */
static enum exact_err exact_decimal(const char *s, const char *end, uint64_t mult, uint64_t *mag,
                                    int *neg)
{
    const char *p = s;
    *neg = 0;
    if (*p == '+' || *p == '-')
        *neg = *p++ == '-';
    /* Digits d[0..n) with `ip` of them before the point; value =
     * int(d) * 10^(exp10 - (n - ip)). */
    const char *first_nz = NULL, *last_nz = NULL;
    long long n = 0, ip = 0, last_nz_pos = 0, first_nz_pos = 0;
    int seen_point = 0;
    for (; p < end && (is_digit(*p) || *p == '.'); p++) {
        if (*p == '.') {
            seen_point = 1;
            continue;
        }
        if (*p != '0') {
            if (!first_nz) {
                first_nz = p;
                first_nz_pos = n;
            }
            last_nz = p;
            last_nz_pos = n;
        }
        n++;
        if (!seen_point)
            ip++;
    }
    long long exp10 = 0;
    if (p < end) { /* exponent: scan_number guarantees [eE][+-]?digits */
        p++;
        int eneg = 0;
        if (*p == '+' || *p == '-')
            eneg = *p++ == '-';
        for (; p < end; p++)
            if (exp10 < 1000000)
                exp10 = exp10 * 10 + (*p - '0');
        if (eneg)
            exp10 = -exp10;
    }
    if (!first_nz) {
        *mag = 0;
        *neg = 0;
        return EXACT_OK;
    }
    if (last_nz_pos - first_nz_pos + 1 > 20)
        return EXACT_DIGITS;
    unsigned __int128 d = 0;
    for (const char *q = first_nz; q <= last_nz; q++)
        if (*q != '.')
            d = d * 10 + (unsigned)(*q - '0');
    /* d < 10^20 < 2^67 and mult <= 2^40: the product fits. */
    unsigned __int128 v = d * mult;
    long long e = exp10 + ip - 1 - last_nz_pos;
    if (e < 0) {
        if (e < -33) /* 10^33 > 2^107 > v */
            return EXACT_FRACTION;
        unsigned __int128 p10 = 1;
        for (long long i = 0; i < -e; i++)
            p10 *= 10;
        if (v % p10)
            return EXACT_FRACTION;
        v /= p10;
    } else {
        for (long long i = 0; i < e; i++) {
            if (v > UINT64_MAX / 10)
                return EXACT_TOO_LARGE;
            v *= 10;
        }
    }
    if (v > UINT64_MAX)
        return EXACT_TOO_LARGE;
    *mag = (uint64_t)v;
    return EXACT_OK;
}

int warp_parse_bytes(const char *s, uint64_t *out, const char **why)
{
    parts p;
    if (split_number(s, &p, 1, why) < 0)
        return -1;
    const size_unit *t = size_units;
    while (t->name && !unit_is(p.u, p.un, t->name))
        t++;
    if (!t->name) {
        *why = "unknown unit (use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB)";
        return -1;
    }
    uint64_t mag;
    int neg;
    switch (exact_decimal(p.s, p.end, t->mult, &mag, &neg)) {
    case EXACT_OK:
        break;
    case EXACT_FRACTION:
        *why = "not a whole number of bytes";
        return -1;
    case EXACT_TOO_LARGE:
        *why = "size too large (at most 18446744073709551615 bytes)";
        return -1;
    case EXACT_DIGITS:
        *why = "too many digits (at most 20 significant)";
        return -1;
    }
    if (neg) {
        *why = "negative size";
        return -1;
    }
    *out = mag;
    return 0;
}

int ini_parse_int(const char *s, int64_t *out, const char **why)
{
    parts p;
    if (split_number(s, &p, 0, why) < 0)
        return -1;
    uint64_t mag;
    int neg;
    switch (exact_decimal(p.s, p.end, 1, &mag, &neg)) {
    case EXACT_OK:
        break;
    case EXACT_FRACTION:
        *why = "not a whole number";
        return -1;
    case EXACT_TOO_LARGE:
    case EXACT_DIGITS: /* 21 significant digits are at least 10^20 > 2^63 */
        *why = "out of the 64-bit integer range";
        return -1;
    }
    if (mag > (uint64_t)INT64_MAX + (uint64_t)neg) {
        *why = "out of the 64-bit integer range";
        return -1;
    }
    *out = neg ? -(int64_t)(mag - 1) - 1 : (int64_t)mag;
    return 0;
}

int ini_parse_double(const char *s, double *out, const char **why)
{
    parts p;
    double v;
    if (split_number(s, &p, 0, why) < 0)
        return -1;
    if (span_to_double(p.s, p.end, &v) < 0) {
        *why = "not a number";
        return -1;
    }
    if (!isfinite(v)) {
        *why = "number too large";
        return -1;
    }
    *out = v;
    return 0;
}

char *warp_cfg_fmt_bytes(char *buf, size_t cap, double bytes)
{
    static const char *const names[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    if (!(bytes >= 1024.0)) {
        snprintf(buf, cap, "%.0f B", bytes);
        return buf;
    }
    int u = 0;
    for (bytes /= 1024.0; bytes >= 1024.0 && u < 5; u++)
        bytes /= 1024.0;
    /* 1023.96 KiB would print as "1024.0 KiB": that is 1.0 MiB. */
    if (bytes >= 1023.95 && u < 5)
        bytes /= 1024.0, u++;
    snprintf(buf, cap, "%.1f %s", bytes, names[u]);
    return buf;
}
