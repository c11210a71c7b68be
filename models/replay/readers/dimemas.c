/* dimemas.c — reader of Dimemas text traces (what Dimemas simulates and
 * Extrae's prv2dim writes), docs/trace-format.md. Invariant: open() reads and
 * checks the whole file once — header, communicators, every record, the
 * offsets table, that every send has its receive and every collective its
 * members — and keeps per task where its block of records starts and which
 * of its receives use rendezvous (decided by the sender), per communicator
 * the root of every rooted collective; load(r) re-reads only task r's block
 * and builds its chain. Every error names FILE:LINE. Called through
 * replay_source_open. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/dimemas_parse.h"
#include "replay/readers/keymap.h"
#include "replay/readers/mpimap.h"
#include "replay/readers/source.h"
#include "warp_error.h"
#include "warp_ini.h"

/* The reader's options (its keys at the end). */
typedef struct dimemas_opts {
    uint64_t eager_limit;      /* messages above it use rendezvous */
    int rendezvous_from_trace; /* 1: rendezvous where the send record says so, not by size */
} dimemas_opts;

/* Does a send of this size and synchronism use rendezvous? */
static int rendezvous(const dimemas_opts *o, uint64_t bytes, int mode)
{
    return o->rendezvous_from_trace ? (mode & DIM_SEND_RDV) != 0 : bytes > o->eager_limit;
}

/* ---- open: the whole-file check ------------------------------------------------- */

/* Point-to-point messages of one (source, destination, communicator, tag),
 * paired in order: send k with receive k (MPI's non-overtaking rule). */
typedef struct flow {
    int32_t src, dst, comm, tag;
    uint64_t nsend, nrecv, send_line, recv_line;
    uint8_t *rdv_bits;  /* rendezvous decision of send k, kept until receive k is seen */
    uint32_t *ords;     /* receiver's ordinal of receive k, kept until send k is seen */
    uint64_t cap_bits, cap_ords;
} flow;

typedef struct scan {
    dim_reader *rd;
    dim_file *F;
    const dimemas_opts *o;
    flow *flows;
    uint64_t nflows, cap_flows;
    replay_keymap flow_index; /* (src, dst), (comm, tag) -> index + 1 */
    replay_keymap pending;    /* current block: (src, comm, tag) -> irecvs not yet waited for */
    int32_t task;             /* of the current block, -1 before the first */
    uint32_t nrecv;           /* receives of the current block so far */
} scan;

static void mark_rdv(dim_task *t, uint32_t ord)
{
    if (t->nrdv == t->cap_rdv) {
        t->cap_rdv = t->cap_rdv ? 2 * t->cap_rdv : 16;
        t->rdv = warp_xrealloc(t->rdv, t->cap_rdv * sizeof *t->rdv);
    }
    t->rdv[t->nrdv++] = ord;
}

static flow *flow_of(scan *S, int32_t src, int32_t dst, int32_t comm, int32_t tag)
{
    uint64_t *v = replay_keymap_get(&S->flow_index, (uint64_t)(uint32_t)src | (uint64_t)(uint32_t)dst << 32,
                                    (uint64_t)(uint32_t)comm | (uint64_t)(uint32_t)tag << 32, 1);
    if (!*v) {
        if (S->nflows == S->cap_flows) {
            S->cap_flows = S->cap_flows ? 2 * S->cap_flows : 64;
            S->flows = warp_xrealloc(S->flows, S->cap_flows * sizeof *S->flows);
        }
        S->flows[S->nflows] = (flow){.src = src, .dst = dst, .comm = comm, .tag = tag};
        *v = ++S->nflows;
    }
    return &S->flows[*v - 1];
}

static void scan_send(scan *S, const dim_rec *x)
{
    flow *w = flow_of(S, x->task, x->peer, x->comm, x->tag);
    int rdv = rendezvous(S->o, x->bytes, x->mode);
    uint64_t k = w->nsend++;
    if (!k)
        w->send_line = S->rd->line;
    if (k < w->nrecv) {
        if (rdv)
            mark_rdv(&S->F->tasks[w->dst], w->ords[k]);
        return;
    }
    if (k >= w->cap_bits * 8) {
        uint64_t old = w->cap_bits;
        w->cap_bits = old ? 2 * old : 8;
        w->rdv_bits = warp_xrealloc(w->rdv_bits, w->cap_bits);
        memset(w->rdv_bits + old, 0, w->cap_bits - old);
    }
    if (rdv)
        w->rdv_bits[k / 8] |= (uint8_t)(1u << (k % 8));
}

