/* engine/internal.h — the engine's private data structures, shared by the
 * engine's .c files only. One warp_ctx per process (= PE = MPI rank) owns
 * everything: LPs, KPs, the event pool, the pending queue, the transport. */
#ifndef WARP_INTERNAL_H
#define WARP_INTERNAL_H

#include "config.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdbool.h>
#include <string.h>

#include "warp.h"

typedef enum warp_synch {
    SYNCH_SEQ = 1,
    SYNCH_CONS = 2,
    SYNCH_OPT = 3,
    SYNCH_CHECK = 4,
    SYNCH_DEBUG = 5,
} warp_synch;

typedef enum ev_state {
    EV_FREE = 0,
    EV_NEW,         /* allocated by warp_event_new, not sent yet */
    EV_PENDING,     /* in the pending queue */
    EV_PROCESSED,   /* in its KP's processed list */
    EV_REMOTE_SENT, /* sender-side record of an event sent to another PE */
    EV_DEAD,        /* cancelled while pending: freed when the heap surfaces it */
    EV_CANCELLED,   /* record of a remote event this PE cancelled (until GVT passes it) */
    EV_DOOMED,      /* record of an arrived event whose parent this PE cancelled */
} ev_state;

typedef struct warp_event warp_event;
typedef struct warp_kp warp_kp;
typedef struct undo_rec undo_rec;
typedef struct undo_chunk undo_chunk;
typedef struct alloc_hdr alloc_hdr;

/* 64x64 -> 128-bit products (digest, KP of an index, heap ties). */
__extension__ typedef unsigned __int128 u128;

/* Ordered by access: fossil and commit_event read and write only the first
 * 72 bytes (two lines, where the old order spread them over the header's
 * three or four), so the tie fields src and seq, read only on equal
 * timestamps, come after them. */
struct warp_event {
    /* The total order key: (ts, depth, src, seq). */
    double ts;
    uint32_t depth;
    uint8_t state;
    uint8_t epoch;      /* GVT colour of a remote message */
    uint8_t remote;     /* arrived from another PE and lives in the remote table (not when held: transport.c) */
    uint8_t pad_;
    warp_lp *lp;        /* destination LP when local */
    warp_event *next;   /* processed list, free list */
    warp_event *rsent;  /* records of remote events this one sent */
    alloc_hdr *frees;   /* warp_free_on_commit requests of this event */
    warp_bits bits;
    union {
        struct { warp_event *l, *r; } sp;  /* splay links while pending */
        /* While processed: this execution's digest contribution, hashed
         * right after the forward handler while the payload is hot
         * (process_event), so that commit, long after on cold data in the
         * optimistic modes, only folds one word into the LP's digest. No
         * handler may write the payload after its forward handler (commit
         * handlers get it const; check mode verifies); a rollback re-runs
         * forward, which recomputes it. Shares the splay links' space:
         * they are dead once the event has left the queue. */
        uint64_t digest;
    };
    warp_lpid src;
    uint64_t seq;
    warp_lpid dst;
    warp_event *children;      /* local events this one sent (processed only) */
    uint64_t uid;              /* unique per incarnation: matches anti-messages */
    alloc_hdr *allocs;         /* warp_alloc blocks made by this event */
};

_Static_assert(offsetof(warp_event, src) == 72, "commit's fields of an event lie in its first 72 bytes");

/* The fields only rollback (and the remote table) read, in the 64 bytes
 * of the slot BEFORE its event (EV_COLD): an event run final, or below the
 * safe bound, never touches that line. The header and the payload it does
 * touch are contiguous: 120 + msg_size bytes, four whole lines of a
 * packet network's 136-byte event (input-queued routers), where the
 * 184-byte header made 6 or 7. */
typedef struct ev_cold {
    warp_event *prev;          /* processed list */
    warp_event *sibling;       /* next in the parent's children / rsent list */
    warp_event *hnext;         /* remote table chain */
    /* Rollback record, valid while processed. */
    uint64_t rng_before, seq_before;
    undo_rec *undo;            /* newest undo record of this event */
    undo_chunk *mark_chunk;    /* undo arena position before the event ran */
    uint32_t mark_off;
    int32_t dst_pe;
} ev_cold;
_Static_assert(sizeof(ev_cold) == 64, "an event's cold fields fill the line before it");

#define EV_PAYLOAD(e) ((void *)((char *)(e) + sizeof(warp_event)))
#define EV_OF(p) ((warp_event *)((char *)(p) - sizeof(warp_event)))
/* The cold fields of a pool event (not of a key or a stack copy). */
#define EV_COLD(e) ((ev_cold *)(void *)(e) - 1)

/* Strict total order of events; equal only for the same event. One
 * expression for events and GVT keys (their fields share names). */
#define WARP_KEY_LESS(a, b)                                                                        \
    ((a)->ts != (b)->ts         ? (a)->ts < (b)->ts                                                 \
     : (a)->depth != (b)->depth ? (a)->depth < (b)->depth                                           \
     : (a)->src != (b)->src     ? (a)->src < (b)->src                                               \
                                : (a)->seq < (b)->seq)
static inline bool ev_less(const warp_event *a, const warp_event *b)
{
    return WARP_KEY_LESS(a, b);
}

/* ---- undo log (undo.c) ---------------------------------------------------- */
struct undo_chunk {
    undo_chunk *next, *prev; /* oldest -> newest */
    uint64_t cap; /* 64 bits so that data[] stays 8-byte aligned for undo_rec */
    char data[];
};
_Static_assert(offsetof(undo_chunk, data) % 8 == 0, "undo records need 8-byte alignment");
struct undo_rec {
    undo_rec *prev; /* older record of the same event */
    void *addr;
    size_t len;
    char bytes[];
};
/* The newest chunk's fill and size live here, in the KP, not in the chunk:
 * every event reads them (undo_mark, warp_save), and chunk headers, all at
 * the same offset within a page, collide in the cache. */
typedef struct undo_arena {
    undo_chunk *oldest, *newest;
    uint32_t used, cap; /* of newest; 0, 0 without one */
} undo_arena;

