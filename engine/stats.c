/* engine/stats.c — the committed digest and the end-of-run statistics.
 * The digest hashes each committed event (key, destination, payload) into its
 * LP's ordered hash; LPs combine by a wrapping sum, so the result does not
 * depend on placement, KPs or rank count. Rank 0 prints and writes JSON. */
#include "internal.h"

#include <inttypes.h>
#include <stdlib.h>
#include <sys/resource.h>

static inline uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

static inline uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

/* xxHash64-style round: four independent lanes keep the multiplier busy, so
 * hashing a payload costs about a cycle per byte. */
static inline uint64_t lane(uint64_t acc, uint64_t v)
{
    acc += v * 0xC2B2AE3D27D4EB4Full;
    return rotl64(acc, 31) * 0x9E3779B185EBCA87ull;
}

/* Copies len bytes of the payload from offset i, reading bytes at or past m
 * (the slot's end) as zeros. */
static inline void load_padded(void *dst, const unsigned char *p, size_t m, size_t i, size_t len)
{
    if (i + len <= m) {
        memcpy(dst, p + i, len);
        return;
    }
    memset(dst, 0, len);
    if (i < m)
        memcpy(dst, p + i, m - i);
}

/* The first k (1..7) bytes of v as loaded from memory, the rest zero. */
static inline uint64_t le_low_bytes(uint64_t v, size_t k)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return v & ((UINT64_C(1) << (8 * k)) - 1);
#else
    return v & ~((~UINT64_C(0)) >> (8 * k));
#endif
}

/* The digest of one committed event: its key, its destination and an
 * n-byte payload (digest_size) of which the slot holds the first m
 * (msg_size), the rest hashed as zeros, so that a trimmed slot digests as
 * the zero-filled full layout did. */
uint64_t digest_event(const warp_ctx *w, const warp_event *e)
{
    uint64_t tsbits;
    memcpy(&tsbits, &e->ts, sizeof tsbits);
    uint64_t h = mix64(tsbits ^ 0x243F6A8885A308D3ull);
    h = mix64(h ^ e->depth ^ (e->seq << 32) ^ (e->seq >> 32));
    h = mix64(h ^ e->src);
    h = mix64(h ^ e->dst);
    const unsigned char *p = EV_PAYLOAD(e);
    size_t n = w->digest_size, m = w->msg_size, i = 0;
    uint64_t a = h, b = h ^ 0x60EA27EEADC0B5D6ull, c = h ^ 0x1B8730A4D0A86D4Dull, d = ~h;
    /* Inside the slot a block is one plain load; past its end, zeros. */
    for (; i + 32 <= n; i += 32) {
        uint64_t v[4];
        if (i + 32 <= m)
            memcpy(v, p + i, 32);
        else
            load_padded(v, p, m, i, 32);
        a = lane(a, v[0]);
        b = lane(b, v[1]);
        c = lane(c, v[2]);
        d = lane(d, v[3]);
    }
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        if (i + 8 <= m)
            memcpy(&v, p + i, 8);
        else
            load_padded(&v, p, m, i, 8);
        a = lane(a, v);
    }
    if (i < n) {
        uint64_t v = 0;
        if (n <= m && i + 8 <= w->pool.ev_size - sizeof(warp_event)) {
            /* The whole slot is readable (events live in the pool): one
             * load, masked to the n - i bytes hashed, as the zeroed copy. */
            memcpy(&v, p + i, 8);
            v = le_low_bytes(v, n - i);
        } else {
            load_padded(&v, p, m, i, n - i);
        }
        b = lane(b, v);
    }
    return mix64(a ^ rotl64(b, 17) ^ rotl64(c, 31) ^ rotl64(d, 47) ^ n);
}

static uint64_t local_digest(const warp_ctx *w)
{
    uint64_t d = 0;
    for (uint64_t i = 0; i < w->nlocal; i++)
        d += mix64(w->lps[i].gid * 0x9E3779B97F4A7C15ull ^ mix64(w->lps[i].digest));
    return d;
}

static long peak_rss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static void group(char *buf, size_t n, uint64_t v)
{
    char tmp[32];
    int len = snprintf(tmp, sizeof tmp, "%" PRIu64, v), o = 0;
    for (int i = 0; i < len && (size_t)o + 2 < n; i++) {
        if (i && (len - i) % 3 == 0)
            buf[o++] = ',';
        buf[o++] = tmp[i];
    }
    buf[o] = 0;
}

