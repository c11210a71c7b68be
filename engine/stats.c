/* engine/stats.c — the committed digest and the end-of-run statistics.
 * The digest hashes each committed event (key, destination, payload) into its
 * LP's ordered hash; LPs combine by a wrapping sum, so the result does not
 * depend on placement, KPs or rank count. Rank 0 prints and writes JSON. */
#include "internal.h"

#include <errno.h>
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

/* The 128-bit product of a and b, its halves folded: one multiply mixes 16
 * bytes, where the 64-bit rounds before took two for 8. */
static inline uint64_t fold_mul(uint64_t a, uint64_t b)
{
    u128 p = (u128)a * b;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
}

/* The key of the payload's i-th 8-byte word: each position has its own, so
 * that moving bytes within a payload changes its digest. */
#define DIGEST_KEY0 0x243F6A8885A308D3ull
#define DIGEST_STEP 0x9E3779B97F4A7C15ull
static inline uint64_t word_key(size_t i) { return DIGEST_KEY0 + (uint64_t)i * DIGEST_STEP; }

/* The first k (1..7) bytes of v as loaded from memory, the rest zero. */
static inline uint64_t le_low_bytes(uint64_t v, size_t k)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    return v & ((UINT64_C(1) << (8 * k)) - 1);
#else
    return v & ~((~UINT64_C(0)) >> (8 * k));
#endif
}

/* What the 16-byte blocks from byte `from` on contribute when they are all
 * zeros, up to n bytes (the last block padded with zeros). */
static uint64_t zero_blocks(size_t from, size_t n)
{
    uint64_t sum = 0;
    for (size_t j = from; j < n; j += 16)
        sum += fold_mul(word_key(j / 8), word_key(j / 8 + 1));
    return sum;
}

void digest_setup(warp_ctx *w)
{
    w->digest_zero_tail = zero_blocks((w->msg_size + 15) & ~(size_t)15, w->digest_size);
}

/* Word i of an m-byte payload (the bytes at or past m read as zeros); the
 * slot holds `room` readable payload bytes. */
static inline uint64_t tail_word(const unsigned char *p, size_t m, size_t room, size_t i)
{
    size_t at = 8 * i;
    uint64_t v = 0;
    if (at >= m)
        return 0;
    if (at + 8 <= m || at + 8 <= room) {
        memcpy(&v, p + at, 8);
        return at + 8 <= m ? v : le_low_bytes(v, m - at);
    }
    memcpy(&v, p + at, m - at);
    return v;
}

/* The block of a payload that ends inside it (m not a multiple of 16). */
static __attribute__((noinline)) uint64_t partial_block(const warp_ctx *w, const unsigned char *p, size_t i)
{
    size_t m = w->msg_size;
    size_t head = sizeof(ev_cold) + sizeof(warp_event);
    size_t room = w->pool.ev_size > head ? w->pool.ev_size - head : 0;
    return fold_mul(tail_word(p, m, room, i / 8) ^ word_key(i / 8),
                    tail_word(p, m, room, i / 8 + 1) ^ word_key(i / 8 + 1));
}

/* The digest of one committed event: its key, its destination and an
 * n-byte payload (digest_size) of which the slot holds the first m
 * (msg_size), the rest hashed as zeros, so that a trimmed slot digests as
 * the zero-filled full layout. Each 16-byte block of the payload, xored
 * with its position's keys, is one folded 128-bit product; the products
 * add up, so they run in parallel, and the all-zero blocks past the slot
 * add a constant that digest_setup computed. */
uint64_t digest_event(const warp_ctx *w, const warp_event *e)
{
    uint64_t tsbits;
    memcpy(&tsbits, &e->ts, sizeof tsbits);
    uint64_t order = e->depth ^ (e->seq << 32) ^ (e->seq >> 32);
    uint64_t h = fold_mul(tsbits ^ 0x452821E638D01377ull, order ^ 0xBE5466CF34E90C6Cull) +
                 fold_mul(e->src ^ 0xC0AC29B7C97C50DDull, e->dst ^ 0x3F84D5B5B5470917ull);
    const unsigned char *p = EV_PAYLOAD(e);
    size_t m = w->msg_size, i = 0;
    uint64_t sum = w->digest_zero_tail, k0 = word_key(0), k1 = word_key(1);
    for (; i + 16 <= m; i += 16) {
        uint64_t v[2];
        memcpy(v, p + i, 16);
        sum += fold_mul(v[0] ^ k0, v[1] ^ k1);
        k0 += 2 * DIGEST_STEP;
        k1 += 2 * DIGEST_STEP;
    }
    if (i < m)
        sum += partial_block(w, p, i);
    return mix64(h + (sum ^ (sum >> 29)) * 0xbf58476d1ce4e5b9ull + w->digest_size);
}

