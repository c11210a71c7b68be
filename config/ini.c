/* config/ini.c — INI run files: parsing, overrides, typed getters, unused keys.
 * Invariant: every stored value carries its origin ("file:LINE", "--sec.key"),
 * and every user error leaves through ini_vdie() and warp_fatal as ONE
 * "PROGRAM: PLACE: ..." line, exit code 2 (3 when memory runs out); the
 * parser itself returns errors
 * as strings so it can be fuzzed. Called by the driver and by model setup. */
#include "ini_internal.h"
#include "warp_hash.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One key, section or asked-for name. */
typedef struct ini_entry {
    char *sec;
    char *key;   /* "" for a section record */
    char *value; /* NULL for section records and asked-for names */
    char *where; /* origin; NULL for asked-for names */
    int used;
} ini_entry;

/* Entries in insertion order plus an open-addressing index on (sec, key). */
typedef struct ini_table {
    ini_entry *v;
    size_t n, cap;
    size_t *slot; /* entry index + 1; 0 = empty */
    size_t nslot; /* power of two, more than twice n */
} ini_table;

struct warp_ini {
    ini_table vals;        /* keys with a value, in the order first set */
    ini_table asked;       /* keys a getter asked for while they were absent */
    ini_table secs;        /* sections, in the order first seen */
    const char **secnames; /* secs' names, for warp_ini_sections */
    const warp_key_group **decl; /* warp_ini_declare's lists */
    size_t ndecl;
};

/* ---- the one exit ------------------------------------------------------- */

/* Stops with "[PLACE: [sec] key = value: ]MESSAGE" through warp_fatal.
 * Values are shown shortened and with control bytes replaced so the message
 * stays one readable line; the stored value is never shortened. */
static void ini_vdie(int code, const ini_entry *e, const char *fmt, va_list ap)
    __attribute__((noreturn, format(printf, 3, 0)));
static void ini_die(int code, const ini_entry *e, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

static void show(char *buf, size_t cap, const char *s)
{
    size_t n = 0, max = cap - 4;
    for (; *s && n < max; s++)
        buf[n++] = (unsigned char)*s < 0x20 || *s == 0x7f ? '?' : *s;
    if (*s)
        memcpy(buf + n, "...", 3), n += 3;
    buf[n] = '\0';
}

static void ini_vdie(int code, const ini_entry *e, const char *fmt, va_list ap)
{
    /* Whole, however long the path or message (it was cut at 1,023 bytes);
     * warp_fatal never returns, so the text is never freed. */
    char *text = warp_xvformat(fmt, ap);
    if (!e)
        warp_fatal(code, "%s", text);
    char v[84] = "";
    if (e->key[0] && e->value)
        show(v, sizeof v, e->value);
    warp_fatal(code, "%s%s[%s]%s%s%s%s: %s", e->where ? e->where : "", e->where ? ": " : "", e->sec,
               e->key[0] ? " " : "", e->key,
               e->key[0] && e->value ? " = " : e->key[0] ? " (default)" : "",
               e->key[0] && e->value ? v : "", text);
}

static void ini_die(int code, const ini_entry *e, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ini_vdie(code, e, fmt, ap);
}

static char *xstrndup(const char *s, size_t n)
{
    char *d = warp_xrealloc(NULL, n + 1);
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static char *xstrdup(const char *s)
{
    return xstrndup(s, strlen(s));
}

/* A malloc'd printf. */
static char *msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *msg(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = warp_xrealloc(NULL, (size_t)(n < 0 ? 0 : n) + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return s;
}

/* ---- the table ------------------------------------------------------------ */

static size_t hash2(const char *a, const char *b)
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a */
    for (const unsigned char *p = (const unsigned char *)a; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    h = (h ^ 0xff) * 0x100000001b3ull; /* 0xff never occurs in a valid name */
    for (const unsigned char *p = (const unsigned char *)b; *p; p++)
        h = (h ^ *p) * 0x100000001b3ull;
    return (size_t)(h ^ (h >> 29));
}

static ini_entry *table_find(const ini_table *t, const char *sec, const char *key)
{
    if (!t->nslot)
        return NULL;
    size_t m = t->nslot - 1;
    for (size_t i = hash2(sec, key) & m;; i = (i + 1) & m) {
        if (!t->slot[i])
            return NULL;
        ini_entry *e = &t->v[t->slot[i] - 1];
        if (strcmp(e->sec, sec) == 0 && strcmp(e->key, key) == 0)
            return e;
    }
}

static void table_index(ini_table *t, size_t idx)
{
    size_t m = t->nslot - 1, i = hash2(t->v[idx].sec, t->v[idx].key) & m;
    while (t->slot[i])
        i = (i + 1) & m;
    t->slot[i] = idx + 1;
}

/* Appends a new entry (the caller checked it is absent); the pointer is valid
 * until the next add to the same table. */
static ini_entry *table_add(ini_table *t, const char *sec, const char *key, const char *value,
                            const char *where)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->v = warp_xrealloc(t->v, t->cap * sizeof *t->v);
    }
    if (2 * (t->n + 1) > t->nslot) {
        t->nslot = t->nslot ? 2 * t->nslot : 32;
        free(t->slot);
        t->slot = warp_xcalloc(t->nslot, sizeof *t->slot);
        for (size_t i = 0; i < t->n; i++)
            table_index(t, i);
    }
    ini_entry *e = &t->v[t->n];
    e->sec = xstrdup(sec);
    e->key = xstrdup(key);
    e->value = value ? xstrdup(value) : NULL;
    e->where = where ? xstrdup(where) : NULL;
    e->used = 0;
    table_index(t, t->n++);
    return e;
}

static void table_free(ini_table *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i].sec);
        free(t->v[i].key);
        free(t->v[i].value);
        free(t->v[i].where);
    }
    free(t->v);
    free(t->slot);
}

