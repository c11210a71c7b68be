/* dragonfly_files.c — reads CODES's dragonfly-custom intra- and inter-group
 * files (formats in dragonfly_files.h).
 * Invariant: a table it returns is an involution on the connected global
 * ports (each port's far end leads back) joining every pair of groups, as
 * dfly_global_peer promises. Called by the dragonfly topology's setup. */
#include "dragonfly/dragonfly_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The file's int32 entries of `width` ints: a heap array (count in *n), or
 * NULL with the reason in why. */
static int32_t *read_entries(const char *path, int width, uint64_t *count, char *why, size_t n)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(why, n, "%s: cannot open (%s); give the path of CODES's connection file",
                 path, strerror(errno));
        return NULL;
    }
    long size = -1;
    if (fseek(f, 0, SEEK_END) == 0)
        size = ftell(f);
    int32_t *v = NULL;
    if (size >= 0 && fseek(f, 0, SEEK_SET) == 0 && size % (4 * width) == 0) {
        v = malloc(size ? (size_t)size : 1);
        if (v && fread(v, 1, (size_t)size, f) != (size_t)size) {
            free(v);
            v = NULL;
        }
    }
    fclose(f);
    if (!v) {
        if (size >= 0 && size % (4 * width) != 0)
            snprintf(why, n, "%s: %ld bytes is not a whole number of %d-byte entries (%d ints "
                     "each, as CODES writes them)", path, size, 4 * width, width);
        else
            snprintf(why, n, "%s: cannot read it whole", path);
        return NULL;
    }
    *count = (uint64_t)size / (uint64_t)(4 * width);
    return v;
}

int dfly_read_codes_intra(const char *path, uint32_t rows, uint32_t cols, uint32_t *row_links,
                          uint32_t *col_links, char *why, size_t n)
{
    uint64_t count;
    int32_t *v = read_entries(path, 3, &count, why, n);
    if (!v)
        return -1;
    uint32_t a = rows * cols;
    uint32_t *links = calloc((size_t)a * a, sizeof *links);
    int bad = !links;
    if (bad)
        snprintf(why, n, "%s: out of memory for %u x %u routers", path, a, a);
    for (uint64_t e = 0; e < count && !bad; e++) {
        int32_t src = v[3 * e], dst = v[3 * e + 1], type = v[3 * e + 2];
        bad = 1;
        if (src < 0 || (uint32_t)src >= a || dst < 0 || (uint32_t)dst >= a)
            snprintf(why, n, "%s: entry %llu (bytes %llu-%llu): router %d or %d outside the %u "
                     "routers of a %u x %u group; check rows and columns",
                     path, (unsigned long long)e, (unsigned long long)e * 12,
                     (unsigned long long)e * 12 + 11, src, dst, a, rows, cols);
        else if (type != 0 && type != 1)
            snprintf(why, n, "%s: entry %llu (bytes %llu-%llu): type %d is neither 0 (row) nor "
                     "1 (column)", path, (unsigned long long)e, (unsigned long long)e * 12,
                     (unsigned long long)e * 12 + 11, type);
        else if (src == dst || (type == 0 ? (uint32_t)src / cols != (uint32_t)dst / cols
                                          : (uint32_t)src % cols != (uint32_t)dst % cols))
            snprintf(why, n, "%s: entry %llu (bytes %llu-%llu): routers %d and %d are not in the "
                     "same %s of a %u x %u group", path, (unsigned long long)e,
                     (unsigned long long)e * 12, (unsigned long long)e * 12 + 11, src, dst,
                     type == 0 ? "row" : "column", rows, cols);
        else
            bad = 0, links[(size_t)src * a + (size_t)dst]++;
    }
    /* Every pair of a row the same count, every pair of a column too. */
    uint32_t want[2] = {0, 0};
    for (uint32_t x = 0; x < a && !bad; x++)
        for (uint32_t y = 0; y < a && !bad; y++) {
            int row = x / cols == y / cols, col = x % cols == y % cols;
            if (x == y || (!row && !col))
                continue;
            uint32_t k = links[(size_t)x * a + y], *w = &want[col];
            if (*w == 0)
                *w = k;
            if (k == 0 || k != *w || k != links[(size_t)y * a + x]) {
                snprintf(why, n, "%s: routers %u and %u (same %s) have %u links from %u and %u "
                         "back, where the first pair of a %s has %u; warpnet's Cascade groups "
                         "need the same nonzero count both ways for every pair of a %s",
                         path, x, y, col ? "column" : "row", k, x, links[(size_t)y * a + x],
                         col ? "column" : "row", *w, col ? "column" : "row");
                bad = 1;
            }
        }
    free(links);
    free(v);
    if (bad)
        return -1;
    *row_links = want[0] ? want[0] : 1;
    *col_links = want[1] ? want[1] : 1;
    return 0;
}

