/* examples/phold/phold.c — PHOLD, the standard PDES benchmark, with ROSS's
 * semantics: each LP starts --start-events events; each event goes, with
 * probability --remote, to an LP chosen uniformly among all LPs (else to
 * itself), after lookahead + exponential(mean - lookahead). Uses only the
 * public API: the engine reverses the RNG, the reverse handler undoes the
 * one counter of state. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "warp.h"

typedef struct phold_cfg {
    uint64_t total;
    double remote, mean, lookahead;
    uint64_t start_events;
    double cross; /* --cross: share of random destinations on another rank; < 0: off */
    uint64_t nranks;
} phold_cfg;

typedef struct phold_state {
    uint64_t received; /* events this LP has run */
} phold_state;

typedef struct phold_out {
    uint64_t committed;
    uint64_t remote_sends;
} phold_out;

typedef struct phold_msg {
    uint64_t hops; /* how many events led here: makes payloads non-trivial */
} phold_msg;

/* Rank p's LPs under the engine's block placement (engine/map.c). */
static void phold_block(const phold_cfg *c, uint64_t p, uint64_t *first, uint64_t *count)
{
    uint64_t q = c->total / c->nranks, rem = c->total % c->nranks;
    *first = p * q + (p < rem ? p : rem);
    *count = q + (p < rem ? 1 : 0);
}

/* --cross=F: a random destination lies on another rank with probability F,
 * else on the sender's own, uniformly among that rank's LPs. It draws the
 * same numbers whatever F is, so a sweep of F changes only how many events
 * cross ranks, not what the model computes per event: the measure of what
 * crossing costs against a local event to another LP (bench/remote_cost.sh). */
static warp_lpid phold_cross_dest(warp_rng *r, const phold_cfg *c, warp_lpid self)
{
    uint64_t P = c->nranks, q = c->total / P, rem = c->total % P, first, count;
    uint64_t me = self < rem * (q + 1) ? self / (q + 1) : rem + (self - rem * (q + 1)) / q;
    bool away = warp_rng_unif(r) < c->cross;
    uint64_t other = P > 1 ? (uint64_t)warp_rng_integer(r, 0, (int64_t)P - 2) : 0;
    uint64_t p = away && P > 1 ? (other >= me ? other + 1 : other) : me;
    phold_block(c, p, &first, &count);
    return first + (uint64_t)warp_rng_integer(r, 0, (int64_t)count - 1);
}

static void phold_send(warp_lp *lp, const phold_cfg *c, uint64_t hops, warp_bits *bits)
{
    warp_rng *r = warp_lp_rng(lp);
    warp_lpid dest = warp_lp_id(lp);
    if (warp_rng_unif(r) <= c->remote) {
        dest = c->cross >= 0 ? phold_cross_dest(r, c, dest)
                             : (warp_lpid)warp_rng_integer(r, 0, (int64_t)c->total - 1);
        if (bits)
            bits->b |= 1;
    }
    double delay = c->lookahead + warp_rng_exp(r, c->mean - c->lookahead);
    phold_msg *m = warp_event_new(lp, dest, delay);
    m->hops = hops;
    warp_event_send(lp, m);
}

static void phold_init(warp_lp *lp, void *state)
{
    const phold_cfg *c = warp_model_arg(lp);
    (void)state;
    for (uint64_t i = 0; i < c->start_events; i++)
        phold_send(lp, c, 0, NULL);
}

static void phold_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    phold_state *s = state;
    const phold_msg *m = msg;
    s->received++;
    phold_send(lp, warp_model_arg(lp), m->hops + 1, bits);
}

static void phold_reverse(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    phold_state *s = state;
    (void)lp;
    (void)msg;
    (void)bits;
    s->received--;
}

static void phold_commit(warp_lp *lp, void *out, const void *msg, const warp_bits *bits)
{
    phold_out *o = out;
    (void)lp;
    (void)msg;
    o->committed++;
    o->remote_sends += bits->b & 1;
}

static const warp_lp_type phold_type = {
    .name = "phold",
    .state_size = sizeof(phold_state),
    .out_size = sizeof(phold_out),
    .save = WARP_SAVE_NONE,
    .init = phold_init,
    .forward = phold_forward,
    .reverse = phold_reverse,
    .commit = phold_commit,
};

/* --map=cyclic: LP g on rank g mod P (exercises the engine's custom mappers). */
static int phold_map_cyclic(warp_lpid gid, int npes, const void *arg)
{
    (void)arg;
    return (int)(gid % (warp_lpid)npes);
}

