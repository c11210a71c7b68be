/* warpnet/keys.c — `warpnet keys [SECTION] [--json|--markdown|--man]` and
 * `warpnet --help=SECTION`: every run-file key, printed from the
 * declarations (the engine's option table for [engine], the catalogue's
 * warp_key tables for the rest). Invariant: nothing here names a key; a key
 * appears because a model declared it. docs/keys.md and the man page's
 * key section are this output (tests/docs/test_keys_reference.sh). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "catalog/catalog.h"
#include "keys.h"
#include "summary.h"
#include "net/model.h"
#include "warp.h"
#include "warp_keys.h"

enum keys_format { FMT_TEXT, FMT_JSON, FMT_MARKDOWN, FMT_MAN };

#define MAX_LISTS 64
#define MAX_SECTIONS 64

/* Every list of groups and every section name, in catalogue order. */
typedef struct keys_index {
    const warp_key_group *lists[MAX_LISTS];
    int nlists;
    const char *sections[MAX_SECTIONS];
    int nsections;
} keys_index;

static void add_list(const warp_key_group *groups, void *arg)
{
    keys_index *ix = arg;
    if (ix->nlists < MAX_LISTS)
        ix->lists[ix->nlists++] = groups;
    for (const warp_key_group *g = groups; g->section; g++) {
        int seen = 0;
        for (int i = 0; i < ix->nsections && !seen; i++)
            seen = !strcmp(ix->sections[i], g->section);
        if (!seen && ix->nsections < MAX_SECTIONS)
            ix->sections[ix->nsections++] = g->section;
    }
}

/* roff text: backslashes and hyphens escaped, no line starting with a dot. */
static void man_text(FILE *f, const char *s)
{
    if (s && (*s == '.' || *s == '\''))
        fputs("\\&", f);
    for (; s && *s; s++) {
        if (*s == '\\')
            fputs("\\e", f);
        else if (*s == '-')
            fputs("\\-", f);
        else
            fputc(*s, f);
    }
}

/* Markdown table cell: pipes escaped. */
static void md_cell(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        if (*s == '|')
            fputs("\\|", f);
        else
            fputc(*s, f);
    }
}

static const char *or_empty(const char *s) { return s ? s : ""; }

static void print_key(FILE *f, enum keys_format fmt, const char *name, const char *kind, const char *dflt,
                      const char *range, const char *help, int first)
{
    switch (fmt) {
    case FMT_TEXT:
        fprintf(f, "  %-20s %-7s %s%s%s%s\n", name, kind, dflt ? "default " : "", or_empty(dflt),
                range && dflt ? "; " : "", or_empty(range));
        fprintf(f, "  %-20s %-7s %s\n", "", "", or_empty(help));
        break;
    case FMT_JSON:
        fprintf(f, "%s\n        {\"name\": ", first ? "" : ",");
        wn_json_string(f, name);
        fprintf(f, ", \"kind\": ");
        wn_json_string(f, kind);
        fprintf(f, ", \"default\": ");
        wn_json_string(f, or_empty(dflt));
        fprintf(f, ", \"range\": ");
        wn_json_string(f, or_empty(range));
        fprintf(f, ", \"help\": ");
        wn_json_string(f, or_empty(help));
        fputc('}', f);
        break;
    case FMT_MARKDOWN:
        fprintf(f, "| `%s` | ", name);
        md_cell(f, kind);
        fputs(" | ", f);
        if (dflt && dflt[0] != '(')
            fputc('`', f);
        md_cell(f, dflt);
        if (dflt && dflt[0] != '(')
            fputc('`', f);
        fputs(" | ", f);
        md_cell(f, range);
        fputs(" | ", f);
        md_cell(f, help);
        fputs(" |\n", f);
        break;
    case FMT_MAN:
        /* The tag holds the key alone (tests/net/test_man.sh). */
        fputs(".TP\n\\fB", f);
        man_text(f, name);
        fputs("\\fR\n(", f);
        man_text(f, kind);
        if (dflt) {
            fputs(", default ", f);
            man_text(f, dflt);
        }
        if (range) {
            fputs("; ", f);
            man_text(f, range);
        }
        fputs(") ", f);
        man_text(f, help);
        fputc('\n', f);
        break;
    }
}