/* An entry of the inter file with its place: router src's global port. */
typedef struct inter_entry {
    uint32_t src, dst, nth, port;
    uint64_t at; /* entry index, for errors */
} inter_entry;

/* Order by (src, dst, port): the entries of each link src -> dst in file
 * order, so that their ranks (nth) rise along the array too. */
static int by_port(const void *x, const void *y)
{
    const inter_entry *p = x, *q = y;
    if (p->src != q->src)
        return p->src < q->src ? -1 : 1;
    if (p->dst != q->dst)
        return p->dst < q->dst ? -1 : 1;
    return p->port < q->port ? -1 : p->port > q->port;
}

static int by_nth(const void *x, const void *y)
{
    const inter_entry *p = x, *q = y;
    if (p->src != q->src)
        return p->src < q->src ? -1 : 1;
    if (p->dst != q->dst)
        return p->dst < q->dst ? -1 : 1;
    return p->nth < q->nth ? -1 : p->nth > q->nth;
}

void dfly_wiring_free(dfly_wiring *w)
{
    if (!w)
        return;
    free(w->far);
    free(w->first);
    free(w->port);
    free(w);
}

size_t dfly_wiring_bytes(const dfly_wiring *w, const dfly_shape *s)
{
    if (!w)
        return 0;
    uint64_t ports = (uint64_t)s->g * s->a * s->h;
    return sizeof *w + ports * (sizeof *w->far + sizeof *w->port) +
           ((uint64_t)s->g * s->g + 1) * sizeof *w->first;
}

/* Fills w->first and w->port (the ports of each group to each other group)
 * and the pair counts from w->far; returns 0, or -1 when two groups share
 * no link. */
static int index_pairs(dfly_wiring *w, const dfly_shape *s, const char *path, char *why, size_t n)
{
    uint64_t P = (uint64_t)s->a * s->h, G = s->g;
    for (uint64_t i = 0; i < G; i++)
        for (uint64_t j = 0; j < P; j++)
            if (w->far[i * P + j] != UINT64_MAX)
                w->first[i * G + w->far[i * P + j] / P + 1]++;
    for (uint64_t k = 0; k < G * G; k++)
        w->first[k + 1] += w->first[k];
    uint32_t *fill = calloc(G * G, sizeof *fill);
    if (!fill) {
        snprintf(why, n, "%s: out of memory for the group pairs", path);
        return -1;
    }
    for (uint64_t i = 0; i < G; i++)
        for (uint64_t j = 0; j < P; j++)
            if (w->far[i * P + j] != UINT64_MAX) {
                uint64_t d = w->far[i * P + j] / P;
                w->port[w->first[i * G + d] + fill[i * G + d]++] = (uint32_t)j;
            }
    free(fill);
    w->min_pair = UINT32_MAX;
    for (uint64_t i = 0; i < G; i++)
        for (uint64_t d = 0; d < G; d++) {
            if (i == d)
                continue;
            uint32_t k = w->first[i * G + d + 1] - w->first[i * G + d];
            if (k == 0) {
                snprintf(why, n, "%s: groups %llu and %llu share no global link; warpnet's "
                         "dragonfly routing needs every pair of groups joined",
                         path, (unsigned long long)i, (unsigned long long)d);
                return -1;
            }
            w->min_pair = k < w->min_pair ? k : w->min_pair;
            w->max_pair = k > w->max_pair ? k : w->max_pair;
        }
    return 0;
}