/* ---- rollback-safe allocations (alloc.c) ---------------------------------- */
struct alloc_hdr {
    alloc_hdr *anext; /* in the allocating event's list */
    alloc_hdr *fnext; /* in the freeing event's list */
    uint32_t cls;     /* size class, or ALLOC_BIG */
    uint32_t magic;
};

struct warp_kp {
    warp_event *head, *tail; /* processed events, ascending key */
    /* tail->ts while tail is set: a delivery later than it needs no
     * rollback, decided without reading the (cold) tail event. */
    double tail_ts;
    undo_arena undo;
    uint64_t rollbacks;
    uint64_t rolled_back;
    uint32_t id;
    bool live; /* listed in w->live_kps */
};

/* One line, aligned: an LP record is a random access, a miss on large
 * models, and running an event reads rng.counter through type, committing
 * one type, out and digest. Its id is rng.stream (lp_gid), its context is
 * its class's (lp_ctx) and its KP follows from its index (lp_kp): the 88
 * bytes with those three fields took two lines for every record. */
struct warp_lp {
    warp_rng rng; /* rng.stream: the LP's global id */
    uint64_t seq; /* send sequence number */
    void *state;
    const warp_lp_type *type; /* its class's copy (lp_class) */
    void *out;
    uint64_t digest; /* ordered hash of this LP's committed events */
} __attribute__((aligned(64)));
_Static_assert(sizeof(warp_lp) == 64 && offsetof(warp_rng, stream) == 8,
               "warp_lp is one cache line, its id in rng.stream");

/* An LP type as the engine keeps it: a copy of the model's warp_lp_type,
 * which lp->type points at (t is first), and the context the LP record has
 * no room for. One per distinct type of a run (setup.c). */
typedef struct lp_class {
    warp_lp_type t;
    warp_ctx *w;
    const warp_lp_type *model; /* the model's own, for warp_lp_get_type */
} lp_class;

static inline warp_lpid lp_gid(const warp_lp *lp) { return lp->rng.stream; }
static inline const lp_class *lp_class_of(const warp_lp *lp) { return (const lp_class *)(const void *)lp->type; }
static inline warp_ctx *lp_ctx(const warp_lp *lp) { return lp_class_of(lp)->w; }

/* ---- pending queue (queue.c) ---------------------------------------------- */
typedef enum queue_kind { QUEUE_HEAP = 0, QUEUE_SPLAY = 1, QUEUE_LADDER = 2 } queue_kind;
/* 16 bytes, so that four children share a cache line. `word` holds the
 * event's slot in the pool (low slot_bits bits, in 16-byte units) under an
 * order-preserving prefix of its tie key (depth, src, seq): equal timestamps
 * are then mostly settled without touching the events. */
typedef struct heap_ent {
    uint64_t key;  /* the timestamp's bits: orders like the timestamp */
    uint64_t word; /* tie prefix << slot_bits | pool slot */
} heap_ent;
/* The ladder's far-future storage: unsorted entries in fixed 4 KiB chunks,
 * recycled through a free list, so that a bucket grows without copying and
 * memory follows the pending count, not the largest bucket ever seen. */
typedef struct q_chunk q_chunk;
typedef struct q_bucket {
    q_chunk *head, *tail;
    size_t n;
} q_bucket;
typedef struct warp_queue {
    queue_kind kind;
    size_t n;    /* entries in the heap (the ladder's near tier) */
    size_t dead; /* entries whose events were cancelled (lazy removal) */
    heap_ent *heap; /* 4-ary heap */
    size_t cap;
    char *base;         /* the event pool the heap's slots index */
    uint64_t slot_mask; /* low slot_bits bits of heap_ent.word: the slot */
    unsigned slot_bits;
    unsigned tie_bits;  /* the rest but one bit: the tie prefix (0: none) */
    uint64_t inexact_bit; /* the bit under the prefix: it may tie (all bits: no prefix) */
    unsigned src_bits;  /* width of src within the prefix */
    /* The prefix's fast path: depth < depth_lim and src < src_lim (both 0
     * where the fields never fit) pack as depth << depth_shift | src <<
     * src_shift | min(seq, seq_max). */
    uint32_t depth_lim;
    unsigned depth_shift, src_shift;
    uint64_t src_lim, seq_max;
    warp_event *root; /* splay tree */
    /* Ladder (two tiers): the near tier (a sorted run, the bucket last
     * pulled, plus the heap for what arrived since) holds every event whose
     * bucket number (ladder_bucket: monotone in the timestamp) is at most
     * `cur`; ring[b]
     * holds bucket b for cur < b <= LADDER_NB, unsorted; `over` the rest.
     * A bucket is radix-sorted into the run when the near tier runs empty,
     * and a large heap too once the run is spent. */
    heap_ent *run, *tmp; /* the pulled bucket (or heap), sorted; tmp: the sort's scratch */
    size_t ri, rn, rcap; /* run[ri .. rn) is pending */
    /* The near tier's smallest entry, when it arrived smaller than all of
     * it: an event's zero-delay successor at its own LP (a router's
     * allocation) is usually the next to run, and waits here instead of
     * climbing the whole heap and being sifted back down. */
    heap_ent front;
    bool has_front;
    q_bucket *ring;   /* LADDER_NB + 1 buckets, [0] unused */
    q_bucket over;    /* beyond the ring */
    q_chunk *spare;   /* free chunks */
    size_t far;       /* entries in ring and over */
    uint64_t cur;     /* the heap's last bucket number */
    double origin, inv_w; /* bucket b >= 1 starts at origin + (b - 1) / inv_w */
    uint64_t pops, rebuilt_at; /* pops, and pops at the last rebuild */
    uint64_t retry_at; /* pops before which a large heap asks for no rebuild */
    size_t sort_at;    /* a heap this large becomes the run when the run is spent */
} warp_queue;

/* ---- event pool (pool.c) -------------------------------------------------- */
/* --huge-pages (options.c, setup.c): transparent huge pages asked for
 * (madvise) on the LP states and records and the event pool. */
typedef enum { WARP_HUGE_AUTO, WARP_HUGE_ON, WARP_HUGE_OFF } warp_huge;
/* --transport: shared-memory rings between the ranks of a node (auto,
 * shm) or MPI messages between every pair (mpi); shm.c. */
