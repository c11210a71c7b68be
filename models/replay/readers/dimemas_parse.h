/* dimemas_parse.h — the syntax of Dimemas text traces (docs/trace-format.md):
 * lines, the header, communicator definitions and records, decoded and
 * checked one line at a time. What the records mean together (matching,
 * collectives, the task graph) is dimemas.c's. Private to models/replay. */
#ifndef REPLAY_DIMEMAS_PARSE_H
#define REPLAY_DIMEMAS_PARSE_H

#include <stdint.h>
#include <stdio.h>

#include "replay/error.h"
#include "replay/readers/keymap.h"

#define DIM_NONE UINT32_MAX /* no position, root or index */
#define DIM_MAX_FIELDS 12 /* of a record line */

enum { DIM_NOOP = 0, DIM_BURST = 1, DIM_SEND = 2, DIM_RECV = 3, DIM_GLOBAL = 10, DIM_GPU = 11, DIM_EVENT = 20 };
enum { DIM_RECV_BLOCKING = 0, DIM_RECV_IRECV = 1, DIM_RECV_WAIT = 2 };
enum { DIM_SEND_RDV = 1, DIM_SEND_IMMEDIATE = 2 }; /* bits of a send's synchronism field */
enum { DIM_GLOP_REDUCE = 10, DIM_GLOP_FIRST_IMMEDIATE = 16, DIM_GLOP_LAST = 31 };

/* One record, decoded. */
typedef struct dim_rec {
    int type;
    int32_t task;
    double secs;              /* burst */
    int32_t peer;             /* send: destination; receive: source */
    uint64_t bytes;           /* point-to-point size */
    int32_t tag, comm;        /* point-to-point matching; global op: comm */
    int mode;                 /* send: DIM_SEND_* bits; receive: DIM_RECV_* */
    int op;                   /* global op id */
    int64_t root;             /* global op: is-root flag (reduce: the root task) */
    uint64_t sent, recvd;     /* global op byte counts */
} dim_rec;

/* One collective call as every member of a communicator makes it. */
typedef struct dim_inst {
    uint64_t line; /* of the first member's record */
    uint32_t root; /* position of the root, DIM_NONE if unrooted or not yet seen */
    uint8_t op;
} dim_inst;

typedef struct dim_comm {
    int32_t id;
    uint32_t n;
    int32_t *members;  /* world ranks in communicator order */
    uint64_t *by_task; /* (task << 32 | position), sorted: position lookup */
    uint32_t *calls;   /* open only: collectives each member has made so far */
    dim_inst *inst;
    uint32_t ninst, cap_inst;
    uint64_t line;
} dim_comm;

typedef struct dim_task {
    uint64_t pos, line; /* its block of records (line 0: none seen) */
    uint32_t *rdv;      /* ordinals of its receives that use rendezvous, sorted */
    uint32_t nrdv, cap_rdv;
} dim_task;

typedef struct dim_file {
    int32_t ntasks;
    dim_task *tasks;
    dim_comm *comms;
    uint32_t ncomms;
    replay_keymap comm_index; /* communicator id -> index + 1 */
} dim_file;

typedef struct dim_reader {
    FILE *f;
    const char *path;
    char *buf;
    size_t cap;
    size_t len;        /* of the current line, newline stripped */
    uint64_t line;     /* its number */
    uint64_t pos;      /* its first byte */
    uint64_t next_pos;
    int newline;       /* it ended with '\n' */
    replay_err *err;
} dim_reader;

/* Formats "PATH:LINE: what" into rd's error; returns -1. */
int dim_fail(dim_reader *rd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Reads the next line into rd->buf (trailing blanks and CR cut): 1, 0 at
 * the end of the file, -1 (error set) for a NUL byte or a missing final newline. */
int dim_next_line(dim_reader *rd);

/* Splits s at ':' in place into at most max fields; returns their number,
 * or max + 1 when there are more. */
int dim_split(char *s, char **field, int max);

/* A whole decimal field within [lo, hi] (0), else -1. */
int dim_get_int(const char *s, int64_t lo, int64_t hi, int64_t *v);

/* A whole decimal field >= 0 (0), else -1. */
int dim_get_u64(const char *s, uint64_t *v);

/* Parses the header line in rd->buf: the task count (every task must have
 * one thread) and the offsets table's byte (0: none). */
int dim_parse_header(dim_reader *rd, int32_t *ntasks, uint64_t *offsets_at);

/* Parses a d: line in rd->buf; adds communicators to F. */
int dim_parse_definition(dim_reader *rd, dim_file *F);

/* Index of communicator id in F->comms, DIM_NONE if undefined. */
uint32_t dim_comm_index(const dim_file *F, int32_t id);

/* Position of task in c, DIM_NONE if not a member. */
uint32_t dim_position(const dim_comm *c, int32_t task);

/* Decodes the record line in rd->buf (not a d: or s: line) into x,
 * checking field counts, numbers and task ids against ntasks. */
int dim_decode(dim_reader *rd, dim_rec *x, int32_t ntasks);

/* Is op one whose root carries the is-root flag (bcast, gather(v), scatter(v))? */
int dim_flag_rooted(int op);

/* MPI names of the Dimemas global op ids 0..DIM_GLOP_LAST. */
extern const char *const dim_glop_names[DIM_GLOP_LAST + 1];

#endif
