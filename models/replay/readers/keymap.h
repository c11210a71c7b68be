/* keymap.h — a growing hash map from a 128-bit key (two u64 words) to a u64
 * value, for the MPI-trace mappings' counters and request tables (OTF2,
 * Dimemas). Entries are never removed; a map lives for one load or open. */
#ifndef REPLAY_KEYMAP_H
#define REPLAY_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct replay_keymap {
    uint64_t *key; /* 2 words per slot */
    uint64_t *val;
    uint8_t *used;
    size_t cap, n;
} replay_keymap;

/* The value slot of (k1, k2): created as 0 when create is set, else NULL
 * when absent. The pointer stays valid until the next create. */
uint64_t *replay_keymap_get(replay_keymap *m, uint64_t k1, uint64_t k2, int create);

/* Visits every entry (in slot order, not insertion order). */
#define REPLAY_KEYMAP_EACH(m, i) for (size_t i = 0; i < (m)->cap; i++) if ((m)->used[i])

/* Releases the map's memory (a zeroed map is empty). */
void replay_keymap_free(replay_keymap *m);

#endif
