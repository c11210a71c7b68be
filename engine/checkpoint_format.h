/* engine/checkpoint_format.h — the on-disk layout of a checkpoint directory
 * (docs/checkpoint.md), shared by checkpoint.c (writer) and
 * checkpoint_read.c (reader). Native byte order: a checkpoint is restarted
 * on the machine kind that wrote it (the build id refuses any other). */
#ifndef WARP_CHECKPOINT_FORMAT_H
#define WARP_CHECKPOINT_FORMAT_H

#include <stdint.h>

#define CKPT_MAGIC "WARPCKPT"
#define CKPT_VERSION 3u /* 2: replay progress counts dependencies met, not left; 3: the digest of folded 128-bit products (an LP's digest so far would not continue) */
#define CKPT_KIND_META 1u
#define CKPT_KIND_RANK 2u
#define CKPT_META_FILE "meta"
#define CKPT_RANK_FILE "rank-%06d"
#define CKPT_CHUNK ((size_t)1 << 20) /* the checksum chains 1 MiB chunks */
#define CKPT_PATH_CAP 4200 /* bytes of a path under DIR, its terminator included */

/* DIR/meta: this, then nfiles x {size, checksum} of the rank files, then
 * the checksum of all that. */
typedef struct ckpt_meta {
    char magic[8];
    uint32_t version, kind;
    uint32_t nfiles, pad;
    uint64_t build, config;
    uint64_t total_lps, msg_size;
    double cut;         /* every event below it had committed */
    uint64_t committed; /* events committed before the cut, all ranks */
} ckpt_meta;

/* DIR/rank-R: this header, one record per LP, the index (nlps entries),
 * then the index's offset (8 bytes). */
typedef struct ckpt_file_hdr {
    char magic[8];
    uint32_t version, kind;
    uint32_t rank, pad;
    uint64_t build, config;
    uint64_t nlps;
} ckpt_file_hdr;

typedef struct ckpt_index {
    uint64_t gid, offset, length;
} ckpt_index;

/* An LP record: this, state bytes, out bytes, nevents x (ckpt_ev_hdr +
 * msg_size payload bytes), nblocks x (u64 class + the block's usable bytes),
 * nrelocs x ckpt_reloc, hook_len bytes of the type's ckpt_save. */
typedef struct ckpt_lp_hdr {
    uint64_t gid, rng, seq, digest;
    uint64_t state_size, out_size;
    uint64_t nevents, nblocks, nrelocs, hook_len;
} ckpt_lp_hdr;

typedef struct ckpt_ev_hdr {
    double ts;
    uint32_t depth, pad;
    uint64_t src, seq;
} ckpt_ev_hdr;

/* A pointer into a warp_alloc block: region 0 the state, 1 the out block,
 * 2 + k event k's payload, 2 + nevents + b block b; the word at `offset`
 * of the region becomes block `block`'s new address + `target`. */
typedef struct ckpt_reloc {
    uint32_t region, block;
    uint64_t offset, target;
} ckpt_reloc;

#endif
