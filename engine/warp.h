/* warp.h — the public API of libwarp, Warpnet's Time Warp engine.
 * A model declares LP types (handlers + state layout), describes its LPs in a
 * warp_model, and calls warp_run. Everything a handler may touch goes through
 * the warp_lp it receives; there is no other global state. */
#ifndef WARP_H
#define WARP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "warp_cfg.h"   /* option tables: warp_engine_options */
#include "warp_error.h" /* warp_fatal, exit codes WARP_EXIT_*, warp_xcalloc */
#include "warp_rng.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef uint64_t warp_lpid;      /* global LP id, 0 .. total_lps-1 */
typedef struct warp_lp warp_lp;  /* an LP as handlers see it (opaque) */
typedef struct warp_ctx warp_ctx; /* the one engine context of this process */
typedef struct warp_ini warp_ini; /* a run file (warp_ini.h) */

/* Per-event bit field: forward handlers record branch decisions here; the
 * reverse and commit handlers of the same event see the same bits. */
typedef struct warp_bits {
    uint64_t b;
} warp_bits;

typedef enum warp_save_policy {
    WARP_SAVE_NONE = 0, /* reverse handler and/or warp_save() undo the event */
    WARP_SAVE_FULL = 1, /* the engine copies the whole state before each event */
} warp_save_policy;

/* A byte range of the LP state that --synch=check must not compare
 * (e.g. a cache, or a pointer into memory that legitimately moves). */
typedef struct warp_span {
    size_t offset;
    size_t len;
} warp_span;

/* One LP's record in a checkpoint being written or read (ckpt hooks). */
typedef struct warp_ckpt warp_ckpt;

typedef struct warp_lp_type {
    const char *name;      /* shown in errors and check-mode reports */
    size_t state_size;     /* bytes of rollback-protected state */
    size_t out_size;       /* bytes of committed-output block (never rolled back) */
    warp_save_policy save;
    void (*init)(warp_lp *lp, void *state);
    void (*forward)(warp_lp *lp, void *state, void *msg, warp_bits *bits);
    /* Undoes forward; sees the post-event state. May be NULL when the LP type
     * uses WARP_SAVE_FULL or saves every write with warp_save(). */
    void (*reverse)(warp_lp *lp, void *state, void *msg, warp_bits *bits);
    /* Runs once per committed event, in key order per LP. Writes output and
     * committed statistics into `out` (the LP's out_size block); must read the
     * event's facts from msg, bits and warp_now(), not from the LP state,
     * which may already be ahead of the event (forward may write facts into
     * msg for it: all of them, in every execution, since the committed
     * digest covers the payload). Must not send events. May be NULL. */
    void (*commit)(warp_lp *lp, void *out, const void *msg, const warp_bits *bits);
    /* Runs once at the end of the run with the final state. May be NULL. */
    void (*finish)(warp_lp *lp, void *state, void *out);
    /* Optional, a hint: starts loading the lines forward will touch for
     * msg past its state's first (a port record the event names), an
     * event before it runs, so that they arrive while another event runs.
     * Computes addresses from msg and the state's layout only, and writes
     * nothing: the state's contents may still be in flight. May be NULL. */
    void (*prefetch)(const warp_lp *lp, const void *state, const void *msg);
    /* Optional (0: the first 256 bytes, or all of a smaller state): the
     * bytes at the start of the state that most events read, which the
     * engine loads an event ahead. A large state whose head is small (a
     * router's few counters before its port records) names it, so that
     * lines no event needs do not take the memory's time. */
    size_t state_head;
    /* Optional (0: 16 bytes): the state's alignment, a power of two up to
     * 4096. A state built of records that fill a cache line each asks for
     * 64, so that each record is one line, not parts of two. */
    size_t state_align;
    /* Optional: a short name of the event's model-level type, for reports. */
    const char *(*event_name)(const void *msg);
    const warp_span *check_skip; /* regions --synch=check ignores */
    size_t check_skip_count;
    /* Optional checkpoint hooks (docs/checkpoint.md), only for what the
     * engine cannot see: memory outside the state, the out block and
     * warp_alloc blocks (e.g. malloc'd tables the LP changes). ckpt_save
     * appends bytes with warp_ckpt_write at a checkpoint. On --restart,
     * ckpt_load runs in place of init, after the engine restored the state
     * and out bytes (and warp_alloc blocks), and reads the same bytes back
     * with warp_ckpt_read; it rebuilds any pointer the state holds to memory
     * it owns. Both NULL: plain state, nothing to add. */
    void (*ckpt_save)(warp_lp *lp, const void *state, const void *out, warp_ckpt *c);
    void (*ckpt_load)(warp_lp *lp, void *state, void *out, warp_ckpt *c);
} warp_lp_type;

