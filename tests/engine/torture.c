/* tests/engine/torture.c — a model built to break rollback: three LP types
 * that undo their events three different ways (reverse handler with warp_bits,
 * warp_save with nested and overlapping regions plus a warp_alloc'd linked
 * queue, WARP_SAVE_FULL), every RNG helper, zero-delay and equal-timestamp
 * sends to itself and to other LPs. Invariant: its summary line (and the
 * committed digest) is the same in every mode; --broken=1 skips one undo so
 * the check and debug modes must notice. --msg-facts=1 makes every forward
 * handler write a fact into its event's payload (and the reverse handlers
 * scribble over it), which the commit handler and the digest read;
 * --msg-facts=2 also makes the commit handler write the payload, which
 * --synch=check must refuse; --lying-groups lets events arrive too late
 * for the engine to notice. Run by tests/engine/test_*.sh. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warp.h"
#include "warp_mpi.h"

enum { TORT_JOB = 1, TORT_ECHO = 2 };

/* Totals the finish handlers add up on this rank; reduced to rank 0. */
typedef struct tort_acc {
    uint64_t committed, echoes, value_sum, out_hash, final_hash, nodes_left, order_errors;
} tort_acc;

typedef struct tort_cfg {
    uint64_t total;
    double lookahead; /* smallest delay: 0 allows zero-delay sends */
    uint64_t start_events;
    int broken;       /* skip the undo of rev_state.count */
    int msg_facts;    /* 1: forward writes a fact into the payload; 2: commit does too (a bug) */
    int lying_groups; /* see tort_group */
    tort_acc *acc;    /* written by finish handlers only */
} tort_cfg;

typedef struct tort_msg {
    uint32_t kind;
    uint32_t hops;
    uint64_t value; /* derived from the sender's state: state bugs show in the digest */
    double ts;      /* receive time, as the sender computed it: commit order check */
    uint64_t fact;  /* --msg-facts: written by the forward handler, read by commit */
} tort_msg;

typedef struct tort_out {
    uint64_t committed, echoes, value_sum, hash, order_errors;
    double last_ts;
} tort_out;

/* Type "rev": pure reverse computation; branch and old values live in bits. */
typedef struct rev_state {
    uint64_t count;
    int64_t acc;
    uint64_t x;
    uint32_t mode;
    uint32_t pad;
} rev_state;

/* Type "inc": warp_save for everything except count (reverse handler), and a
 * queue of warp_alloc'd nodes freed with warp_free_on_commit. */
typedef struct inc_node {
    uint64_t v;
    struct inc_node *next;
} inc_node;

typedef struct inc_state {
    uint64_t slots[16];
    uint64_t count; /* undone by the reverse handler: mixes both styles */
    inc_node *head, *tail;
    uint64_t qlen, qsum;
} inc_state;

/* Type "full": floating-point state the engine copies whole. */
typedef struct full_state {
    double fsum, fmax;
    double hist[8];
    uint32_t hpos;
    uint32_t pad;
    uint64_t count;
} full_state;

static inline uint64_t tort_mix(uint64_t x)
{
    x ^= x >> 31;
    x *= 0x7fb5d329728ea185ull;
    x ^= x >> 27;
    x *= 0x81dadef4bc2dd44dull;
    x ^= x >> 33;
    return x;
}

static uint64_t dbl_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

/* ---- sending: shared by every type ---- */

static double pick_delay(warp_rng *r, const tort_cfg *c)
{
    switch (warp_rng_integer(r, 0, 3)) {
    case 0: return c->lookahead;             /* zero delay when lookahead is 0 */
    case 1: return c->lookahead > 1.0 ? c->lookahead : 1.0; /* ties galore */
    case 2: return c->lookahead + 0.5;
    default: return c->lookahead + warp_rng_exp(r, 1.0);
    }
}

static void send_one(warp_lp *lp, warp_lpid dest, double delay, uint32_t kind, uint32_t hops,
                     uint64_t value)
{
    tort_msg *m = warp_event_new(lp, dest, delay);
    m->kind = kind;
    m->hops = hops;
    m->value = value;
    m->ts = warp_now(lp) + delay + 0.0;
    m->fact = 0;
    warp_event_send(lp, m);
}

/* --msg-facts: forward leaves a fact derived from the state in the payload,
 * as the network models do for their commit handlers; the committed digest
 * covers it, so it must be the one of the execution that commits. */
