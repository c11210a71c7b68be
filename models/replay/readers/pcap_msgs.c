/* pcap_msgs.c — captured frames to replayed messages (pcap_msgs.h), the
 * part of the pcap reader that needs no libpcap: frame decoding, the
 * endpoint map, and the message rules of docs/pcap-replay.md.
 * Invariant: every read of a frame stays inside its captured bytes, and a
 * message's bytes are new TCP sequence space (or a whole UDP datagram), so
 * retransmitted and duplicated data is never replayed twice. Called by
 * pcap.c, the unit tests and the fuzz harness. */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/pcap_msgs.h"
#include "warp_error.h"

/* ---- frames ----------------------------------------------------------------- */

static uint32_t be16(const uint8_t *b) { return (uint32_t)b[0] << 8 | b[1]; }
static uint32_t be32(const uint8_t *b) { return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3]; }

/* Link types by their file numbers (LINKTYPE_*) and the DLT_* libpcap
 * hands back for them on Linux. */
enum {
    LT_NULL = 0, LT_EN10MB = 1, LT_RAW_DLT = 12, LT_RAW_DLT_BSD = 14, LT_RAW = 101, LT_LOOP = 108,
    LT_SLL = 113, LT_IPV4 = 228, LT_IPV6 = 229, LT_SLL2 = 276
};

int cap_linktype_known(int dlt)
{
    switch (dlt) {
    case LT_NULL: case LT_EN10MB: case LT_RAW_DLT: case LT_RAW_DLT_BSD: case LT_RAW: case LT_LOOP:
    case LT_SLL: case LT_IPV4: case LT_IPV6: case LT_SLL2:
        return 1;
    default:
        return 0;
    }
}

/* The offset of the IP header and its version (4 or 6) in a frame; 1 when
 * the frame carries no IP, -1 when its link header is cut. */