typedef enum { WARP_TRANSPORT_AUTO, WARP_TRANSPORT_MPI, WARP_TRANSPORT_SHM } warp_transport_kind;
/* auto turns them on when a rank's LP records and states exceed this:
 * measured (bench/RESULTS.md) to pay on 4.4 GB of Slim Fly state in the run
 * and, from a few hundred MB up, in setup, whose first touch of the arrays
 * (and of the start-up events) is then a 2 MiB fault per 512 small ones: on
 * the 512K simplenet replay (330 MB) setup fell 1.8-3.2 s -> 0.3-1.5 s and
 * the run used no more CPU. Below it (the 32K cases, tens of MB) they were
 * not measured to pay. */
#define WARP_HUGE_AUTO_BYTES (UINT64_C(256) << 20)

/* Sends an event's handler may make before they are delivered in a batch
 * (more flush as they come). */
#define WARP_OUTBOX 16

typedef struct warp_pool {
    char *base;
    size_t ev_size;
    uint64_t cap;   /* events reserved (--events, or from the rank's memory) */
    uint64_t work;  /* the working size: what the GVT interval and the remote
                       table are tuned for (the old fixed default) */
    uint64_t mem;   /* the rank's memory the default reservation came from */
    bool given;     /* the size was given (--events), not derived from mem */
    uint64_t bump;  /* events ever handed out from base */
    /* Free slots, a stack of pointers (after the slots, in the same
     * reservation) rather than a list linked through the slots: a burst of
     * gets (a received message's events) knows each next slot without
     * loading the last one, so their cache misses overlap instead of
     * forming a chain. */
    warp_event **stack;
    uint64_t nfree;
    uint64_t in_use, peak;
    uint64_t low_at; /* cap - cap / 8: pool_low from here (pool_init) */
} warp_pool;

/* ---- size-class allocator for warp_alloc (alloc.c) ------------------------ */
#define ALLOC_CLASSES 12 /* 32 B .. 64 KiB */
typedef struct warp_allocator {
    alloc_hdr *free[ALLOC_CLASSES];
    void **slabs;
    size_t nslabs, cap_slabs;
    uint64_t bytes_in_use, peak;
    /* huge_active: slabs are carved from big_map'd chunks, not malloc'd */
    void **chunks;
    size_t nchunks, chunk_slabs_left;
} warp_allocator;

/* ---- transport (transport.c) ---------------------------------------------- */
typedef struct warp_sendbuf warp_sendbuf;
/* Send buffer size classes: 1 KiB << class, the last one buf_bytes. */
#define WARP_SEND_CLASSES 24
/* The on-node rings (shm.c): this rank writes its records for a rank of
 * its node into its ring in that rank's segment of one shared window, and
 * reads one ring per other rank of the node in its own segment. */
typedef struct shm_ring shm_ring;
typedef struct warp_shm {
    MPI_Comm node;           /* the ranks of this node; MPI_COMM_NULL: no rings */
    MPI_Win win;
    MPI_Win slots_win;       /* shm_slots' window; MPI_WIN_NULL: none */
    uint64_t cap;            /* data bytes of one ring */
    shm_ring **out;          /* per PE: this rank's ring in its segment; NULL: over MPI */
    uint64_t *whead, *wtail; /* per PE: the head written, the tail last read */
    shm_ring **in;           /* the rings this rank reads */
    uint64_t *rtail;         /* their tails, as this rank advanced them */
    int nin;
} warp_shm;
typedef struct warp_transport {
    bool up;                 /* set up and not torn down */
    size_t buf_bytes;        /* size of one aggregation buffer */
    warp_sendbuf **out;      /* per destination PE: buffer being filled */
    warp_sendbuf *spare[WARP_SEND_CLASSES]; /* free buffers, per size class */
    int top_class;           /* the class of buf_bytes: aggregation buffers */
    /* MPI_Isend not yet complete, tested together (one MPI_Testsome per
     * flush: testing each request ran MPI's progress engine once per
     * buffer in flight, 11 % of a 2-rank Slim Fly run). */
    warp_sendbuf **ifl_buf;
    MPI_Request *ifl_req;
    int *ifl_idx;
    MPI_Status *ifl_st; /* MPI_STATUSES_IGNORE trips GCC's -Wstringop-overflow */
    int ninfl, cap_infl;
    int *dirty;              /* destinations with a buffer being filled */
    int ndirty;
    int nrecv;
    MPI_Request *rreq;
    char **rbuf;
    uint64_t *rpost;         /* when each receive was posted: match order */
    uint64_t nposted;
    warp_event **table;      /* remote events by uid */
    uint64_t table_mask;
    warp_event *orphans;     /* anti-messages that overtook their event */
    warp_event *cancelled;   /* EV_CANCELLED records, also in the table */
    double cancelled_min;    /* smallest timestamp in cancelled (INFINITY: none) */
    uint64_t since_sweep;    /* GVT rounds since cancelled was last swept */
    uint64_t next_uid;
    uint64_t sent[4], recvd[4]; /* message counts per GVT epoch (mod 4) */
    warp_shm shm;
    /* Per PE: buffers for its ring that did not fit yet, oldest first
     * (shm.c never blocks); pend_pes lists the PEs with any. */
    warp_sendbuf **pend_head, **pend_tail;
    int *pend_pes;
    int npend;
} warp_transport;

/* ---- GVT (gvt.c) ---------------------------------------------------------- */
/* An event's total order key (ts, depth, src, seq) on its own: GVT is
 * computed as one, so that fossil collection on several ranks can commit
 * the processed events of GVT's own instant that come before it (gvt.c). */
typedef struct gvt_key {
    double ts;
    uint32_t depth, pad_;
    uint64_t src, seq;
} gvt_key;

static inline gvt_key key_of(const warp_event *e)
{
    return (gvt_key){.ts = e->ts, .depth = e->depth, .src = e->src, .seq = e->seq};
}

/* ev_less on keys: a < b. */
static inline bool key_less(const gvt_key *a, const gvt_key *b)
{
    return WARP_KEY_LESS(a, b); /* the same order as ev_less */
}