/* A group's heading: its help, and its condition when it has one. */
static void print_group_head(FILE *f, enum keys_format fmt, const char *section, const warp_key_group *g,
                             int first)
{
    char cond[256] = "";
    if (g->if_key)
        snprintf(cond, sizeof cond, "applies only with [%s] %s = %s", g->if_section ? g->if_section : section,
                 g->if_key, g->if_value);
    switch (fmt) {
    case FMT_TEXT:
        fprintf(f, "[%s] %s%s%s%s\n", section, or_empty(g->help), cond[0] ? " (" : "", cond, cond[0] ? ")" : "");
        break;
    case FMT_JSON:
        fprintf(f, "%s\n    {\"section\": ", first ? "" : ",");
        wn_json_string(f, section);
        fprintf(f, ", \"help\": ");
        wn_json_string(f, or_empty(g->help));
        fprintf(f, ", \"applies_if\": ");
        if (g->if_key) {
            fprintf(f, "{\"section\": ");
            wn_json_string(f, g->if_section ? g->if_section : section);
            fprintf(f, ", \"key\": ");
            wn_json_string(f, g->if_key);
            fprintf(f, ", \"value\": ");
            wn_json_string(f, g->if_value);
            fputc('}', f);
        } else {
            fputs("null", f);
        }
        fprintf(f, ", \"keys\": [");
        break;
    case FMT_MARKDOWN:
        fprintf(f, "%s%s%s%s\n\n| key | kind | default | range | what |\n|---|---|---|---|---|\n",
                or_empty(g->help), cond[0] ? " (" : "", cond, cond[0] ? ")" : "");
        break;
    case FMT_MAN:
        fputs(".PP\n", f);
        man_text(f, g->help);
        if (cond[0]) {
            fputs(" (", f);
            man_text(f, cond);
            fputc(')', f);
        }
        fputc('\n', f);
        break;
    }
}

static void print_group_tail(FILE *f, enum keys_format fmt)
{
    if (fmt == FMT_JSON)
        fputs("\n    ]}", f);
    else if (fmt == FMT_TEXT || fmt == FMT_MARKDOWN)
        fputc('\n', f);
}

static void print_section_head(FILE *f, enum keys_format fmt, const char *section)
{
    if (fmt == FMT_MARKDOWN)
        fprintf(f, "## [%s]\n\n", section);
    else if (fmt == FMT_MAN) {
        fputs(".SS [", f);
        man_text(f, section);
        fputs("]\n", f);
    }
}

/* [engine]: the engine's option table, as a group of its own. */
static int print_engine(FILE *f, enum keys_format fmt, int first)
{
    static const warp_key_group engine_group = {"engine", "the engine (each also --NAME=VALUE on the command line, "
                                                "which wins)", NULL, NULL, NULL, NULL};
    print_section_head(f, fmt, "engine");
    print_group_head(f, fmt, "engine", &engine_group, first);
    int k = 1;
    for (const warp_cfg_opt *o = warp_engine_options(); o->name; o++, k = 0)
        print_key(f, fmt, o->name, o->arg ? o->arg : "flag", o->dflt, NULL, o->help, k);
    print_group_tail(f, fmt);
    return 0;
}

static void print_section(FILE *f, enum keys_format fmt, const keys_index *ix, const char *section, int *first)
{
    print_section_head(f, fmt, section);
    for (int l = 0; l < ix->nlists; l++)
        for (const warp_key_group *g = ix->lists[l]; g->section; g++) {
            if (strcmp(g->section, section) != 0)
                continue;
            print_group_head(f, fmt, section, g, *first);
            *first = 0;
            int k = 1;
            for (const warp_key *key = g->keys; key->name; key++, k = 0)
                print_key(f, fmt, key->name, warp_key_kind_name(key->kind), key->dflt, key->range, key->help, k);
            print_group_tail(f, fmt);
        }
}

/* ---- presets ---------------------------------------------------------------- */

#define MAX_PRESET_LISTS 64

typedef struct preset_index {
    const warp_preset *lists[MAX_PRESET_LISTS];
    char owners[MAX_PRESET_LISTS][96]; /* the callback's owner lives only during the call */
    int n;
} preset_index;