static int link_layer(int dlt, const uint8_t *b, uint32_t caplen, uint32_t *off, int *ver)
{
    uint32_t type;
    switch (dlt) {
    case LT_EN10MB:
        if (caplen < 14)
            return -1;
        *off = 14;
        type = be16(b + 12);
        for (int tags = 0; (type == 0x8100 || type == 0x88a8) && tags < 2; tags++) {
            if (caplen < *off + 4)
                return -1;
            type = be16(b + *off + 2);
            *off += 4;
        }
        break;
    case LT_SLL:
        if (caplen < 16)
            return -1;
        *off = 16;
        type = be16(b + 14);
        break;
    case LT_SLL2:
        if (caplen < 20)
            return -1;
        *off = 20;
        type = be16(b);
        break;
    case LT_NULL:
    case LT_LOOP: {
        if (caplen < 4)
            return -1;
        *off = 4;
        uint32_t fam = be32(b), swapped = (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
        uint32_t f = fam < swapped ? fam : swapped;
        type = f == 2 ? 0x0800 : (f == 10 || f == 24 || f == 28 || f == 30) ? 0x86dd : 0;
        break;
    }
    default: /* raw IP: the version nibble says which */
        if (caplen < 1)
            return -1;
        *off = 0;
        type = (b[0] >> 4) == 4 ? 0x0800 : (b[0] >> 4) == 6 ? 0x86dd : 0;
        break;
    }
    if (type == 0x0800)
        *ver = 4;
    else if (type == 0x86dd)
        *ver = 6;
    else
        return 1;
    return 0;
}

int cap_decode(int dlt, const uint8_t *b, uint32_t caplen, cap_pkt *p, const char **why)
{
    uint32_t off;
    int ver;
    memset(p, 0, sizeof *p);
    int rc = link_layer(dlt, b, caplen, &off, &ver);
    if (rc) {
        *why = "its link-layer header is cut short";
        return rc;
    }
    uint32_t ip_payload, l4;
    uint8_t proto;
    if (ver == 4) {
        if (caplen < off + 20) {
            *why = "its IPv4 header is cut short (capture with a larger snap length, tcpdump -s)";
            return -1;
        }
        const uint8_t *ip = b + off;
        uint32_t ihl = (uint32_t)(ip[0] & 15) * 4, tot = be16(ip + 2);
        if ((ip[0] >> 4) != 4 || ihl < 20 || (tot && tot < ihl)) {
            *why = "its IPv4 header is malformed";
            return -1;
        }
        if (be16(ip + 6) & 0x1fff)
            return 1; /* a later fragment: its bytes were counted with the first */
        if (!tot) /* segmentation offload: the capture shows one super-frame of unknown length */
            tot = caplen - off;
        proto = ip[9];
        memcpy(p->src, ip + 12, 4);
        memcpy(p->dst, ip + 16, 4);
        ip_payload = tot - ihl;
        l4 = off + ihl;
    } else {
        if (caplen < off + 40) {
            *why = "its IPv6 header is cut short (capture with a larger snap length, tcpdump -s)";
            return -1;
        }
        const uint8_t *ip = b + off;
        p->v6 = 1;
        memcpy(p->src, ip + 8, 16);
        memcpy(p->dst, ip + 24, 16);
        ip_payload = be16(ip + 4);
        proto = ip[6];
        l4 = off + 40;
        for (int ext = 0; ext < 8 && (proto == 0 || proto == 43 || proto == 44 || proto == 60); ext++) {
            if (caplen < l4 + 8) {
                *why = "its IPv6 extension header is cut short";
                return -1;
            }
            uint32_t len = proto == 44 ? 8 : ((uint32_t)b[l4 + 1] + 1) * 8;
            if (proto == 44 && (be16(b + l4 + 2) & 0xfff8))
                return 1;
            if (len > ip_payload) {
                *why = "its IPv6 extension headers are longer than its payload";
                return -1;
            }
            proto = b[l4];
            ip_payload -= len;
            l4 += len;
        }
    }
    p->proto = proto;
    if (proto == 6) {
        if (caplen < l4 + 20) {
            *why = "its TCP header is cut short (capture with a larger snap length, tcpdump -s)";
            return -1;
        }
        const uint8_t *t = b + l4;
        uint32_t doff = (uint32_t)(t[12] >> 4) * 4;
        if (doff < 20 || doff > ip_payload) {
            *why = "its TCP header is malformed (data offset beyond the IP payload)";
            return -1;
        }
        p->sport = (uint16_t)be16(t);
        p->dport = (uint16_t)be16(t + 2);
        p->seq = be32(t + 4);
        p->ack = be32(t + 8);
        p->tcp_flags = t[13];
        p->payload = ip_payload - doff;
        return 0;
    }
    if (proto == 17) {
        if (caplen < l4 + 8) {
            *why = "its UDP header is cut short (capture with a larger snap length, tcpdump -s)";
            return -1;
        }
        if (ip_payload < 8) {
            *why = "its UDP datagram is shorter than a UDP header";
            return -1;
        }
        p->sport = (uint16_t)be16(b + l4);
        p->dport = (uint16_t)be16(b + l4 + 2);
        p->payload = ip_payload - 8;
        return 0;
    }
    return 1;
}

void cap_addr_str(const uint8_t *a, int v6, char *out, size_t cap)
{
    if (!inet_ntop(v6 ? AF_INET6 : AF_INET, a, out, (socklen_t)cap))
        snprintf(out, cap, "?");
}

/* ---- the endpoint map ------------------------------------------------------- */

/* Parses "ADDR", "ADDR:PORT", "[V6]:PORT" or a bare v6 address into e. */
static int parse_endpoint(char *w, cap_map_entry *e)
{
    char *port = NULL;
    if (w[0] == '[') {
        char *close = strchr(w, ']');
        if (!close)
            return -1;
        *close = 0;
        w++;
        if (close[1] == ':')
            port = close + 2;
        else if (close[1])
            return -1;
    } else {
        char *colon = strchr(w, ':');
        if (colon && !strchr(colon + 1, ':')) { /* one colon: IPv4 and a port */
            *colon = 0;
            port = colon + 1;
        }
    }
    if (inet_pton(AF_INET, w, e->addr) == 1)
        e->v6 = 0;
    else if (inet_pton(AF_INET6, w, e->addr) == 1)
        e->v6 = 1;
    else
        return -1;
    if (port) {
        char *end;
        unsigned long v = strtoul(port, &end, 10);
        if (end == port || *end || v > 65535)
            return -1;
        e->has_port = 1;
        e->port = (uint16_t)v;
    }
    return 0;
}

int cap_map_parse(const char *text, size_t len, const char *name, cap_map *m, replay_err *err)
{
    memset(m, 0, sizeof *m);
    size_t cap = 0;
    long line = 0;
    for (size_t pos = 0; pos < len;) {
        size_t end = pos;
        while (end < len && text[end] != '\n')
            end++;
        line++;
        char buf[256];
        size_t n = end - pos < sizeof buf - 1 ? end - pos : sizeof buf - 1;
        memcpy(buf, text + pos, n);
        buf[n] = 0;
        pos = end + 1;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = 0;
        char *save = NULL, *w = strtok_r(buf, " \t\r", &save), *r = w ? strtok_r(NULL, " \t\r", &save) : NULL;
        if (!w)
            continue;
        cap_map_entry e = {0};
        char *end_r = NULL;
        long rank = r ? strtol(r, &end_r, 10) : -1;
        if (strlen(w) >= 64 || parse_endpoint(w, &e) || !r || *end_r || rank < 0 || rank >= INT32_MAX ||
            strtok_r(NULL, " \t\r", &save)) {
            cap_map_free(m);
            return replay_errf(err, "%s:%ld: expected 'ADDRESS[:PORT] RANK' (e.g. 10.0.0.1:80 3, "
                               "[fe80::1]:80 3, 10.0.0.2 4)", name, line);
        }
        for (size_t k = 0; k < m->n; k++)
            if (m->e[k].v6 == e.v6 && m->e[k].has_port == e.has_port && m->e[k].port == e.port &&
                !memcmp(m->e[k].addr, e.addr, 16)) {
                cap_map_free(m);
                return replay_errf(err, "%s:%ld: endpoint %s given a second time; keep one line for it",
                                   name, line, w);
            }
        e.rank = (int32_t)rank;
        if (m->n == cap) {
            cap = cap ? 2 * cap : 16;
            m->e = warp_xrealloc(m->e, cap * sizeof *m->e);
        }
        m->e[m->n++] = e;
        if (e.rank + 1 > m->nranks)
            m->nranks = e.rank + 1;
    }
    if (!m->n)
        return replay_errf(err, "%s: the endpoint map has no lines; give 'ADDRESS[:PORT] RANK' lines", name);
    return 0;
}

void cap_map_free(cap_map *m)
{
    free(m->e);
    memset(m, 0, sizeof *m);
}

static int32_t map_lookup(const cap_map *m, const uint8_t *a, int v6, uint16_t port)
{
    int32_t any = -1;
    for (size_t k = 0; k < m->n; k++) {
        const cap_map_entry *e = &m->e[k];
        if (e->v6 != v6 || memcmp(e->addr, a, 16))
            continue;
        if (e->has_port && e->port == port)
            return e->rank;
        if (!e->has_port)
            any = e->rank;
    }
    return any;
}

/* ---- sorting ----------------------------------------------------------------- */

static int by_time(const void *x, const void *y)
{
    const cap_pkt *a = x, *b = y;
    if (a->ts_ns != b->ts_ns)
        return a->ts_ns < b->ts_ns ? -1 : 1;
    if (a->file != b->file) /* equal times: file order, then packet order (a stable sort) */
        return a->file < b->file ? -1 : 1;
    return a->number < b->number ? -1 : a->number > b->number;
}

uint64_t cap_sort(cap_pkt *pkts, size_t n)
{
    uint64_t back = 0;
    for (size_t i = 1; i < n; i++)
        back += pkts[i].file == pkts[i - 1].file && pkts[i].ts_ns < pkts[i - 1].ts_ns;
    qsort(pkts, n, sizeof *pkts, by_time);
    return back;
}

/* ---- addresses (one rank per IP) ------------------------------------------- */

typedef struct addr_key {
    uint8_t a[16];
    uint8_t v6;
} addr_key;

static int addr_cmp(const void *x, const void *y)
{
    const addr_key *a = x, *b = y;
    if (a->v6 != b->v6)
        return a->v6 - b->v6;
    return memcmp(a->a, b->a, 16);
}

/* ---- flows ------------------------------------------------------------------- */

typedef struct dir_state {
    int based, have_ack;
    uint32_t base, last_ack;
    int64_t hi; /* bytes of sequence space seen, from base */
} dir_state;

typedef struct flow {
    uint8_t a[16], b[16]; /* a: the side that sent the flow's first packet (its SYN, if captured) */
    uint16_t pa, pb;
    uint8_t v6, proto;
    int32_t ra, rb;
    dir_state d[2];
    int32_t open, last; /* the open message (-1: none) and the flow's last one */
} flow;

typedef struct builder {
    flow *f;
    size_t nf, capf;
    size_t *slot; /* hash table of flow indices + 1 */
    size_t cap_slot;
    replay_capture_msg *m;
    replay_capture_flow *fi;
    uint8_t *mdir;
    size_t nm, capm;
} builder;

static uint64_t mix(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull; }

static uint64_t flow_hash(const cap_pkt *p)
{
    /* Symmetric in the two endpoints: both directions find the flow. */
    uint64_t x = 0xcbf29ce484222325ull, y = x;
    for (int i = 0; i < 16; i++) {
        x = mix(x, p->src[i]);
        y = mix(y, p->dst[i]);
    }
    x = mix(x, p->sport);
    y = mix(y, p->dport);
    return (x ^ y) + (x + y) * 31 + p->proto * 7 + p->v6;
}

/* The direction of p in f: 0 from a, 1 from b, -1 not this flow. */
static int flow_dir(const flow *f, const cap_pkt *p)
{
    if (f->proto != p->proto || f->v6 != p->v6)
        return -1;
    if (f->pa == p->sport && f->pb == p->dport && !memcmp(f->a, p->src, 16) && !memcmp(f->b, p->dst, 16))
        return 0;
    if (f->pb == p->sport && f->pa == p->dport && !memcmp(f->b, p->src, 16) && !memcmp(f->a, p->dst, 16))
        return 1;
    return -1;
}

static void grow_slots(builder *B)
{
    size_t cap = B->cap_slot ? 2 * B->cap_slot : 1024;
    size_t *s = warp_xcalloc(cap, sizeof *s);
    for (size_t i = 0; i < B->cap_slot; i++)
        if (B->slot[i]) {
            const flow *f = &B->f[B->slot[i] - 1];
            cap_pkt k = {.v6 = f->v6, .proto = f->proto, .sport = f->pa, .dport = f->pb};
            memcpy(k.src, f->a, 16);
            memcpy(k.dst, f->b, 16);
            size_t j = flow_hash(&k) & (cap - 1);
            while (s[j])
                j = (j + 1) & (cap - 1);
            s[j] = B->slot[i];
        }
    free(B->slot);
    B->slot = s;
    B->cap_slot = cap;
}

/* The flow of p (created at its first packet: *created set); *dir its
 * direction. */
static size_t flow_of(builder *B, const cap_pkt *p, int *dir, int *created)
{
    *created = 0;
    if (2 * (B->nf + 1) > B->cap_slot)
        grow_slots(B);
    size_t j = flow_hash(p) & (B->cap_slot - 1);
    for (; B->slot[j]; j = (j + 1) & (B->cap_slot - 1))
        if ((*dir = flow_dir(&B->f[B->slot[j] - 1], p)) >= 0)
            return B->slot[j] - 1;
    if (B->nf == B->capf) {
        B->capf = B->capf ? 2 * B->capf : 64;
        B->f = warp_xrealloc(B->f, B->capf * sizeof *B->f);
        B->fi = warp_xrealloc(B->fi, B->capf * sizeof *B->fi);
    }
    flow *f = &B->f[B->nf];
    memset(f, 0, sizeof *f);
    memcpy(f->a, p->src, 16);
    memcpy(f->b, p->dst, 16);
    f->pa = p->sport;
    f->pb = p->dport;
    f->v6 = p->v6;
    f->proto = p->proto;
    f->open = f->last = -1;
    replay_capture_flow *fi = &B->fi[B->nf];
    memset(fi, 0, sizeof *fi);
    char sa[64], sb[64];
    cap_addr_str(f->a, f->v6, sa, sizeof sa);
    cap_addr_str(f->b, f->v6, sb, sizeof sb);
    snprintf(fi->name, sizeof fi->name, f->v6 ? "%s [%s]:%u>[%s]:%u" : "%s %s:%u>%s:%u",
             f->proto == 6 ? "tcp" : "udp", sa, f->pa, sb, f->pb);
    B->slot[j] = ++B->nf;
    *dir = 0;
    *created = 1;
    return B->nf - 1;
}

/* Appends a message of flow fi in direction dir at time t. */
static int new_msg(builder *B, size_t fi, int dir, int64_t t, const char *path, replay_err *err)
{
    if (B->nm >= (size_t)INT32_MAX)
        return replay_errf(err, "%s: more than 2^31 messages; cut the capture (editcap -A/-B)", path);
    if (B->nm == B->capm) {
        B->capm = B->capm ? 2 * B->capm : 256;
        B->m = warp_xrealloc(B->m, B->capm * sizeof *B->m);
        B->mdir = warp_xrealloc(B->mdir, B->capm);
    }
    flow *f = &B->f[fi];
    B->m[B->nm] = (replay_capture_msg){.t_first = t, .t_last = t, .flow = (uint32_t)fi,
                                       .src = dir ? f->rb : f->ra, .dst = dir ? f->ra : f->rb, .prev = f->last,
                                       .tcp = f->proto == 6, .reply = f->last >= 0 && B->mdir[f->last] != dir};
    B->mdir[B->nm] = (uint8_t)dir;
    f->open = f->last = (int32_t)B->nm;
    if (!B->fi[fi].msgs)
        B->fi[fi].t_first = t;
    B->fi[fi].msgs++;
    B->nm++;
    return 0;
}

/* The rank of a packet's endpoint; -1 with err set when the map lacks it. */
static int32_t rank_of(const cap_map *map, const addr_key *hosts, size_t nhosts, const uint8_t *a, int v6,
                       uint16_t port, const cap_pkt *p, const char *path, replay_err *err)
{
    if (map) {
        int32_t r = map_lookup(map, a, v6, port);
        if (r < 0) {
            char s[64];
            cap_addr_str(a, v6, s, sizeof s);
            replay_errf(err, "%s: packet %llu of file %u: endpoint %s port %u is in no line of the endpoint map; "
                        "add '%s RANK' or '%s%s%s:%u RANK'", path, (unsigned long long)p->number, p->file, s, port,
                        s, v6 ? "[" : "", s, v6 ? "]" : "", port);
        }
        return r;
    }
    addr_key k = {.v6 = (uint8_t)v6};
    memcpy(k.a, a, 16);
    const addr_key *h = bsearch(&k, hosts, nhosts, sizeof k, addr_cmp);
    return (int32_t)(h - hosts);
}

static int add_packet(builder *B, const cap_pkt *p, int64_t t, int64_t coalesce_ns, const cap_map *map,
                      const addr_key *hosts, size_t nhosts, replay_capture *out, const char *path, replay_err *err)
{
    int dir, created;
    size_t fi = flow_of(B, p, &dir, &created);
    flow *f = &B->f[fi];
    if (created) {
        if ((f->ra = rank_of(map, hosts, nhosts, f->a, f->v6, f->pa, p, path, err)) < 0 ||
            (f->rb = rank_of(map, hosts, nhosts, f->b, f->v6, f->pb, p, path, err)) < 0)
            return -1;
    }
    int64_t bytes = p->payload;
    if (p->proto == 17) {
        if (new_msg(B, fi, dir, t, path, err))
            return -1;
    } else {
        dir_state *d = &f->d[dir];
        int pure = !p->payload && !(p->tcp_flags & (CAP_SYN | CAP_FIN | CAP_RST));
        if (pure) {
            out->pure_acks++;
            out->dup_acks += d->have_ack && p->ack == d->last_ack;
        }
        if (p->tcp_flags & CAP_ACK) {
            d->have_ack = 1;
            d->last_ack = p->ack;
        }
        if (p->tcp_flags & CAP_SYN) { /* data starts one past the SYN */
            d->based = 1;
            d->base = p->seq + 1;
            d->hi = 0;
        }
        if (!p->payload)
            return 0;
        if (!d->based) { /* the capture began inside the connection */
            d->based = 1;
            d->base = p->seq;
        }
        uint32_t rel = p->seq - d->base;
        int64_t start = d->hi + (int32_t)(rel - (uint32_t)d->hi), end = start + p->payload;
        if (end <= d->hi) {
            out->retrans_segments++;
            out->retrans_bytes += p->payload;
            return 0;
        }
        if (start < d->hi) {
            out->retrans_segments++;
            out->retrans_bytes += (uint64_t)(d->hi - start);
        }
        bytes = end - d->hi;
        d->hi = end;
        if (f->open < 0 || B->mdir[f->open] != dir || t - B->m[f->open].t_last > coalesce_ns) {
            if (new_msg(B, fi, dir, t, path, err))
                return -1;
        }
    }
    replay_capture_msg *m = &B->m[f->open];
    m->bytes += (uint64_t)bytes;
    m->t_last = t;
    B->fi[fi].bytes += (uint64_t)bytes;
    B->fi[fi].t_last = t;
    return 0;
}

int cap_build(const cap_pkt *pkts, size_t n, const cap_map *map, int64_t coalesce_ns, const char *path,
              replay_capture *out, int32_t *nranks, replay_err *err)
{
    memset(out, 0, sizeof *out);
    addr_key *hosts = NULL;
    size_t nhosts = 0;
    if (!map) {
        hosts = warp_xcalloc(2 * n + 1, sizeof *hosts);
        for (size_t i = 0; i < n; i++) {
            hosts[nhosts].v6 = pkts[i].v6;
            memcpy(hosts[nhosts++].a, pkts[i].src, 16);
            hosts[nhosts].v6 = pkts[i].v6;
            memcpy(hosts[nhosts++].a, pkts[i].dst, 16);
        }
        qsort(hosts, nhosts, sizeof *hosts, addr_cmp);
        size_t u = 0;
        for (size_t i = 0; i < nhosts; i++)
            if (!u || addr_cmp(&hosts[u - 1], &hosts[i]))
                hosts[u++] = hosts[i];
        nhosts = u;
    }
    builder B = {0};
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++)
        rc = add_packet(&B, &pkts[i], pkts[i].ts_ns - pkts[0].ts_ns, coalesce_ns, map, hosts, nhosts, out, path, err);
    free(hosts);
    free(B.slot);
    free(B.f);
    free(B.mdir);
    if (rc) {
        free(B.m);
        free(B.fi);
        memset(out, 0, sizeof *out);
        return -1;
    }
    out->packets = n;
    out->nmsgs = (uint32_t)B.nm;
    out->msgs = B.m;
    out->nflows = (uint32_t)B.nf;
    out->flows = B.fi;
    out->hosts = map ? (uint32_t)map->nranks : (uint32_t)nhosts;
    *nranks = map ? map->nranks : (int32_t)nhosts;
    return 0;
}

