/* test_readers.c — the table of trace readers: a format is guessed by the
 * surest reader (ties to the first), each reader is listed once with its
 * sniff and open, a setting reaches only the readers that declare its key
 * and is checked by them, and the errors name what is known. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "helpers.h"

Test(readers, every_reader_is_listed_once_with_sniff_and_open)
{
    int n = 0;
    for (const replay_reader *const *r = replay_readers(); *r; r++, n++) {
        cr_assert((*r)->sniff && (*r)->open, "reader %s lacks sniff or open", (*r)->name);
        cr_assert_eq(replay_reader_find((*r)->name), *r, "%s is not found by its name", (*r)->name);
        cr_assert(!(*r)->opts_size || (*r)->dflt, "%s has options but no defaults", (*r)->name);
    }
    cr_assert_geq(n, 5, "only %d readers in the table", n);
    cr_assert_null(replay_reader_find("tau"));
}

Test(readers, guesses_the_format_from_the_path)
{
    cr_assert_str_eq(replay_guess_format("gen:stencil3d:px=2"), "gen");
    cr_assert_str_eq(replay_guess_format("gen:x.goal"), "gen", "a prefix beats a suffix");
    cr_assert_str_eq(replay_guess_format("/no/such/app.goal"), "goal");
    cr_assert_str_eq(replay_guess_format("/no/such/app.dim"), "dimemas");
    cr_assert_str_eq(replay_guess_format("/no/such/bgTrace"), "bigsim");
    cr_assert_str_eq(replay_guess_format("/no/such/app.trace"), "native", "the last resort");
    char *dim = th_write_temp(".txt", "#DIMEMAS:app:1,0:1,1\n");
    cr_assert_str_eq(replay_guess_format(dim), "dimemas", "by its first bytes");
    char *dir = th_temp_dir(), path[512];
    snprintf(path, sizeof path, "%s/bgTrace", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fclose(f);
    cr_assert_str_eq(replay_guess_format(dir), "bigsim", "a directory holding bgTrace");
    if (replay_reader_find("otf2")) {
        cr_assert_str_eq(replay_guess_format("/no/such/traces.otf2"), "otf2");
        snprintf(path, sizeof path, "%s/traces.otf2", dir);
        f = fopen(path, "w");
        cr_assert_not_null(f);
        fclose(f);
        cr_assert_str_eq(replay_guess_format(dir), "otf2",
                         "a directory holding both: the first reader of the table");
    }
    remove(dim);
    snprintf(path, sizeof path, "%s/bgTrace", dir);
    remove(path);
    snprintf(path, sizeof path, "%s/traces.otf2", dir);
    remove(path);
    remove(dir);
    free(dim);
    free(dir);
}

Test(readers, settings_are_checked_by_the_readers_that_declare_them)
{
    replay_opts o = replay_opts_default();
    cr_assert_null(replay_opts_set(&o, "eager_limit", "4KiB"));
    cr_assert_null(replay_opts_set(&o, "eager_limit", "8KiB"));
    cr_assert_eq(o.n, 1, "a key set twice is one setting (%d)", o.n);
    cr_assert_str_eq(o.set[0].value, "8KiB");
    const char *why = replay_opts_set(&o, "eager_limit", "8 parsecs");
    cr_assert_not_null(why, "a size that is no size was taken");
    why = replay_opts_set(&o, "dimemas_rendezvous", "sometimes");
    cr_assert(why && strstr(why, "size"), "reason: %s", why ? why : "(none)");
    why = replay_opts_set(&o, "eager_limt", "1KiB");
    cr_assert(why && strstr(why, "eager_limit") && strstr(why, "ampi_overhead") &&
                  strstr(why, "dimemas_rendezvous"),
              "an unknown key's reason lists the readers' keys: %s", why ? why : "(none)");
    cr_assert_eq(o.n, 1, "refused settings were kept (%d)", o.n);
}

Test(readers, a_setting_reaches_only_readers_with_its_key)
{
    /* keep_init is BigSim's: a GOAL schedule opens with it set. */
    replay_opts o = replay_opts_default();
    cr_assert_null(replay_opts_set(&o, "keep_init", "1"));
    char *p = th_write_temp(".goal", "num_ranks 1\nrank 0 {\n  calc 10\n}\n");
    replay_source *s;
    replay_err err;
    cr_assert_eq(replay_source_open(p, NULL, &o, &s, &err), 0, "%s", err.msg);
    cr_assert_null(s->opts, "GOAL has no options, yet the source holds some");
    replay_source_close(s);
    remove(p);
    free(p);
}

Test(readers, an_unknown_format_names_the_readers)
{
    const char *msg = th_open_error("/no/such/file", "tau");
    for (const replay_reader *const *r = replay_readers(); *r; r++)
        cr_assert(strstr(msg, (*r)->name), "'%s' is missing from: %s", (*r)->name, msg);
}