/* ---- building --------------------------------------------------------------- */

warp_ini *warp_ini_new(void)
{
    return warp_xcalloc(1, sizeof(warp_ini));
}

void warp_ini_free(warp_ini *ini)
{
    if (!ini)
        return;
    table_free(&ini->vals);
    table_free(&ini->asked);
    table_free(&ini->secs);
    free(ini->secnames);
    free(ini->decl);
    free(ini);
}

static void add_section(warp_ini *ini, const char *sec, const char *where)
{
    if (table_find(&ini->secs, sec, ""))
        return;
    ini_entry *e = table_add(&ini->secs, sec, "", NULL, where);
    ini->secnames = warp_xrealloc(ini->secnames, ini->secs.n * sizeof *ini->secnames);
    ini->secnames[ini->secs.n - 1] = e->sec;
}

void warp_ini_set(warp_ini *ini, const char *section, const char *key, const char *value,
                  const char *where)
{
    if (!where)
        where = "(set by the program)";
    add_section(ini, section, where);
    ini_entry *e = table_find(&ini->vals, section, key);
    if (!e) {
        table_add(&ini->vals, section, key, value, where);
        return;
    }
    free(e->value);
    free(e->where);
    e->value = xstrdup(value);
    e->where = xstrdup(where);
}

/* ---- names ---------------------------------------------------------------- */

static int name_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

/* NULL if s[0..n) is a valid section name (dotted parts allowed), else why. */
static const char *bad_section(const char *s, size_t n)
{
    if (n == 0)
        return "empty section name";
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.') {
            if (i == 0 || i + 1 == n || s[i + 1] == '.')
                return "empty part in a dotted section name";
        } else if (!name_char(s[i])) {
            return "section names use letters, digits, '_', '-' and '.'";
        }
    }
    return NULL;
}

/* NULL if s[0..n) is a valid key name, else why. */
static const char *bad_key(const char *s, size_t n)
{
    if (n == 0)
        return "missing key name";
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.')
            return "a key name cannot contain '.' (use a [section.sub] header)";
        if (!name_char(s[i]))
            return "key names use letters, digits, '_' and '-'";
    }
    return NULL;
}

/* ---- parsing ---------------------------------------------------------------- */

static int blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/* Trims blanks off [*s, *e). */
static void trim(const char **s, const char **e)
{
    while (*s < *e && blank(**s))
        (*s)++;
    while (*e > *s && blank((*e)[-1]))
        (*e)--;
}

