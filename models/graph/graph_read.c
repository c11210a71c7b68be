/* graph/graph_read.c — streaming reader of network files (anynet, edge
 * lists; formats in graph_read.h). Pass 1 checks every line and counts; the
 * memory is estimated and the arrays allocated from the counts; pass 2 fills
 * them. Invariant: the result names every router 0..R-1 and attaches every
 * node 0..N-1 to one router; links are sorted with a < b. Called by
 * graph_topo.c's setup. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "graph/graph_read.h"
#include "warp.h"
#include "warp_ini.h"

#define MAX_TOKENS_ID (UINT64_C(1) << 40)

/* What the reader knows while it passes over the file. */
typedef struct reader {
    const char *path;
    graph_format format;
    int pass;           /* 1: count, 2: fill */
    uint64_t line;
    uint64_t links;     /* link mentions */
    uint64_t max_router, max_node; /* largest id + 1 */
    graph_desc *g;
    uint8_t *named;     /* pass 2: routers named */
    uint64_t *node_line; /* pass 2: line that attached each node */
} reader;

static void fail(const reader *rd, const char *what, const char *fix)
{
    warp_fatal(WARP_EXIT_USAGE, "%s:%llu: %s; %s", rd->path, (unsigned long long)rd->line, what, fix);
}

static uint64_t parse_id(const reader *rd, const char *tok, const char *kind)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(tok, &end, 10);
    if (*tok < '0' || *tok > '9' || *end || errno || v >= MAX_TOKENS_ID) {
        char what[160];
        snprintf(what, sizeof what, "'%.40s' is not a %s number", tok, kind);
        fail(rd, what, "give a whole number from 0 (ids below 2^40)");
    }
    return v;
}

/* Reads `bandwidth=..` or `latency=..` (anynet) or a bare value (edges)
 * into *bw or *lat. */
static void parse_attr(const reader *rd, const char *tok, double *bw, double *lat)
{
    const char *why = NULL, *v = strchr(tok, '=');
    double x;
    if (v) {
        v++;
        if (!strncmp(tok, "bandwidth=", 10) && !warp_parse_bandwidth(v, &x, &why) && x > 0) {
            *bw = x;
            return;
        }
        if (!strncmp(tok, "latency=", 8) && !warp_parse_time_ns(v, &x, &why) && x >= 0) {
            *lat = x;
            return;
        }
    } else if (!warp_parse_bandwidth(tok, &x, &why) && x > 0) {
        *bw = x;
        return;
    } else if (!warp_parse_time_ns(tok, &x, &why) && x >= 0) {
        *lat = x;
        return;
    }
    char what[160];
    snprintf(what, sizeof what, "'%.60s' is not a link attribute", tok);
    fail(rd, what,
         rd->format == GRAPH_ANYNET
             ? "write bandwidth=100Gbps or latency=50ns after a pair (units as in run files)"
             : "write A B [BANDWIDTH] [LATENCY] with units (0 1 100Gbps 50ns)");
}

static void add_link(reader *rd, uint64_t a, uint64_t b, double bw, double lat)
{
    if (a == b) {
        char what[80];
        snprintf(what, sizeof what, "router %llu is linked to itself", (unsigned long long)a);
        fail(rd, what, "remove the link or name another router");
    }
    if (rd->pass == 2) {
        graph_link *l = &rd->g->links[rd->links];
        *l = (graph_link){a < b ? a : b, a < b ? b : a, bw, lat, rd->line};
    }
    rd->links++;
    uint64_t m = (a > b ? a : b) + 1;
    rd->max_router = m > rd->max_router ? m : rd->max_router;
}

static void name_router(reader *rd, uint64_t r)
{
    if (r + 1 > rd->max_router)
        rd->max_router = r + 1;
    if (rd->pass == 2)
        rd->named[r] = 1;
}

static void attach(reader *rd, uint64_t node, uint64_t r, double bw, double lat)
{
    name_router(rd, r);
    if (node + 1 > rd->max_node)
        rd->max_node = node + 1;
    if (rd->pass == 1)
        return;
    graph_desc *g = rd->g;
    if (g->node_router[node] != UINT64_MAX && g->node_router[node] != r) {
        char what[200];
        snprintf(what, sizeof what, "node %llu is attached to router %llu here and to router %llu on line %llu",
                 (unsigned long long)node, (unsigned long long)r,
                 (unsigned long long)g->node_router[node], (unsigned long long)rd->node_line[node]);
        fail(rd, what, "a node has one router: remove one of the two");
    }
    if (g->node_router[node] == UINT64_MAX)
        rd->node_line[node] = rd->line;
    g->node_router[node] = r;
    if (bw > 0)
        g->node_bandwidth[node] = bw;
    if (lat >= 0)
        g->node_latency[node] = lat;
}