typedef struct warp_gvt {
    int kind;         /* 0 mattern, 1 sync */
    uint64_t round;   /* current white epoch */
    bool active;
    int64_t white_sent;
    gvt_key red_min;  /* smallest key sent (events and anti-messages) while red */
    MPI_Request req;
    /* One reduction per attempt carries both the counts and the minimum
     * (gvt.c): two collectives per attempt were two progress tests per
     * batch and twice the messages of a round at scale. */
    struct gvt_round_msg {
        int64_t sum[4]; /* white in transit, committed, rolled back, interrupted */
        gvt_key min;
        double safe; /* min(pending ts + lookahead, red sends' ts): safe_ts */
    } in, out;
    MPI_Datatype key_type; /* gvt_key as bytes, reduced by key_min (--gvt=sync) */
    MPI_Op key_min;
    MPI_Datatype msg_type; /* struct gvt_round_msg as bytes, reduced by msg_op */
    MPI_Op msg_op;
    uint64_t batches_since;
    bool forced;
    /* Reductions through shared memory (gvt_shm.c) when every rank is on
     * one node: one slot per rank, the last reduction this rank started. */
    void **slots;              /* per rank, its gvt_slot; NULL: reductions over MPI */
    uint64_t shm_seq;
} warp_gvt;

typedef struct warp_timers {
    double forward, reverse, queue, net, gvt, fossil;
} warp_timers;

/* ---- the parts of the context ----------------------------------------------- */
/* w->opt: the options. Written only by options.c (the table's setters,
 * warp_set_time_unit_ns) and by hosts through it; const once warp_run
 * starts: what a run adapts or consumes lives in the parts below, seeded
 * from here (sched.gvt_interval, sched.window, ck.next_at, rep.progress). */
typedef struct warp_opts {
    uint64_t given;       /* bit i: engine option row i was set (options.c) */
    bool gvt_interval_given; /* --gvt-interval was set, not defaulted */
    bool time_in_ns;      /* model time is ns: end takes a unit */
    bool end_is_bound;    /* the model finishes before end, when its work is done */
    warp_synch synch;
    double end;
    uint64_t seed;
    uint64_t events_opt; /* 0 = automatic */
    queue_kind qkind;
    uint64_t batch, gvt_interval;
    double window;        /* optimism bound over GVT; INFINITY: none */
    bool window_auto;     /* adapt the window to each GVT round's efficiency */
    bool gvt_interval_auto; /* adapt the GVT interval to the event memory in use */
    bool safe_events, safe_ahead; /* --safe-events (see warp_sched) */
    int gvt_kind;
    int partition; /* warp_partition_kind */
    char *partition_file; /* with WARP_PARTITION_FILE: the placement file */
    uint64_t lps_per_kp, kps_opt;
    char *stats_json;
    char *engine_stats;   /* per-round instrumentation CSV, or NULL */
    char *output_owner;   /* the host's option that placed them in output_dir (warp_set_output_owner) */
    char *output_dir;
    char *heartbeat_file;
    struct warp_ini **configs; /* the --config files: model string options point into them */
    int nconfigs;
    double heartbeat_s;   /* 0: no heartbeat */
    bool progress, quiet;
    uint64_t mem_per_rank; /* --mem-per-rank; 0: from the node */
    warp_huge huge_pages;  /* --huge-pages: auto, on or off */
    warp_transport_kind transport; /* --transport */
    char *ckpt_dir;       /* --checkpoint=DIR, or NULL */
    char *restart_dir;    /* --restart=DIR, or NULL */
    double ckpt_every_s;  /* --checkpoint-every in wall seconds; 0: off */
    double ckpt_at;       /* --checkpoint-at in model time; INFINITY: none */
    bool ckpt_exit;       /* --checkpoint-exit: stop after the first checkpoint */
    char *ckpt_signals;   /* --checkpoint-signal list */
} warp_opts;

/* w->sched: the live scheduling state, which the schedulers and the event
 * path write while the run goes on. */
typedef struct warp_sched {
    /* The current GVT interval (batches) and optimism window: the options'
     * values at the start of the run, adapted by sched_opt.c when auto. */
    uint64_t gvt_interval;
    double window;
    warp_event *cur;      /* event being processed, NULL in init */
    warp_lp *cur_lp;
    /* Sends of the running event to other LPs, delivered when its handler
     * returns (api.c): the destination's table entry, prefetched by
     * warp_event_new, then has the handler's rest and the digest to load. */
    warp_event *outbox[WARP_OUTBOX];
    uint32_t nout;
    bool tracking;        /* keep rollback records (opt, check, debug) */
    /* Save state and record sends for rollback: tracking, except while an
     * event no straggler can reach runs (process.c, process_final). */
    bool saving;
    /* --safe-events: on several optimistic ranks, an event with ts below
     * safe_ts can never be rolled back (gvt.c), so it runs without state
     * saving and commits without waiting for GVT (process_final). safe_la
     * is the lookahead that bound is built from, 0 where the feature is
     * off. safe_hold (--safe-events=on, not ahead): a rank runs nothing at
     * or past safe_ts; it waits there for the next round, as conservative
     * windows do, instead of running on with state saving. */
    bool safe_hold;
    /* A delivered event may land below its KP's processed events: tracking,
     * but not on a held rank, whose KPs hold only committed events. */
    bool stragglers;
    double safe_la, safe_ts;
    double la_enforced; /* delays between groups below it stop the run (cons, safe events; else 0) */
    /* The largest key run final on this rank (every event in cons; in opt
     * those below safe_ts): nothing may run below it (final_order). */
    gvt_key final_key;
    bool in_reverse;
    const warp_event *in_commit; /* the event whose commit handler runs */
    double now_init;
    double gvt_value;
    gvt_key gvt_key;  /* GVT as a key on several ranks (gvt_value is its ts) */
    uint64_t gvt_committed; /* global committed count seen by the last GVT round */
    uint64_t gvt_rolled;    /* global rolled-back count seen by the last GVT round */
    warp_rng debug_rng;
    bool stop_requested;  /* every rank agreed to stop early (a signal) */
} warp_sched;

/* w->cnt: this PE's counters and clocks (statistics, local). */
typedef struct warp_counters {
    uint64_t committed, processed, rolled_back, rb_primary, rb_secondary;
    uint64_t ring_records, ring_waits; /* records through on-node rings; buffers that found theirs full */
    uint64_t gvt_shared;  /* GVT reductions this rank made through shared slots (gvt_shm.c) */
    uint64_t gvt_rounds, fossils, remote_sent, anti_sent, pops, doomed;
    uint64_t final_run;   /* events run below safe_ts: no saving, committed at once */
    warp_timers t;
    double t_start, t_setup;
} warp_counters;