/* What a model hands to warp_run. `arg` is the model's read-only config,
 * passed back to every callback; handlers reach it with warp_model_arg(). */
typedef struct warp_model {
    const char *name;
    uint64_t total_lps;
    size_t msg_size; /* maximum payload bytes of one event */
    /* Optional (0: msg_size): the payload bytes the committed digest covers,
     * >= msg_size, those past msg_size hashed as zeros. A model that trims
     * msg_size to what a configuration's events use (smaller pool slots)
     * keeps the digest of the untrimmed layout with it. */
    size_t digest_size;
    /* Minimum delay of every event this model sends (conservative mode needs
     * it > 0; the engine refuses any send closer than it in that mode). */
    double lookahead;
    /* Optional, for conservative mode: LPs whose group (the LP id this
     * returns) is the same may send each other events closer than the
     * lookahead, as may an LP to itself; map must place a group on one PE
     * (the engine checks). NULL: every LP is a group of its own. A pure
     * function of (gid, arg). */
    warp_lpid (*group)(warp_lpid gid, const void *arg);
    const warp_lp_type *(*lp_type)(warp_lpid gid, const void *arg);
    /* Optional LP -> PE placement; NULL means block-linear. Must be a pure
     * function of (gid, npes, arg). */
    int (*map)(warp_lpid gid, int npes, const void *arg);
    const void *arg;
} warp_model;

/* ---- Setup ---------------------------------------------------------------- */

typedef enum warp_opt_kind {
    WARP_OPT_INT,    /* int64_t */
    WARP_OPT_UINT,   /* uint64_t */
    WARP_OPT_DOUBLE, /* double */
    WARP_OPT_STRING, /* const char * (points into argv or a config copy) */
    WARP_OPT_FLAG,   /* int, set to 1 by --name, or --name=0/1 */
} warp_opt_kind;

/* One model option, parsed together with the engine's. A table ends with a
 * zeroed entry. */
typedef struct warp_opt {
    const char *name;
    warp_opt_kind kind;
    void *dest;
    const char *help;
} warp_opt;

/* Initialises MPI and the engine context. Call once, first thing in main
 * (after warp_set_program_name, if the program names itself). */
warp_ctx *warp_init(int *argc, char ***argv);

/* What warp_parse_args found: run, or --help (printed on rank 0): the host
 * then calls warp_finalize and exits with 0. The engine never exits on its
 * own but through warp_fatal. */
typedef enum warp_args_status { WARP_ARGS_RUN = 0, WARP_ARGS_HELP = 1 } warp_args_status;

/* Parses engine options and the model's options (model_opts may be NULL) from
 * argv, also reading `--config=FILE` sections [engine] and [model_section].
 * Removes what it parsed; leaves positional arguments in argv. Stops with a
 * message naming the option on any error (warp_fatal); on --help prints the
 * help and returns WARP_ARGS_HELP at once (argv then half parsed). */
warp_args_status warp_parse_args(warp_ctx *w, int *argc, char **argv, const warp_opt *model_opts,
                                 const char *model_section, const char *usage);

/* Sets one engine option by name ("synch", "end", ...); `where` names the
 * origin for messages ("run.ini:12", another option such as "--out", or NULL
 * for the option itself). Exits on a bad value. Returns 0 when the key is
 * not an engine option. */
int warp_set_option(warp_ctx *w, const char *key, const char *value, const char *where);
/* Whether an engine option was set (by a run file, --config or the command
 * line) rather than left at its default. */
int warp_option_given(const warp_ctx *w, const char *name);
/* The file an engine option of a file name (stats-json, engine-stats,
 * heartbeat-file) was given, as given; NULL when it was not given or is
 * not such an option. */
const char *warp_option_file(const warp_ctx *w, const char *name);
/* Applies a run file's [engine] section (each key an engine option; an
 * unknown key stops, suggesting the closest). Call before warp_parse_args,
 * so that the command line wins. */
void warp_apply_ini(warp_ctx *w, warp_ini *ini);
/* Declares that model time is in ns: --end and [engine] end then take a
 * time with its unit (20us) and refuse a bare number. Call before parsing. */
void warp_set_time_unit_ns(warp_ctx *w);
/* The longest model time in ns that options and run files accept. */
#define WARP_TIME_NS_MAX 1e15
/* Declares that the end time only bounds the run: the model finishes when
 * its work is done (a replay), usually long before, so the progress line
 * and heartbeat show no share of the end time and no ETA. */