/* One anynet line: `kind id` pairs, the first the subject, attributes
 * after a pair applying to that pair's link. */
static void anynet_line(reader *rd, char **tok, int n)
{
    int subj_router = -1;
    uint64_t subj = 0;
    for (int i = 0; i < n;) {
        int is_router = !strcmp(tok[i], "router");
        if (!is_router && strcmp(tok[i], "node")) {
            char what[120];
            snprintf(what, sizeof what, "'%.40s' where 'router' or 'node' belongs", tok[i]);
            fail(rd, what, "write pairs such as 'router 0 node 0 router 1'");
        }
        if (i + 1 >= n)
            fail(rd, is_router ? "'router' without a number" : "'node' without a number",
                 "give the id after it");
        uint64_t id = parse_id(rd, tok[i + 1], is_router ? "router" : "node");
        i += 2;
        double bw = -1, lat = -1;
        while (i < n && strchr(tok[i], '='))
            parse_attr(rd, tok[i++], &bw, &lat);
        if (subj_router < 0) {
            if (bw > 0 || lat >= 0)
                fail(rd, "an attribute after the line's first pair",
                     "put bandwidth= and latency= after the pair they describe (the second on)");
            subj_router = is_router;
            subj = id;
            if (is_router)
                name_router(rd, id);
            continue;
        }
        if (subj_router && is_router)
            add_link(rd, subj, id, bw, lat);
        else if (subj_router)
            attach(rd, id, subj, bw, lat);
        else if (is_router)
            attach(rd, subj, id, bw, lat);
        else
            fail(rd, "a node joined to a node", "join nodes to routers only");
    }
}

static void edges_line(reader *rd, char **tok, int n)
{
    if (n < 2 || n > 4)
        fail(rd, n < 2 ? "fewer than two routers" : "more than four fields",
             "write one link per line: A B [BANDWIDTH] [LATENCY] (0 1 100Gbps 50ns)");
    uint64_t a = parse_id(rd, tok[0], "router"), b = parse_id(rd, tok[1], "router");
    double bw = -1, lat = -1;
    for (int i = 2; i < n; i++)
        parse_attr(rd, tok[i], &bw, &lat);
    add_link(rd, a, b, bw, lat);
}

void graph_each_line(FILE *f, const char *path, uint64_t *line, void (*fn)(void *, char **, int),
                     void *ctx)
{
    char *buf = NULL, **tok = NULL;
    size_t cap = 0, tcap = 0;
    ssize_t len;
    *line = 0;
    while ((len = getline(&buf, &cap, f)) >= 0) {
        ++*line;
        if (strlen(buf) != (size_t)len) /* the rest of the line would vanish unseen */
            warp_fatal(WARP_EXIT_USAGE, "%s:%llu: a NUL byte: this is not a text file; give the text file",
                       path, (unsigned long long)*line);
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        int n = 0;
        for (char *s = strtok(buf, " \t\r\n,"); s; s = strtok(NULL, " \t\r\n,")) {
            if ((size_t)n == tcap) {
                tcap = tcap ? 2 * tcap : 16;
                tok = warp_xrealloc(tok, tcap * sizeof *tok);
            }
            tok[n++] = s;
        }
        if (n)
            fn(ctx, tok, n);
    }
    if (ferror(f))
        warp_fatal(WARP_EXIT_USAGE, "%s: read error after line %llu (%s); check the file", path,
                   (unsigned long long)*line, strerror(errno));
    free(tok);
    free(buf);
}

static void one_line(void *ctx, char **tok, int n)
{
    reader *rd = ctx;
    if (rd->format == GRAPH_ANYNET)
        anynet_line(rd, tok, n);
    else
        edges_line(rd, tok, n);
}

static void scan(reader *rd, FILE *f)
{
    rd->links = 0;
    graph_each_line(f, rd->path, &rd->line, one_line, rd);
}

static int by_ends(const void *x, const void *y)
{
    const graph_link *a = x, *b = y;
    if (a->a != b->a)
        return a->a < b->a ? -1 : 1;
    if (a->b != b->b)
        return a->b < b->b ? -1 : 1;
    return a->line < b->line ? -1 : a->line > b->line;
}