static void write_fact(warp_lp *lp, void *msg, uint64_t v)
{
    const tort_cfg *c = warp_model_arg(lp);
    if (c->msg_facts)
        ((tort_msg *)msg)->fact = tort_mix(v ^ 0x5A5A);
}

/* --msg-facts: a reverse handler may leave the payload in any state; the
 * re-execution (if any) writes the fact again. */
static void scribble_fact(warp_lp *lp, void *msg)
{
    const tort_cfg *c = warp_model_arg(lp);
    if (c->msg_facts)
        ((tort_msg *)msg)->fact = ~(uint64_t)0;
}

/* A job sends one successor job (population stays constant), sometimes an
 * echo to itself and one to another LP at the very same time, and sometimes a
 * zero-delay (lookahead) echo to another LP. Echoes send nothing. */
static void send_followers(warp_lp *lp, const tort_msg *m, uint64_t v)
{
    const tort_cfg *c = warp_model_arg(lp);
    warp_rng *r = warp_lp_rng(lp);
    warp_lpid me = warp_lp_id(lp);
    warp_lpid dest = me;
    if (warp_rng_unif(r) < 0.4)
        dest = (warp_lpid)warp_rng_integer(r, 0, (int64_t)c->total - 1);
    send_one(lp, dest, pick_delay(r, c), TORT_JOB, m->hops + 1, v);
    if (warp_rng_unif(r) < 0.25) {
        double d = pick_delay(r, c);
        warp_lpid other = (warp_lpid)warp_rng_integer(r, 0, (int64_t)c->total - 1);
        send_one(lp, me, d, TORT_ECHO, m->hops + 1, v ^ 1);
        send_one(lp, other, d, TORT_ECHO, m->hops + 1, v ^ 2);
    }
    if (warp_rng_unif(r) < 0.1)
        send_one(lp, (me + 1) % c->total, c->lookahead, TORT_ECHO, m->hops + 1, v ^ 3);
}

/* ---- type rev ---- */

static void rev_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    rev_state *s = state;
    const tort_msg *m = msg;
    warp_rng *r = warp_lp_rng(lp);
    uint64_t k = (uint64_t)warp_rng_integer(r, 0, 999);
    s->count++;
    bits->b = k << 8 | (uint64_t)s->mode << 20;
    if (k < 400) {
        bits->b |= 1;
        s->acc += (int64_t)k - 200;
    } else {
        s->x ^= tort_mix(k + m->value);
    }
    s->mode = (uint32_t)((s->mode * 3 + k) % 7);
    uint64_t v = tort_mix(s->count ^ (uint64_t)s->acc ^ s->x ^ s->mode);
    bits->b |= (v & 0xffffffffu) << 32;
    if (m->kind == TORT_JOB)
        send_followers(lp, m, v);
    write_fact(lp, msg, v);
}

static void rev_reverse(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    rev_state *s = state;
    const tort_msg *m = msg;
    const tort_cfg *c = warp_model_arg(lp);
    scribble_fact(lp, msg);
    uint64_t k = bits->b >> 8 & 1023;
    s->mode = (uint32_t)(bits->b >> 20 & 7);
    if (bits->b & 1)
        s->acc -= (int64_t)k - 200;
    else
        s->x ^= tort_mix(k + m->value);
    if (!c->broken) /* --broken=1: the one missing undo */
        s->count--;
}

static uint64_t rev_fingerprint(const void *state)
{
    const rev_state *s = state;
    return tort_mix(s->count) ^ tort_mix((uint64_t)s->acc + 1) ^ tort_mix(s->x + 2) ^ s->mode;
}

/* ---- type inc ---- */