void cap_capture_free(replay_capture *c)
{
    free((void *)c->msgs);
    free((void *)c->flows);
    memset(c, 0, sizeof *c);
}

/* ---- graphs ------------------------------------------------------------------- */

void cap_index_build(const replay_capture *c, int32_t nranks, cap_index *ix)
{
    ix->nranks = nranks;
    ix->rank_end = warp_xcalloc((size_t)nranks + 1, sizeof *ix->rank_end);
    for (uint32_t i = 0; i < c->nmsgs; i++) {
        ix->rank_end[c->msgs[i].src]++;
        if (c->msgs[i].dst != c->msgs[i].src)
            ix->rank_end[c->msgs[i].dst]++;
    }
    uint32_t *cur = warp_xcalloc((size_t)nranks + 1, sizeof *cur);
    for (int32_t r = 1; r < nranks; r++) {
        ix->rank_end[r] += ix->rank_end[r - 1];
        cur[r] = ix->rank_end[r - 1];
    }
    ix->rank_msgs = warp_xcalloc((size_t)(nranks ? ix->rank_end[nranks - 1] : 0) + 1, sizeof *ix->rank_msgs);
    for (uint32_t i = 0; i < c->nmsgs; i++) {
        ix->rank_msgs[cur[c->msgs[i].src]++] = i;
        if (c->msgs[i].dst != c->msgs[i].src)
            ix->rank_msgs[cur[c->msgs[i].dst]++] = i;
    }
    free(cur);
}