static uint64_t local_digest(const warp_ctx *w)
{
    uint64_t d = 0;
    for (uint64_t i = 0; i < w->nlocal; i++)
        d += mix64(lp_gid(&w->lps[i]) * 0x9E3779B97F4A7C15ull ^ mix64(w->lps[i].digest));
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
    enum { N_SUM = 12 };
    uint64_t loc[N_SUM] = {w->cnt.committed + w->ck.restored_committed, w->cnt.processed, w->cnt.rolled_back, w->cnt.rb_primary, w->cnt.rb_secondary,
                           w->cnt.remote_sent, w->cnt.anti_sent, local_digest(w), w->cnt.final_run,
                           w->cnt.ring_records, w->cnt.ring_waits, w->cnt.gvt_shared};
    uint64_t glob[N_SUM];
    coll_allreduce(w, loc, glob, N_SUM, COLL_U64, COLL_SUM);
    uint64_t peak = w->pool.peak * w->pool.ev_size + w->alloc.peak, peak_g;
    coll_allreduce(w, &peak, &peak_g, 1, COLL_U64, COLL_MAX);
    uint64_t cmin, cmax;
    coll_allreduce(w, &w->cnt.committed, &cmin, 1, COLL_U64, COLL_MIN);
    coll_allreduce(w, &w->cnt.committed, &cmax, 1, COLL_U64, COLL_MAX);
    double tl[6] = {w->cnt.t.forward, w->cnt.t.reverse, w->cnt.t.queue, w->cnt.t.net, w->cnt.t.gvt, w->cnt.t.fossil}, tg[6];
    coll_allreduce(w, tl, tg, 6, COLL_DOUBLE, COLL_MAX);
    int64_t rss = peak_rss_kb(), rss_max;
    coll_allreduce(w, &rss, &rss_max, 1, COLL_I64, COLL_MAX);

    s->committed = glob[0];
    s->processed = glob[1];
    s->rolled_back = glob[2];
    s->rollbacks_primary = glob[3];
    s->rollbacks_secondary = glob[4];
    s->remote_sent = glob[5];
    s->anti_sent = glob[6];
    s->digest = glob[7];
    uint64_t final_run = glob[8];
    s->gvt_rounds = w->cnt.gvt_rounds;
    s->fossil_collections = w->cnt.fossils;
    s->peak_event_bytes = peak_g;
    /* After --restart the committed count is the whole run's (the digest
     * and the results are), everything else this segment's: efficiency and
     * rate are taken over the events committed since the restart (they
     * mixed both: processed below committed, the rate inflated). */
    uint64_t restored = w->ck.restored_committed;
    coll_bcast(w, &restored, sizeof restored);
    uint64_t seg = s->committed - restored;
    s->efficiency = seg ? 1.0 - (double)s->rolled_back / (double)seg : 1.0;
    s->setup_s = w->cnt.t_setup;
    coll_bcast(w, &s->run_s, sizeof s->run_s);
    s->event_rate = s->run_s > 0 ? (double)seg / s->run_s : 0;
    s->t_forward = tg[0];
    s->t_reverse = tg[1];
    s->t_queue = tg[2];
    s->t_net = tg[3];
    s->t_gvt = tg[4];
    s->t_fossil = tg[5];
    s->final_gvt = w->sched.gvt_value;
    double mean = (double)s->committed / w->nranks;
    double imbalance = mean > 0 ? (double)cmax / mean : 1.0;

    if (w->rank != 0)
        return;
    if (w->rep.progress)
        fputc('\n', stderr);
    if (!w->opt.quiet) {
        char b[64];
        printf("\nWarpnet engine statistics%s (%s, %d rank%s, %llu LPs, %llu KP%s per rank)\n",
               w->sched.stop_requested ? " -- PARTIAL, interrupted" : "", synch_name(w->opt.synch), w->nranks, w->nranks > 1 ? "s" : "",
               (unsigned long long)w->total_lps, (unsigned long long)w->nkps, w->nkps > 1 ? "s" : "");
        group(b, sizeof b, s->committed);
        printf("  %-30s %20s\n", "committed events", b);
        if (restored) {
            group(b, sizeof b, seg);
            printf("  %-30s %20s (restarted from a checkpoint: the line above counts the whole run, "
                   "every other figure this segment)\n", "committed this segment", b);
        }
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
            if (w->sched.safe_la > 0) {
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
    if (w->opt.stats_json) {
        FILE *f = fopen(w->opt.stats_json, "w");
        if (!f)
            stats_output_failed(w, "stats-json", w->opt.stats_json);
        fprintf(f,
                "{\n  \"partial\": %s,\n  \"synch\": \"%s\",\n  \"ranks\": %d,\n  \"lps\": %llu,\n  \"kps_per_rank\": %llu,\n"
                "  \"end\": %.17g,\n  \"committed\": %" PRIu64 ",\n  \"committed_segment\": %" PRIu64 ",\n"
                "  \"processed\": %" PRIu64 ",\n"
                "  \"rolled_back\": %" PRIu64 ",\n  \"rollbacks_primary\": %" PRIu64 ",\n"
                "  \"rollbacks_secondary\": %" PRIu64 ",\n  \"efficiency\": %.6f,\n"
                "  \"setup_s\": %.6f,\n  \"run_s\": %.6f,\n  \"event_rate\": %.1f,\n"
                "  \"committed_per_rank\": {\"min\": %" PRIu64 ", \"max\": %" PRIu64 ", \"imbalance\": %.4f},\n"
                "  \"remote_sent\": %" PRIu64 ",\n  \"anti_sent\": %" PRIu64 ",\n  \"final_run\": %" PRIu64 ",\n"
                "  \"ring_records\": %" PRIu64 ",\n  \"ring_waits\": %" PRIu64 ",\n"
                "  \"gvt_shared_reductions\": %" PRIu64 ",\n"
                "  \"gvt_rounds\": %" PRIu64 ",\n  \"fossil_collections\": %" PRIu64 ",\n"
                "  \"peak_event_bytes\": %" PRIu64 ",\n  \"peak_rss_bytes\": %lld,\n"
                "  \"time_s\": {\"forward\": %.6f, \"reverse\": %.6f, \"queue\": %.6f, \"network\": %.6f, "
                "\"gvt\": %.6f, \"fossil\": %.6f},\n"
                "  \"committed_digest\": \"%016" PRIx64 "\"\n}\n",
                w->sched.stop_requested ? "true" : "false", synch_name(w->opt.synch), w->nranks,
                (unsigned long long)w->total_lps,
                (unsigned long long)w->nkps, w->opt.end, s->committed, seg, s->processed, s->rolled_back,
                s->rollbacks_primary, s->rollbacks_secondary, s->efficiency, s->setup_s, s->run_s,
                s->event_rate, cmin, cmax, imbalance, s->remote_sent, s->anti_sent, final_run, glob[9], glob[10], glob[11], s->gvt_rounds,
                s->fossil_collections, s->peak_event_bytes, (long long)rss_max * 1024, s->t_forward,
                s->t_reverse, s->t_queue, s->t_net, s->t_gvt, s->t_fossil, s->digest);
        int bad = ferror(f);
        if (fclose(f) || bad)
            stats_output_failed(w, "stats-json", w->opt.stats_json);
    }
}

void stats_output_failed(const warp_ctx *w, const char *opt, const char *path)
{
    int err = errno;
    bool full = err == ENOSPC || err == EDQUOT || err == EFBIG || err == EIO;
    int code = full ? WARP_EXIT_RESOURCE : WARP_EXIT_USAGE;
    const char *fix = full ? "free space or write elsewhere" : "give a writable place";
    size_t n = w->opt.output_dir ? strlen(w->opt.output_dir) : 0;
    if (n && !strncmp(path, w->opt.output_dir, n) && path[n] == '/')
        warp_fatal(code, "%s: cannot write %s (%s); %s", w->opt.output_owner, path + n + 1, strerror(err), fix);
    warp_fatal(code, "--%s=%s: cannot write the file (%s); %s", opt, path, strerror(err), fix);
}
