/* config/suggest.c — "did you mean": the closest known name to a misspelt
 * one, by edit distance, and the list of all known names for the message.
 * Called by the INI reader (unknown keys and sections) and by option tables
 * (unknown options). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "warp_cfg.h"
#include "warp_error.h"

/* Edit distance (insertions, deletions, substitutions) between a and b. */
static size_t edit_distance(const char *a, const char *b)
{
    size_t n = strlen(b), *row = warp_xrealloc(NULL, (n + 1) * sizeof *row);
    for (size_t j = 0; j <= n; j++)
        row[j] = j;
    for (size_t i = 1; a[i - 1]; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= n; j++) {
            size_t up = row[j], d = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < d)
                d = up + 1;
            if (row[j - 1] + 1 < d)
                d = row[j - 1] + 1;
            row[j] = d;
            diag = up;
        }
    }
    size_t d = row[n];
    free(row);
    return d;
}

void warp_suggest_init(warp_suggest *sg, const char *target)
{
    *sg = (warp_suggest){.target = target, .best_d = SIZE_MAX, .list = warp_xrealloc(NULL, 1),
                         .len = 1};
    sg->list[0] = '\0';
}

void warp_suggest_add(warp_suggest *sg, const char *name)
{
    sg->len += strlen(name) + 2;
    sg->list = warp_xrealloc(sg->list, sg->len);
    strcat(strcat(sg->list, sg->list[0] ? ", " : ""), name);
    size_t n = strlen(name), d = edit_distance(sg->target, name);
    int pattern = n >= 2 && strcmp(name + n - 2, ".*") == 0; /* not a name to suggest */
    if (!pattern && d < sg->best_d && d <= 2 && d < strlen(sg->target)) {
        sg->best = name;
        sg->best_d = d;
    }
}

void warp_suggest_free(warp_suggest *sg)
{
    free(sg->list);
    sg->list = NULL;
}

const char *warp_cfg_suggest(const warp_cfg_opt *table, const char *name)
{
    warp_suggest sg;
    warp_suggest_init(&sg, name);
    for (const warp_cfg_opt *o = table; o && o->name; o++)
        warp_suggest_add(&sg, o->name);
    warp_suggest_free(&sg);
    return sg.best;
}