dfly_wiring *dfly_read_codes_inter(const char *path, const dfly_shape *s, char *why, size_t n)
{
    uint64_t count;
    int32_t *v = read_entries(path, 2, &count, why, n);
    if (!v)
        return NULL;
    uint64_t routers = (uint64_t)s->g * s->a, P = (uint64_t)s->a * s->h;
    dfly_wiring *w = calloc(1, sizeof *w);
    inter_entry *e = malloc((count ? count : 1) * sizeof *e);
    uint32_t *used = calloc(routers, sizeof *used);
    if (w) {
        w->far = malloc(routers * s->h * sizeof *w->far);
        w->first = calloc((uint64_t)s->g * s->g + 1, sizeof *w->first);
        w->port = malloc(routers * s->h * sizeof *w->port);
    }
    int bad = !w || !e || !used || !w->far || !w->first || !w->port;
    if (bad)
        snprintf(why, n, "%s: out of memory for %llu entries", path, (unsigned long long)count);
    for (uint64_t k = 0; !bad && k < routers * s->h; k++)
        w->far[k] = UINT64_MAX;
    for (uint64_t k = 0; k < count && !bad; k++) {
        int64_t src = v[2 * k], dst = v[2 * k + 1];
        bad = 1;
        if (src < 0 || (uint64_t)src >= routers || dst < 0 || (uint64_t)dst >= routers)
            snprintf(why, n, "%s: entry %llu (bytes %llu-%llu): router %lld or %lld outside the "
                     "%llu routers of g = %u groups of a = %u; check g, rows and columns",
                     path, (unsigned long long)k, (unsigned long long)k * 8,
                     (unsigned long long)k * 8 + 7, (long long)src, (long long)dst,
                     (unsigned long long)routers, s->g, s->a);
        else if (src / s->a == dst / s->a)
            snprintf(why, n, "%s: entry %llu (bytes %llu-%llu): routers %lld and %lld are both "
                     "in group %lld; a global link joins two groups", path, (unsigned long long)k,
                     (unsigned long long)k * 8, (unsigned long long)k * 8 + 7, (long long)src,
                     (long long)dst, (long long)(src / s->a));
        else if (used[src] == s->h)
            snprintf(why, n, "%s: entry %llu (bytes %llu-%llu): router %lld has more than h = %u "
                     "global links; raise h (CODES's num_global_channels)", path,
                     (unsigned long long)k, (unsigned long long)k * 8,
                     (unsigned long long)k * 8 + 7, (long long)src, s->h);
        else {
            bad = 0;
            e[k] = (inter_entry){(uint32_t)src, (uint32_t)dst, 0, used[src]++, k};
        }
    }
    /* nth: the entry's rank among the entries src -> dst, in file order. */
    if (!bad) {
        qsort(e, count, sizeof *e, by_port);
        for (uint64_t k = 0; k < count; k++)
            e[k].nth = k > 0 && e[k - 1].src == e[k].src && e[k - 1].dst == e[k].dst
                           ? e[k - 1].nth + 1 : 0;
    }
    for (uint64_t k = 0; k < count && !bad; k++) {
        inter_entry key = {e[k].dst, e[k].src, e[k].nth, 0, 0};
        inter_entry *back = bsearch(&key, e, count, sizeof *e, by_nth);
        if (!back) {
            snprintf(why, n, "%s: entry %llu (bytes %llu-%llu): link %u -> %u (number %u between "
                     "them) has no entry %u -> %u to pair with; list every link from both ends",
                     path, (unsigned long long)e[k].at, (unsigned long long)e[k].at * 8,
                     (unsigned long long)e[k].at * 8 + 7, e[k].src, e[k].dst, e[k].nth + 1,
                     e[k].dst, e[k].src);
            bad = 1;
            break;
        }
        uint64_t j = (uint64_t)(e[k].src % s->a) * s->h + e[k].port;
        uint64_t fj = (uint64_t)(back->src % s->a) * s->h + back->port;
        w->far[(uint64_t)(e[k].src / s->a) * P + j] = (uint64_t)(back->src / s->a) * P + fj;
    }
    if (!bad) {
        for (uint64_t k = 0; k < routers * s->h; k++)
            w->unconnected += w->far[k] == UINT64_MAX;
        w->links = (routers * s->h - w->unconnected) / 2;
        bad = index_pairs(w, s, path, why, n) != 0;
    }
    free(v);
    free(e);
    free(used);
    if (bad) {
        dfly_wiring_free(w);
        return NULL;
    }
    return w;
}
