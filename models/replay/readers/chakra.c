/* chakra.c — the Chakra execution-trace reader (format = chakra): one file
 * per rank, NAME.RANK.et, each a GlobalMetadata message then Node messages,
 * every message preceded by its length as a varint (Chakra's protoio), the
 * schema compiled from chakra/et_def.proto with protoc-c.
 * Invariant: opening checks only that NAME.0.et .. NAME.(n-1).et all exist;
 * each rank's file is read when that rank loads, and any byte the schema
 * cannot explain stops the load with the file and byte offset.
 * Listed by REPLAY_READERS in models/replay/local.mk when protobuf-c is found. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/chakra.h"
#include "replay/readers/source.h"
#include "warp_error.h"
#include "warp_ini.h"

typedef struct ck_opts {
    double flops_per_ns; /* flops_rate, FLOP/s / 1e9 */
    double bytes_per_ns; /* memory_bandwidth */
} ck_opts;

/* ---- framing ------------------------------------------------------------------- */

/* A varint at *pos: 0, or -1 when it runs past the end or beyond 10 bytes. */
static int varint(const uint8_t *b, size_t n, size_t *pos, uint64_t *v)
{
    *v = 0;
    for (int i = 0; i < 10; i++) {
        if (*pos >= n)
            return -1;
        uint8_t c = b[(*pos)++];
        *v |= (uint64_t)(c & 0x7f) << (7 * i);
        if (!(c & 0x80))
            return 0;
    }
    return -1;
}

void ck_free_nodes(ChakraProtoMsg__Node **nodes, size_t n)
{
    for (size_t i = 0; i < n; i++)
        chakra_proto_msg__node__free_unpacked(nodes[i], NULL);
    free(nodes);
}

int ck_decode(const uint8_t *buf, size_t len, const char *path, ChakraProtoMsg__Node ***nodes, size_t *n,
              replay_err *err)
{
    *nodes = NULL;
    *n = 0;
    if (len >= 2 && buf[0] == 0x1f && buf[1] == 0x8b)
        return replay_errf(err, "%s: gzip-compressed; decompress it (gunzip) and give the .et file", path);
    size_t pos = 0, cap = 0;
    for (uint64_t msg = 0; pos < len; msg++) {
        size_t at = pos;
        uint64_t size;
        if (varint(buf, len, &pos, &size)) {
            ck_free_nodes(*nodes, *n);
            *nodes = NULL, *n = 0;
            return replay_errf(err, "%s: message %llu at byte %zu: its length is not a valid varint; the file is "
                               "truncated or not a Chakra trace", path, (unsigned long long)msg, at);
        }
        if (size > len - pos) {
            ck_free_nodes(*nodes, *n);
            *nodes = NULL, *n = 0;
            return replay_errf(err, "%s: message %llu at byte %zu claims %llu bytes but the file ends %zu bytes "
                               "later; it is truncated", path, (unsigned long long)msg, at,
                               (unsigned long long)size, len - pos);
        }
        if (msg == 0) {
            ChakraProtoMsg__GlobalMetadata *g =
                chakra_proto_msg__global_metadata__unpack(NULL, (size_t)size, buf + pos);
            if (!g)
                return replay_errf(err, "%s: the first message (byte %zu) is not Chakra's GlobalMetadata; "
                                   "not a Chakra execution trace", path, at);
            chakra_proto_msg__global_metadata__free_unpacked(g, NULL);
        } else {
            ChakraProtoMsg__Node *nd = chakra_proto_msg__node__unpack(NULL, (size_t)size, buf + pos);
            if (!nd) {
                ck_free_nodes(*nodes, *n);
                *nodes = NULL, *n = 0;
                return replay_errf(err, "%s: message %llu at byte %zu is not a Chakra Node (protobuf-c refused "
                                   "it); the file is corrupt", path, (unsigned long long)msg, at);
            }
            if (*n == cap) {
                cap = cap ? 2 * cap : 64;
                *nodes = warp_xrealloc(*nodes, cap * sizeof **nodes);
            }
            (*nodes)[(*n)++] = nd;
        }
        pos += (size_t)size;
    }
    if (!len)
        return replay_errf(err, "%s: empty file; a Chakra trace starts with its GlobalMetadata", path);
    return 0;
}

/* ---- files --------------------------------------------------------------------- */

typedef struct ck_src {
    char *prefix; /* NAME: rank r is NAME.r.et */
} ck_src;

static char *rank_file(const char *prefix, int64_t r)
{
    size_t n = strlen(prefix) + 32;
    char *p = warp_xcalloc(n, 1);
    snprintf(p, n, "%s.%lld.et", prefix, (long long)r);
    return p;
}

/* NAME from a path NAME.RANK.et, NAME. or NAME itself. */
static char *prefix_of(const char *path)
{
    char *p = warp_xstrdup(path);
    size_t n = strlen(p);
    if (n > 3 && !strcmp(p + n - 3, ".et")) {
        n -= 3;
        size_t d = n;
        while (d > 0 && p[d - 1] >= '0' && p[d - 1] <= '9')
            d--;
        if (d < n && d > 0 && p[d - 1] == '.')
            n = d - 1;
    } else if (n > 1 && p[n - 1] == '.') {
        n--;
    }
    p[n] = 0;
    return p;
}

