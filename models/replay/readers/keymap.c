/* keymap.c — open-addressing hash map of keymap.h. Invariant: the table is
 * a power of two at most half full, so linear probing always ends on a free
 * slot. Called by the OTF2 and Dimemas mappings. */
#include <stdlib.h>

#include "replay/readers/keymap.h"
#include "warp_error.h"

static size_t slot(const replay_keymap *m, uint64_t k1, uint64_t k2)
{
    uint64_t h = (k1 * 0x9e3779b97f4a7c15u) ^ (k2 * 0xc2b2ae3d27d4eb4fu);
    size_t i = (size_t)(h ^ (h >> 29)) & (m->cap - 1);
    while (m->used[i] && (m->key[2 * i] != k1 || m->key[2 * i + 1] != k2))
        i = (i + 1) & (m->cap - 1);
    return i;
}

static void grow(replay_keymap *m)
{
    replay_keymap g = {.cap = m->cap ? 2 * m->cap : 64, .n = m->n};
    g.key = warp_xcalloc(2 * g.cap, sizeof *g.key);
    g.val = warp_xcalloc(g.cap, sizeof *g.val);
    g.used = warp_xcalloc(g.cap, 1);
    REPLAY_KEYMAP_EACH(m, i) {
        size_t j = slot(&g, m->key[2 * i], m->key[2 * i + 1]);
        g.used[j] = 1;
        g.key[2 * j] = m->key[2 * i];
        g.key[2 * j + 1] = m->key[2 * i + 1];
        g.val[j] = m->val[i];
    }
    replay_keymap_free(m);
    *m = g;
}

uint64_t *replay_keymap_get(replay_keymap *m, uint64_t k1, uint64_t k2, int create)
{
    if (create && 2 * (m->n + 1) > m->cap)
        grow(m);
    if (!m->cap)
        return NULL;
    size_t i = slot(m, k1, k2);
    if (!m->used[i]) {
        if (!create)
            return NULL;
        m->used[i] = 1;
        m->key[2 * i] = k1;
        m->key[2 * i + 1] = k2;
        m->val[i] = 0;
        m->n++;
    }
    return &m->val[i];
}

void replay_keymap_free(replay_keymap *m)
{
    free(m->key);
    free(m->val);
    free(m->used);
    m->key = m->val = NULL;
    m->used = NULL;
    m->cap = m->n = 0;
}