static void inc_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    inc_state *s = state;
    const tort_msg *m = msg;
    warp_rng *r = warp_lp_rng(lp);
    /* A whole-state save overlapping all others. It comes before count++:
     * the undo log is replayed after the reverse handler, so it must hold
     * the count from before the event. */
    if (warp_rng_unif(r) < 0.2)
        warp_save(lp, s, sizeof *s);
    s->count++;
    size_t i = (size_t)warp_rng_integer(r, 0, 12);
    /* Overlapping regions, and one slot saved again after it changed: only
     * replaying newest-first restores the oldest value. */
    warp_save(lp, &s->slots[i], 4 * sizeof s->slots[0]);
    s->slots[i] += m->value;
    s->slots[i + 1] ^= tort_mix(i);
    warp_save(lp, &s->slots[i + 1], 3 * sizeof s->slots[0]);
    s->slots[i + 1] += 7;
    s->slots[i + 2] = tort_mix(s->slots[i + 2] + s->count);
    s->slots[i + 3] -= 1;
    warp_save(lp, &s->slots[i + 1], sizeof s->slots[0]);
    s->slots[i + 1] *= 3;

    uint64_t v = s->slots[i] ^ s->slots[i + 1] ^ s->slots[i + 3];
    warp_save(lp, &s->head, (size_t)((char *)(&s->qsum + 1) - (char *)&s->head));
    if (warp_rng_unif(r) < 0.6 || !s->head) {
        /* Sizes from 1 byte to a few KiB hit several allocator classes. */
        size_t extra = (size_t)warp_rng_integer(r, 0, 3000);
        inc_node *n = warp_alloc(lp, sizeof *n + extra);
        n->v = v;
        n->next = NULL;
        if (s->tail) {
            warp_save(lp, &s->tail->next, sizeof s->tail->next);
            s->tail->next = n;
        } else {
            s->head = n;
        }
        s->tail = n;
        s->qlen++;
        s->qsum += v;
        bits->b |= 1;
    }
    if (s->qlen > 1 && warp_rng_unif(r) < 0.5) {
        inc_node *h = s->head;
        v ^= h->v;
        s->head = h->next;
        s->qlen--;
        s->qsum -= h->v;
        warp_free_on_commit(lp, h);
        bits->b |= 2;
    }
    bits->b |= (tort_mix(v) & 0xffffffffu) << 32;
    if (m->kind == TORT_JOB)
        send_followers(lp, m, v);
    write_fact(lp, msg, v ^ s->count);
}

static void inc_reverse(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    inc_state *s = state;
    (void)bits;
    scribble_fact(lp, msg);
    s->count--;
}

static uint64_t inc_fingerprint(const void *state)
{
    const inc_state *s = state;
    uint64_t h = tort_mix(s->count ^ s->qlen << 40) ^ s->qsum;
    for (int i = 0; i < 16; i++)
        h = tort_mix(h ^ s->slots[i]);
    uint64_t n = 0;
    for (const inc_node *p = s->head; p; p = p->next, n++)
        h = tort_mix(h ^ p->v);
    return h ^ n;
}

static void inc_finish_free(warp_lp *lp, inc_state *s, tort_acc *acc)
{
    while (s->head) {
        inc_node *n = s->head;
        s->head = n->next;
        acc->nodes_left++;
        warp_free_on_commit(lp, n); /* outside events: frees now */
    }
    s->tail = NULL;
}

/* ---- type full ---- */

static void full_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    full_state *s = state;
    const tort_msg *m = msg;
    warp_rng *r = warp_lp_rng(lp);
    double u = warp_rng_unif(r);
    double e = warp_rng_exp(r, 2.0);
    double n = warp_rng_normal(r, 1.0, 3.0);
    double p = warp_rng_pareto(r, 1.0, 2.5);
    double l = warp_rng_lognormal(r, 0.0, 0.5);
    s->count++;
    s->fsum += u + e * n - p / l;
    if (p > s->fmax) {
        s->fmax = p;
        bits->b |= 1;
    }
    s->hist[s->hpos] = s->fsum * (double)m->hops;
    s->hpos = (s->hpos + 1) % 8;
    uint64_t v = tort_mix(dbl_bits(s->fsum) ^ dbl_bits(s->hist[(s->hpos + 3) % 8]) ^ s->count);
    bits->b |= (v & 0xffffffffu) << 32;
    if (m->kind == TORT_JOB)
        send_followers(lp, m, v);
    write_fact(lp, msg, v);
}

static uint64_t full_fingerprint(const void *state)
{
    const full_state *s = state;
    uint64_t h = tort_mix(dbl_bits(s->fsum)) ^ dbl_bits(s->fmax) ^ s->count;
    for (int i = 0; i < 8; i++)
        h = tort_mix(h ^ dbl_bits(s->hist[i]));
    return h ^ s->hpos;
}

/* ---- shared: init, commit, finish ---- */

static const warp_lp_type tort_types[3];

/* --lying-groups: each LP is a group of its own while setup checks that
 * groups stay on one rank, and all LPs are one group once the LPs start,
 * so the engine lets sends inside the lookahead cross ranks: events that
 * arrive too late, which it must notice by itself. */
