/* tests/fuzz/fuzz_otf2map.c — libFuzzer harness for Warpnet's side of the
 * OTF2 front end: the event-to-task-graph mapping (models/replay/readers/otf2map.c),
 * which receives whatever a trace's events and communicator definitions say,
 * as libotf2 decoded them. libotf2 itself is not fuzzed here (see
 * docs/errors.md: a Debian binary without coverage instrumentation, reading
 * a multi-file archive). Built by `make fuzz` (tests/fuzz/local.mk).
 *
 * Input: a 4-byte head (ranks - 1, rank, eager-limit and timer choices), up
 * to 4 communicators (a byte: count of members (low 4 bits) and the self
 * flag (bit 4), then one byte per member: its world rank, in range or not),
 * then 32-byte event records (see decode_event).
 *
 * Checks, for every input: no crash, leak or sanitizer report; the mapping
 * either fails with one line naming the trace ("synthetic.otf2: ...") or
 * gives a graph that passes replay_rank_validate. */
#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/readers/otf2map.h"
#include "replay/taskgraph.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define PATH "synthetic.otf2"
#define NCOMMS 4
#define EVENT_BYTES 32

typedef struct comms {
    uint64_t members[NCOMMS][16];
    uint32_t n[NCOMMS];
    int self[NCOMMS];
    uint32_t ncomms;
} comms;

static int members(const void *arg, uint32_t comm, const uint64_t **m, uint32_t *n, int *self)
{
    const comms *c = arg;
    if (comm >= c->ncomms)
        return -1;
    *m = c->members[comm];
    *n = c->n[comm];
    *self = c->self[comm];
    return 0;
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = (v << 8) | p[i];
    return v;
}

/* time 8, len 6, len2 4, req 2, peer 4 (top bit: -1 as wildcard), comm 1,
 * tag 4, kind 1 (mod the kinds), op 1, 1 spare. */
static void decode_event(const uint8_t *p, o2_event *e)
{
    memset(e, 0, sizeof *e);
    e->time = le(p, 8);
    e->len = le(p + 8, 6);
    e->len2 = le(p + 14, 4);
    e->req = le(p + 18, 2);
    e->peer = (uint32_t)le(p + 20, 4);
    e->comm = p[24];
    e->tag = (uint32_t)le(p + 25, 4);
    e->kind = (uint8_t)(p[29] % (O2_CANCELLED + 1));
    e->op = p[30];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const uint64_t eager[4] = {0, 64, 65536, UINT64_MAX};
    static const uint64_t res[4] = {1, 1000, 1000000000u, 2500000000u};
    if (size < 4)
        return 0;
    o2_map_ctx ctx = {.nranks = data[0] % 16 + 1, .eager_limit = eager[data[2] & 3],
                      .timer_res = res[data[3] & 3], .members = members, .path = PATH};
    ctx.rank = data[1] % ctx.nranks;
    size_t at = 4;
    comms c = {.ncomms = 0};
    while (c.ncomms < NCOMMS && at < size && data[at] != 0xff) {
        uint32_t k = c.ncomms++, n = data[at] & 15;
        c.self[k] = (data[at] >> 4) & 1;
        at++;
        for (uint32_t i = 0; i < n && at < size; i++)
            c.members[k][c.n[k]++] = data[at++];
    }
    at++; /* the 0xff that ends the table */
    ctx.arg = &c;
    o2_evbuf b = {0};
    for (; at + EVENT_BYTES <= size; at += EVENT_BYTES) {
        o2_event e;
        decode_event(data + at, &e);
        o2_evbuf_push(&b, &e);
    }
    replay_rank r;
    memset(&r, 0, sizeof r);
    replay_err err = {{0}};
    if (o2_map_events(&ctx, &b, &r, &err) != 0) {
        assert(strncmp(err.msg, PATH ":", strlen(PATH) + 1) == 0 && !strchr(err.msg, '\n'));
    } else {
        replay_err verr = {{0}};
        if (replay_rank_validate(&r, "mapped", &verr) != 0) {
            fprintf(stderr, "mapped graph is invalid: %s\n", verr.msg);
            abort();
        }
    }
    replay_rank_free(&r);
    free(b.ev);
    return 0;
}
