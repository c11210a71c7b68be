/* source.c — the base every trace reader shares (source.h): the source
 * shell, rank-checked loading, closing, and the path tests of the sniff
 * functions. Invariant: an opened source's ops never change; load() builds
 * a complete, frozen rank graph or fails with one message. Calls no
 * reader: the readers call it, and readers.c lists them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "replay/readers/source.h"
#include "warp_error.h"

replay_opts replay_opts_default(void)
{
    return (replay_opts){0};
}

int replay_path_ends_with(const char *path, const char *suffix)
{
    size_t n = strlen(path), m = strlen(suffix);
    return n >= m && strcmp(path + n - m, suffix) == 0;
}

int replay_dir_holds(const char *path, const char *name)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;
    size_t n = strlen(path) + strlen(name) + 2;
    char *p = warp_xcalloc(n, 1);
    snprintf(p, n, "%s/%s", path, name);
    int ok = stat(p, &st) == 0;
    free(p);
    return ok;
}

int replay_file_starts_with(const char *path, const char *magic)
{
    char head[16] = {0};
    size_t n = strlen(magic);
    FILE *f = n <= sizeof head ? fopen(path, "rb") : NULL;
    if (!f)
        return 0;
    size_t got = fread(head, 1, n, f);
    fclose(f);
    return got == n && memcmp(head, magic, n) == 0;
}

replay_source *replay_source_new(const replay_source_ops *ops, const char *path, const void *opts,
                                 size_t opts_size, int32_t nranks, void *impl)
{
    replay_source *s = warp_xcalloc(1, sizeof *s);
    s->ops = ops;
    s->path = warp_xstrdup(path);
    if (opts && opts_size) {
        void *copy = warp_xcalloc(1, opts_size);
        memcpy(copy, opts, opts_size);
        s->opts = copy;
    }
    s->nranks = nranks;
    s->impl = impl;
    return s;
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
    free((void *)s->opts);
    free(s->path);
    free(s);
}