/* The highest RANK of NAME.RANK.et in NAME's directory, or -1. */
static int64_t highest_rank(const char *prefix)
{
    const char *slash = strrchr(prefix, '/');
    char *dir = slash ? warp_xstrdup(prefix) : warp_xstrdup(".");
    if (slash)
        dir[slash - prefix == 0 ? 1 : slash - prefix] = 0;
    const char *base = slash ? slash + 1 : prefix;
    size_t bl = strlen(base);
    int64_t hi = -1;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        const char *s = e->d_name;
        if (strncmp(s, base, bl) || s[bl] != '.')
            continue;
        char *end;
        errno = 0;
        long long r = strtoll(s + bl + 1, &end, 10);
        if (end != s + bl + 1 && !strcmp(end, ".et") && errno != ERANGE && r >= 0 && r < INT32_MAX &&
            (s[bl + 1] != '0' || end == s + bl + 2) && r > hi)
            hi = r;
    }
    if (d)
        closedir(d);
    free(dir);
    return hi;
}

static int ck_load(replay_source *s, int32_t rank, replay_rank *out, replay_err *err)
{
    const ck_src *cs = s->impl;
    const ck_opts *o = s->opts;
    char *path = rank_file(cs->prefix, rank);
    FILE *f = fopen(path, "rb");
    if (!f) {
        replay_errf(err, "%s: cannot open: %s; rank %d's file of the trace must be there", path, strerror(errno),
                    rank);
        free(path);
        return -1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap) {
            cap = cap ? 2 * cap : 1 << 16;
            buf = warp_xrealloc(buf, cap);
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got);
    int bad = ferror(f);
    fclose(f);
    ChakraProtoMsg__Node **nodes = NULL;
    size_t n = 0;
    int rc = -1;
    if (bad)
        replay_errf(err, "%s: read error; check the file", path);
    else if (!ck_decode(buf, len, path, &nodes, &n, err)) {
        ck_ctx c = {.rank = rank, .nranks = s->nranks, .flops_per_ns = o ? o->flops_per_ns : 0,
                    .bytes_per_ns = o ? o->bytes_per_ns : 0, .coll = &s->coll, .path = path};
        rc = ck_map_nodes(&c, nodes, n, out, err);
    }
    ck_free_nodes(nodes, n);
    free(buf);
    free(path);
    return rc;
}

static void ck_close(replay_source *s)
{
    ck_src *cs = s->impl;
    free(cs->prefix);
    free(cs);
}

static const replay_source_ops ck_ops = {"chakra", ck_load, ck_close, NULL, NULL, NULL, NULL};

static int ck_open(const char *path, const void *opts, replay_source **out, replay_err *err)
{
    char *prefix = prefix_of(path);
    int64_t hi = highest_rank(prefix);
    if (hi < 0) {
        replay_errf(err, "%s: no Chakra rank files %s.0.et, %s.1.et, ...; give NAME or NAME.0.et of a trace", path,
                    prefix, prefix);
        free(prefix);
        return -1;
    }
    for (int64_t r = 0; r <= hi; r++) {
        char *f = rank_file(prefix, r);
        FILE *fp = fopen(f, "rb");
        if (!fp) {
            replay_errf(err, "%s: rank %lld's file is missing (%s), though the trace has files up to rank %lld; "
                        "every rank needs its NAME.RANK.et", path, (long long)r, f, (long long)hi);
            free(f);
            free(prefix);
            return -1;
        }
        fclose(fp);
        free(f);
    }
    ck_src *cs = warp_xcalloc(1, sizeof *cs);
    cs->prefix = prefix;
    *out = replay_source_new(&ck_ops, path, opts, sizeof(ck_opts), (int32_t)(hi + 1), cs);
    return 0;
}

/* ---- the reader's keys ------------------------------------------------------------ */

static const char *set_flops(void *target, const char *v)
{
    char *end;
    double x = v ? strtod(v, &end) : 0;
    if (!v || end == v || *end || !(x > 0) || x > 1e21)
        return "must be a rate in FLOP/s above 0, e.g. 312e12";
    ((ck_opts *)target)->flops_per_ns = x / 1e9;
    return NULL;
}

static const char *set_membw(void *target, const char *v)
{
    const char *why;
    double bw;
    if (!warp_parse_bandwidth(v ? v : "", &bw, &why))
        return why;
    if (!(bw > 0))
        return "must be above 0";
    ((ck_opts *)target)->bytes_per_ns = bw;
    return NULL;
}

static const warp_cfg_opt ck_keys[] = {
    {"flops_rate", "FLOP/s", NULL, "Chakra: compute nodes without a duration take num_ops / flops_rate", set_flops},
    {"memory_bandwidth", "RATE", NULL, "Chakra: memory nodes without a duration take tensor_size / memory_bandwidth",
     set_membw},
    {NULL, NULL, NULL, NULL, NULL},
};

static const ck_opts ck_dflt = {0, 0};

/* NAME.RANK.et, or NAME when NAME.0.et exists. */
static int ck_sniff(const char *path)
{
    if (replay_path_ends_with(path, ".et"))
        return 3;
    char *f = rank_file(path, 0);
    FILE *fp = fopen(f, "rb");
    free(f);
    if (fp)
        fclose(fp);
    return fp ? 2 : 0;
}

const replay_reader replay_reader_chakra = {
    .name = "chakra",
    .sniff = ck_sniff,
    .open = ck_open,
    .keys = ck_keys,
    .opts_size = sizeof(ck_opts),
    .dflt = &ck_dflt,
};