/* Where a trailing comment starts in [s, e): '#' or ';' after a blank. */
static const char *comment_start(const char *s, const char *e)
{
    for (const char *p = s + 1; p < e; p++)
        if ((*p == '#' || *p == ';') && blank(p[-1]))
            return p;
    return e;
}

/* One line [s, e) of file `name`; *sec is the current section (owned by the
 * sections table). Returns NULL or a malloc'd error. */
static char *parse_line(warp_ini *ini, const char *name, long line, const char *s, const char *e,
                        const char **sec)
{
    char shown[84];
    if (memchr(s, '\0', (size_t)(e - s)))
        return msg("%s:%ld: NUL byte in the line; is this a text file?", name, line);
    trim(&s, &e);
    if (s == e || *s == '#' || *s == ';')
        return NULL;
    char *text = xstrndup(s, (size_t)(e - s));
    show(shown, sizeof shown, text);
    free(text);
    char *where = msg("%s:%ld", name, line), *err = NULL;
    if (*s == '[') {
        const char *rb = memchr(s, ']', (size_t)(e - s));
        if (!rb) {
            err = msg("%s: `%s`: missing ']' (write [section])", where, shown);
            goto out;
        }
        const char *after = rb + 1, *ae = e;
        trim(&after, &ae);
        if (after < ae && *after != '#' && *after != ';') {
            err = msg("%s: `%s`: text after the section header (comments start with # or ;)",
                      where, shown);
            goto out;
        }
        const char *ns = s + 1, *ne = rb;
        trim(&ns, &ne);
        const char *why = bad_section(ns, (size_t)(ne - ns));
        if (why) {
            err = msg("%s: `%s`: %s", where, shown, why);
            goto out;
        }
        char *secname = xstrndup(ns, (size_t)(ne - ns));
        add_section(ini, secname, where);
        *sec = table_find(&ini->secs, secname, "")->sec;
        free(secname);
        goto out;
    }
    const char *eq = memchr(s, '=', (size_t)(e - s));
    if (!eq) {
        err = msg("%s: `%s`: expected `key = value`, a [section] header or a # comment", where,
                  shown);
        goto out;
    }
    const char *ks = s, *ke = eq, *vs = eq + 1, *ve = comment_start(eq, e);
    trim(&ks, &ke);
    trim(&vs, &ve);
    const char *why = bad_key(ks, (size_t)(ke - ks));
    if (why) {
        err = msg("%s: `%s`: %s", where, shown, why);
        goto out;
    }
    if (!*sec) {
        err = msg("%s: `%s`: key before any [section] header; add one above it", where, shown);
        goto out;
    }
    char *key = xstrndup(ks, (size_t)(ke - ks)), *value = xstrndup(vs, (size_t)(ve - vs));
    const ini_entry *old = table_find(&ini->vals, *sec, key);
    if (old)
        err = msg("%s: [%s] %s set twice (first at %s); keep one", where, *sec, key, old->where);
    else
        table_add(&ini->vals, *sec, key, value, where);
    free(key);
    free(value);
out:
    free(where);
    return err;
}

char *ini_parse_buffer(warp_ini *ini, const char *name, const char *buf, size_t len)
{
    const char *p = buf, *end = buf + len, *sec = NULL;
    if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) /* UTF-8 byte order mark */
        p += 3;
    for (long line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *le = nl ? nl : end;
        char *err = parse_line(ini, name, line, p, le, &sec);
        if (err)
            return err;
        p = nl ? nl + 1 : end;
    }
    return NULL;
}

warp_ini *warp_ini_load(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        ini_die(WARP_EXIT_USAGE, NULL, "%s: cannot open: %s; check the path", path, strerror(errno));
    size_t n = 0, cap = 4096;
    char *buf = warp_xrealloc(NULL, cap);
    for (;;) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap)
            break;
        cap *= 2;
        buf = warp_xrealloc(buf, cap);
    }
    if (ferror(f))
        ini_die(WARP_EXIT_USAGE, NULL, "%s: cannot read: %s; check the path", path, strerror(errno));
    fclose(f);
    warp_ini *ini = warp_ini_new();
    char *err = ini_parse_buffer(ini, path, buf, n);
    free(buf);
    if (err)
        ini_die(WARP_EXIT_USAGE, NULL, "%s", err);
    return ini;
}