void stats_finish(warp_ctx *w)
{
    warp_stats *s = &w->stats;
    enum { N_SUM = 10 };
    uint64_t loc[N_SUM] = {w->committed + w->restored_committed, w->processed, w->rolled_back, w->rb_primary, w->rb_secondary,
                           w->remote_sent, w->anti_sent, local_digest(w), w->final_run, 0};
    uint64_t glob[N_SUM];
    MPI_Allreduce(loc, glob, N_SUM, MPI_UINT64_T, MPI_SUM, w->comm);
    uint64_t peak = w->pool.peak * w->pool.ev_size + w->alloc.peak, peak_g;
    MPI_Allreduce(&peak, &peak_g, 1, MPI_UINT64_T, MPI_MAX, w->comm);
    uint64_t cmin, cmax;
    MPI_Allreduce(&w->committed, &cmin, 1, MPI_UINT64_T, MPI_MIN, w->comm);
    MPI_Allreduce(&w->committed, &cmax, 1, MPI_UINT64_T, MPI_MAX, w->comm);
    double tl[6] = {w->t.forward, w->t.reverse, w->t.queue, w->t.net, w->t.gvt, w->t.fossil}, tg[6];
    MPI_Allreduce(tl, tg, 6, MPI_DOUBLE, MPI_MAX, w->comm);
    long rss = peak_rss_kb(), rss_max;
    MPI_Allreduce(&rss, &rss_max, 1, MPI_LONG, MPI_MAX, w->comm);

    s->committed = glob[0];
    s->processed = glob[1];
    s->rolled_back = glob[2];
    s->rollbacks_primary = glob[3];
    s->rollbacks_secondary = glob[4];
    s->remote_sent = glob[5];
    s->anti_sent = glob[6];
    s->digest = glob[7];
    uint64_t final_run = glob[8];
    s->gvt_rounds = w->gvt_rounds;
    s->fossil_collections = w->fossils;
    s->peak_event_bytes = peak_g;
    s->efficiency = s->committed ? 1.0 - (double)s->rolled_back / (double)s->committed : 1.0;
    s->setup_s = w->t_setup;
    MPI_Bcast(&s->run_s, 1, MPI_DOUBLE, 0, w->comm);
    s->event_rate = s->run_s > 0 ? (double)s->committed / s->run_s : 0;
    s->t_forward = tg[0];
    s->t_reverse = tg[1];
    s->t_queue = tg[2];
    s->t_net = tg[3];
    s->t_gvt = tg[4];
    s->t_fossil = tg[5];
    s->final_gvt = w->gvt_value;
    double mean = (double)s->committed / w->nranks;
    double imbalance = mean > 0 ? (double)cmax / mean : 1.0;

    if (w->rank != 0)
        return;
    if (w->progress)
        fputc('\n', stderr);
    if (!w->quiet) {
        char b[64];
        printf("\nWarpnet engine statistics%s (%s, %d rank%s, %llu LPs, %llu KP%s per rank)\n",
               w->stop_requested ? " -- PARTIAL, interrupted" : "", synch_name(w->synch), w->nranks, w->nranks > 1 ? "s" : "",
               (unsigned long long)w->total_lps, (unsigned long long)w->nkps, w->nkps > 1 ? "s" : "");
        group(b, sizeof b, s->committed);
        printf("  %-30s %20s\n", "committed events", b);
        group(b, sizeof b, s->processed);
        printf("  %-30s %20s\n", "processed events", b);
        group(b, sizeof b, s->rolled_back);
        printf("  %-30s %20s\n", "rolled back events", b);
        printf("  %-30s %20" PRIu64 " / %" PRIu64 "\n", "rollbacks primary / secondary",
               s->rollbacks_primary, s->rollbacks_secondary);
        printf("  %-30s %19.2f%%\n", "efficiency", 100.0 * s->efficiency);
        printf("  %-30s %20.3f\n", "setup wall time (s)", s->setup_s);
        printf("  %-30s %20.3f\n", "run wall time (s)", s->run_s);
        printf("  %-30s %20.0f\n", "committed events/s", s->event_rate);
        if (w->nranks > 1) {
            printf("  %-30s %20" PRIu64 " / %" PRIu64 " / %.3f\n", "committed per rank min/max/imbal",
                   cmin, cmax, imbalance);
            group(b, sizeof b, s->remote_sent);
            printf("  %-30s %20s\n", "remote events sent", b);
            group(b, sizeof b, s->anti_sent);
            printf("  %-30s %20s\n", "anti-messages sent", b);
            if (w->safe_la > 0) {
                group(b, sizeof b, final_run);
                printf("  %-30s %20s (%.1f%%)\n", "events run final (no saving)", b,
                       s->processed ? 100.0 * (double)final_run / (double)s->processed : 0.0);
            }
        }
        printf("  %-30s %20" PRIu64 "\n", "GVT rounds", s->gvt_rounds);
        printf("  %-30s %20" PRIu64 "\n", "fossil collections", s->fossil_collections);
        printf("  %-30s %17.1f MB\n", "peak event memory (max rank)", (double)s->peak_event_bytes / 1e6);
        printf("  %-30s %17.1f MB\n", "peak RSS (max rank)", (double)rss_max / 1024.0);
        printf("  %-30s fwd %.3f rev %.3f queue %.3f net %.3f gvt %.3f fossil %.3f\n",
               "time split (s, max rank)", s->t_forward, s->t_reverse, s->t_queue, s->t_net, s->t_gvt,
               s->t_fossil);
        printf("  committed digest: %016" PRIx64 "\n", s->digest);
        fflush(stdout);
    }
    if (w->stats_json) {
        FILE *f = fopen(w->stats_json, "w");
        if (!f)
            warp_fatal(WARP_EXIT_USAGE, "--stats-json=%s: cannot write the file", w->stats_json);
        fprintf(f,
                "{\n  \"partial\": %s,\n  \"synch\": \"%s\",\n  \"ranks\": %d,\n  \"lps\": %llu,\n  \"kps_per_rank\": %llu,\n"
                "  \"end\": %.17g,\n  \"committed\": %" PRIu64 ",\n  \"processed\": %" PRIu64 ",\n"
                "  \"rolled_back\": %" PRIu64 ",\n  \"rollbacks_primary\": %" PRIu64 ",\n"
                "  \"rollbacks_secondary\": %" PRIu64 ",\n  \"efficiency\": %.6f,\n"
                "  \"setup_s\": %.6f,\n  \"run_s\": %.6f,\n  \"event_rate\": %.1f,\n"
                "  \"committed_per_rank\": {\"min\": %" PRIu64 ", \"max\": %" PRIu64 ", \"imbalance\": %.4f},\n"
                "  \"remote_sent\": %" PRIu64 ",\n  \"anti_sent\": %" PRIu64 ",\n  \"final_run\": %" PRIu64 ",\n"
                "  \"gvt_rounds\": %" PRIu64 ",\n  \"fossil_collections\": %" PRIu64 ",\n"
                "  \"peak_event_bytes\": %" PRIu64 ",\n  \"peak_rss_bytes\": %lld,\n"
                "  \"time_s\": {\"forward\": %.6f, \"reverse\": %.6f, \"queue\": %.6f, \"network\": %.6f, "
                "\"gvt\": %.6f, \"fossil\": %.6f},\n"
                "  \"committed_digest\": \"%016" PRIx64 "\"\n}\n",
                w->stop_requested ? "true" : "false", synch_name(w->synch), w->nranks,
                (unsigned long long)w->total_lps,
                (unsigned long long)w->nkps, w->end, s->committed, s->processed, s->rolled_back,
                s->rollbacks_primary, s->rollbacks_secondary, s->efficiency, s->setup_s, s->run_s,
                s->event_rate, cmin, cmax, imbalance, s->remote_sent, s->anti_sent, final_run, s->gvt_rounds,
                s->fossil_collections, s->peak_event_bytes, (long long)rss_max * 1024, s->t_forward,
                s->t_reverse, s->t_queue, s->t_net, s->t_gvt, s->t_fossil, s->digest);
        if (fclose(f))
            warp_fatal(WARP_EXIT_USAGE, "--stats-json=%s: cannot write the file", w->stats_json);
    }
}