static void add_presets(const warp_preset *list, const char *owner, void *arg)
{
    preset_index *ix = arg;
    if (ix->n < MAX_PRESET_LISTS) {
        ix->lists[ix->n] = list;
        snprintf(ix->owners[ix->n++], sizeof ix->owners[0], "%s", owner ? owner : "");
    }
}

/* One entry's keys: "[section] k = v, k = v" (text and markdown) or a JSON
 * object, and when it has an owner, the setting it comes with. */
static void print_entry(FILE *f, enum keys_format fmt, const warp_preset *p, const char *owner, int first)
{
    if (fmt == FMT_JSON) {
        fprintf(f, "%s{\"section\": ", first ? "" : ", ");
        wn_json_string(f, p->section);
        fputs(", \"with\": ", f);
        if (owner)
            wn_json_string(f, owner);
        else
            fputs("null", f);
        fputs(", \"keys\": {", f);
        for (const char *const *kv = p->keys; kv[0]; kv += 2) {
            fputs(kv == p->keys ? "" : ", ", f);
            wn_json_string(f, kv[0]);
            fputs(": ", f);
            wn_json_string(f, kv[1]);
        }
        fputs("}}", f);
        return;
    }
    const char *code = fmt == FMT_MARKDOWN ? "`" : "";
    if (fmt == FMT_TEXT)
        fputs("      ", f);
    else if (fmt == FMT_MAN)
        fputs(".br\n", f);
    else if (!first)
        fputs("; ", f);
    fprintf(f, "%s[%s]", code, p->section);
    for (const char *const *kv = p->keys; kv[0]; kv += 2)
        fprintf(f, "%s %s = %s", kv == p->keys ? "" : ",", kv[0], kv[1]);
    fprintf(f, "%s%s%s%s", code, owner ? " (with " : "", owner ? owner : "", owner ? ")" : "");
    if (fmt != FMT_MARKDOWN)
        fputc('\n', f);
}

static void print_presets(FILE *f, enum keys_format fmt, int first_group)
{
    preset_index ix = {.n = 0};
    net_catalog_each_presets(&catalog_builtin, add_presets, &ix);
    static const char *const head = "Presets: [network] preset = NAME sets these keys; a key the run file sets wins";
    if (fmt == FMT_TEXT)
        fprintf(f, "%s\n", head);
    else if (fmt == FMT_MARKDOWN)
        fprintf(f, "## Presets\n\n`[network] preset = NAME` sets these keys; a key the run file sets wins "
                   "(entries with a setting apply only with it).\n\n| preset | what | keys |\n|---|---|---|\n");
    else if (fmt == FMT_MAN)
        fputs(".SS Presets\n[network] preset = NAME sets these keys; a key the run file sets wins.\n", f);
    else
        fprintf(f, "%s\n  \"presets\": [", first_group ? "" : "");
    /* Each name once, in first-seen order, with every entry of that name. */
    int nth = 0;
    for (int l = 0; l < ix.n; l++)
        for (const warp_preset *p = ix.lists[l]; p->name; p++) {
            int seen = 0;
            for (int m = 0; m <= l && !seen; m++)
                for (const warp_preset *q = ix.lists[m]; q->name && q != p && !seen; q++)
                    seen = !strcmp(q->name, p->name);
            if (seen)
                continue;
            const char *help = NULL;
            for (int m = 0; m < ix.n && !help; m++)
                for (const warp_preset *q = ix.lists[m]; q->name && !help; q++)
                    if (!strcmp(q->name, p->name))
                        help = q->help;
            if (fmt == FMT_TEXT)
                fprintf(f, "  %-20s %s\n", p->name, or_empty(help));
            else if (fmt == FMT_MARKDOWN)
                fprintf(f, "| `%s` | %s | ", p->name, or_empty(help));
            else if (fmt == FMT_MAN) {
                fputs(".TP\n\\fB", f);
                man_text(f, p->name);
                fputs("\\fR\n", f);
                man_text(f, help);
                fputc('\n', f);
            } else {
                fprintf(f, "%s\n    {\"name\": ", nth ? "," : "");
                wn_json_string(f, p->name);
                fputs(", \"help\": ", f);
                wn_json_string(f, or_empty(help));
                fputs(", \"entries\": [", f);
            }
            int e = 0;
            for (int m = 0; m < ix.n; m++)
                for (const warp_preset *q = ix.lists[m]; q->name; q++)
                    if (!strcmp(q->name, p->name))
                        print_entry(f, fmt, q, ix.owners[m][0] ? ix.owners[m] : NULL, !e++);
            if (fmt == FMT_MARKDOWN)
                fputs(" |\n", f);
            else if (fmt == FMT_JSON)
                fputs("]}", f);
            nth++;
        }
    if (fmt == FMT_JSON)
        fputs("\n  ]", f);
    else if (fmt != FMT_MAN)
        fputc('\n', f);
}