/* anynet names a link from both ends: one link, its attributes merged. */
static void merge_links(reader *rd)
{
    graph_desc *g = rd->g;
    qsort(g->links, g->nlinks, sizeof *g->links, by_ends);
    uint64_t w = 0;
    for (uint64_t i = 0; i < g->nlinks; i++) {
        graph_link *l = &g->links[i], *k = w ? &g->links[w - 1] : NULL;
        if (!k || k->a != l->a || k->b != l->b) {
            g->links[w++] = *l;
            continue;
        }
        if ((l->bandwidth > 0 && k->bandwidth > 0 && l->bandwidth != k->bandwidth) ||
            (l->latency >= 0 && k->latency >= 0 && l->latency != k->latency)) {
            rd->line = l->line;
            char what[200];
            snprintf(what, sizeof what, "link router %llu - router %llu has other attributes than on line %llu",
                     (unsigned long long)l->a, (unsigned long long)l->b, (unsigned long long)k->line);
            fail(rd, what, "give a link's bandwidth and latency once, or the same both times");
        }
        if (l->bandwidth > 0)
            k->bandwidth = l->bandwidth;
        if (l->latency >= 0)
            k->latency = l->latency;
    }
    g->nlinks = w;
}

void graph_read(const char *path, graph_format format, uint64_t terminals, double max_bytes,
                graph_desc *g)
{
    memset(g, 0, sizeof *g);
    FILE *f = fopen(path, "r");
    if (!f)
        warp_fatal(WARP_EXIT_USAGE, "%s: cannot open the network file (%s); check [graph] file",
                   path, strerror(errno));
    reader rd = {.path = path, .format = format, .pass = 1, .g = g};
    scan(&rd, f);
    uint64_t R = rd.max_router, E = rd.links;
    uint64_t N = format == GRAPH_EDGES ? R * terminals : rd.max_node;
    if (!R || !N)
        warp_fatal(WARP_EXIT_USAGE, "%s: no %s; %s", path, R ? "nodes" : "routers",
                   format == GRAPH_ANYNET ? "attach nodes with lines such as 'router 0 node 0 node 1'"
                                          : "give links as lines 'A B'");
    double need = (double)E * sizeof(graph_link) + (double)N * 48 + (double)R * R + (double)R * 64;
    if (need > max_bytes)
        warp_fatal(WARP_EXIT_USAGE,
                   "%s: %llu routers, %llu link entries and %llu nodes need about %.1f GiB to read and "
                   "route (a routers x routers distance table); the limit is %.1f GiB: raise [graph] "
                   "max_memory or give a smaller network",
                   path, (unsigned long long)R, (unsigned long long)E, (unsigned long long)N,
                   need / 1073741824.0, max_bytes / 1073741824.0);
    g->routers = R;
    g->nodes = N;
    g->nlinks = E;
    g->links = warp_xcalloc(E ? E : 1, sizeof *g->links);
    g->node_router = warp_xcalloc(N, sizeof *g->node_router);
    g->node_bandwidth = warp_xcalloc(N, sizeof *g->node_bandwidth);
    g->node_latency = warp_xcalloc(N, sizeof *g->node_latency);
    for (uint64_t t = 0; t < N; t++) {
        g->node_router[t] = format == GRAPH_EDGES ? t / terminals : UINT64_MAX;
        g->node_bandwidth[t] = g->node_latency[t] = -1;
    }
    rd.named = warp_xcalloc(R, 1);
    rd.node_line = warp_xcalloc(N, sizeof *rd.node_line);
    rd.pass = 2;
    rewind(f);
    scan(&rd, f);
    fclose(f);
    if (rd.links != E)
        warp_fatal(WARP_EXIT_USAGE, "%s: changed while it was read; read it again", path);
    for (uint64_t t = 0; format == GRAPH_ANYNET && t < N; t++)
        if (g->node_router[t] == UINT64_MAX)
            warp_fatal(WARP_EXIT_USAGE,
                       "%s: node %llu has no router (nodes are 0 .. %llu, every one attached); "
                       "attach it with 'router R node %llu'",
                       path, (unsigned long long)t, (unsigned long long)(N - 1), (unsigned long long)t);
    for (uint64_t r = 0; format == GRAPH_ANYNET && r < R; r++)
        if (!rd.named[r])
            warp_fatal(WARP_EXIT_USAGE,
                       "%s: router %llu is never named (routers are 0 .. %llu without gaps); "
                       "name it or renumber the routers",
                       path, (unsigned long long)r, (unsigned long long)(R - 1));
    free(rd.named);
    free(rd.node_line);
    if (format == GRAPH_ANYNET)
        merge_links(&rd);
    else
        qsort(g->links, g->nlinks, sizeof *g->links, by_ends);
}

void graph_desc_free(graph_desc *g)
{
    free(g->links);
    free(g->node_router);
    free(g->node_bandwidth);
    free(g->node_latency);
    memset(g, 0, sizeof *g);
}
