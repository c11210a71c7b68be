/* tests/engine/test_digest_event.c — digest_event (engine/stats.c) hashes
 * an event's key, destination and digest_size payload bytes, of which the
 * slot holds msg_size and the rest count as zeros. It stops loading at the
 * slot's end, adds a precomputed constant for the zero blocks past it and
 * reads a last partial word as one masked load: every committed digest
 * recorded in the tests depends on those giving the very values of the
 * plain zero-padded loop below, for every size pair and whatever the slot
 * holds past msg_size. */
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

static uint64_t fold_mul(uint64_t a, uint64_t b)
{
    u128 p = (u128)a * b;
    return (uint64_t)p ^ (uint64_t)(p >> 64);
}

/* The reference: the payload copied into a zeroed buffer of whole 16-byte
 * blocks first; block j adds fold_mul(word 2j ^ key 2j, word 2j+1 ^ key
 * 2j+1), key i = 0x243F6A8885A308D3 + i * 0x9E3779B97F4A7C15. */
static uint64_t reference(const warp_event *e, const unsigned char *payload, size_t m, size_t n)
{
    size_t blocks = (n + 15) / 16;
    unsigned char *buf = calloc(blocks ? blocks : 1, 16);
    cr_assert_not_null(buf);
    memcpy(buf, payload, m);
    uint64_t tsbits;
    memcpy(&tsbits, &e->ts, sizeof tsbits);
    uint64_t order = e->depth ^ (e->seq << 32) ^ (e->seq >> 32);
    uint64_t h = fold_mul(tsbits ^ 0x452821E638D01377ull, order ^ 0xBE5466CF34E90C6Cull) +
                 fold_mul(e->src ^ 0xC0AC29B7C97C50DDull, e->dst ^ 0x3F84D5B5B5470917ull);
    uint64_t sum = 0;
    for (size_t j = 0; j < blocks; j++) {
        uint64_t v[2];
        memcpy(v, buf + 16 * j, 16);
        sum += fold_mul(v[0] ^ (0x243F6A8885A308D3ull + 2 * j * 0x9E3779B97F4A7C15ull),
                        v[1] ^ (0x243F6A8885A308D3ull + (2 * j + 1) * 0x9E3779B97F4A7C15ull));
    }
    free(buf);
    return mix64(h + (sum ^ (sum >> 29)) * 0xbf58476d1ce4e5b9ull + n);
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
            digest_setup(w);
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
