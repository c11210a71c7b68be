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
#include <sys/types.h>

#include "net/partition_parse.h"
#include "warp_error.h"

typedef struct part_reader {
    const char *path;
    FILE *f;
    char *line; /* getline's: a line of any length is one line */
    size_t cap;
    uint64_t lineno;
} part_reader;

/* The fix every mismatch names: a file made for this network. */
#define REMAKE "write one for this run with warpnet tune --partition=RANKS RUN.ini --write-partition=FILE"

static void header_error(const part_reader *rd, const char *what) __attribute__((noreturn));
static void header_error(const part_reader *rd, const char *what)
{
    warp_fatal(WARP_EXIT_USAGE, "%s:%" PRIu64 ": %s; %s", rd->path, rd->lineno, what, REMAKE);
}

/* A refusal in the placement lines frees the reader's arrays first: the
 * sanitizer build reports what a stop leaves allocated. */
static void body_error(const part_reader *rd, const char *what, void *part, void *seen, void *held)
    __attribute__((noreturn));
static void body_error(const part_reader *rd, const char *what, void *part, void *seen, void *held)
{
    free(part);
    free(seen);
    free(held);
    header_error(rd, what);
}

/* The next line that is neither blank nor a comment, without its end of
 * line; NULL at the end of the file. A NUL byte would hide the rest of its
 * line: it stops the run. */
static char *next_line(part_reader *rd)
{
    ssize_t n;
    while ((n = getline(&rd->line, &rd->cap, rd->f)) >= 0) {
        rd->lineno++;
        if (strlen(rd->line) != (size_t)n)
            header_error(rd, "a NUL byte: this is not a text file");
        while (n > 0 && (rd->line[n - 1] == '\n' || rd->line[n - 1] == '\r'))
            rd->line[--n] = 0;
        char *s = rd->line + strspn(rd->line, " \t");
        if (*s && *s != '#')
            return s;
    }
    return NULL;
}

/* Splits s at blanks into at most max tokens; returns their count, max + 1
 * when there are more. */
static int split(char *s, char **tok, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t"); t; t = strtok(NULL, " \t")) {
        if (n == max)
            return max + 1;
        tok[n++] = t;
    }
    return n;
}

/* tok as a whole number in base 10 or 16, without sign or blanks, into
 * *v; 0 when it is none or exceeds max (no value wraps unseen). */
static int number(const char *tok, int base, uint64_t max, uint64_t *v)
{
    const char *digits = base == 16 ? "0123456789abcdefABCDEF" : "0123456789";
    if (!*tok || !strchr(digits, *tok))
        return 0;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(tok, &end, base);
    if (*end || errno || x > max)
        return 0;
    *v = x;
    return 1;
}

uint32_t *net_partition_parse(const char *path, const net_partition_want *want, uint32_t parts)
{
    part_reader rd = {path, fopen(path, "r"), NULL, 0, 0};
    if (!rd.f)
        warp_fatal(WARP_EXIT_USAGE, "--partition=file:%s: cannot open the placement file (%s); %s",
                   path, strerror(errno), REMAKE);
    char *s = next_line(&rd), name[64], *tok[8];
    if (!s || strcmp(s, NET_PARTITION_MAGIC))
        header_error(&rd, "not a placement file (its first line must be `" NET_PARTITION_MAGIC "`)");
    uint64_t routers, nodes, hash, ranks;
    s = next_line(&rd);
    if (!s || split(s, tok, 8) != 8 || strcmp(tok[0], "network") || strlen(tok[1]) >= sizeof name ||
        strcmp(tok[2], "routers") || !number(tok[3], 10, UINT64_MAX, &routers) ||
        strcmp(tok[4], "nodes") || !number(tok[5], 10, UINT64_MAX, &nodes) ||
        strcmp(tok[6], "graph") || !number(tok[7], 16, UINT64_MAX, &hash))
        header_error(&rd, "expected `network TOPOLOGY routers R nodes N graph HASH`");
    snprintf(name, sizeof name, "%s", tok[1]);
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
    if (!s || split(s, tok, 2) != 2 || strcmp(tok[0], "ranks") || !number(tok[1], 10, UINT32_MAX, &ranks) ||
        ranks < 1)
        header_error(&rd, "expected `ranks K` with K >= 1");
    /* One rank holds everything whatever the file says: a sequential run
     * of a run file that names a placement checks only the network. */
    if (parts > 1 && ranks != parts)
        warp_fatal(WARP_EXIT_USAGE, "%s:%" PRIu64 ": made for %" PRIu64 " ranks, this run has %"
                   PRIu32 "; run on %" PRIu64 " ranks, or write a file for %" PRIu32 " with warpnet "
                   "tune --partition=%" PRIu32 " RUN.ini --write-partition=FILE", path, rd.lineno,
                   ranks, parts, ranks, parts, parts);
    /* Every rank must hold a router: more ranks than routers can never be
     * placed (and would size the count of each rank's routers). */
    if (ranks > want->routers) {
        snprintf(what, sizeof what, "made for %" PRIu64 " ranks, more than the network's %" PRIu64
                 " routers (every rank needs one at least)", ranks, want->routers);
        header_error(&rd, what);
    }
    uint32_t *part = warp_xcalloc(want->routers ? want->routers : 1, sizeof *part);
    uint8_t *seen = warp_xcalloc(want->routers ? want->routers : 1, 1);
    uint64_t *held = warp_xcalloc(ranks, sizeof *held);
    while ((s = next_line(&rd)) != NULL) {
        uint64_t r, k;
        if (split(s, tok, 2) != 2 || !number(tok[0], 10, UINT64_MAX, &r) ||
            !number(tok[1], 10, UINT64_MAX, &k))
            body_error(&rd, "expected `ROUTER RANK` (two numbers)", part, seen, held);
        if (r >= want->routers) {
            snprintf(what, sizeof what, "router %" PRIu64 " is out of range (the network has "
                     "routers 0 .. %" PRIu64 ")", r, want->routers - 1);
            body_error(&rd, what, part, seen, held);
        }
        if (k >= ranks) {
            snprintf(what, sizeof what, "rank %" PRIu64 " is out of range (the file is for ranks "
                     "0 .. %" PRIu64 ")", k, ranks - 1);
            body_error(&rd, what, part, seen, held);
        }
        if (seen[r]) {
            snprintf(what, sizeof what, "router %" PRIu64 " is placed twice", r);
            body_error(&rd, what, part, seen, held);
        }
        seen[r] = 1;
        part[r] = (uint32_t)k;
        held[k]++;
    }
    fclose(rd.f);
    free(rd.line);
    for (uint64_t r = 0; r < want->routers; r++)
        if (!seen[r]) {
            snprintf(what, sizeof what, "router %" PRIu64 " has no line (every router 0 .. %" PRIu64
                     " needs one)", r, want->routers - 1);
            body_error(&rd, what, part, seen, held);
        }
    for (uint64_t k = 0; k < ranks; k++)
        if (!held[k]) {
            snprintf(what, sizeof what, "rank %" PRIu64 " holds no router (every rank needs one "
                     "at least)", k);
            body_error(&rd, what, part, seen, held);
        }
    free(seen);
    free(held);
    return part;
}