int ini_apply_override(warp_ini *ini, const char *arg, char **err)
{
    *err = NULL;
    if (strncmp(arg, "--", 2) != 0)
        return 0;
    const char *name = arg + 2, *eq = strchr(name, '=');
    const char *ne = eq ? eq : name + strlen(name);
    const char *dot = NULL;
    for (const char *p = name; p < ne; p++)
        if (*p == '.')
            dot = p;
    if (!dot) /* --synch=opt, --stats-json=out.json: an option, not an override */
        return 0;
    char *where = xstrndup(arg, (size_t)(ne - arg)), shown[84];
    show(shown, sizeof shown, where);
    const char *why = bad_section(name, (size_t)(dot - name));
    if (!why)
        why = bad_key(dot + 1, (size_t)(ne - dot - 1));
    if (why) {
        *err = msg("%s: %s (write --section.key=value)", shown, why);
    } else if (!eq) {
        *err = msg("%s: missing value (write %s=VALUE)", shown, shown);
    } else {
        const char *vs = eq + 1, *ve = vs + strlen(vs);
        trim(&vs, &ve);
        char *sec = xstrndup(name, (size_t)(dot - name)), *value = xstrndup(vs, (size_t)(ve - vs));
        char *key = xstrndup(dot + 1, (size_t)(ne - dot - 1));
        warp_ini_set(ini, sec, key, value, where);
        free(sec);
        free(key);
        free(value);
    }
    free(where);
    return *err ? -1 : 1;
}

int warp_ini_override(warp_ini *ini, const char *arg)
{
    char *err;
    int r = ini_apply_override(ini, arg, &err);
    if (r < 0)
        ini_die(WARP_EXIT_USAGE, NULL, "%s", err);
    return r;
}

/* ---- reading ---------------------------------------------------------------- */

void warp_ini_declare(warp_ini *ini, const warp_key_group *groups)
{
    for (size_t i = 0; i < ini->ndecl; i++)
        if (ini->decl[i] == groups)
            return;
    ini->decl = warp_xrealloc(ini->decl, (ini->ndecl + 1) * sizeof *ini->decl);
    ini->decl[ini->ndecl++] = groups;
}

const warp_key_group *const *ini_declarations(const warp_ini *ini, size_t *n)
{
    *n = ini->ndecl;
    return ini->decl;
}

const warp_key *warp_ini_declared(const warp_ini *ini, const char *sec, const char *key)
{
    int declared;
    return keys_find(ini->decl, ini->ndecl, sec, key, &declared);
}

const char *ini_key_default(const warp_ini *ini, const char *sec, const char *key)
{
    const warp_key *k = warp_ini_declared(ini, sec, key);
    return k && k->dflt && k->dflt[0] != '(' ? k->dflt : NULL;
}

/* The entry of a present key (marked used), or NULL after noting the ask.
 * The key must be declared when its section is (keys.c). */
static ini_entry *lookup(warp_ini *ini, const char *sec, const char *key)
{
    int declared;
    if (!keys_find(ini->decl, ini->ndecl, sec, key, &declared) && declared)
        ini_key_undeclared(sec, key);
    ini_entry *e = table_find(&ini->vals, sec, key);
    if (e) {
        e->used = 1;
        return e;
    }
    if (!table_find(&ini->asked, sec, key))
        table_add(&ini->asked, sec, key, NULL, NULL)->used = 1;
    return NULL;
}

const char *warp_ini_get(warp_ini *ini, const char *section, const char *key)
{
    ini_entry *e = lookup(ini, section, key);
    return e ? e->value : NULL;
}

const char *warp_ini_where(const warp_ini *ini, const char *section, const char *key)
{
    const ini_entry *e = table_find(&ini->vals, section, key);
    return e ? e->where : NULL;
}

int warp_ini_has_section(const warp_ini *ini, const char *section)
{
    return table_find(&ini->secs, section, "") != NULL;
}

void warp_ini_each(warp_ini *ini, const char *section,
                   void (*fn)(const char *key, const char *value, const char *where, void *arg),
                   void *arg)
{
    /* By index: fn may add keys, which can move the entries. */
    for (size_t i = 0; i < ini->vals.n; i++) {
        ini_entry *e = &ini->vals.v[i];
        if (strcmp(e->sec, section) != 0)
            continue;
        e->used = 1;
        fn(e->key, e->value, e->where, arg);
    }
}

