/* warpnet/outdir.h — the --out directory of one run (outdir.c): checked
 * before the run, filled in a temporary directory beside it, moved into
 * place with a manifest (run.txt) only when the run finished. */
#ifndef WARPNET_OUTDIR_H
#define WARPNET_OUTDIR_H

#include <stddef.h>

#define WN_PATH_MAX 4096

typedef struct wn_outdir {
    char final[WN_PATH_MAX];    /* DIR as given, without trailing slashes */
    char tmp[WN_PATH_MAX];      /* DIR's hidden partial twin; "" once moved */
    char id[96];                /* the run id: UTC time, process id, a unique suffix */
} wn_outdir;

/* Checks that DIR can take the results (not a file, writable place) and
 * creates the temporary directory; stops with exit 2 and one line if not.
 * Rank 0 only. The temporary directory is removed at exit unless committed. */
void wn_outdir_open(wn_outdir *o, const char *dir);
/* The path of result file NAME inside the temporary directory (in buf). */
const char *wn_outdir_file(const wn_outdir *o, const char *name, char *buf, size_t cap);
/* Writes run.txt and moves the results into DIR; 0, or -1 with errno set. */
int wn_outdir_commit(wn_outdir *o);

#endif
