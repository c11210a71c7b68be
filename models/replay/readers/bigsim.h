/* bigsim.h — BigSim-specific queries beyond the generic source interface:
 * raw record counts (for tests and `warpnet-trace info`) and the start skip. */
#ifndef REPLAY_BIGSIM_H
#define REPLAY_BIGSIM_H

#include <stdint.h>

#include "replay/error.h"

struct replay_source;

typedef struct replay_bigsim_counts {
    uint32_t tasks;       /* task records in the PE's timeline */
    uint32_t msg_entries; /* message entries (a broadcast counts once) */
    uint32_t deps;        /* backward dependencies */
    uint32_t first;       /* index of the first task the replay keeps */
    uint32_t kept;        /* tasks the replay keeps (tasks - first) */
} replay_bigsim_counts;

/* Raw counts of PE pe's timeline, read from the files. */
int replay_bigsim_counts_of(struct replay_source *s, int32_t pe, replay_bigsim_counts *c,
                            replay_err *err);

/* msgID of the start broadcast sent by PE 0, or -1 when nothing is skipped. */
int32_t replay_bigsim_start_msg(const struct replay_source *s);

#endif