void warp_ini_visit(const warp_ini *ini,
                    void (*fn)(const char *sec, const char *key, const char *value, void *arg),
                    void *arg)
{
    for (size_t i = 0; i < ini->vals.n; i++)
        fn(ini->vals.v[i].sec, ini->vals.v[i].key, ini->vals.v[i].value, arg);
}

const char *const *warp_ini_sections(const warp_ini *ini, int *n)
{
    *n = (int)ini->secs.n;
    return ini->secnames;
}

static void unknown_section(const warp_ini *ini, const ini_entry *e, const char *const *known)
    __attribute__((noreturn));
static int section_read(const warp_ini *ini, const char *sec);

/* A key of sec is missing while the file holds a section no getter read
 * whose name is close to sec (`[Dragonfly]`): that misspelt section is the
 * mistake to report, not the missing key it hid. */
static void misspelt_section(const warp_ini *ini, const char *sec)
{
    for (size_t i = 0; i < ini->secs.n; i++) {
        const ini_entry *s = &ini->secs.v[i];
        if (!strcmp(s->sec, sec) || section_read(ini, s->sec))
            continue;
        warp_suggest sg;
        warp_suggest_init(&sg, s->sec);
        warp_suggest_add(&sg, sec);
        int close = sg.best != NULL;
        warp_suggest_free(&sg);
        if (close)
            unknown_section(ini, s, NULL);
    }
}

void warp_ini_fail(const warp_ini *ini, const char *sec, const char *key, const char *fmt, ...)
{
    const ini_entry *e = key ? table_find(&ini->vals, sec, key) : table_find(&ini->secs, sec, "");
    if (key && !e)
        misspelt_section(ini, sec);
    ini_entry absent = {.sec = (char *)sec, .key = (char *)(key ? key : ""), .value = NULL,
                        .where = NULL, .used = 0};
    va_list ap;
    va_start(ap, fmt);
    ini_vdie(WARP_EXIT_USAGE, e ? e : &absent, fmt, ap);
}

/* ---- typed getters ------------------------------------------------------------ */

/* The getters' defaults must be the declared ones (warp_keys.h): each
 * check stops when the declared default of [sec] key is a value that
 * reads as something else than the getter's. */
static int same_double(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)); }

static void check_default_double(const warp_ini *ini, const char *sec, const char *key, double dflt,
                                 int (*parse)(const char *, double *, const char **))
{
    const char *d = ini_key_default(ini, sec, key), *why;
    double v;
    char used[64];
    if (d && (parse(d, &v, &why) < 0 || !same_double(v, dflt))) {
        snprintf(used, sizeof used, "%g", dflt);
        ini_key_default_differs(sec, key, d, used);
    }
}

static void check_default_int(const warp_ini *ini, const char *sec, const char *key, int64_t dflt)
{
    const char *d = ini_key_default(ini, sec, key), *why;
    int64_t v;
    char used[32];
    if (d && (ini_parse_int(d, &v, &why) < 0 || v != dflt)) {
        snprintf(used, sizeof used, "%" PRId64, dflt);
        ini_key_default_differs(sec, key, d, used);
    }
}

static void check_default_string(const warp_ini *ini, const char *sec, const char *key, const char *dflt)
{
    const char *d = ini_key_default(ini, sec, key);
    if (d && dflt && strcmp(d, dflt) != 0)
        ini_key_default_differs(sec, key, d, dflt);
}

const char *warp_ini_string(warp_ini *ini, const char *sec, const char *key, const char *dflt)
{
    ini_entry *e = lookup(ini, sec, key);
    check_default_string(ini, sec, key, dflt);
    return e ? e->value : dflt;
}

int64_t warp_ini_int(warp_ini *ini, const char *sec, const char *key, int64_t dflt, int64_t min,
                     int64_t max)
{
    ini_entry *e = lookup(ini, sec, key);
    check_default_int(ini, sec, key, dflt);
    if (!e)
        return dflt;
    int64_t v;
    const char *why;
    if (ini_parse_int(e->value, &v, &why) < 0)
        ini_die(WARP_EXIT_USAGE, e, "%s (write a whole number such as 8 or 1e6)", why);
    if (v < min || v > max)
        ini_die(WARP_EXIT_USAGE, e, "out of range [%" PRId64 ", %" PRId64 "]", min, max);
    return v;
}

