/* pcap.c — the reader of packet captures (pcap and pcapng, through
 * libpcap; docs/pcap-replay.md): one file, or a directory of per-host
 * files merged by time. Invariant: open() decodes every packet once and
 * keeps only the messages (pcap_msgs.c); load(r) builds rank r's graph
 * from them (cap_rank_graph), so a rank's graph never depends on which
 * process loads it. Called through replay_source_open. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <dirent.h>
#include <errno.h>
#include <pcap/pcap.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "replay/readers/pcap_msgs.h"
#include "replay/readers/source.h"
#include "warp_error.h"
#include "warp_ini.h"

typedef struct pcap_opts {
    int causal;
    int64_t coalesce_ns;
    char map[256];
} pcap_opts;

typedef struct pcap_src {
    replay_capture cap;
    cap_index ix;
} pcap_src;

/* ---- reading the files ------------------------------------------------------- */

typedef struct pkt_list {
    cap_pkt *p;
    size_t n, cap;
    uint64_t skipped;
} pkt_list;

static int read_file(const char *path, uint32_t file, pkt_list *L, replay_err *err)
{
    char eb[PCAP_ERRBUF_SIZE] = "";
    pcap_t *pc = pcap_open_offline_with_tstamp_precision(path, PCAP_TSTAMP_PRECISION_NANO, eb);
    if (!pc)
        return replay_errf(err, "%s: not a capture libpcap reads (%s); give a pcap or pcapng file", path, eb);
    int dlt = pcap_datalink(pc);
    if (!cap_linktype_known(dlt)) {
        const char *name = pcap_datalink_val_to_name(dlt);
        pcap_close(pc);
        return replay_errf(err, "%s: link type %d (%s) is not one the pcap reader decodes (Ethernet, Linux "
                           "cooked, raw IP, loopback); capture on another interface or convert the file",
                           path, dlt, name ? name : "unnamed");
    }
    struct pcap_pkthdr *h;
    const u_char *data;
    uint64_t number = 0;
    int rc;
    while ((rc = pcap_next_ex(pc, &h, &data)) == 1) {
        number++;
        cap_pkt p;
        const char *why = NULL;
        int d = cap_decode(dlt, data, h->caplen, &p, &why);
        if (d < 0) {
            replay_errf(err, "%s: packet %llu (%u of %u bytes captured): %s", path, (unsigned long long)number,
                        h->caplen, h->len, why);
            pcap_close(pc);
            return -1;
        }
        if (d > 0) {
            L->skipped++;
            continue;
        }
        p.ts_ns = (int64_t)h->ts.tv_sec * 1000000000 + (int64_t)h->ts.tv_usec;
        p.file = file;
        p.number = number;
        if (L->n == L->cap) {
            L->cap = L->cap ? 2 * L->cap : 1024;
            L->p = warp_xrealloc(L->p, L->cap * sizeof *L->p);
        }
        L->p[L->n++] = p;
    }
    if (rc == PCAP_ERROR) {
        replay_errf(err, "%s: after packet %llu: %s; the capture is damaged or was cut while being written "
                    "(keep the packets before it with editcap -r)", path, (unsigned long long)number,
                    pcap_geterr(pc));
        pcap_close(pc);
        return -1;
    }
    pcap_close(pc);
    return 0;
}

static int capture_name(const char *n)
{
    return replay_path_ends_with(n, ".pcap") || replay_path_ends_with(n, ".pcapng") ||
           replay_path_ends_with(n, ".cap");
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Every packet of path (a file, or a directory of per-host captures in name order). */
static int read_all(const char *path, pkt_list *L, replay_err *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return replay_errf(err, "%s: cannot open: %s; check the capture path", path, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        return read_file(path, 0, L, err);
    DIR *d = opendir(path);
    if (!d)
        return replay_errf(err, "%s: cannot read the directory: %s", path, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));)
        if (capture_name(e->d_name)) {
            if (n == cap) {
                cap = cap ? 2 * cap : 16;
                names = warp_xrealloc(names, cap * sizeof *names);
            }
            size_t len = strlen(path) + strlen(e->d_name) + 2;
            names[n] = warp_xcalloc(len, 1);
            snprintf(names[n++], len, "%s/%s", path, e->d_name);
        }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    int rc = n ? 0 : replay_errf(err, "%s: the directory holds no *.pcap, *.pcapng or *.cap file", path);
    for (size_t i = 0; i < n; i++) {
        if (!rc)
            rc = read_file(names[i], (uint32_t)i, L, err);
        free(names[i]);
    }
    free(names);
    return rc;
}

static int read_map(const char *path, cap_map *m, replay_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return replay_errf(err, "%s: cannot open the endpoint map (pcap_map): %s", path, strerror(errno));
    char *text = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            cap = cap ? 2 * cap : 4096;
            text = warp_xrealloc(text, cap);
        }
        size_t got = fread(text + n, 1, cap - n, f);
        n += got;
        if (!got)
            break;
    }
    fclose(f);
    int rc = cap_map_parse(text, n, path, m, err);
    free(text);
    return rc;
}