/* w->ck: checkpoint and restart state (checkpoint.c, checkpoint_read.c). */
typedef struct warp_ckpt_state {
    double next_at;       /* --checkpoint-at still to come; INFINITY: none (ckpt_setup) */
    bool stop;            /* a checkpoint was written and the run stops now */
    uint64_t config_hash; /* the host's configuration (warp_set_config_hash) */
    uint64_t hash;        /* the whole run's: host's, model's, --end, --seed */
    double last;          /* wall time of the last checkpoint (or the run's start) */
    uint64_t count;       /* checkpoints written by this run */
    double last_cut;      /* where the last one cut */
    double cost_s;        /* wall seconds the last one took (rollback, drain, write) */
    uint64_t restored_committed; /* events the checkpoint's run had committed (rank 0) */
    int lock_fd;          /* rank 0: DIR.lock, locked while the run lasts; -1: none */
} warp_ckpt_state;

/* w->rep: what report.c keeps between rounds. */
typedef struct warp_report_state {
    bool progress;        /* show the progress line: --progress, or rank 0's stderr is a terminal */
    double last_progress, last_heartbeat;
    FILE *heartbeat;
    double *rows;         /* instrumentation rows, ROW_COLS doubles each */
    size_t nrows, cap_rows;
} warp_report_state;

/* One per PE. Besides the parts above: the PE's place among the ranks, the
 * model's layout (placed by setup.c and map.c and never moved in the run;
 * what the records hold changes: LP states, KPs' processed lists, the live
 * KPs) and the machinery (pool, queue, allocator, transport, GVT). */
struct warp_ctx {
    int rank, nranks;
    MPI_Comm comm;        /* the engine's own duplicate of MPI_COMM_WORLD */
    int on_node;          /* ranks on this node */
    warp_opts opt;
    bool huge_active;     /* what setup chose for this rank (auto: by size) */
    /* model */
    const warp_model *m;
    uint64_t total_lps, first_gid, nlocal;
    warp_lp *lps;
    lp_class **classes; /* the run's LP types (setup.c: lp_class_for) */
    uint64_t kp_mul;    /* kp_at's factor */
    uint32_t nclasses;
    warp_lpid *gids;          /* custom mapping: sorted local gids */
    uint64_t *gid_table;      /* custom mapping: gid -> local index + 1 */
    /* custom mapping, when it fits (map.c): gid -> local index (>= 0)
     * or -(owner rank + 1); one load per send instead of the model's map
     * and a hash probe */
    int32_t *gid_dense;
    uint64_t gid_mask;
    char *state_mem, *out_mem;        /* big_map'd, huge_active as setup chose */
    size_t state_bytes, out_bytes;
    bool prefetch_deep; /* final events get queue_prefetch_ahead (queue_prefetch_for) */
    warp_kp *kps;
    uint64_t nkps;
    /* KPs that may hold processed events: fossil collection visits these,
     * not every KP, so a round costs what it commits, not nkps. */
    warp_kp **live_kps;
    uint64_t nlive;
    size_t msg_size;
    size_t digest_size; /* warp_model.digest_size, never below msg_size */
    uint64_t digest_zero_tail; /* digest_setup: what the zeros past msg_size add */
    /* machinery */
    warp_pool pool;
    warp_queue queue;
    warp_allocator alloc;
    warp_transport tr;
    warp_gvt gvt;
    undo_chunk *spare_chunks;
    /* Bytes of an undo chunk (0: 64 KiB): smaller with many KPs,
     * since every KP writing its log keeps a chunk of its own. */
    uint32_t undo_chunk;
    warp_sched sched;
    warp_counters cnt;
    warp_ckpt_state ck;
    warp_report_state rep;
    unsigned char *check_snap; /* check mode's state snapshot (reachable if a check fails) */
    warp_stats stats;
};

/* The KP of the local LP at index i: consecutive LPs share a KP, KPs
 * of nearly equal size. From the index alone: delivery asks for the
 * destination's KP on every send, while the LP record is cold, and the
 * record has no room for it. A multiply, not a division: kp_mul is
 * floor(2^64 nkps / nlocal), or 0 for one LP per KP (setup.c). */
static inline warp_kp *kp_at(const warp_ctx *w, uint64_t i)
{
    return &w->kps[w->kp_mul ? (uint64_t)(((u128)i * w->kp_mul) >> 64) : i];
}

static inline warp_kp *lp_kp(const warp_ctx *w, const warp_lp *lp) { return kp_at(w, (uint64_t)(lp - w->lps)); }

/* options.c: the defaults of the option table (warp_init); frees what option
 * parsing allocated (file names, config files). */
void warp_options_defaults(warp_ctx *w);
void warp_free_options(warp_ctx *w);
/* options.c: the engine's resolved options as "--name=value" strings for
 * warp_agree_config, into out (at most cap of them); returns the count. */
size_t warp_options_settings(const warp_ctx *w, char (*out)[80], size_t cap);
/* The --synch name of a mode (seq, cons, opt, check, debug). */
const char *synch_name(warp_synch s);
/* The queue kind of a --queue name; -1 when unknown. */
int queue_parse(const char *name);
/* The --queue name of a kind (queue_parse's inverse). */
const char *queue_name(queue_kind kind);

/* context.c */
double warp_wtime(void);
/* Collective (every rank calls it): stops the run on every rank with exit
 * code `code`, rank 0 first printing "PROGRAM: message" on one line. Beside
 * warp_fatal, which one rank calls alone. Finalizes MPI, or aborts on
 * several ranks while the transport is up (messages may be in flight):
 * tear it down first (transport_destroy) for an orderly end. */
void warp_stop_all(const warp_ctx *w, int code, const char *fmt, ...) __attribute__((noreturn, format(printf, 3, 4)));
void warp_fatal_lp(const warp_lp *lp, const char *what, ...) __attribute__((noreturn, format(printf, 2, 3)));
#define WARP_ASSERT(cond, invariant)                                                              \
    do {                                                                                          \
        if (!(cond))                                                                              \
            warp_internal_error(__FILE__, __LINE__, invariant);                                   \
    } while (0)