void warp_set_end_is_bound(warp_ctx *w);
/* Names the host option that put --stats-json and --engine-stats files into
 * directory dir ("--out=res", its temporary directory): an error writing a
 * file there then names that option and the file's own name, not an option
 * or a path the user never gave. */
void warp_set_output_owner(warp_ctx *w, const char *option, const char *dir);

/* The engine's options, one row each (name, argument, default, help), for
 * help texts and manual pages; ends with a zeroed row. */
const warp_cfg_opt *warp_engine_options(void);
/* Prints the engine options with their defaults and help to f. */
void warp_print_engine_help(FILE *f);

/* Mixes n bytes describing the model's configuration into the hash a
 * checkpoint records: --restart refuses a checkpoint whose hash differs.
 * The engine already covers the model's name, LP count and types, state and
 * message sizes, --end and --seed. Call before warp_run. */
void warp_set_config_hash(warp_ctx *w, const void *bytes, size_t n);
/* Whether this run resumes from --restart=DIR (init handlers do not run). */
int warp_restarting(const warp_ctx *w);
/* Whether --checkpoint or --restart is given: outputs a model writes while
 * the run goes (not from out blocks) cannot span a restart. */
int warp_checkpointing(const warp_ctx *w);

/* Builds the LPs, runs the simulation to the end time, runs finish handlers,
 * prints statistics on rank 0 (unless quiet) and writes --stats-json. */
void warp_run(warp_ctx *w, const warp_model *m);

/* Shuts the engine and MPI down. */
void warp_finalize(warp_ctx *w);

/* This process's rank and the number of ranks. */
int warp_rank(const warp_ctx *w);
int warp_nranks(const warp_ctx *w);

/* warp_fatal (warp_error.h) stops the run on every rank once warp_init has
 * run: the rank that failed reports (rank 0 first when all did). */

/* Engine settings a model may read after warp_parse_args. */
double warp_end_time(const warp_ctx *w);
uint64_t warp_seed(const warp_ctx *w);
int warp_quiet(const warp_ctx *w);
/* For long loops outside handlers (building tables, reading traces): when
 * SIGINT or SIGTERM has arrived, stops with WARP_EXIT_SIGNAL and one line
 * naming `during` (e.g. "reading the trace"); else returns at once (one
 * flag read). */
void warp_poll_interrupt(const char *during);
/* Bytes of memory this rank may use: --mem-per-rank when given, else the
 * node's available memory (MemAvailable, lowered to the cgroup's free limit
 * when there is one) divided by the ranks on this node; 0 when unknown. */
uint64_t warp_memory_per_rank(const warp_ctx *w);
/* Ranks of this run on this rank's node (shared memory). */
int warp_ranks_on_node(const warp_ctx *w);
/* Bytes one event takes in the event pool (engine header and payload) for
 * a model whose messages are msg_size bytes: what sizing estimates count. */
size_t warp_event_footprint(size_t msg_size);

/* How a model with a placement of its own spreads its LPs over the ranks
 * ([engine] partition, --partition): block keeps index order, topology asks
 * the model for a locality-preserving partition, metis partitions the
 * model's graph with METIS, file reads the model's placement from a file
 * (--partition=file:PATH). Models without a choice ignore it. */
typedef enum warp_partition_kind {
    WARP_PARTITION_BLOCK = 0,
    WARP_PARTITION_TOPOLOGY = 1,
    WARP_PARTITION_METIS = 2,
    WARP_PARTITION_FILE = 3,
} warp_partition_kind;
warp_partition_kind warp_partition(const warp_ctx *w);
/* The placement file's path of --partition=file:PATH; NULL for other kinds. */
const char *warp_partition_file(const warp_ctx *w);
/* Nonzero when the run is conservative (--synch=cons). */
int warp_conservative(const warp_ctx *w);
/* The option's name of kind k ("block", "topology", "metis", "file"). */
const char *warp_partition_name(warp_partition_kind k);

/* ---- Results -------------------------------------------------------------- */

typedef struct warp_stats {
    uint64_t committed;       /* events committed, all ranks (after --restart: the whole run) */
    uint64_t processed;       /* forward executions, including rolled back */
    uint64_t rolled_back;     /* events undone */
    uint64_t rollbacks_primary;
    uint64_t rollbacks_secondary;
    uint64_t gvt_rounds;
    uint64_t fossil_collections;
    uint64_t remote_sent;     /* events sent to another rank */
    uint64_t anti_sent;
    uint64_t peak_event_bytes; /* max over ranks of event memory in use */
    uint64_t digest;          /* committed digest, partition independent */
    double efficiency;        /* 1 - rolled_back / committed (after --restart: of this segment) */
    double setup_s, run_s;    /* wall seconds, rank 0 */
    double event_rate;        /* committed / run_s (after --restart: this segment's) */
    double t_forward, t_reverse, t_queue, t_net, t_gvt, t_fossil; /* max over ranks */
    double final_gvt;
} warp_stats;