static int groups_lie;

static warp_lpid tort_group(warp_lpid gid, const void *arg)
{
    (void)arg;
    return groups_lie ? 0 : gid;
}

static void tort_init(warp_lp *lp, void *state)
{
    const tort_cfg *c = warp_model_arg(lp);
    if (c->lying_groups)
        groups_lie = 1;
    /* Two of the types ask for an alignment (warp_lp_type.state_align):
     * the engine must place every such state on it. */
    size_t align = tort_types[warp_lp_id(lp) % 3].state_align;
    if (align && (uintptr_t)state % align) {
        fprintf(stderr, "torture: LP %llu's state at %p is not aligned to the %zu bytes its type asks for\n",
                (unsigned long long)warp_lp_id(lp), state, align);
        exit(1);
    }
    warp_rng *r = warp_lp_rng(lp);
    for (uint64_t i = 0; i < c->start_events; i++)
        send_one(lp, warp_lp_id(lp), c->lookahead + warp_rng_unif(r), TORT_JOB, 0,
                 warp_lp_id(lp) * 1000 + i);
}

static void tort_commit(warp_lp *lp, void *out, const void *msg, const warp_bits *bits)
{
    tort_out *o = out;
    const tort_msg *m = msg;
    const tort_cfg *c = warp_model_arg(lp);
    if (m->ts < o->last_ts) /* commits must come in timestamp order per LP */
        o->order_errors++;
    o->last_ts = m->ts;
    o->committed++;
    o->echoes += m->kind == TORT_ECHO;
    o->value_sum += m->value;
    o->hash = tort_mix(o->hash ^ m->value ^ bits->b ^ (uint64_t)m->hops << 48 ^ m->fact);
    if (c->msg_facts == 2) /* the bug --synch=check must catch: commit writes the payload */
        ((tort_msg *)(uintptr_t)msg)->fact ^= 1;
}

static void tort_finish_common(warp_lp *lp, const void *out, uint64_t fingerprint)
{
    const tort_cfg *c = warp_model_arg(lp);
    const tort_out *o = out;
    uint64_t id = warp_lp_id(lp);
    c->acc->committed += o->committed;
    c->acc->echoes += o->echoes;
    c->acc->value_sum += o->value_sum;
    c->acc->order_errors += o->order_errors;
    c->acc->out_hash += tort_mix(o->hash ^ tort_mix(id));
    c->acc->final_hash += tort_mix(fingerprint ^ tort_mix(id + 0x55));
}

static void rev_finish(warp_lp *lp, void *state, void *out)
{
    tort_finish_common(lp, out, rev_fingerprint(state));
}

static void inc_finish(warp_lp *lp, void *state, void *out)
{
    const tort_cfg *c = warp_model_arg(lp);
    tort_finish_common(lp, out, inc_fingerprint(state));
    inc_finish_free(lp, state, c->acc);
}

static void full_finish(warp_lp *lp, void *state, void *out)
{
    tort_finish_common(lp, out, full_fingerprint(state));
}

static const char *tort_event_name(const void *msg)
{
    const tort_msg *m = msg;
    return m->kind == TORT_JOB ? "job" : "echo";
}

static const warp_lp_type tort_types[3] = {
    {
        .name = "torture-rev",
        .state_size = sizeof(rev_state),
        .out_size = sizeof(tort_out),
        .save = WARP_SAVE_NONE,
        .init = tort_init,
        .forward = rev_forward,
        .reverse = rev_reverse,
        .commit = tort_commit,
        .finish = rev_finish,
        .event_name = tort_event_name,
    },
    {
        .name = "torture-inc",
        .state_size = sizeof(inc_state),
        .state_align = 64,
        .out_size = sizeof(tort_out),
        .save = WARP_SAVE_NONE,
        .init = tort_init,
        .forward = inc_forward,
        .reverse = inc_reverse,
        .commit = tort_commit,
        .finish = inc_finish,
        .event_name = tort_event_name,
    },
    {
        .name = "torture-full",
        .state_size = sizeof(full_state),
        .state_align = 256,
        .out_size = sizeof(tort_out),
        .save = WARP_SAVE_FULL,
        .init = tort_init,
        .forward = full_forward,
        .reverse = NULL,
        .commit = tort_commit,
        .finish = full_finish,
        .event_name = tort_event_name,
    },
};

