/* native.h — writing Warpnet's native trace format (docs/trace-format.md);
 * reading goes through replay_source_open(path, "native", ...). */
#ifndef REPLAY_NATIVE_H
#define REPLAY_NATIVE_H

#include "replay/readers/source.h"

/* Writes every rank of src to path, one rank in memory at a time, as the
 * binary form (binary = 1) or the text form. Returns 0 or -1 with err set. */
int replay_native_write(const char *path, int binary, replay_source *src, replay_err *err);

#endif
