/* warpnet/outdir.c — --out=DIR holds one whole run or nothing new: DIR is
 * checked before the run (exit 2 at once), results go into a hidden
 * temporary directory beside it, and only a run that finished moves them
 * in, run.txt (the run id and every file's POSIX cksum) last. A reused DIR
 * loses the previous run's result files first, so no old summary.json is
 * left to pass for the new run. Called by main.c on rank 0. */
#include <errno.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "outdir.h"
#include "warp_error.h"

/* The files a run writes into DIR (warpnet-report's outputs included, as
 * they describe the run they were drawn from). */
static const char *const result_names[] = {
    "run.txt", "summary.json", "terminals.csv", "ports.csv", "latency_hist.csv", "samples.csv",
    "engine.csv", "engine.csv.kps.csv", "engine.json", "report.md", "report.html", NULL};

static wn_outdir *pending; /* removed at exit unless committed */

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    char path[WN_PATH_MAX + 256];
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            remove(path);
        }
    closedir(d);
    rmdir(dir);
}

static void drop_pending(void)
{
    if (pending && pending->tmp[0])
        remove_tree(pending->tmp);
}

void wn_outdir_open(wn_outdir *o, const char *dir)
{
    memset(o, 0, sizeof *o);
    if (!*dir)
        warp_fatal(WARP_EXIT_USAGE, "--out=: empty; give a directory for the results");
    if (strlen(dir) >= WN_PATH_MAX - 64)
        warp_fatal(WARP_EXIT_USAGE, "--out=%s: path too long", dir);
    struct stat st;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
        warp_fatal(WARP_EXIT_USAGE, "--out=%s: exists and is not a directory; give a new or an existing "
                   "directory", dir);
    snprintf(o->final, sizeof o->final, "%s", dir);
    while (strlen(o->final) > 1 && o->final[strlen(o->final) - 1] == '/')
        o->final[strlen(o->final) - 1] = '\0';
    /* DIR/../.NAME.partial-XXXXXX: beside DIR, so the final rename stays on one file system. */
    const char *slash = strrchr(o->final, '/');
    size_t plen = slash ? (size_t)(slash - o->final) + 1 : 0;
    memcpy(o->tmp, o->final, plen);
    o->tmp[plen] = '.';
    strcpy(o->tmp + plen + 1, o->final + plen);
    strcat(o->tmp, ".partial-XXXXXX");
    if (!mkdtemp(o->tmp))
        warp_fatal(WARP_EXIT_USAGE, "--out=%s: cannot write beside it (%s); give a directory in a writable "
                   "place", dir, strerror(errno));
    if (stat(dir, &st) == 0 && access(dir, W_OK) != 0) {
        rmdir(o->tmp);
        warp_fatal(WARP_EXIT_USAGE, "--out=%s: the directory is not writable; give another", dir);
    }
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char stamp[32];
    strftime(stamp, sizeof stamp, "%Y%m%dT%H%M%SZ", &tm);
    snprintf(o->id, sizeof o->id, "%s-%ld-%s", stamp, (long)getpid(), o->tmp + strlen(o->tmp) - 6);
    pending = o;
    atexit(drop_pending);
}

const char *wn_outdir_file(const wn_outdir *o, const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", o->tmp, name);
    return buf;
}

/* POSIX cksum (CRC-32, polynomial 0x04C11DB7, length appended), so that
 * warpnet-report can check each file with cksum(1). */
static int cksum_file(const char *path, uint32_t *sum, uint64_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    uint32_t crc = 0;
    uint64_t n = 0;
    int c;
    unsigned char buf[65536];
    size_t got;
    while ((got = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t i = 0; i < got; i++, n++) {
            crc ^= (uint32_t)buf[i] << 24;
            for (c = 0; c < 8; c++)
                crc = crc & 0x80000000u ? (crc << 1) ^ 0x04C11DB7u : crc << 1;
        }
    int bad = ferror(f);
    fclose(f);
    *len = n;
    for (; n; n >>= 8) {
        crc ^= (uint32_t)(n & 0xff) << 24;
        for (c = 0; c < 8; c++)
            crc = crc & 0x80000000u ? (crc << 1) ^ 0x04C11DB7u : crc << 1;
    }
    *sum = ~crc;
    return bad ? -1 : 0;
}

/* Calls fn(o, name, arg) for every file of the temporary directory but
 * run.txt; stops at the first nonzero result and returns it. */
static int each_file(const wn_outdir *o, int (*fn)(const wn_outdir *, const char *, void *), void *arg)
{
    DIR *d = opendir(o->tmp);
    if (!d)
        return -1;
    struct dirent *e;
    int rc = 0;
    while (!rc && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && strcmp(e->d_name, "run.txt"))
            rc = fn(o, e->d_name, arg);
    closedir(d);
    return rc;
}

static int list_file(const wn_outdir *o, const char *name, void *arg)
{
    char file[WN_PATH_MAX + 300];
    uint32_t sum;
    uint64_t len;
    if (cksum_file(wn_outdir_file(o, name, file, sizeof file), &sum, &len) != 0)
        return -1;
    fprintf(arg, "%u %llu %s\n", sum, (unsigned long long)len, name);
    return 0;
}

static int move_file(const wn_outdir *o, const char *name, void *arg)
{
    (void)arg;
    char from[WN_PATH_MAX + 300], to[WN_PATH_MAX + 300];
    snprintf(to, sizeof to, "%s/%s", o->final, name);
    return rename(wn_outdir_file(o, name, from, sizeof from), to);
}

/* Removes DIR/NAME for the known result names and every file the previous
 * run's run.txt lists (run.txt itself first). */
static int remove_previous(const wn_outdir *o)
{
    char path[WN_PATH_MAX + 300], line[600], name[300];
    snprintf(path, sizeof path, "%s/run.txt", o->final);
    FILE *f = fopen(path, "r");
    if (remove(path) != 0 && errno != ENOENT)
        return -1;
    for (int i = 1; result_names[i]; i++) {
        snprintf(path, sizeof path, "%s/%s", o->final, result_names[i]);
        if (remove(path) != 0 && errno != ENOENT)
            return -1;
    }
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "%*u %*u %299[^\n]", name) == 1 && !strchr(name, '/') && name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", o->final, name);
            remove(path);
        }
    if (f)
        fclose(f);
    return 0;
}

int wn_outdir_commit(wn_outdir *o)
{
    char path[WN_PATH_MAX + 64], to[WN_PATH_MAX + 64];
    FILE *f = fopen(wn_outdir_file(o, "run.txt", path, sizeof path), "w");
    if (!f)
        return -1;
    fprintf(f, "warpnet-run %s\n", o->id);
    if (each_file(o, list_file, f) != 0) {
        fclose(f);
        return -1;
    }
    if (fclose(f) != 0)
        return -1;
    if (rename(o->tmp, o->final) == 0) { /* DIR did not exist, or was empty */
        o->tmp[0] = '\0';
        return 0;
    }
    if (errno != EEXIST && errno != ENOTEMPTY)
        return -1;
    /* A reused DIR: the previous run's files go first (run.txt before
     * anything), then this run's move in, run.txt last. */
    snprintf(to, sizeof to, "%s/run.txt", o->final);
    if (remove_previous(o) != 0 || each_file(o, move_file, NULL) != 0 || rename(path, to) != 0)
        return -1;
    remove_tree(o->tmp);
    o->tmp[0] = '\0';
    return 0;
}