void warp_internal_error(const char *file, int line, const char *invariant) __attribute__((noreturn));

/* Events that run final (cons; opt below safe_ts) run in ascending key
 * order on each rank: nothing can arrive below one, so an event that runs
 * after it with a smaller key arrived too late (a lookahead or window the
 * engine trusted is wrong) and the run stops rather than commit it out of
 * order (process.c). One comparison, on the timestamp but for ties. */
void causality_broken(const warp_ctx *w, const warp_event *e) __attribute__((noreturn, cold));
static inline void final_order(const warp_ctx *w, const warp_event *e)
{
    if (__builtin_expect(WARP_KEY_LESS(e, &w->sched.final_key), 0))
        causality_broken(w, e);
}

/* pool.c */
/* The working size for nlocal LPs: 4 per LP + 64 Ki, at least 1 Mi. */
uint64_t pool_work_size(uint64_t nlocal);
/* Events of ev_size bytes the default pool reserves: 3/4 of the rank's
 * memory mem (bytes; 0: unknown), and never fewer than work. */
uint64_t pool_default_cap(uint64_t work, size_t ev_size, uint64_t mem);
/* Reserves the pool: cap events (--events), or 0 for the default from
 * mem, the rank's memory left after its LPs. */
void pool_init(warp_ctx *w, uint64_t cap, uint64_t mem);
/* Stops the run, out of event memory, naming what ran out and the fix. */
void pool_exhausted(const warp_ctx *w, const char *how) __attribute__((noreturn));
warp_event *pool_get(warp_ctx *w);
/* Returns e to the free list. Inline, as pool_low: they run once per event
 * (commit, and every batch step), where the call cost more than the body. */
static inline void pool_put(warp_ctx *w, warp_event *e)
{
    warp_pool *p = &w->pool;
#ifdef WARP_DEBUG
    WARP_ASSERT(e->state != EV_FREE, "an event is freed once");
    memset(EV_PAYLOAD(e), 0xA5, w->msg_size); /* use after free shows up in digests */
#endif
    e->state = EV_FREE;
    p->stack[p->nfree++] = e;
    p->in_use--;
}
/* Low means: less than an eighth of the reservation left. The optimistic
 * scheduler then forces a GVT round instead of running further ahead. With
 * the default reservation that is when about 2/3 of the rank's memory holds
 * events: real memory pressure, not a guessed count. */
static inline bool pool_low(const warp_ctx *w)
{
    return w->pool.in_use >= w->pool.low_at;
}
void pool_destroy(warp_ctx *w);

/* queue.c: the pending events of this PE */
/* The heap indexes events by their slot in `pool`, which must be set up
 * first; total_lps bounds src (wider ids still order right, just slower). */
void queue_init(warp_queue *q, queue_kind kind, size_t hint, const warp_pool *pool, uint64_t total_lps);
void queue_insert(warp_ctx *w, warp_event *e);
warp_event *queue_peek(warp_ctx *w);  /* smallest live pending event or NULL */
warp_event *queue_pop(warp_ctx *w);
/* Pops the smallest live pending event if its timestamp is at most limit, else NULL. */
warp_event *queue_pop_upto(warp_ctx *w, double limit);
void queue_remove(warp_ctx *w, warp_event *e); /* and free it, now or later */
void queue_prefetch_next(warp_ctx *w); /* warm the next event's LP (a hint) */
/* queue_prefetch_next, and the next few events' lines a stage each (a hint) */
void queue_prefetch_ahead(warp_ctx *w);
/* The state bytes queue_prefetch_ahead loads for a type without state_head. */
#define STATE_HEAD_DEFAULT 256
/* The hint for events that run final (seq, and below the safe bound): the
 * pipeline pays as soon as a rank's LP records, states and outputs are past
 * the L2's size (stages two events apart, sequential: PHOLD with 64 Ki LPs
 * 0.72x, the 32K torus replay 0.80x, the 31K-node fat-tree 0.71x); below,
 * where every line hits, the one-stage hint costs fewer instructions (PHOLD
 * with 1,024 LPs: 1.8 % faster). setup.c decides (prefetch_deep). */
#define FINAL_PREFETCH_DEEP_BYTES (UINT64_C(1) << 20)
static inline void queue_prefetch_for(warp_ctx *w)
{
    if (w->prefetch_deep)
        queue_prefetch_ahead(w);
    else
        queue_prefetch_next(w);
}
void queue_destroy(warp_queue *q);

/* alloc.c */
void alloc_init(warp_allocator *a);
void *alloc_get(warp_ctx *w, size_t size);
void alloc_put(warp_ctx *w, alloc_hdr *h);
void alloc_destroy(warp_allocator *a);
/* Checkpoints (checkpoint*.c): the live warp_alloc block holding an address
 * (slab blocks only; NULL when none), its class and usable bytes, and a block
 * of a given class for a restore. */
typedef struct alloc_index {
    char **base; /* slabs by address */
    size_t n;
    uintptr_t lo, hi;
} alloc_index;
void alloc_index_build(warp_ctx *w, alloc_index *ix);
void alloc_index_free(alloc_index *ix);
alloc_hdr *alloc_find(const alloc_index *ix, uintptr_t p);
uint32_t alloc_class(const alloc_hdr *h);
size_t alloc_usable(uint32_t cls);
void *alloc_get_class(warp_ctx *w, uint32_t cls);

/* bigmem.c */
/* A zeroed mapping of `bytes` (NULL when out of memory) for the big arrays
 * that are reached at random (LP states and records): with huge, 2 MiB
 * aligned and madvised for transparent huge pages. Free with big_unmap. */
void *big_map(size_t bytes, bool huge);
void big_unmap(void *p, size_t bytes, bool huge);
/* Asks for transparent huge pages on an existing mapping (best effort). */
void big_advise_huge(void *p, size_t bytes);

