/* source.h — a trace source: anything that can produce the task graph of one
 * rank on demand (BigSim, OTF2, GOAL, native text/binary files, procedural
 * generators), and what a reader declares to be listed (replay_reader).
 * Loading is lazy: replay_source_load(s, r) touches only what rank r needs,
 * so each replay LP loads its own rank where it lives. Opening goes through
 * the table of readers (readers.h). */
#ifndef REPLAY_SOURCE_H
#define REPLAY_SOURCE_H

#include <stdint.h>

#include "warp_cfg.h"
#include "replay/collectives/coll.h"
#include "replay/error.h"
#include "replay/taskgraph.h"

/* Settings for the trace readers by key, as users write them
 * ("eager_limit" = "64KiB"): replay_opts_set (readers.h) checks each
 * against the keys the readers declare, and opening a trace hands a reader
 * the settings of its own keys. Empty (zeroed, or replay_opts_default()):
 * every reader's defaults. */
#define REPLAY_OPTS_MAX 8
typedef struct replay_opts {
    int n;
    struct {
        char key[32];
        char value[256]; /* room for a path (pcap_map) */
    } set[REPLAY_OPTS_MAX];
    coll_cfg coll; /* [collectives]: handed to every source (replay_source.coll) */
} replay_opts;

typedef struct replay_source replay_source;

/* What a structured source tells of its messages' tags: the phase each
 * belongs to, for per-phase times in the replay's report. */
typedef struct replay_phases {
    int n;
    const char *const *names;
    int (*of_tag)(int32_t tag); /* 0 .. n-1, or -1: no phase */
} replay_phases;

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
    /* Optional: what a packet capture recorded of each message (capture.h);
     * NULL for traces that are not captures. */
    const struct replay_capture *(*capture)(const replay_source *s);
    /* Optional: the phases of its message tags; NULL where it has none. */
    const replay_phases *(*phases)(const replay_source *s);
} replay_source_ops;

#define REPLAY_SHAPE_CLASSES 64

struct replay_source {
    const replay_source_ops *ops;
    int32_t nranks;
    char *path;
    const void *opts; /* the reader's own options (its descriptor's opts_size
                       * bytes, owned by the source; NULL when it has none) */
    void *impl;       /* the reader's own data */
    coll_cfg coll;    /* the collective algorithms chosen ([collectives]) */
};

/* A trace reader, as the table lists it (readers.c: one descriptor per
 * reader, registered by REPLAY_READERS in models/replay/local.mk). */
typedef struct replay_reader {
    const char *name; /* what [job.N] format and --format name */
    /* How surely path holds this format: 0 not at all, 1 as the last
     * resort, 2 by a directory's contents or a file name, 3 by a suffix or
     * the first bytes, 4 by a prefix of the path itself. The most sure
     * reader wins; ties go to the first in the table. */
    int (*sniff)(const char *path);
    /* Opens path with opts, the reader's options (opts_size bytes: dflt,
     * then the settings of its keys); the source keeps opts. */
    int (*open)(const char *path, const void *opts, replay_source **out, replay_err *err);
    const warp_cfg_opt *keys; /* its keys, ending with a zeroed row; NULL: none */
    size_t opts_size;         /* bytes of its options (0: none) */
    const void *dflt;         /* its options' defaults (opts_size bytes) */
} replay_reader;

/* An empty set of settings: every reader's defaults. */
replay_opts replay_opts_default(void);

/* Builds rank's graph into out (begun, filled and frozen by the source). */
int replay_source_load(replay_source *s, int32_t rank, replay_rank *out, replay_err *err);

/* The rank's shape class (see replay_source_ops.shape_class), or -1. */
int replay_source_shape_class(const replay_source *s, int32_t rank);

/* Releases the source (NULL is fine). */
void replay_source_close(replay_source *s);

/* Allocates a source shell for a reader's open function; opts (the options
 * the reader was opened with, opts_size bytes) is copied. */
replay_source *replay_source_new(const replay_source_ops *ops, const char *path, const void *opts,
                                 size_t opts_size, int32_t nranks, void *impl);

/* What readers' sniff functions test: path ends with suffix; path is a
 * directory holding a file `name`; path is a file whose first bytes are
 * magic (at most 16). */
int replay_path_ends_with(const char *path, const char *suffix);
int replay_dir_holds(const char *path, const char *name);
int replay_file_starts_with(const char *path, const char *magic);

#endif