static const char markdown_head[] =
    "# Run-file keys\n\n"
    "Generated by `warpnet keys --markdown` from the keys each model declares (do not edit: "
    "`make -C _build check TESTS=tests/docs/test_keys_reference.sh` fails when this page is stale, and "
    "says how to regenerate it). `warpnet keys SECTION` and `warpnet --help=SECTION` print the same "
    "for one section, `warpnet keys --json` as JSON.\n\n"
    "Times, sizes, rates and lengths need a unit (`50ns`, `4KiB`, `12.5GB/s`, `10m`). "
    "A default in parentheses is derived, or says the key is required. "
    "A key of a part that does not apply to the run (its condition) is ignored with one warning.\n\n";

int wn_keys_print(FILE *f, const char *only, const char *format)
{
    enum keys_format fmt = FMT_TEXT;
    if (format && !strcmp(format, "json"))
        fmt = FMT_JSON;
    else if (format && !strcmp(format, "markdown"))
        fmt = FMT_MARKDOWN;
    else if (format && !strcmp(format, "man"))
        fmt = FMT_MAN;
    keys_index ix = {.nlists = 0};
    net_catalog_each_keys(&catalog_builtin, add_list, &ix);
    if (only && strcmp(only, "engine") != 0 && strcmp(only, "presets") != 0) {
        int found = 0;
        for (int i = 0; i < ix.nsections && !found; i++)
            found = warp_key_section_matches(ix.sections[i], only) || !strcmp(ix.sections[i], only);
        if (!found) {
            char list[2048] = "engine";
            for (int i = 0; i < ix.nsections; i++)
                snprintf(list + strlen(list), sizeof list - strlen(list), ", %s", ix.sections[i]);
            warp_fatal(WARP_EXIT_USAGE, "keys: no section [%s]; sections: %s", only, list);
        }
    }
    if (fmt == FMT_JSON)
        fputs("{\"groups\": [", f);
    if (fmt == FMT_MARKDOWN && !only)
        fputs(markdown_head, f);
    int first = 1;
    if (!only || !strcmp(only, "engine"))
        first = print_engine(f, fmt, first);
    for (int i = 0; i < ix.nsections && !(only && !strcmp(only, "presets")); i++)
        if (!only || warp_key_section_matches(ix.sections[i], only) || !strcmp(ix.sections[i], only))
            print_section(f, fmt, &ix, ix.sections[i], &first);
    if (fmt == FMT_JSON)
        fputs("\n],", f);
    if (!only || !strcmp(only, "network") || !strcmp(only, "presets"))
        print_presets(f, fmt, first);
    else if (fmt == FMT_JSON)
        fputs("\n  \"presets\": []", f);
    if (fmt == FMT_JSON)
        fputs("\n}\n", f);
    return 0;
}

int wn_keys_main(int argc, char **argv)
{
    static const char usage[] =
        "usage: warpnet keys [SECTION] [--json | --markdown | --man]\n"
        "       warpnet --help=SECTION\n"
        "Prints every run-file key (or those of SECTION, e.g. network, dragonfly, workload, replay) with its\n"
        "kind, default, range and what it does, from the models' declarations.\n";
    const char *only = NULL, *format = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            fputs(usage, stdout);
            return 0;
        }
        if (!strcmp(argv[i], "--json") || !strcmp(argv[i], "--markdown") || !strcmp(argv[i], "--man"))
            format = argv[i] + 2;
        else if (argv[i][0] != '-' && !only)
            only = argv[i];
        else
            warp_fatal(WARP_EXIT_USAGE, "keys: %s: unexpected argument; usage: warpnet keys [SECTION] "
                       "[--json | --markdown | --man]", argv[i]);
    }
    return wn_keys_print(stdout, only, format);
}
