/* source.h — a trace source: anything that can produce the task graph of one
 * rank on demand (BigSim, OTF2, GOAL, native text/binary files, procedural
 * generators). Loading is lazy: replay_source_load(s, r) touches only what
 * rank r needs, so each replay LP loads its own rank where it lives. */
#ifndef REPLAY_SOURCE_H
#define REPLAY_SOURCE_H

#include <stdint.h>

#include "replay/error.h"
#include "replay/taskgraph.h"

/* Reader options; replay_opts_default() gives the documented defaults. */
typedef struct replay_opts {
    uint64_t ampi_overhead_ns; /* BigSim: duration of AMPI_* bookkeeping tasks (TraceR's soft delay) */
    int keep_init;             /* BigSim: 1 keeps the initialisation phase TraceR skips */
    uint64_t otf2_eager_limit; /* OTF2, Dimemas: messages above it use rendezvous (receiver sends a control message) */
    int rendezvous_from_trace; /* Dimemas: rendezvous where the send record says so, not by size */
} replay_opts;

typedef struct replay_source replay_source;

typedef struct replay_source_ops {
    const char *format; /* "bigsim", "otf2", "goal", "native", "gen", "dimemas" */
    int (*load)(replay_source *s, int32_t rank, replay_rank *out, replay_err *err);
    void (*close)(replay_source *s);
    /* Optional: the rank's shape class (below REPLAY_SHAPE_CLASSES), where
     * ranks of one class have graphs equal up to the rank offset of their
     * peers; -1 where the source cannot tell without building it. */
    int (*shape_class)(const replay_source *s, int32_t rank);
    /* Optional: the fewest bytes of any packet its messages split into at
     * packet_size bytes a packet (a message of 0 bytes travels as 1), known
     * without loading a rank; 0 where the source cannot tell. */
    uint64_t (*min_packet)(const replay_source *s, uint64_t packet_size);
} replay_source_ops;

#define REPLAY_SHAPE_CLASSES 64

struct replay_source {
    const replay_source_ops *ops;
    int32_t nranks;
    char *path;
    replay_opts opts;
    void *impl; /* the reader's own data */
};

/* Defaults: ampi_overhead_ns = 100, keep_init = 0, otf2_eager_limit = 65536,
 * rendezvous_from_trace = 0. */
replay_opts replay_opts_default(void);

/* The format a path most likely holds ("bigsim" for a directory with bgTrace,
 * "otf2" for *.otf2 or a directory with traces.otf2, "goal" for *.goal,
 * "dimemas" for *.dim or a file starting with #DIMEMAS, "gen" for "gen:...",
 * else "native"). */
const char *replay_guess_format(const char *path);

/* Opens a trace; format NULL or "" guesses. Returns 0, or -1 with err set. */
int replay_source_open(const char *path, const char *format, const replay_opts *opts,
                       replay_source **out, replay_err *err);

/* Builds rank's graph into out (begun, filled and frozen by the source). */
int replay_source_load(replay_source *s, int32_t rank, replay_rank *out, replay_err *err);

/* The rank's shape class (see replay_source_ops.shape_class), or -1. */
int replay_source_shape_class(const replay_source *s, int32_t rank);

/* Releases the source (NULL is fine). */
void replay_source_close(replay_source *s);

/* Allocates a source shell for a reader's open function. */
replay_source *replay_source_new(const replay_source_ops *ops, const char *path,
                                 const replay_opts *opts, int32_t nranks, void *impl);

/* Per-format open functions (called through replay_source_open). */
int replay_bigsim_open(const char *path, const replay_opts *o, replay_source **out, replay_err *err);
int replay_goal_open(const char *path, const replay_opts *o, replay_source **out, replay_err *err);
int replay_native_open(const char *path, const replay_opts *o, replay_source **out, replay_err *err);
int replay_gen_open(const char *spec, const replay_opts *o, replay_source **out, replay_err *err);
int replay_dimemas_open(const char *path, const replay_opts *o, replay_source **out, replay_err *err);
#ifdef HAVE_OTF2
int replay_otf2_open(const char *path, const replay_opts *o, replay_source **out, replay_err *err);
#endif

#endif