/* ---- graphs ------------------------------------------------------------------- */

static int pcap_load(replay_source *s, int32_t rank, replay_rank *out, replay_err *err)
{
    const pcap_src *P = s->impl;
    return cap_rank_graph(&P->cap, &P->ix, ((const pcap_opts *)s->opts)->causal, rank, s->path, out, err);
}

static const replay_capture *pcap_capture(const replay_source *s)
{
    return &((const pcap_src *)s->impl)->cap;
}

static void pcap_close_src(replay_source *s)
{
    pcap_src *P = s->impl;
    cap_capture_free(&P->cap);
    cap_index_free(&P->ix);
    free(P);
}

static const replay_source_ops pcap_ops = {
    .format = "pcap",
    .load = pcap_load,
    .close = pcap_close_src,
    .capture = pcap_capture,
};

static int capture_open(const char *path, const void *opts, replay_source **out, replay_err *err)
{
    const pcap_opts *o = opts;
    pkt_list L = {0};
    cap_map map = {0};
    if (o->map[0] && read_map(o->map, &map, err))
        return -1;
    if (read_all(path, &L, err)) {
        free(L.p);
        cap_map_free(&map);
        return -1;
    }
    if (!L.n) {
        free(L.p);
        cap_map_free(&map);
        return replay_errf(err, "%s: no TCP or UDP packet over IPv4 or IPv6 in the capture (%llu other frames); "
                           "nothing to replay", path, (unsigned long long)L.skipped);
    }
    uint64_t back = cap_sort(L.p, L.n);
    pcap_src *P = warp_xcalloc(1, sizeof *P);
    int32_t nranks;
    int rc = cap_build(L.p, L.n, o->map[0] ? &map : NULL, o->coalesce_ns, path, &P->cap, &nranks, err);
    free(L.p);
    cap_map_free(&map);
    if (rc) {
        free(P);
        return -1;
    }
    P->cap.skipped = L.skipped;
    P->cap.reordered = back;
    cap_index_build(&P->cap, nranks, &P->ix);
    *out = replay_source_new(&pcap_ops, path, o, sizeof *o, nranks, P);
    return 0;
}

/* ---- keys and the descriptor --------------------------------------------------- */

static const char *set_mode(void *target, const char *v)
{
    pcap_opts *o = target;
    if (v && !strcmp(v, "causal"))
        o->causal = 1;
    else if (v && !strcmp(v, "open-loop"))
        o->causal = 0;
    else
        return "must be causal (replies wait for what they answer) or open-loop (captured send times)";
    return NULL;
}

static const char *set_map(void *target, const char *v)
{
    pcap_opts *o = target;
    if (!v || strlen(v) >= sizeof o->map)
        return "give the endpoint map's path (at most 255 characters)";
    snprintf(o->map, sizeof o->map, "%s", v);
    return NULL;
}

static const char *set_coalesce(void *target, const char *v)
{
    double ns;
    const char *why;
    if (warp_parse_time_ns(v ? v : "", &ns, &why))
        return why;
    if (ns < 0)
        return "must not be negative";
    ((pcap_opts *)target)->coalesce_ns = (int64_t)ns;
    return NULL;
}

static const warp_cfg_opt pcap_keys[] = {
    {"pcap_mode", "causal|open-loop", "causal", "pcap: replies wait for the data they answer, or every message "
     "leaves at its captured time", set_mode},
    {"pcap_map", "FILE", "", "pcap: endpoint map, lines 'ADDRESS[:PORT] RANK' (default: one rank per address)",
     set_map},
    {"pcap_coalesce", "TIME", "1ms", "pcap: longest gap between segments of one message", set_coalesce},
    {0},
};

static const pcap_opts pcap_dflt = {.causal = 1, .coalesce_ns = 1000000};

/* *.pcap, *.pcapng, *.cap, the pcap and pcapng magic numbers, or a
 * directory of such files. */
static int pcap_sniff(const char *path)
{
    static const char *magic[] = {"\xd4\xc3\xb2\xa1", "\xa1\xb2\xc3\xd4", "\x4d\x3c\xb2\xa1",
                                  "\xa1\xb2\x3c\x4d", "\x0a\x0d\x0d\x0a"};
    if (capture_name(path))
        return 3;
    for (size_t i = 0; i < sizeof magic / sizeof *magic; i++)
        if (replay_file_starts_with(path, magic[i]))
            return 3;
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode))
        return 0;
    DIR *d = opendir(path);
    int found = 0;
    for (struct dirent *e; d && !found && (e = readdir(d));)
        found = capture_name(e->d_name);
    if (d)
        closedir(d);
    return found ? 2 : 0;
}

const replay_reader replay_reader_pcap = {
    .name = "pcap",
    .sniff = pcap_sniff,
    .open = capture_open,
    .keys = pcap_keys,
    .opts_size = sizeof(pcap_opts),
    .dflt = &pcap_dflt,
};