/* A receive that matches a send of its own (a recv, an irecv, or a wait no
 * irecv posted): pairs it with its send. */
static void scan_receive(scan *S, const dim_rec *x)
{
    flow *w = flow_of(S, x->peer, x->task, x->comm, x->tag);
    uint32_t ord = S->nrecv++;
    uint64_t k = w->nrecv++;
    if (!k)
        w->recv_line = S->rd->line;
    if (k < w->nsend) {
        if (w->rdv_bits[k / 8] & (1u << (k % 8)))
            mark_rdv(&S->F->tasks[x->task], ord);
        return;
    }
    if (k >= w->cap_ords) {
        w->cap_ords = w->cap_ords ? 2 * w->cap_ords : 8;
        w->ords = warp_xrealloc(w->ords, w->cap_ords * sizeof *w->ords);
    }
    w->ords[k] = ord;
}

static uint64_t pending_key2(const dim_rec *x)
{
    return (uint64_t)(uint32_t)x->comm | (uint64_t)(uint32_t)x->tag << 32;
}

static void scan_recv(scan *S, const dim_rec *x)
{
    uint64_t *pend = replay_keymap_get(&S->pending, (uint64_t)(uint32_t)x->peer, pending_key2(x), 1);
    if (x->mode == DIM_RECV_WAIT && *pend) {
        (*pend)--; /* completes an earlier irecv */
        return;
    }
    if (x->mode == DIM_RECV_IRECV)
        (*pend)++;
    scan_receive(S, x);
}

static int scan_global(scan *S, const dim_rec *x)
{
    dim_reader *rd = S->rd;
    uint32_t ci = dim_comm_index(S->F, x->comm);
    if (ci == DIM_NONE)
        return dim_fail(rd, "%s on communicator %d, which no d:1 line defines", dim_glop_names[x->op], x->comm);
    dim_comm *c = &S->F->comms[ci];
    uint32_t me = dim_position(c, x->task);
    if (me == DIM_NONE)
        return dim_fail(rd, "task %d calls %s on communicator %d, which it is not a member of",
                     x->task, dim_glop_names[x->op], x->comm);
    uint32_t k = c->calls[me]++;
    if (k == c->ninst) {
        if (c->ninst == c->cap_inst) {
            c->cap_inst = c->cap_inst ? 2 * c->cap_inst : 16;
            c->inst = warp_xrealloc(c->inst, c->cap_inst * sizeof *c->inst);
        }
        c->inst[c->ninst++] = (dim_inst){.line = rd->line, .root = DIM_NONE, .op = (uint8_t)x->op};
    }
    dim_inst *in = &c->inst[k];
    if (in->op != x->op)
        return dim_fail(rd, "collective %u of task %d on communicator %d is %s, but %s at line %" PRIu64
                     " is that communicator's collective %u; members must call the same collectives "
                     "in the same order", k + 1, x->task, x->comm, dim_glop_names[x->op], dim_glop_names[in->op],
                     in->line, k + 1);
    uint32_t root = DIM_NONE;
    if (x->op == DIM_GLOP_REDUCE && (root = dim_position(c, (int32_t)x->root)) == DIM_NONE)
        return dim_fail(rd, "MPI_Reduce root task %" PRId64 " is not a member of communicator %d", x->root,
                     x->comm);
    if (dim_flag_rooted(x->op) && x->root == 1)
        root = me;
    if (root != DIM_NONE) {
        if (in->root != DIM_NONE && in->root != root)
            return dim_fail(rd, "%s number %u on communicator %d has two roots, tasks %d and %d", dim_glop_names[x->op],
                         k + 1, x->comm, c->members[in->root], c->members[root]);
        in->root = root;
    }
    return 0;
}

static int scan_record(scan *S, const dim_rec *x)
{
    switch (x->type) {
    case DIM_SEND: scan_send(S, x); return 0;
    case DIM_RECV: scan_recv(S, x); return 0;
    case DIM_GLOBAL: return scan_global(S, x);
    default: return 0;
    }
}