void cap_index_free(cap_index *ix)
{
    free(ix->rank_end);
    free(ix->rank_msgs);
    memset(ix, 0, sizeof *ix);
}

/* The position of message id in rank r's list (it is there). */
static uint32_t pos_of(const cap_index *ix, int32_t r, uint32_t id)
{
    uint32_t b = r ? ix->rank_end[r - 1] : 0, lo = b, hi = ix->rank_end[r];
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ix->rank_msgs[mid] < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo - b;
}

static uint64_t nonneg(int64_t v) { return v > 0 ? (uint64_t)v : 0; }

int cap_rank_graph(const replay_capture *c, const cap_index *ix, int causal, int32_t rank, const char *place,
                   replay_rank *out, replay_err *err)
{
    uint32_t b = rank ? ix->rank_end[rank - 1] : 0, n = ix->rank_end[rank] - b;
    uint32_t *snd = warp_xcalloc((size_t)n + 1, sizeof *snd), *rcv = warp_xcalloc((size_t)n + 1, sizeof *rcv);
    replay_rank_begin(out, rank);
    replay_rank_reserve(out, 3 * n, 2 * n, n);
    for (uint32_t k = 0; k < n; k++) {
        uint32_t id = ix->rank_msgs[b + k];
        const replay_capture_msg *m = &c->msgs[id];
        if (m->src == rank) {
            uint64_t dur = nonneg(m->t_first);
            int64_t dep = -1;
            if (causal && m->tcp && m->prev >= 0) {
                const replay_capture_msg *p = &c->msgs[m->prev];
                uint32_t pk = pos_of(ix, rank, (uint32_t)m->prev);
                dep = m->reply ? rcv[pk] : snd[pk];
                dur = m->reply ? nonneg(m->t_first - p->t_last) : nonneg(m->t_first - p->t_first);
            }
            uint32_t w = replay_add_task(out, dur, REPLAY_WAIT, 0, 0);
            if (dep >= 0)
                replay_add_dep(out, w, (uint32_t)dep, 0);
            snd[k] = replay_add_task(out, 0, 0, 0, 0);
            replay_add_dep(out, snd[k], w, 0);
            replay_add_msg(out, snd[k], m->dst, m->bytes, (int32_t)id);
        }
        if (m->dst == rank)
            rcv[k] = replay_add_task(out, 0, REPLAY_TRIGGERED, m->src, (int32_t)id);
    }
    free(snd);
    free(rcv);
    return replay_rank_end(out, place, err);
}
