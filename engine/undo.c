/* engine/undo.c — incremental state saving: warp_save logs old bytes in the
 * KP's undo arena, a deque of chunks. Invariant: records are laid out in
 * processing order, so rollback (newest first) truncates the arena at the
 * event's mark and fossil collection (oldest first) frees whole chunks behind
 * the oldest live event's mark. Called by process_event, rollback, fossil. */
#include "internal.h"

#include <stdlib.h>

#define CHUNK_BYTES (4u * 1024u)

/* Chunks are small (2-4 KiB with their header, a jemalloc size class that
 * packs them side by side) and recycled newest-first through the spare
 * list, so the log is written into memory that is still in cache. With the
 * former 64 KiB chunks each KP's write front crept through its own chunk
 * while GVT held older records live: 64 KPs streamed through megabytes, and
 * every new record line missed the 1 MiB L2 (measured with cachegrind on
 * the 32K torus). Every KP with a log keeps at least one chunk, so with
 * tens of thousands of KPs (one LP per KP) they shrink to 2 KiB: about
 * 64 MiB in all at most. */
void undo_size_chunks(warp_ctx *w)
{
    uint64_t per = (UINT64_C(64) << 20) / (w->nkps ? w->nkps : 1);
    per = per < 2048 ? 2048 : per > CHUNK_BYTES ? CHUNK_BYTES : per;
    w->undo_chunk = (uint32_t)((per & ~(uint64_t)63) - sizeof(undo_chunk));
}

static size_t chunk_bytes(const warp_ctx *w)
{
    return w->undo_chunk ? w->undo_chunk : CHUNK_BYTES - sizeof(undo_chunk);
}

static undo_chunk *chunk_new(warp_ctx *w, size_t need)
{
    undo_chunk *c;
    size_t size = chunk_bytes(w);
    if (need <= size && w->spare_chunks) {
        c = w->spare_chunks;
        w->spare_chunks = c->next;
    } else {
        size_t cap = need > size ? need : size;
        c = malloc(sizeof *c + cap);
        if (!c)
            warp_fatal(WARP_EXIT_RESOURCE, "out of memory for the undo log on rank %d", w->rank);
        c->cap = cap;
    }
    c->next = c->prev = NULL;
    return c;
}

static void chunk_drop(warp_ctx *w, undo_chunk *c)
{
    if (c->cap == chunk_bytes(w)) {
        c->next = w->spare_chunks;
        w->spare_chunks = c;
    } else {
        free(c);
    }
}

/* Models save a field or a small struct at a time (2-6 saves of 4-128
 * bytes per network event, of many sizes: a port record, a VC, a
 * terminal's state): every size up to 128 bytes copies inline as two
 * overlapping moves of the largest width that fits, where a call to libc's
 * memcpy cost 20 instructions more than the copy (a third of the torus
 * saves went there). Only bytes [0, len) are written. */
static inline void save_copy(void *dst, const void *src, size_t len)
{
    char *d = dst;
    const char *s = src;
    if (len >= 16) {
        if (len > 128) {
            memcpy(d, s, len);
        } else if (len > 64) {
            memcpy(d, s, 64);
            memcpy(d + len - 64, s + len - 64, 64);
        } else if (len > 32) {
            memcpy(d, s, 32);
            memcpy(d + len - 32, s + len - 32, 32);
        } else {
            memcpy(d, s, 16);
            memcpy(d + len - 16, s + len - 16, 16);
        }
    } else if (len >= 8) {
        memcpy(d, s, 8);
        memcpy(d + len - 8, s + len - 8, 8);
    } else if (len >= 4) {
        memcpy(d, s, 4);
        memcpy(d + len - 4, s + len - 4, 4);
    } else {
        for (size_t i = 0; i < len; i++)
            d[i] = s[i];
    }
}

/* A new newest chunk for a record of `need` bytes (save_grown). */
static void arena_grow(warp_ctx *w, undo_arena *u, size_t need)
{
    undo_chunk *c = u->newest, *n = chunk_new(w, need);
    n->prev = c;
    if (c)
        c->next = n;
    else
        u->oldest = n;
    u->newest = n;
    u->used = 0;
    u->cap = (uint32_t)n->cap;
}