/* undo.c */
/* Marks where event e's undo records will start (inline: once per event). */
static inline void undo_mark(warp_ctx *w, warp_kp *kp, warp_event *e)
{
    (void)w;
    ev_cold *c = EV_COLD(e);
    c->undo = NULL;
    c->mark_chunk = kp->undo.newest;
    c->mark_off = kp->undo.used;
}
void undo_replay(warp_ctx *w, warp_kp *kp, warp_event *e);
void undo_release_before(warp_ctx *w, warp_kp *kp, warp_event *oldest_live);
void undo_destroy(warp_ctx *w, warp_kp *kp);
/* Sizes the undo chunks for w->nkps KPs (setup, before any event). */
void undo_size_chunks(warp_ctx *w);

/* process.c: run one event's forward handler with rollback bookkeeping */
void process_event(warp_ctx *w, warp_event *e);
/* process.c: runs e, popped below w->sched.safe_ts, as final: no saving; it
 * commits at once, or with its KP's processed events at the next fossil
 * pass when there are some. */
void process_final(warp_ctx *w, warp_event *e);
/* Appends processed event e to kp's list (inline: once per event). */
static inline void kp_append(warp_ctx *w, warp_kp *kp, warp_event *e)
{
    if (!kp->live) {
        kp->live = true;
        w->live_kps[w->nlive++] = kp;
    }
#ifdef WARP_DEBUG
    WARP_ASSERT(!kp->tail || ev_less(kp->tail, e), "a KP's processed list is in ascending key order");
    WARP_ASSERT(e->state == EV_PROCESSED, "only processed events join a KP's list");
#endif
    e->next = NULL;
    EV_COLD(e)->prev = kp->tail;
    if (kp->tail)
        kp->tail->next = e;
    else
        kp->head = e;
    kp->tail = e;
    kp->tail_ts = e->ts;
}
void deliver_local(warp_ctx *w, warp_event *e);

/* rollback.c */
void rollback_kp(warp_ctx *w, warp_kp *kp, const warp_event *key, bool secondary);
void undo_event(warp_ctx *w, warp_event *e);
void cancel_event(warp_ctx *w, warp_event *e);

/* fossil.c */
void commit_event(warp_ctx *w, warp_event *e);
void fossil_collect(warp_ctx *w, double gvt);
/* Commits the events whose key is below `key`: on one rank the smallest
 * pending key, on several GVT's key (w->sched.gvt_key; see gvt.c for why). */
void fossil_collect_below(warp_ctx *w, const gvt_key *key);

/* setup.c */
/* The engine's class of model type t in w (made at its first use): what
 * lp->type points at. */
const warp_lp_type *lp_class_for(warp_ctx *w, const warp_lp_type *t);
/* Frees the classes of w. */
void lp_classes_free(warp_ctx *w);

/* map.c: the gid -> LP map */
/* Places the model's LPs on the ranks: this rank's first_gid and nlocal, and
 * with a model mapper the tables below (w->m and total_lps set). */
void map_build(warp_ctx *w);
void map_free(warp_ctx *w); /* frees what map_build made */
/* The rank owning gid. */
int map_pe_of(const warp_ctx *w, warp_lpid gid);
/* The record of gid, owned by this rank. */
warp_lp *map_local_lp(const warp_ctx *w, warp_lpid gid);
/* The rank owning `gid`; when it is this one, also sets *lp to its record.
 * The dense table answers both with one load (map_pe_of then map_local_lp
 * would read the same entry twice). */
static inline int map_dest(const warp_ctx *w, warp_lpid gid, warp_lp **lp)
{
    if (w->gid_dense) {
        int32_t v = w->gid_dense[gid];
        if (v < 0)
            return (int)(-v - 1);
        *lp = &w->lps[v];
        return w->rank;
    }
    int pe = w->nranks == 1 ? 0 : map_pe_of(w, gid);
    if (pe == w->rank)
        *lp = map_local_lp(w, gid);
    return pe;
}

/* api.c: delivers the running event's sends that warp_event_send held. */
void outbox_flush(warp_ctx *w);

/* transport.c */
void transport_init(warp_ctx *w);
/* Packs e for PE pe; keep: its record stays for an anti-message (the
 * parent may still be rolled back). */
void transport_send_event(warp_ctx *w, warp_event *e, int pe, bool keep);
void transport_send_anti(warp_ctx *w, warp_event *rec); /* takes rec */
void transport_fossil(warp_ctx *w, double gvt);        /* forget cancellations below gvt */
void transport_poll(warp_ctx *w);
void transport_flush(warp_ctx *w);
/* Set up (transport_init) and not torn down (transport_destroy). */
static inline bool transport_up(const warp_ctx *w) { return w->tr.up; }
void transport_destroy(warp_ctx *w);
void remote_forget(warp_ctx *w, warp_event *e);

/* shm.c (collective over the engine's communicator: init and destroy) */
/* Sets up rings to the ranks of this node as --transport asks; refuses
 * --transport=shm when some rank is on another node. */
void shm_init(warp_ctx *w, size_t record_max);
/* Writes len bytes as one record into pe's ring if they fit now. */
bool shm_put(warp_ctx *w, int pe, const char *data, size_t len);
/* The most bytes one record for pe can hold now (0: the ring is full). */
size_t shm_room(warp_ctx *w, int pe);
/* Hands every record waiting in this rank's rings to fn, in each ring's order. */
void shm_poll(warp_ctx *w, void (*fn)(warp_ctx *, const char *, int));
/* Collective: when every rank shares this node's rings, a zeroed slot of
 * `bytes` per rank in a shared window, as one pointer per engine rank
 * (malloc'd: the caller frees the array; the window goes with shm_destroy);
 * NULL on every rank otherwise. */
void **shm_slots(warp_ctx *w, size_t bytes);
void shm_destroy(warp_ctx *w); /* frees the windows (with every rank) */

/* gvt.c */
void gvt_init(warp_ctx *w);
void gvt_destroy(warp_ctx *w); /* frees what gvt_init made (teardown) */
/* The key above every event's (ts = INFINITY). */
gvt_key gvt_key_inf(void);
/* True when a new GVT was computed; idle: nothing to run below the limit,
 * so join a round now. Untimed: its caller adds the time to w->cnt.t.gvt, from
 * the clock reading it takes anyway (sched_opt.c). */
bool gvt_step(warp_ctx *w, bool idle);
/* Combines a's counts (sums) and bounds (minima) into *into: the round's
 * reduction, whatever carries it. */