static const warp_lp_type *tort_lp_type(warp_lpid gid, const void *arg)
{
    (void)arg;
    return &tort_types[gid % 3];
}

int main(int argc, char **argv)
{
    warp_ctx *w = warp_init(&argc, &argv);
    uint64_t total = 24, start = 2;
    double lookahead = 0.0, claim = -1.0;
    int broken = 0, lying = 0;
    uint64_t msg_facts = 0;
    const warp_opt opts[] = {
        {"lps", WARP_OPT_UINT, &total, "total LPs, any rank count (default 24)"},
        {"lookahead", WARP_OPT_DOUBLE, &lookahead,
         "smallest delay; 0 (default) sends zero-delay events, > 0 allows --synch=cons"},
        {"start-events", WARP_OPT_UINT, &start, "jobs each LP starts with (default 2)"},
        {"broken", WARP_OPT_FLAG, &broken, "skip one undo in the reverse handler (tests only)"},
        {"claim-lookahead", WARP_OPT_DOUBLE, &claim,
         "declare this lookahead to the engine while sending with --lookahead's delays (tests only: "
         "larger than --lookahead, the engine must refuse the run)"},
        {"lying-groups", WARP_OPT_FLAG, &lying,
         "declare every LP a group of its own at setup and all LPs one group once running (tests "
         "only: sends inside --claim-lookahead cross ranks unchecked, and arrive too late)"},
        {"msg-facts", WARP_OPT_UINT, &msg_facts,
         "1: forward handlers write a fact into the payload; 2: the commit handler writes it too (tests only)"},
        {0},
    };
    if (warp_parse_args(w, &argc, argv, opts, "torture", "usage: torture [options]") == WARP_ARGS_HELP) {
        warp_finalize(w);
        return 0;
    }
    if (argc > 1)
        warp_fatal(WARP_EXIT_USAGE, "unexpected argument '%s'; see --help", argv[1]);
    if (!total)
        warp_fatal(WARP_EXIT_USAGE, "--lps=0: the torture model needs at least one LP");
    if (msg_facts > 2)
        warp_fatal(WARP_EXIT_USAGE, "--msg-facts=%llu: must be 0, 1 or 2", (unsigned long long)msg_facts);
    if (!(lookahead >= 0))
        warp_fatal(WARP_EXIT_USAGE, "--lookahead=%g: must be >= 0", lookahead);
    tort_acc acc = {0};
    tort_cfg cfg = {
        .total = total,
        .lookahead = lookahead,
        .start_events = start,
        .broken = broken,
        .msg_facts = (int)msg_facts,
        .lying_groups = lying,
        .acc = &acc,
    };
    warp_model m = {
        .name = "torture",
        .total_lps = total,
        .msg_size = sizeof(tort_msg),
        .lookahead = claim >= 0 ? claim : lookahead,
        .lp_type = tort_lp_type,
        .group = lying ? tort_group : NULL,
        .arg = &cfg,
    };
    warp_run(w, &m);
    uint64_t local[7] = {acc.committed, acc.echoes,     acc.value_sum,   acc.out_hash,
                         acc.final_hash, acc.nodes_left, acc.order_errors};
    uint64_t all[7];
    memcpy(all, local, sizeof all);
    warp_reduce_to_root(w, all, 7, WARP_TYPE_U64, WARP_OP_SUM);
    int rc = 0;
    if (warp_rank(w) == 0) {
        const warp_stats *st = warp_last_stats(w);
        printf("torture: lps %" PRIu64 " committed %" PRIu64 " echoes %" PRIu64
               " value-sum %016" PRIx64 " out-hash %016" PRIx64 " final-hash %016" PRIx64
               " queued-nodes %" PRIu64 "\n",
               total, all[0], all[1], all[2], all[3], all[4], all[5]);
        if (all[0] != st->committed) {
            fprintf(stderr, "torture: commit handlers ran %" PRIu64 " times for %" PRIu64
                    " committed events\n", all[0], st->committed);
            rc = 1;
        }
        if (all[6]) {
            fprintf(stderr, "torture: %" PRIu64 " commits came out of timestamp order\n", all[6]);
            rc = 1;
        }
    }
    /* A host program's own MPI, beside the engine's, on its communicator. */
    MPI_Bcast(&rc, 1, MPI_INT, 0, warp_comm(w));
    warp_finalize(w);
    return rc;
}
