/* locality.h — the order of a replay job's ranks for `placement = locality`
 * (locality.c): ranks that exchange many bytes come close together. */
#ifndef REPLAY_LOCALITY_H
#define REPLAY_LOCALITY_H

#include <stdint.h>

#include "replay/readers/source.h"

/* Writes a permutation of the source's ranks into order[0..nranks): with
 * METIS, the parts of a recursive bisection of the trace's communication
 * graph (ranks weighted by the bytes they exchange) into groups of about 8
 * ranks, in part order, so that neighbours in the order communicate and a
 * contiguous run of it is a well-connected group; without METIS, or for a
 * job of fewer than 16 ranks, the trace's own order. Reads every rank's
 * graph once. Returns 0, or -1 with err set when a rank cannot be read. The
 * same on every process (METIS runs with a fixed seed). */
int replay_locality_order(replay_source *src, int32_t *order, replay_err *err);

#endif