static void save_record(warp_lp *lp, const void *ptr, size_t len, warp_event *e);

/* The rare case of save_record: a new chunk, then the record again. A
 * separate function, entered by a tail call, so that the common path keeps
 * no registers across a call (it pushed and popped five per save: a fifth
 * of its instructions, at 2-6 saves per network event). */
static __attribute__((noinline, cold)) void save_grown(warp_lp *lp, const void *ptr, size_t len, warp_event *e,
                                                       size_t need)
{
    warp_ctx *w = lp_ctx(lp);
    arena_grow(w, &lp_kp(w, lp)->undo, need);
    save_record(lp, ptr, len, e);
}

/* Logs len > 0 bytes at ptr for event e. Out of line, entered by a tail
 * call with warp_save's own arguments in place: warp_save's test for a
 * sequential run (no log) is then a few instructions that move nothing. */
static __attribute__((noinline)) void save_record(warp_lp *lp, const void *ptr, size_t len, warp_event *e)
{
    const warp_ctx *w = lp_ctx(lp);
    undo_arena *u = &lp_kp(w, lp)->undo;
    size_t need = (sizeof(undo_rec) + len + 7) & ~(size_t)7;
    if (__builtin_expect(u->cap - u->used < need, 0)) {
        save_grown(lp, ptr, len, e, need);
        return;
    }
    undo_rec *r = (undo_rec *)(u->newest->data + u->used);
    u->used += (uint32_t)need;
    r->prev = EV_COLD(e)->undo;
    r->addr = (void *)ptr;
    r->len = len;
    EV_COLD(e)->undo = r;
    save_copy(r->bytes, ptr, len); /* last: the rare memcpy is a tail call */
}

void warp_save(warp_lp *lp, const void *ptr, size_t len)
{
    warp_ctx *w = lp_ctx(lp);
    warp_event *e = w->sched.cur;
    if (!w->sched.saving || !e || !len)
        return;
    save_record(lp, ptr, len, e);
}

void undo_replay(warp_ctx *w, warp_kp *kp, warp_event *e)
{
    for (undo_rec *r = EV_COLD(e)->undo; r; r = r->prev)
        save_copy(r->addr, r->bytes, r->len);
    EV_COLD(e)->undo = NULL;
    /* Truncate the arena back to the event's mark: e is the newest event of
     * its KP, so everything after the mark is its own. */
    undo_arena *u = &kp->undo;
    while (u->newest && u->newest != EV_COLD(e)->mark_chunk) {
        undo_chunk *c = u->newest;
        u->newest = c->prev;
        if (u->newest)
            u->newest->next = NULL;
        else
            u->oldest = NULL;
        chunk_drop(w, c);
    }
    u->used = u->newest ? EV_COLD(e)->mark_off : 0;
    u->cap = u->newest ? (uint32_t)u->newest->cap : 0;
}

void undo_release_before(warp_ctx *w, warp_kp *kp, warp_event *oldest_live)
{
    undo_arena *u = &kp->undo;
    undo_chunk *keep = oldest_live ? EV_COLD(oldest_live)->mark_chunk : NULL;
    if (!oldest_live) { /* nothing live: keep one empty chunk for reuse */
        while (u->oldest && u->oldest != u->newest) {
            undo_chunk *c = u->oldest;
            u->oldest = c->next;
            u->oldest->prev = NULL;
            chunk_drop(w, c);
        }
        u->used = 0;
        return;
    }
    if (!keep) /* the live event's mark predates the first chunk */
        return;
    while (u->oldest && u->oldest != keep) {
        undo_chunk *c = u->oldest;
        u->oldest = c->next;
        u->oldest->prev = NULL;
        chunk_drop(w, c);
    }
}

void undo_destroy(warp_ctx *w, warp_kp *kp)
{
    (void)w;
    undo_chunk *c = kp->undo.oldest;
    while (c) {
        undo_chunk *n = c->next;
        free(c);
        c = n;
    }
    kp->undo.oldest = kp->undo.newest = NULL;
    kp->undo.used = kp->undo.cap = 0;
}