double warp_ini_double(warp_ini *ini, const char *sec, const char *key, double dflt, double min,
                       double max)
{
    ini_entry *e = lookup(ini, sec, key);
    check_default_double(ini, sec, key, dflt, ini_parse_double);
    if (!e)
        return dflt;
    double v;
    const char *why;
    if (ini_parse_double(e->value, &v, &why) < 0)
        ini_die(WARP_EXIT_USAGE, e, "%s (write a number such as 0.5 or 1e-3)", why);
    if (v < min || v > max)
        ini_die(WARP_EXIT_USAGE, e, "out of range [%g, %g]", min, max);
    return v;
}

static int lower_eq(const char *s, const char *lower)
{
    for (; *s && *lower; s++, lower++)
        if ((*s >= 'A' && *s <= 'Z' ? *s - 'A' + 'a' : *s) != *lower)
            return 0;
    return *s == *lower;
}

int warp_ini_bool(warp_ini *ini, const char *sec, const char *key, int dflt)
{
    static const char *const yes[] = {"true", "yes", "on", "1"}, *const no[] = {"false", "no",
                                                                             "off", "0"};
    ini_entry *e = lookup(ini, sec, key);
    check_default_string(ini, sec, key, dflt ? "yes" : "no");
    if (!e)
        return dflt;
    for (int i = 0; i < 4; i++) {
        if (lower_eq(e->value, yes[i]))
            return 1;
        if (lower_eq(e->value, no[i]))
            return 0;
    }
    ini_die(WARP_EXIT_USAGE, e, "not a boolean (write true or false)");
}

int warp_ini_choice(warp_ini *ini, const char *sec, const char *key, const char *const *choices,
                    int dflt)
{
    ini_entry *e = lookup(ini, sec, key);
    if (dflt >= 0)
        check_default_string(ini, sec, key, choices[dflt]);
    if (!e)
        return dflt;
    size_t len = 1;
    for (int i = 0; choices[i]; i++) {
        if (strcmp(e->value, choices[i]) == 0)
            return i;
        len += strlen(choices[i]) + 2;
    }
    char *list = warp_xrealloc(NULL, len);
    list[0] = '\0';
    for (int i = 0; choices[i]; i++) {
        if (i)
            strcat(list, ", ");
        strcat(list, choices[i]);
    }
    ini_die(WARP_EXIT_USAGE, e, "not one of: %s", list);
}

enum unit_kind { UNIT_TIME, UNIT_BYTES, UNIT_BANDWIDTH, UNIT_LENGTH };

/* The message for a failed unit parse, with the user's own number in the
 * hint when only the unit is missing. */
static void unit_fail(const ini_entry *e, const char *why, enum unit_kind kind)
    __attribute__((noreturn));
static void unit_fail(const ini_entry *e, const char *why, enum unit_kind kind)
{
    if (why != ini_why_missing_unit)
        ini_die(WARP_EXIT_USAGE, e, "%s", why);
    char num[84];
    const char *s = e->value;
    while (*s == ' ' || *s == '\t')
        s++;
    show(num, sizeof num, s);
    if (kind == UNIT_TIME)
        ini_die(WARP_EXIT_USAGE, e, "missing unit (write %sns or %sus)", num, num);
    if (kind == UNIT_BYTES)
        ini_die(WARP_EXIT_USAGE, e, "missing unit (write %sB or %sKiB)", num, num);
    if (kind == UNIT_LENGTH)
        ini_die(WARP_EXIT_USAGE, e, "missing unit (write %sm or %skm)", num, num);
    ini_die(WARP_EXIT_USAGE, e, "missing unit (write %sGB/s or 100Gbps)", num);
}

/* A time or bandwidth: `parse` is its unit parser. */
/* Values outside physical sense (a bandwidth of 1e30 GB/s puts packets
 * below the resolution of simulated time, so the run never ends) are
 * refused with the range accepted. Zero passes: each model says whether a
 * zero means anything for its key. */
