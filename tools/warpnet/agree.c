/* warpnet/agree.c — the resolved configuration every rank must share: each
 * run-file key after the command-line overrides, and for each value that
 * names a file or directory (traces, placement files) its size and
 * modification time, compared across ranks by the engine's
 * warp_agree_config before anything is built. Called by main.c. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "agree.h"

typedef struct settings {
    char **v;
    size_t n, cap;
} settings;

static void add(settings *s, const char *fmt, const char *a, const char *b, const char *c)
{
    if (s->n == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->v = warp_xrealloc(s->v, s->cap * sizeof *s->v);
    }
    int len = snprintf(NULL, 0, fmt, a, b, c);
    s->v[s->n] = warp_xcalloc((size_t)len + 1, 1);
    snprintf(s->v[s->n++], (size_t)len + 1, fmt, a, b, c);
}

/* Size and modification time of a file, or of a directory's files (one
 * level: OTF2 and BigSim traces are directories of files). */
static int stamp(const char *path, char *buf, size_t cap)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return -1;
    unsigned long long bytes = (unsigned long long)st.st_size;
    long long mtime = (long long)st.st_mtime;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        struct dirent *e;
        bytes = 0;
        while (d && (e = readdir(d))) {
            char file[4096];
            struct stat fs;
            snprintf(file, sizeof file, "%s/%s", path, e->d_name);
            if (e->d_name[0] != '.' && stat(file, &fs) == 0 && S_ISREG(fs.st_mode)) {
                bytes += (unsigned long long)fs.st_size;
                if ((long long)fs.st_mtime > mtime)
                    mtime = (long long)fs.st_mtime;
            }
        }
        if (d)
            closedir(d);
    }
    snprintf(buf, cap, "%llu bytes modified at %lld", bytes, mtime);
    return 0;
}

static void visit(const char *sec, const char *key, const char *value, void *arg)
{
    settings *s = arg;
    add(s, "--%s.%s=%s", sec, key, value);
    char st[96];
    if (value[0] && stamp(value, st, sizeof st) == 0)
        add(s, "--%s.%s (file)=%s", sec, key, st);
}

void wn_agree(const warp_ctx *w, const warp_ini *ini, const char *const *extra, size_t nextra)
{
    settings s = {0};
    warp_ini_visit(ini, visit, &s);
    for (size_t i = 0; i < nextra; i++)
        add(&s, "%s%s%s", extra[i], "", "");
    warp_agree_config(w, (const char *const *)s.v, s.n);
    for (size_t i = 0; i < s.n; i++)
        free(s.v[i]);
    free(s.v);
}
