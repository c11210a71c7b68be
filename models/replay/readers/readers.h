/* readers.h — the table of trace readers: opening a trace by its format
 * (named or guessed), the settings of the readers' keys, and the list
 * itself. The list is generated from REPLAY_READERS in
 * models/replay/local.mk, so a new reader is its file plus one line there. */
#ifndef REPLAY_READERS_H
#define REPLAY_READERS_H

#include "replay/readers/source.h"

/* The readers built in, in table order, ending with NULL. */
const replay_reader *const *replay_readers(void);

/* The reader named `name`, or NULL (also for a format not built here). */
const replay_reader *replay_reader_find(const char *name);

/* The format a path most likely holds: the name of the reader whose sniff
 * is surest ("gen" for gen:..., "otf2" for *.otf2 or a directory with
 * traces.otf2, "goal" for *.goal, "dimemas" for *.dim or a file starting
 * with #DIMEMAS, "pcap" for *.pcap, *.pcapng, *.cap, their magic numbers or
 * a directory of them, "bigsim" for a directory with bgTrace, else "native"). */
const char *replay_guess_format(const char *path);

/* Records key = value for every reader that declares key (replaces an
 * earlier setting of key). Returns NULL, or a short reason: an unknown key
 * (naming the readers' keys), a value the key refuses, or too many or too
 * long settings. */
const char *replay_opts_set(replay_opts *o, const char *key, const char *value);

/* Opens a trace; format NULL or "" guesses. opts NULL: the defaults.
 * Returns 0, or -1 with err set. */
int replay_source_open(const char *path, const char *format, const replay_opts *opts,
                       replay_source **out, replay_err *err);

#endif