/* Statistics of the last warp_run, identical on every rank. */
const warp_stats *warp_last_stats(const warp_ctx *w);

/* ---- Model results across ranks ------------------------------------------- */

typedef enum warp_type {
    WARP_TYPE_U32,    /* uint32_t */
    WARP_TYPE_U64,    /* uint64_t */
    WARP_TYPE_FLOAT,  /* float */
    WARP_TYPE_DOUBLE, /* double */
} warp_type;

typedef enum warp_op {
    WARP_OP_SUM,
    WARP_OP_MAX,
} warp_op;

/* Collective (every rank calls it, outside handlers): combines the n values
 * of type t at buf of every rank with op into buf on rank 0; the other
 * ranks' buf is left as it was. Any n (sent in pieces). Sums of floating
 * values are exact only when each value is nonzero on at most one rank. */
void warp_reduce_to_root(const warp_ctx *w, void *buf, uint64_t n, warp_type t, warp_op op);
/* Collective: every rank's n items of `size` bytes at mine, concatenated in
 * rank order into a new heap buffer on rank 0 (*total items); other ranks
 * get NULL and *total = 0. Stops with WARP_EXIT_RESOURCE and the line
 * `too_big` (what to lower) when the result would pass 2 GiB. */
void *warp_gather_to_root(const warp_ctx *w, const void *mine, uint64_t n, size_t size,
                          uint64_t *total, const char *too_big);
/* Collective, before the model is built: stops every rank with
 * WARP_EXIT_USAGE and one line from rank 0, naming the first setting (in
 * key order) that differs and the ranks, unless every rank holds the same
 * settings: the n "key=value" strings `items` (any order; keys unique) and
 * the engine's resolved options. Cheap when they agree (one 64-bit hash
 * all-reduce). */
void warp_agree_config(const warp_ctx *w, const char *const *items, size_t n);
/* (The engine's own MPI communicator, for host programs that use MPI
 * beside libwarp: warp_comm in warp_mpi.h.) */

/* ---- Inside handlers ------------------------------------------------------ */

warp_lpid warp_lp_id(const warp_lp *lp);
uint64_t warp_total_lps(const warp_lp *lp);
double warp_now(const warp_lp *lp);       /* receive time of the event being processed or committed */
double warp_end(const warp_lp *lp);       /* the run's end time */
const void *warp_model_arg(const warp_lp *lp);
const warp_lp_type *warp_lp_get_type(const warp_lp *lp);
void *warp_lp_out(warp_lp *lp);           /* the LP's committed-output block */
warp_rng *warp_lp_rng(warp_lp *lp);       /* the LP's stream; engine reverses it */

/* Allocates an event to `dest` arriving `delay` after now (delay >= 0) and
 * returns its payload (msg_size bytes, zeroed) to fill before warp_event_send. */
void *warp_event_new(warp_lp *lp, warp_lpid dest, double delay);
/* Sends the event whose payload warp_event_new returned. */
void warp_event_send(warp_lp *lp, void *payload);
/* A hint for prefetch hooks: starts loading what a send from lp to dest
 * looks up (its rank and record), so that the send an event later does not
 * wait for it. Writes nothing; any dest is allowed. */
void warp_prefetch_dest(const warp_lp *lp, warp_lpid dest);
/* Convenience: new + copy `len` bytes of msg + send. */
void warp_send(warp_lp *lp, warp_lpid dest, double delay, const void *msg, size_t len);

/* Incremental state saving: logs the current `len` bytes at `ptr` (inside the
 * LP's state or its warp_alloc memory) so a rollback restores them. Call
 * before writing. Free in sequential mode. */
void warp_save(warp_lp *lp, const void *ptr, size_t len);

/* Rollback-safe memory: freed automatically if the current event is rolled
 * back. Never returns NULL (stops the run when memory is exhausted). */
void *warp_alloc(warp_lp *lp, size_t size);
/* Frees ptr (from warp_alloc) once the current event commits; a rollback of
 * the event cancels the free. */
void warp_free_on_commit(warp_lp *lp, void *ptr);

/* Checkpoint hooks: append n bytes to the LP's record / read the next n
 * (stops with exit 2 when the record holds fewer). */
void warp_ckpt_write(warp_ckpt *c, const void *p, size_t n);
void warp_ckpt_read(warp_ckpt *c, void *p, size_t n);

#ifdef __cplusplus
}
#endif
#endif