static void check_sense(const ini_entry *e, double v, enum unit_kind kind)
{
    static const struct {
        double lo, hi;
        const char *range;
    } sense[] = {
        [UNIT_TIME] = {0, 1e15, "from 0 to 1e15ns (11.6 days)"},
        [UNIT_BYTES] = {0, 0x1p50, "from 1B to 1PiB"},
        [UNIT_BANDWIDTH] = {1e-9, 1e12, "from 1B/s to 1e9TB/s"},
        [UNIT_LENGTH] = {0, 4e7, "from 0 to 40000km"},
    };
    if (v != 0 && !(v >= sense[kind].lo && v <= sense[kind].hi))
        ini_die(WARP_EXIT_USAGE, e, "outside physical sense; give a value %s", sense[kind].range);
}

static double unit_double(warp_ini *ini, const char *sec, const char *key, double dflt,
                          int (*parse)(const char *, double *, const char **), enum unit_kind kind)
{
    ini_entry *e = lookup(ini, sec, key);
    check_default_double(ini, sec, key, dflt, parse);
    double v;
    const char *why;
    if (e && parse(e->value, &v, &why) < 0)
        unit_fail(e, why, kind);
    if (e)
        check_sense(e, v, kind);
    return e ? v : dflt;
}

double warp_ini_time_ns(warp_ini *ini, const char *sec, const char *key, double dflt)
{
    return unit_double(ini, sec, key, dflt, warp_parse_time_ns, UNIT_TIME);
}

uint64_t warp_ini_bytes(warp_ini *ini, const char *sec, const char *key, uint64_t dflt)
{
    ini_entry *e = lookup(ini, sec, key);
    const char *d = ini_key_default(ini, sec, key), *dwhy;
    uint64_t dv;
    if (d && (warp_parse_bytes(d, &dv, &dwhy) < 0 || dv != dflt)) {
        char used[32];
        snprintf(used, sizeof used, "%" PRIu64 "B", dflt);
        ini_key_default_differs(sec, key, d, used);
    }
    uint64_t v;
    const char *why;
    if (e && warp_parse_bytes(e->value, &v, &why) < 0)
        unit_fail(e, why, UNIT_BYTES);
    if (e)
        check_sense(e, (double)v, UNIT_BYTES);
    return e ? v : dflt;
}

double warp_ini_bandwidth(warp_ini *ini, const char *sec, const char *key, double dflt)
{
    return unit_double(ini, sec, key, dflt, warp_parse_bandwidth, UNIT_BANDWIDTH);
}

double warp_ini_length_m(warp_ini *ini, const char *sec, const char *key, double dflt)
{
    return unit_double(ini, sec, key, dflt, warp_parse_length_m, UNIT_LENGTH);
}

int warp_ini_int_list(warp_ini *ini, const char *sec, const char *key, int64_t *out, int max)
{
    ini_entry *e = lookup(ini, sec, key);
    if (!e)
        return 0;
    int n = 0;
    for (const char *p = e->value;; n++) {
        const char *comma = strchr(p, ',');
        const char *end = comma ? comma : p + strlen(p);
        if (n == max)
            ini_die(WARP_EXIT_USAGE, e, "more than %d values", max);
        char *item = xstrndup(p, (size_t)(end - p));
        const char *why;
        int bad = ini_parse_int(item, &out[n], &why);
        free(item);
        if (bad < 0)
            ini_die(WARP_EXIT_USAGE, e, "value %d: %s (write positive whole numbers such as 8,8,8)", n + 1, why);
        if (out[n] < 1)
            ini_die(WARP_EXIT_USAGE, e, "value %d is not positive (write numbers such as 8,8,8)", n + 1);
        if (!comma)
            return n + 1;
        p = comma + 1;
    }
}

/* ---- unused keys ---------------------------------------------------------- */

static int section_known(const char *sec, const char *const *known)
{
    for (; *known; known++) {
        size_t n = strlen(*known);
        /* "job.*" stands for job.0, job.1, ... */
        if (n >= 2 && strcmp(*known + n - 2, ".*") == 0) {
            if (strncmp(sec, *known, n - 1) == 0 && sec[n - 1] != '\0')
                return 1;
        } else if (strcmp(sec, *known) == 0) {
            return 1;
        }
    }
    return 0;
}

