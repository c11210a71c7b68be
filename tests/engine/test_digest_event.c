/* tests/engine/test_digest_event.c — digest_event (engine/stats.c) hashes
 * an event's key, destination and digest_size payload bytes, of which the
 * slot holds msg_size and the rest count as zeros. Its loops are split at
 * the slot's end and its last partial word is one masked load (issue 15):
 * every committed digest recorded in the tests depends on those giving the
 * very values of the plain zero-padded loop below, for every size pair and
 * whatever the slot holds past msg_size. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "internal.h"

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

static uint64_t rotl64(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static uint64_t lane(uint64_t acc, uint64_t v)
{
    acc += v * 0xC2B2AE3D27D4EB4Full;
    return rotl64(acc, 31) * 0x9E3779B185EBCA87ull;
}

/* The reference: the payload copied into a zeroed n-byte buffer first. */
static uint64_t reference(const warp_event *e, const unsigned char *payload, size_t m, size_t n)
{
    unsigned char *buf = calloc(1, n + 8);
    cr_assert_not_null(buf);
    memcpy(buf, payload, m);
    uint64_t tsbits;
    memcpy(&tsbits, &e->ts, sizeof tsbits);
    uint64_t h = mix64(tsbits ^ 0x243F6A8885A308D3ull);
    h = mix64(h ^ e->depth ^ (e->seq << 32) ^ (e->seq >> 32));
    h = mix64(h ^ e->src);
    h = mix64(h ^ e->dst);
    uint64_t a = h, b = h ^ 0x60EA27EEADC0B5D6ull, c = h ^ 0x1B8730A4D0A86D4Dull, d = ~h, v[4];
    size_t i = 0;
    for (; i + 32 <= n; i += 32) {
        memcpy(v, buf + i, 32);
        a = lane(a, v[0]);
        b = lane(b, v[1]);
        c = lane(c, v[2]);
        d = lane(d, v[3]);
    }
    for (; i + 8 <= n; i += 8) {
        memcpy(v, buf + i, 8);
        a = lane(a, v[0]);
    }
    if (i < n) {
        v[0] = 0;
        memcpy(v, buf + i, n - i);
        b = lane(b, v[0]);
    }
    free(buf);
    return mix64(a ^ rotl64(b, 17) ^ rotl64(c, 31) ^ rotl64(d, 47) ^ n);
}

Test(digest_event, equals_the_zero_padded_hash_for_every_size)
{
    uint64_t x = 12345;
    for (size_t m = 1; m <= 136; m++) {
        for (size_t n = m; n <= m + 72; n += (n < m + 9 ? 1 : 7)) {
            warp_ctx *w = calloc(1, sizeof *w);
            cr_assert_not_null(w);
            w->msg_size = m;
            w->digest_size = n;
            pool_init(w, 4, 0);
            warp_event *e = pool_get(w);
            unsigned char *p = EV_PAYLOAD(e);
            /* Garbage past msg_size, up to the slot's end: never hashed. */
            memset(p, 0xA5, w->pool.ev_size - sizeof(warp_event));
            for (size_t k = 0; k < m; k++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                p[k] = (unsigned char)(x >> 56);
            }
            e->ts = 1.5 * (double)m + (double)n;
            e->depth = (uint32_t)(m % 3);
            e->src = m * 7;
            e->seq = n * 11 + (UINT64_C(1) << 40);
            e->dst = m + n;
            cr_assert_eq(digest_event(w, e), reference(e, p, m, n), "msg_size %zu, digest_size %zu", m, n);
            pool_destroy(w);
            free(w);
        }
    }
}
