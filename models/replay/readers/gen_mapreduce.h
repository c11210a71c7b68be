/* gen_mapreduce.h — the MapReduce generator (gen:mapreduce:..., gen.c
 * parses its keys): a Hadoop job's messages and work as one rank's task
 * graph, and the phases its message tags belong to (docs/mapreduce.md). */
#ifndef REPLAY_GEN_MAPREDUCE_H
#define REPLAY_GEN_MAPREDUCE_H

#include <stdint.h>

#include "replay/taskgraph.h"

typedef struct mr_spec {
    int64_t workers, rack, mappers, reducers, block, input, replication, rack_aware;
    int64_t map_ns, reduce_ns, shuffle, output, ctl, seed;
} mr_spec;

/* Ranks of the job: the workers (0 .. workers-1), the master, the client. */
int64_t mr_ranks(const mr_spec *m);

/* NULL, or why the spec cannot run (one short reason). */
const char *mr_check(const mr_spec *m);

/* Builds rank's graph into r (begun by the caller, ended by the caller). */
void mr_build(const mr_spec *m, int32_t rank, replay_rank *r);

/* The phase of a message tag (index into mr_phase_names), or -1. */
int mr_tag_phase(int32_t tag);
extern const char *const mr_phase_names[];
#define MR_PHASES 6

#endif