/* Candidates for an unknown key of sec: the keys of sec a getter asked for.
 * For an unknown section (sec NULL): the known sections when given, else the
 * sections a getter asked any key of. */
static warp_suggest suggest_names(const warp_ini *ini, const char *target, const char *sec,
                                  const char *const *known)
{
    warp_suggest sg;
    warp_suggest_init(&sg, target);
    for (; !sec && known && *known; known++)
        warp_suggest_add(&sg, *known);
    if (!sec && known)
        return sg;
    ini_table seen = {0};
    const ini_table *tabs[2] = {&ini->vals, &ini->asked};
    for (int t = 0; t < 2; t++) {
        for (size_t i = 0; i < tabs[t]->n; i++) {
            const ini_entry *e = &tabs[t]->v[i];
            const char *name = sec ? e->key : e->sec;
            if (!e->used || (sec && strcmp(e->sec, sec) != 0) || table_find(&seen, name, ""))
                continue;
            table_add(&seen, name, "", NULL, NULL);
            warp_suggest_add(&sg, name);
        }
    }
    table_free(&seen);
    return sg;
}

/* Whether a getter asked for any key of sec. */
static int section_read(const warp_ini *ini, const char *sec)
{
    const ini_table *tabs[2] = {&ini->vals, &ini->asked};
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < tabs[t]->n; i++)
            if (tabs[t]->v[i].used && strcmp(tabs[t]->v[i].sec, sec) == 0)
                return 1;
    return 0;
}

/* Stops on section record e, unknown: not in `known` (when given) or not
 * read at all. */
static void unknown_section(const warp_ini *ini, const ini_entry *e, const char *const *known)
{
    const char *what = known ? "known sections" : "sections read by this run";
    warp_suggest sg = suggest_names(ini, e->sec, NULL, known);
    if (sg.best)
        ini_die(WARP_EXIT_USAGE, e, "unknown section; did you mean [%s]? (%s: %s)", sg.best, what, sg.list);
    if (sg.list[0])
        ini_die(WARP_EXIT_USAGE, e, "unknown section (%s: %s)", what, sg.list);
    free(sg.list);
    ini_die(WARP_EXIT_USAGE, e, "unknown section (this run reads no section)");
}

void warp_ini_reject_unused(const warp_ini *ini, const char *const *known_sections)
{
    for (size_t i = 0; known_sections && i < ini->secs.n; i++)
        if (!section_known(ini->secs.v[i].sec, known_sections))
            unknown_section(ini, &ini->secs.v[i], known_sections);
    for (size_t i = 0; i < ini->vals.n; i++) {
        const ini_entry *e = &ini->vals.v[i];
        if (e->used)
            continue;
        if (!known_sections && !section_read(ini, e->sec))
            unknown_section(ini, table_find(&ini->secs, e->sec, ""), NULL);
        warp_suggest sg = suggest_names(ini, e->key, e->sec, NULL);
        if (sg.best)
            ini_die(WARP_EXIT_USAGE, e, "unknown key; did you mean %s? (keys of [%s] read by this run: %s)",
                    sg.best, e->sec, sg.list);
        if (sg.list[0])
            ini_die(WARP_EXIT_USAGE, e, "unknown key (keys of [%s] read by this run: %s)", e->sec, sg.list);
        free(sg.list);
        ini_die(WARP_EXIT_USAGE, e, "unknown key (this run reads no key of [%s])", e->sec);
    }
}

/* A string with its terminator: "ab","c" differs from "a","bc". */
static uint64_t fnv1a(uint64_t h, const char *s) { return warp_fnv1a(h, s, strlen(s) + 1); }

uint64_t warp_ini_hash(const warp_ini *ini, const char *skip_section)
{
    uint64_t sum = 0;
    for (size_t i = 0; i < ini->vals.n; i++) {
        const ini_entry *e = &ini->vals.v[i];
        if (!e->value || (skip_section && !strcmp(e->sec, skip_section)))
            continue;
        uint64_t h = fnv1a(fnv1a(fnv1a(WARP_FNV1A_INIT, e->sec), e->key), e->value);
        h ^= h >> 31;
        h *= 0x7FB5D329728EA185ull;
        sum += h ^ (h >> 27);
    }
    return sum;
}
