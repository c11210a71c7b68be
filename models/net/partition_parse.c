/* net/partition_parse.c — reads a placement file (format in
 * partition_file.c) against the network it must have been made for
 * (partition_parse.h). Invariant: what it returns places every router
 * 0 .. routers-1 once, on ranks 0 .. K-1 that each hold one at least.
 * Called by net_partition_read and the placement fuzz harness. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "net/partition_parse.h"
#include "warp_error.h"

typedef struct part_reader {
    const char *path;
    FILE *f;
    char line[512];
    uint64_t lineno;
} part_reader;

/* The next line that is neither blank nor a comment, without its end of
 * line; NULL at the end of the file. */
static char *next_line(part_reader *rd)
{
    while (fgets(rd->line, sizeof rd->line, rd->f)) {
        rd->lineno++;
        rd->line[strcspn(rd->line, "\r\n")] = 0;
        char *s = rd->line + strspn(rd->line, " \t");
        if (*s && *s != '#')
            return s;
    }
    return NULL;
}

/* The fix every mismatch names: a file made for this network. */
#define REMAKE "write one for this run with warpnet tune --partition=RANKS RUN.ini --write-partition=FILE"

static void header_error(const part_reader *rd, const char *what)
{
    warp_fatal(WARP_EXIT_USAGE, "%s:%" PRIu64 ": %s; %s", rd->path, rd->lineno, what, REMAKE);
}

uint32_t *net_partition_parse(const char *path, const net_partition_want *want, uint32_t parts)
{
    part_reader rd = {path, fopen(path, "r"), "", 0};
    if (!rd.f)
        warp_fatal(WARP_EXIT_USAGE, "--partition=file:%s: cannot open the placement file (%s); %s",
                   path, strerror(errno), REMAKE);
    char *s = next_line(&rd), name[64];
    if (!s || strcmp(s, NET_PARTITION_MAGIC))
        header_error(&rd, "not a placement file (its first line must be `" NET_PARTITION_MAGIC "`)");
    uint64_t routers, nodes, hash;
    uint32_t ranks;
    int used = 0;
    s = next_line(&rd);
    if (!s || sscanf(s, "network %63s routers %" SCNu64 " nodes %" SCNu64 " graph %" SCNx64 "%n",
                     name, &routers, &nodes, &hash, &used) != 4 || s[used])
        header_error(&rd, "expected `network TOPOLOGY routers R nodes N graph HASH`");
    char what[512];
    if (routers != want->routers || nodes != want->nodes || strcmp(name, want->name)) {
        snprintf(what, sizeof what, "made for a %s of %" PRIu64 " routers and %" PRIu64 " nodes, "
                 "this run's network is a %s of %" PRIu64 " routers and %" PRIu64 " nodes",
                 name, routers, nodes, want->name, want->routers, want->nodes);
        header_error(&rd, what);
    }
    if (hash != want->hash) {
        snprintf(what, sizeof what, "made for another %s wiring (graph %016" PRIx64 ", this "
                 "network's is %016" PRIx64 ")", name, hash, want->hash);
        header_error(&rd, what);
    }
    s = next_line(&rd);
    used = 0;
    if (!s || sscanf(s, "ranks %" SCNu32 "%n", &ranks, &used) != 1 || s[used] || ranks < 1)
        header_error(&rd, "expected `ranks K` with K >= 1");
    /* One rank holds everything whatever the file says: a sequential run
     * of a run file that names a placement checks only the network. */
    if (parts > 1 && ranks != parts)
        warp_fatal(WARP_EXIT_USAGE, "%s:%" PRIu64 ": made for %" PRIu32 " ranks, this run has %"
                   PRIu32 "; run on %" PRIu32 " ranks, or write a file for %" PRIu32 " with warpnet "
                   "tune --partition=%" PRIu32 " RUN.ini --write-partition=FILE", path, rd.lineno,
                   ranks, parts, ranks, parts, parts);
    uint32_t *part = warp_xcalloc(want->routers ? want->routers : 1, sizeof *part);
    uint8_t *seen = warp_xcalloc(want->routers ? want->routers : 1, 1);
    uint64_t *held = warp_xcalloc(ranks, sizeof *held);
    while ((s = next_line(&rd)) != NULL) {
        uint64_t r;
        uint32_t k;
        used = 0;
        if (sscanf(s, "%" SCNu64 " %" SCNu32 "%n", &r, &k, &used) != 2 || s[used + strspn(s + used, " \t")])
            header_error(&rd, "expected `ROUTER RANK` (two numbers)");
        if (r >= want->routers) {
            snprintf(what, sizeof what, "router %" PRIu64 " is out of range (the network has "
                     "routers 0 .. %" PRIu64 ")", r, want->routers - 1);
            header_error(&rd, what);
        }
        if (k >= ranks) {
            snprintf(what, sizeof what, "rank %" PRIu32 " is out of range (the file is for ranks "
                     "0 .. %" PRIu32 ")", k, ranks - 1);
            header_error(&rd, what);
        }
        if (seen[r]) {
            snprintf(what, sizeof what, "router %" PRIu64 " is placed twice", r);
            header_error(&rd, what);
        }
        seen[r] = 1;
        part[r] = k;
        held[k]++;
    }
    fclose(rd.f);
    for (uint64_t r = 0; r < want->routers; r++)
        if (!seen[r]) {
            snprintf(what, sizeof what, "router %" PRIu64 " has no line (every router 0 .. %" PRIu64
                     " needs one)", r, want->routers - 1);
            header_error(&rd, what);
        }
    for (uint32_t k = 0; k < ranks; k++)
        if (!held[k]) {
            snprintf(what, sizeof what, "rank %" PRIu32 " holds no router (every rank needs one "
                     "at least)", k);
            header_error(&rd, what);
        }
    free(seen);
    free(held);
    return part;
}