/* Starts the block of x's task, which must not have had one before. */
static int begin_block(scan *S, const dim_rec *x)
{
    dim_task *t = &S->F->tasks[x->task];
    if (t->line)
        return dim_fail(S->rd, "records of task %d resume after those of task %d; each task's records must "
                     "form one block (they start at line %" PRIu64 ")", x->task, S->task, t->line);
    t->pos = S->rd->pos;
    t->line = S->rd->line;
    S->task = x->task;
    S->nrecv = 0;
    replay_keymap_free(&S->pending);
    return 0;
}

/* s:TASK:OFFSET: one line per task, in order; when the header points at the
 * table (checked), the offsets must agree with the blocks found. */
static int check_offsets_line(scan *S, int32_t *next_task, int checked)
{
    dim_reader *rd = S->rd;
    char *f[DIM_MAX_FIELDS];
    int nf = dim_split(rd->buf, f, DIM_MAX_FIELDS);
    int64_t task;
    uint64_t off;
    if (nf != 3 || dim_get_int(f[1], 0, S->F->ntasks - 1, &task) || dim_get_u64(f[2], &off))
        return dim_fail(rd, "offsets line needs s:TASK:BYTE with an existing task (one thread per task)");
    if (task != *next_task)
        return dim_fail(rd, "offsets line of task %" PRId64 " where task %d's was expected", task, *next_task);
    const dim_task *t = &S->F->tasks[task];
    if (checked && t->line && off != t->pos)
        return dim_fail(rd, "offsets table places task %" PRId64 " at byte %" PRIu64 ", but its records "
                     "start at byte %" PRIu64 " (line %" PRIu64 "); was the file edited? Write 0 as the "
                     "header's offsets field to have the table ignored", task, off, t->pos, t->line);
    (*next_task)++;
    return 0;
}

/* After the last line: every message received, every collective complete. */
static int check_ends(scan *S, uint64_t last_line)
{
    dim_reader *rd = S->rd;
    const dim_file *F = S->F;
    for (int32_t t = 0; t < F->ntasks; t++)
        if (!F->tasks[t].line) {
            rd->line = last_line;
            return dim_fail(rd, "task %d has no records; the file may be truncated (every task needs at "
                         "least one record, e.g. 1:%d:0:0)", t, t);
        }
    const flow *bad = NULL;
    uint64_t bad_line = 0;
    for (uint64_t i = 0; i < S->nflows; i++) {
        const flow *w = &S->flows[i];
        uint64_t line = w->nsend > w->nrecv ? w->send_line : w->recv_line;
        if (w->nsend != w->nrecv && (!bad || line < bad_line))
            bad = w, bad_line = line;
    }
    if (bad) {
        rd->line = bad_line;
        if (bad->nsend > bad->nrecv)
            return dim_fail(rd, "task %d sends %" PRIu64 " messages to task %d (communicator %d, tag %d) but "
                         "task %d receives %" PRIu64 "; the trace is incomplete", bad->src, bad->nsend,
                         bad->dst, bad->comm, bad->tag, bad->dst, bad->nrecv);
        return dim_fail(rd, "task %d receives %" PRIu64 " messages from task %d (communicator %d, tag %d) but "
                     "task %d sends %" PRIu64 "; the trace is incomplete", bad->dst, bad->nrecv, bad->src,
                     bad->comm, bad->tag, bad->src, bad->nsend);
    }
    for (uint32_t i = 0; i < F->ncomms; i++) {
        const dim_comm *c = &F->comms[i];
        for (uint32_t m = 0; m < c->n; m++)
            if (c->calls[m] != c->ninst) {
                rd->line = c->inst[c->calls[m]].line;
                return dim_fail(rd, "task %d makes %u collectives on communicator %d, another member makes "
                             "%u; the first it misses is this %s", c->members[m], c->calls[m], c->id,
                             c->ninst, dim_glop_names[c->inst[c->calls[m]].op]);
            }
        for (uint32_t k = 0; k < c->ninst; k++)
            if ((dim_flag_rooted(c->inst[k].op) || c->inst[k].op == DIM_GLOP_REDUCE) && c->inst[k].root == DIM_NONE) {
                rd->line = c->inst[k].line;
                return dim_fail(rd, "no member of communicator %d is the root of this %s (its root field "
                             "is 0 on every member)", c->id, dim_glop_names[c->inst[k].op]);
            }
    }
    return 0;
}

