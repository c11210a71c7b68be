/* warp_mpi.h — for host programs that use MPI beside libwarp: the engine's
 * own communicator. warp_init duplicates MPI_COMM_WORLD for the engine, so
 * the program's messages on MPI_COMM_WORLD (or on this communicator, between
 * engine calls) never meet the engine's. Models use warp.h's collectives
 * instead and never include this header. */
#ifndef WARP_MPI_H
#define WARP_MPI_H

#include <mpi.h>

#include "warp.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The communicator of the engine's ranks (valid until warp_finalize). */
MPI_Comm warp_comm(const warp_ctx *w);

#ifdef __cplusplus
}
#endif
#endif
