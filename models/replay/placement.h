/* placement.h — a replay job's placement file ([job.N] placement = FILE):
 * either one network rank per line, for job ranks 0, 1, ... in order, or
 * `TASK NODE` pairs, one per line in any order (a Dimemas task-to-node
 * mapping), where NODE is the network rank the task runs on. Blank lines
 * and '#' comments are ignored; the two forms do not mix in one file. */
#ifndef REPLAY_PLACEMENT_H
#define REPLAY_PLACEMENT_H

#include <stdint.h>

#include "replay/error.h"

/* Fills global[0..ranks) with network ranks below nranks, each used once.
 * Returns 0, or -1 with err "FILE:LINE: what is wrong" ("FILE: ..." when the
 * file cannot be read or lacks tasks). */
int replay_read_placement(const char *path, int32_t ranks, uint64_t nranks, uint64_t *global,
                          replay_err *err);

#endif
