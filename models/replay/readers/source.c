/* source.c — format guessing and dispatch to the trace readers (source.h).
 * Invariant: an opened source's ops never change; load() builds a complete,
 * frozen rank graph or fails with one message. Called by warpnet-trace and
 * by the replay workload at setup. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "replay/readers/source.h"
#include "warp_error.h"

replay_opts replay_opts_default(void)
{
    return (replay_opts){.ampi_overhead_ns = 100, .keep_init = 0, .otf2_eager_limit = 65536};
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int file_exists_in(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = warp_xcalloc(n, 1);
    snprintf(p, n, "%s/%s", dir, name);
    struct stat st;
    int ok = stat(p, &st) == 0;
    free(p);
    return ok;
}

static int starts_with_magic(const char *path, const char *magic)
{
    char head[16] = {0};
    size_t n = strlen(magic);
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    size_t got = fread(head, 1, n, f);
    fclose(f);
    return got == n && memcmp(head, magic, n) == 0;
}

const char *replay_guess_format(const char *path)
{
    if (strncmp(path, "gen:", 4) == 0)
        return "gen";
    if (ends_with(path, ".otf2"))
        return "otf2";
    if (ends_with(path, ".goal"))
        return "goal";
    if (ends_with(path, ".dim") || starts_with_magic(path, "#DIMEMAS"))
        return "dimemas";
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (file_exists_in(path, "traces.otf2"))
            return "otf2";
        if (file_exists_in(path, "bgTrace"))
            return "bigsim";
    }
    if (ends_with(path, "bgTrace"))
        return "bigsim";
    return "native";
}

replay_source *replay_source_new(const replay_source_ops *ops, const char *path,
                                 const replay_opts *opts, int32_t nranks, void *impl)
{
    replay_source *s = warp_xcalloc(1, sizeof *s);
    s->ops = ops;
    s->path = warp_xstrdup(path);
    s->opts = opts ? *opts : replay_opts_default();
    s->nranks = nranks;
    s->impl = impl;
    return s;
}

int replay_source_open(const char *path, const char *format, const replay_opts *opts,
                       replay_source **out, replay_err *err)
{
    replay_opts o = opts ? *opts : replay_opts_default();
    *out = NULL;
    if (!format || !*format)
        format = replay_guess_format(path);
    if (strcmp(format, "bigsim") == 0)
        return replay_bigsim_open(path, &o, out, err);
    if (strcmp(format, "goal") == 0)
        return replay_goal_open(path, &o, out, err);
    if (strcmp(format, "native") == 0)
        return replay_native_open(path, &o, out, err);
    if (strcmp(format, "gen") == 0)
        return replay_gen_open(path, &o, out, err);
    if (strcmp(format, "dimemas") == 0)
        return replay_dimemas_open(path, &o, out, err);
    if (strcmp(format, "otf2") == 0) {
#ifdef HAVE_OTF2
        return replay_otf2_open(path, &o, out, err);
#else
        return replay_errf(err, "%s: OTF2 support was not built; install libotf2-trace-dev "
                           "and reconfigure (--with-otf2)", path);
#endif
    }
    return replay_errf(err, "%s: unknown trace format '%s'; use bigsim, otf2, goal, native, dimemas or gen",
                       path, format);
}

int replay_source_load(replay_source *s, int32_t rank, replay_rank *out, replay_err *err)
{
    if (rank < 0 || rank >= s->nranks)
        return replay_errf(err, "%s: rank %d does not exist (the trace has %d ranks)",
                           s->path, rank, s->nranks);
    return s->ops->load(s, rank, out, err);
}

int replay_source_shape_class(const replay_source *s, int32_t rank)
{
    if (!s->ops->shape_class || rank < 0 || rank >= s->nranks)
        return -1;
    return s->ops->shape_class(s, rank);
}

void replay_source_close(replay_source *s)
{
    if (!s)
        return;
    if (s->ops->close)
        s->ops->close(s);
    free(s->path);
    free(s);
}