static const warp_lp_type *phold_lp_type(warp_lpid gid, const void *arg)
{
    (void)gid;
    (void)arg;
    return &phold_type;
}

int main(int argc, char **argv)
{
    warp_ctx *w = warp_init(&argc, &argv);
    uint64_t nlp = 8, total = 0, start = 1;
    double remote = 0.25, mean = 1.0, lookahead = 1.0, cross = -1;
    const char *map = "block";
    const warp_opt opts[] = {
        {"nlp", WARP_OPT_UINT, &nlp, "LPs per rank, as ROSS (default 8)"},
        {"total-lps", WARP_OPT_UINT, &total, "total LPs, whatever the rank count (overrides --nlp)"},
        {"remote", WARP_OPT_DOUBLE, &remote, "probability an event goes to a random LP (default 0.25)"},
        {"mean", WARP_OPT_DOUBLE, &mean, "mean delay between events (default 1.0)"},
        {"lookahead", WARP_OPT_DOUBLE, &lookahead, "minimum delay (default 1.0)"},
        {"start-events", WARP_OPT_UINT, &start, "events each LP starts with (default 1)"},
        {"map", WARP_OPT_STRING, &map, "LP placement: block (default, the engine's) or cyclic"},
        {"cross", WARP_OPT_DOUBLE, &cross,
         "share of random destinations on another rank (block placement; default: uniform over all LPs)"},
        {0},
    };
    if (warp_parse_args(w, &argc, argv, opts, "phold",
                        "usage: phold [options]   (mpiexec -n N phold --synch=opt ...)") == WARP_ARGS_HELP) {
        warp_finalize(w);
        return 0;
    }
    if (argc > 1)
        warp_fatal(WARP_EXIT_USAGE, "unexpected argument '%s'; see --help", argv[1]);
    if (remote < 0 || remote > 1)
        warp_fatal(WARP_EXIT_USAGE, "--remote=%g: must be a probability in [0, 1]", remote);
    if (!(lookahead >= 0))
        warp_fatal(WARP_EXIT_USAGE, "--lookahead=%g: must be >= 0", lookahead);
    if (lookahead > mean)
        warp_fatal(WARP_EXIT_USAGE, "--lookahead=%g is larger than --mean=%g: the mean delay includes the lookahead",
                   lookahead, mean);
    phold_cfg cfg = {
        .total = total ? total : nlp * (uint64_t)warp_nranks(w),
        .remote = remote,
        .mean = mean,
        .lookahead = lookahead,
        .start_events = start,
        .cross = cross,
        .nranks = cross >= 0 ? (uint64_t)warp_nranks(w) : 0,
    };
    if (strcmp(map, "block") && strcmp(map, "cyclic"))
        warp_fatal(WARP_EXIT_USAGE, "--map=%s: use block or cyclic", map);
    if (cross != -1 && !(cross >= 0 && cross <= 1))
        warp_fatal(WARP_EXIT_USAGE, "--cross=%g: must be a probability in [0, 1]", cross);
    if (cross >= 0 && strcmp(map, "block"))
        warp_fatal(WARP_EXIT_USAGE, "--cross needs --map=block: it picks destinations by the block placement");
    if (cross >= 0 && cfg.total < (uint64_t)warp_nranks(w))
        warp_fatal(WARP_EXIT_USAGE, "--cross needs at least one LP per rank (--total-lps=%llu on %d ranks)",
                   (unsigned long long)cfg.total, warp_nranks(w));
    if (!cfg.total)
        warp_fatal(WARP_EXIT_USAGE, "--nlp/--total-lps: PHOLD needs at least one LP");
    warp_model m = {
        .name = "phold",
        .total_lps = cfg.total,
        .msg_size = sizeof(phold_msg),
        .lookahead = lookahead,
        .lp_type = phold_lp_type,
        .map = strcmp(map, "cyclic") ? NULL : phold_map_cyclic,
        .arg = &cfg,
    };
    warp_set_config_hash(w, &cfg, sizeof cfg); /* a checkpoint belongs to these options */
    warp_run(w, &m);
    if (warp_rank(w) == 0 && !warp_quiet(w))
        printf("PHOLD: %llu LPs, remote %.3g, mean %.3g, lookahead %.3g, end %.6g\n",
               (unsigned long long)cfg.total, remote, mean, lookahead, warp_end_time(w));
    warp_finalize(w);
    return 0;
}