static void scan_free(scan *S)
{
    for (uint64_t i = 0; i < S->nflows; i++) {
        free(S->flows[i].rdv_bits);
        free(S->flows[i].ords);
    }
    free(S->flows);
    replay_keymap_free(&S->flow_index);
    replay_keymap_free(&S->pending);
    for (uint32_t i = 0; i < S->F->ncomms; i++) {
        free(S->F->comms[i].calls);
        S->F->comms[i].calls = NULL;
    }
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Reads the file after its header line. */
static int scan_file(scan *S, uint64_t offsets_at)
{
    dim_reader *rd = S->rd;
    dim_file *F = S->F;
    int phase = 0; /* 0 definitions, 1 records, 2 offsets table */
    int32_t next_offset_task = 0;
    uint64_t first_record = 0, table_pos = 0, table_line = 0;
    int rc;
    while ((rc = dim_next_line(rd)) == 1) {
        if (!rd->len)
            continue;
        if (!strncmp(rd->buf, "d:", 2)) {
            if (phase)
                return dim_fail(rd, "definition after the first record (line %" PRIu64 "); definitions "
                             "come between the header and the records", first_record);
            if (dim_parse_definition(rd, F))
                return -1;
        } else if (!strncmp(rd->buf, "s:", 2)) {
            if (phase != 2)
                table_pos = rd->pos, table_line = rd->line;
            phase = 2;
            if (check_offsets_line(S, &next_offset_task, offsets_at != 0))
                return -1;
        } else {
            if (phase == 2)
                return dim_fail(rd, "record after the offsets table (line %" PRIu64 "); the s: lines end "
                             "the trace", table_line);
            if (!phase)
                first_record = rd->line;
            phase = 1;
            dim_rec x;
            if (dim_decode(rd, &x, F->ntasks) || (x.task != S->task && begin_block(S, &x)) || scan_record(S, &x))
                return -1;
        }
    }
    if (rc < 0)
        return -1;
    uint64_t last = rd->line;
    if (offsets_at && (!table_line || table_pos != offsets_at)) {
        rd->line = table_line ? table_line : 1;
        return dim_fail(rd, table_line ? "the header places the offsets table at byte %" PRIu64 ", but it starts "
                     "at byte %" PRIu64 : "the header places the offsets table at byte %" PRIu64 ", but the "
                     "file has no s: lines (%" PRIu64 " bytes; truncated?)", offsets_at,
                     table_line ? table_pos : rd->next_pos);
    }
    if (table_line && next_offset_task != F->ntasks) {
        rd->line = last;
        return dim_fail(rd, "the offsets table lists %d of the %d tasks (truncated?)", next_offset_task, F->ntasks);
    }
    if (check_ends(S, last))
        return -1;
    for (int32_t t = 0; t < F->ntasks; t++)
        if (F->tasks[t].nrdv > 1)
            qsort(F->tasks[t].rdv, F->tasks[t].nrdv, sizeof *F->tasks[t].rdv, cmp_u32);
    return 0;
}

/* ---- load: one task's chain ----------------------------------------------------- */

typedef struct loader {
    const dim_file *F;
    const dim_task *T;
    const dimemas_opts *o;
    replay_chain chain;
    const coll_cfg *coll;   /* [collectives] */
    const dim_reader *rd;   /* the line being loaded, for messages */
    replay_err *err;        /* set, with failed, by a collective that cannot expand */
    int failed;
    replay_keymap seq_send, seq_recv;
    replay_keymap pending;  /* (src, comm, tag) -> (head + 1) | (tail + 1) << 32 in the queue below */
    uint32_t *q_task, *q_next;
    uint32_t nq, cap_q;
    uint32_t *coll_seq;     /* per communicator */
    uint32_t *my_pos;       /* per communicator, DIM_NONE + 1 = unknown yet */
    uint32_t nrecv, rdv_i;
} loader;

static int32_t comm_world(const void *arg, uint32_t pos)
{
    return ((const dim_comm *)arg)->members[pos];
}

/* The next counted receive: does it use rendezvous (its sender decided)? */
static int next_receive_rdv(loader *L)
{
    uint32_t ord = L->nrecv++;
    if (L->rdv_i < L->T->nrdv && L->T->rdv[L->rdv_i] == ord) {
        L->rdv_i++;
        return 1;
    }
    return 0;
}

static void load_send(loader *L, const dim_rec *x)
{
    uint64_t *seq = replay_keymap_get(&L->seq_send, replay_wire_key(x->peer, (uint32_t)x->comm, (uint32_t)x->tag),
                                      0, 1);
    int32_t wt = replay_wire_tag((uint32_t)x->comm, (uint32_t)x->tag, (*seq)++);
    uint32_t t;
    if (!rendezvous(L->o, x->bytes, x->mode))
        t = replay_chain_task(&L->chain, 0, 0, 0, 0);
    else if (x->mode & DIM_SEND_IMMEDIATE) /* leaves when the receiver's control message comes */
        t = replay_chain_branch(&L->chain, 0, 1, x->peer, wt | REPLAY_TAG_CTRL);
    else
        t = replay_chain_task(&L->chain, 0, 1, x->peer, wt | REPLAY_TAG_CTRL);
    replay_add_msg(L->chain.r, t, x->peer, x->bytes, wt);
}

/* Posts a receive (a control message first under rendezvous); returns the
 * wire tag its data carries. */
static int32_t post_receive(loader *L, const dim_rec *x)
{
    uint64_t *seq = replay_keymap_get(&L->seq_recv, replay_wire_key(x->peer, (uint32_t)x->comm, (uint32_t)x->tag),
                                      0, 1);
    int32_t wt = replay_wire_tag((uint32_t)x->comm, (uint32_t)x->tag, (*seq)++);
    if (next_receive_rdv(L)) {
        uint32_t t = replay_chain_task(&L->chain, 0, 0, 0, 0);
        replay_add_msg(L->chain.r, t, x->peer, REPLAY_CTRL_BYTES, wt | REPLAY_TAG_CTRL);
    }
    return wt;
}

static void load_recv(loader *L, const dim_rec *x)
{
    uint64_t *q = replay_keymap_get(&L->pending, (uint64_t)(uint32_t)x->peer, pending_key2(x), 1);
    if (x->mode == DIM_RECV_WAIT && *q) { /* completes the oldest irecv of its kind */
        uint32_t head = (uint32_t)*q - 1, tail = (uint32_t)(*q >> 32) - 1;
        uint32_t w = replay_chain_task(&L->chain, 0, 0, 0, 0);
        replay_add_dep(L->chain.r, w, L->q_task[head], 0);
        *q = head == tail ? 0 : (uint64_t)(L->q_next[head] + 1) | (*q & 0xffffffff00000000u);
        return;
    }
    int32_t wt = post_receive(L, x);
    if (x->mode != DIM_RECV_IRECV) {
        replay_chain_task(&L->chain, 0, 1, x->peer, wt);
        return;
    }
    if (L->nq == L->cap_q) {
        L->cap_q = L->cap_q ? 2 * L->cap_q : 16;
        L->q_task = warp_xrealloc(L->q_task, L->cap_q * sizeof *L->q_task);
        L->q_next = warp_xrealloc(L->q_next, L->cap_q * sizeof *L->q_next);
    }
    uint32_t node = L->nq++;
    L->q_task[node] = replay_chain_branch(&L->chain, 0, 1, x->peer, wt);
    if (*q)
        L->q_next[(uint32_t)(*q >> 32) - 1] = node;
    *q = (*q ? (*q & 0xffffffffu) : (uint64_t)node + 1) | (uint64_t)(node + 1) << 32;
}

/* Payload per message from the record's byte counts (Extrae's conventions,
 * docs/trace-format.md), and the algorithm. */
static void coll_shape(const dim_rec *x, uint32_t n, replay_coll *k)
{
    uint64_t big = x->sent > x->recvd ? x->sent : x->recvd;
    switch (x->op) {
    case 0: k->alg = REPLAY_COLL_ALLREDUCE, k->bytes = 0; break;
    case 1: k->alg = REPLAY_COLL_BCAST, k->bytes = big; break;
    case 2:
    case 3: k->alg = REPLAY_COLL_GATHER, k->bytes = x->sent; break;
    case 4:
    case 5: k->alg = REPLAY_COLL_SCATTER, k->bytes = x->sent / n; break;
    case 6:
    case 7: k->alg = REPLAY_COLL_RING, k->bytes = x->recvd / n; break;
    case 8: k->alg = REPLAY_COLL_ALLTOALL, k->bytes = x->sent; break;
    case 9:
    case 15: k->alg = REPLAY_COLL_ALLTOALL, k->bytes = x->sent / n; break;
    case 10: k->alg = REPLAY_COLL_REDUCE, k->bytes = big; break;
    case 11: k->alg = REPLAY_COLL_ALLREDUCE, k->bytes = big; break;
    case 12:
    case 13: k->alg = REPLAY_COLL_RING, k->bytes = x->recvd; break;
    default: k->alg = REPLAY_COLL_SCAN, k->bytes = big; break; /* 14 */
    }
}

static void load_global(loader *L, const dim_rec *x)
{
    uint32_t ci = dim_comm_index(L->F, x->comm);
    const dim_comm *c = &L->F->comms[ci];
    if (!L->my_pos[ci])
        L->my_pos[ci] = dim_position(c, L->chain.r->rank) + 1;
    uint32_t seq = L->coll_seq[ci]++;
    replay_coll k = {.n = c->n, .me = L->my_pos[ci] - 1, .root = c->inst[seq].root,
                     .base_tag = replay_coll_tag(ci, seq), .world = comm_world, .arg = c};
    if (k.root == DIM_NONE)
        k.root = 0; /* unrooted */
    coll_shape(x, c->n, &k);
    /* the operations coll.h has, with their sizes as it counts them */
    static const int op_of[16] = {-1, COLL_BCAST, -1, -1, -1, -1, COLL_ALLGATHER, COLL_ALLGATHER, COLL_ALLTOALL,
                                  COLL_ALLTOALL, COLL_REDUCE, COLL_ALLREDUCE, COLL_REDUCE_SCATTER,
                                  COLL_REDUCE_SCATTER, -1, COLL_ALLTOALL};
    int op = x->op < 16 ? op_of[x->op] : -1;
    uint64_t bytes = op == COLL_ALLGATHER || op == COLL_REDUCE_SCATTER || op == COLL_ALLTOALL ? k.bytes * c->n
                                                                                              : k.bytes;
    char place[600];
    snprintf(place, sizeof place, "%s:%" PRIu64, L->rd->path, L->rd->line);
    if (!L->failed &&
        replay_coll_expand_as(&L->chain, &k, L->coll, op, bytes, ci, seq, place, L->err))
        L->failed = 1;
}

static void load_record(loader *L, const dim_rec *x)
{
    switch (x->type) {
    case DIM_BURST: {
        uint64_t ns = (uint64_t)llround(x->secs * 1e9);
        if (ns)
            replay_chain_task(&L->chain, ns, 0, 0, 0);
        break;
    }
    case DIM_SEND: load_send(L, x); break;
    case DIM_RECV: load_recv(L, x); break;
    case DIM_GLOBAL: load_global(L, x); break;
    default: break;
    }
}

static int dim_load(replay_source *s, int32_t rank, replay_rank *out, replay_err *err)
{
    const dim_file *F = s->impl;
    dim_reader rd = {.path = s->path, .err = err};
    rd.f = fopen(s->path, "rb");
    if (!rd.f)
        return replay_errf(err, "%s: cannot open: %s; check the trace path", s->path, strerror(errno));
    loader L = {.F = F, .T = &F->tasks[rank], .o = s->opts, .chain = {out, REPLAY_CHAIN_EMPTY},
                .coll = &s->coll, .rd = &rd, .err = err};
    L.coll_seq = warp_xcalloc(F->ncomms, sizeof *L.coll_seq);
    L.my_pos = warp_xcalloc(F->ncomms, sizeof *L.my_pos);
    replay_rank_begin(out, rank);
    rd.line = L.T->line - 1;
    rd.next_pos = L.T->pos;
    int rc = -1, got;
    if (fseeko(rd.f, (off_t)L.T->pos, SEEK_SET) != 0) {
        replay_errf(err, "%s:%" PRIu64 ": cannot seek to task %d's records; was the file changed?", s->path,
                    L.T->line, rank);
        goto out;
    }
    while ((got = dim_next_line(&rd)) == 1) {
        if (!rd.len)
            continue;
        if (!strncmp(rd.buf, "s:", 2))
            break;
        dim_rec x;
        if (dim_decode(&rd, &x, F->ntasks))
            goto out;
        if (x.task != rank)
            break;
        load_record(&L, &x);
        if (L.failed)
            goto out;
    }
    if (got < 0)
        goto out;
    char place[600];
    snprintf(place, sizeof place, "%s:%" PRIu64, s->path, L.T->line);
    rc = replay_rank_end(out, place, err);
out:
    fclose(rd.f);
    free(rd.buf);
    free(L.coll_seq);
    free(L.my_pos);
    free(L.q_task);
    free(L.q_next);
    replay_keymap_free(&L.seq_send);
    replay_keymap_free(&L.seq_recv);
    replay_keymap_free(&L.pending);
    if (rc)
        replay_rank_free(out);
    return rc;
}

/* ---- open / close ---------------------------------------------------------------- */

static void free_file(dim_file *F)
{
    for (int32_t t = 0; F->tasks && t < F->ntasks; t++)
        free(F->tasks[t].rdv);
    for (uint32_t i = 0; i < F->ncomms; i++) {
        free(F->comms[i].members);
        free(F->comms[i].by_task);
        free(F->comms[i].calls);
        free(F->comms[i].inst);
    }
    free(F->tasks);
    free(F->comms);
    replay_keymap_free(&F->comm_index);
    free(F);
}

static void dim_close(replay_source *s)
{
    free_file(s->impl);
}

static const replay_source_ops dim_ops = {"dimemas", dim_load, dim_close, NULL, NULL, NULL, NULL};

static int dimemas_open(const char *path, const void *opts, replay_source **out, replay_err *err)
{
    const dimemas_opts *o = opts;
    dim_reader rd = {.path = path, .err = err};
    rd.f = fopen(path, "rb");
    if (!rd.f)
        return replay_errf(err, "%s: cannot open: %s; check the trace path", path, strerror(errno));
    dim_file *F = warp_xcalloc(1, sizeof *F);
    scan S = {.rd = &rd, .F = F, .o = o, .task = -1};
    uint64_t offsets_at = 0;
    int rc = dim_next_line(&rd);
    if (rc == 0) {
        rd.line = 1;
        rc = dim_fail(&rd, "empty file; a Dimemas trace starts with a #DIMEMAS header");
    } else if (rc == 1 && !(rc = dim_parse_header(&rd, &F->ntasks, &offsets_at))) {
        F->tasks = warp_xcalloc((size_t)F->ntasks, sizeof *F->tasks);
        rc = scan_file(&S, offsets_at);
    }
    scan_free(&S);
    fclose(rd.f);
    free(rd.buf);
    if (rc) {
        free_file(F);
        return -1;
    }
    *out = replay_source_new(&dim_ops, path, o, sizeof *o, F->ntasks, F);
    return 0;
}

static const char *set_eager_limit(void *target, const char *v)
{
    const char *why;
    return warp_parse_bytes(v ? v : "", &((dimemas_opts *)target)->eager_limit, &why) ? why : NULL;
}

static const char *set_rendezvous(void *target, const char *v)
{
    int *from_trace = &((dimemas_opts *)target)->rendezvous_from_trace;
    if (v && strcmp(v, "size") == 0)
        *from_trace = 0;
    else if (v && strcmp(v, "trace") == 0)
        *from_trace = 1;
    else
        return "must be size (by eager_limit) or trace (the send record's synchronism bit)";
    return NULL;
}

static const warp_cfg_opt dimemas_keys[] = {
    {"eager_limit", "BYTES", "64KiB", "OTF2, Dimemas: messages above it use rendezvous", set_eager_limit},
    {"dimemas_rendezvous", "size|trace", "size", "Dimemas: rendezvous by eager_limit or where the send record says so",
     set_rendezvous},
    {0},
};

static const dimemas_opts dimemas_dflt = {.eager_limit = 65536, .rendezvous_from_trace = 0};

/* *.dim, or a file that starts with the #DIMEMAS header. */
static int dimemas_sniff(const char *path)
{
    return replay_path_ends_with(path, ".dim") || replay_file_starts_with(path, "#DIMEMAS") ? 3 : 0;
}

const replay_reader replay_reader_dimemas = {
    .name = "dimemas",
    .sniff = dimemas_sniff,
    .open = dimemas_open,
    .keys = dimemas_keys,
    .opts_size = sizeof(dimemas_opts),
    .dflt = &dimemas_dflt,
};