void gvt_msg_combine(struct gvt_round_msg *into, const struct gvt_round_msg *a);
/* gvt_shm.c (collective: init and destroy). Where every rank shares this
 * node's rings (--transport auto or shm), sets w->gvt.slots: reductions go
 * through the node's shared slots from then on; else leaves it NULL. */
void gvt_shm_init(warp_ctx *w);
/* Publishes w->gvt.in as this rank's part of its next reduction. */
void gvt_shm_start(warp_ctx *w);
/* True once every rank has published the reduction last started: w->gvt.out
 * then holds the combined message. Never blocks. */
bool gvt_shm_test(warp_ctx *w);
void gvt_shm_destroy(warp_ctx *w);
/* The blocking GVT computation (--gvt=sync); part of gvt_step's time. */
double gvt_sync(warp_ctx *w);
double local_min_ts(warp_ctx *w);
void counts_reduce(warp_ctx *w, int64_t *local3, int64_t *global3);

/* schedulers */
void sched_seq(warp_ctx *w);
void sched_opt(warp_ctx *w);
void sched_cons(warp_ctx *w);
void sched_check(warp_ctx *w);
/* check.c: stops a check run whose event's payload no longer hashes to
 * the digest word its forward handler left (a write after forward). */
void check_commit_digest(warp_ctx *w, const warp_event *e);

/* collective.c: the engine's collectives over its ranks (each rank calls
 * them in the same order). With transport.c (point-to-point), context.c
 * (start, stop) and gvt.c (its non-blocking round) the only engine files
 * that call MPI (tests/arch/seams.sh). */
typedef enum coll_type { COLL_U64, COLL_I64, COLL_DOUBLE } coll_type; /* 8 bytes each */
typedef enum coll_op { COLL_SUM, COLL_MAX, COLL_MIN } coll_op;
/* out[i] = op over the ranks of in[i], for i < n, on every rank (in == out: in place). */
void coll_allreduce(const warp_ctx *w, const void *in, void *out, int n, coll_type t, coll_op op);
void coll_bcast(const warp_ctx *w, void *buf, size_t bytes); /* rank 0's bytes to every rank */
void coll_barrier(const warp_ctx *w);
/* Every rank's `bytes` bytes at mine, in rank order, into all on rank 0
 * (all: ignored elsewhere). */
void coll_gather(const warp_ctx *w, const void *mine, size_t bytes, void *all);
/* Every rank's n elements of type t, concatenated on rank 0 (NULL elsewhere),
 * with each rank's count and offset (rank 0; free all three); out of
 * memory stops the run naming what was gathered. */
void *coll_gatherv(const warp_ctx *w, const void *buf, int n, coll_type t, int **counts, int **displs,
                   const char *what);

/* stats.c */
/* The digest of committed event e; e must live in an event-pool slot (its
 * payload's last word may be read whole, up to the slot's end). */
uint64_t digest_event(const warp_ctx *w, const warp_event *e);
/* Derives what digest_event needs from msg_size and digest_size. */
void digest_setup(warp_ctx *w);
void stats_finish(warp_ctx *w);

/* report.c: what happens at every GVT round (or window, or every 2^18 events
 * in sequential mode): an instrumentation row when --engine-stats is on, the
 * progress line and the heartbeat file on rank 0. */
void round_report(warp_ctx *w, double gvt, uint64_t committed_all, uint64_t rolled_all, bool force);
void report_open(warp_ctx *w);
void report_close(warp_ctx *w, bool write); /* write: the run completed */
#define ROW_COLS 12

/* checkpoint.c: the consistent cut and the files (docs/checkpoint.md). */
/* stats.c: stops when an output file (--stats-json, --engine-stats) cannot
 * be written: exit 3 for a full disk, else 2; names the option the user
 * gave (the host's, see warp_set_output_owner). errno as the failure left it. */
void stats_output_failed(const warp_ctx *w, const char *opt, const char *path) __attribute__((noreturn));
void ckpt_setup(warp_ctx *w);         /* refusals and signals, before the run */
void ckpt_prepare(warp_ctx *w);       /* the configuration hash, once the model is known */
int ckpt_signal_number(const char *name, size_t n); /* (options.c) "TERM", "SIGUSR1"...: 0 when unknown */
/* Collective, at a GVT round: whether a checkpoint is due (--checkpoint-at
 * passed by gvt, or --checkpoint-every elapsed on rank 0); *cut: where. */
bool ckpt_due(warp_ctx *w, double gvt, double *cut);
/* Collective: rolls every rank back to `cut` (<= GVT), drains the network,
 * commits what lies below and writes DIR atomically; the run may go on. */
void ckpt_take(warp_ctx *w, double cut);
/* After an interrupted scheduler: checkpoint (when --checkpoint) and exit. */
void ckpt_on_stop(warp_ctx *w, double cut) __attribute__((noreturn));
/* Shared by writer and reader: identity of the build and configuration. */
uint64_t ckpt_build_id(void);
uint64_t ckpt_config_hash(const warp_ctx *w);
uint64_t ckpt_sum(uint64_t seed, const void *p, size_t n);
/* Formats a path under the DIR of option opt ("--checkpoint", "--restart")
 * into path (cap bytes), or stops naming opt when it would not fit: a
 * truncated path would name another file. */
void ckpt_path(const char *opt, char *path, size_t cap, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
struct warp_ckpt {
    warp_ctx *w;
    char *buf;
    size_t len, cap, pos;
    const char *file; /* for errors while reading */
    warp_lpid gid;
};
void ckpt_buf_put(warp_ckpt *c, const void *p, size_t n);
/* checkpoint_read.c: --restart: states, pending events and counters of the
 * LPs this rank owns now, in place of init handlers. */
void ckpt_restore(warp_ctx *w);

/* context.c: SIGINT/SIGTERM set a flag that the schedulers poll (on one rank)
 * or reduce with GVT (on several), so every rank stops at the same round. */
bool warp_signal_pending(void);
/* context.c: setup is over; a rank's own fatal error need not wait as long
 * for rank 0's. */
void fatal_run_started(void);
void warp_signal_catch(int sig); /* also stop on sig (checkpoint signals) */

#endif
