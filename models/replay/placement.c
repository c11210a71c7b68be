/* placement.c — reads a job's placement file (placement.h). Invariant: on
 * success every job rank has exactly one network rank and no network rank
 * holds two job ranks; the first offending line is reported. Called by the
 * replay workload's setup (workload_setup.c) and the unit tests. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/keymap.h"
#include "replay/placement.h"
#include "warp_error.h"

#define UNSET UINT64_MAX

/* Reads up to 3 unsigned numbers of a line (after cutting its comment);
 * returns how many, or -1 for anything else on it. */
static int numbers(char *line, uint64_t *v)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    int n = 0;
    for (char *p = line;;) {
        p += strspn(p, " \t\r\n");
        if (!*p)
            return n;
        if (n == 3 || *p < '0' || *p > '9')
            return -1;
        errno = 0;
        v[n++] = strtoull(p, &p, 10);
        if (errno == ERANGE || (*p && !strchr(" \t\r\n#", *p)))
            return -1;
    }
}

static int place_one(const char *path, uint64_t line, uint64_t task, uint64_t node, int32_t ranks,
                     uint64_t nranks, uint64_t *global, replay_keymap *used, replay_err *err)
{
    if (task >= (uint64_t)ranks)
        return replay_errf(err, "%s:%" PRIu64 ": task %" PRIu64 " does not exist (the job has %d ranks, "
                           "0..%d)", path, line, task, ranks, ranks - 1);
    if (node >= nranks)
        return replay_errf(err, "%s:%" PRIu64 ": node %" PRIu64 " is not a network rank (0..%" PRIu64
                           "; [network] ranks)", path, line, node, nranks - 1);
    if (global[task] != UNSET)
        return replay_errf(err, "%s:%" PRIu64 ": task %" PRIu64 " is placed twice (first on node %" PRIu64
                           ")", path, line, task, global[task]);
    uint64_t *who = replay_keymap_get(used, node, 0, 1);
    if (*who)
        return replay_errf(err, "%s:%" PRIu64 ": node %" PRIu64 " already holds task %" PRIu64 "; Warpnet "
                           "runs one rank per network rank", path, line, node, *who - 1);
    *who = task + 1;
    global[task] = node;
    return 0;
}

int replay_read_placement(const char *path, int32_t ranks, uint64_t nranks, uint64_t *global,
                          replay_err *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return replay_errf(err, "%s: cannot open the placement file: %s (placement = linear, random "
                           "or a file)", path, strerror(errno));
    for (int32_t r = 0; r < ranks; r++)
        global[r] = UNSET;
    replay_keymap used = {0};
    char *buf = NULL;
    size_t cap = 0;
    uint64_t line = 0, listed = 0;
    int form = 0, rc = 0; /* form: 1 one rank per line, 2 pairs */
    while (!rc && getline(&buf, &cap, f) >= 0) {
        line++;
        uint64_t v[3];
        int n = numbers(buf, v);
        if (n == 0)
            continue;
        if (n < 0 || n == 3 || (form && n != form)) {
            rc = replay_errf(err, "%s:%" PRIu64 ": expected %s", path, line,
                             form == 1 ? "one network rank (the file lists one per job rank)"
                             : form == 2 ? "TASK NODE (the file lists task-node pairs)"
                                         : "one network rank, or a TASK NODE pair");
            break;
        }
        form = n;
        uint64_t task = n == 1 ? listed : v[0], node = n == 1 ? v[0] : v[1];
        if (n == 1 && listed == (uint64_t)ranks)
            rc = replay_errf(err, "%s:%" PRIu64 ": more entries than the job's %d ranks", path, line, ranks);
        else
            rc = place_one(path, line, task, node, ranks, nranks, global, &used, err);
        listed++;
    }
    for (int32_t r = 0; !rc && r < ranks; r++)
        if (global[r] == UNSET)
            rc = replay_errf(err, "%s: no node for task %d (the job has %d ranks; the file places %" PRIu64
                             ")", path, r, ranks, listed);
    free(buf);
    fclose(f);
    replay_keymap_free(&used);
    return rc;
}
