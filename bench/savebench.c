/* bench/savebench.c — the per-event cost of each state-saving style. Every
 * event makes --writes random 8-byte writes into an LP state of --state-bytes
 * and sends one event on; the writes are undone by a reverse handler
 * (--style=reverse, which must keep the old values in the message), by
 * warp_save before each write (--style=save), or by the engine's full copy
 * (--style=full). Compare --synch=seq / opt / debug runs of each style. */
#include <stdio.h>
#include <string.h>

#include "warp.h"

#define MAX_WRITES 16

typedef struct sb_cfg {
    uint64_t total, writes, words;
    int style; /* 0 reverse, 1 save, 2 full */
} sb_cfg;

typedef struct sb_msg {
    uint32_t idx[MAX_WRITES];
    uint64_t old[MAX_WRITES]; /* reverse style: the values overwritten */
} sb_msg;

static void sb_write(warp_lp *lp, uint64_t *state, sb_msg *m, const sb_cfg *c)
{
    warp_rng *r = warp_lp_rng(lp);
    for (uint64_t i = 0; i < c->writes; i++) {
        uint32_t k = (uint32_t)warp_rng_integer(r, 0, (int64_t)c->words - 1);
        if (c->style == 0) {
            m->idx[i] = k;
            m->old[i] = state[k];
        } else if (c->style == 1) {
            warp_save(lp, &state[k], sizeof state[k]);
        }
        state[k] = state[k] * 6364136223846793005ull + i + 1;
    }
}

static void sb_next(warp_lp *lp, const sb_cfg *c)
{
    warp_rng *r = warp_lp_rng(lp);
    warp_lpid dest = (warp_lpid)warp_rng_integer(r, 0, (int64_t)c->total - 1);
    sb_msg *m = warp_event_new(lp, dest, 0.1 + warp_rng_exp(r, 0.9));
    warp_event_send(lp, m);
}

static void sb_init(warp_lp *lp, void *state)
{
    (void)state;
    sb_next(lp, warp_model_arg(lp));
}

static void sb_forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    const sb_cfg *c = warp_model_arg(lp);
    (void)bits;
    sb_write(lp, state, msg, c);
    sb_next(lp, c);
}

static void sb_reverse(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    const sb_cfg *c = warp_model_arg(lp);
    const sb_msg *m = msg;
    uint64_t *s = state;
    (void)bits;
    if (c->style != 0)
        return;
    for (uint64_t i = c->writes; i-- > 0;)
        s[m->idx[i]] = m->old[i];
}

static warp_lp_type sb_type = {
    .name = "savebench",
    .init = sb_init,
    .forward = sb_forward,
    .reverse = sb_reverse,
};

static const warp_lp_type *sb_lp_type(warp_lpid gid, const void *arg)
{
    (void)gid;
    (void)arg;
    return &sb_type;
}

int main(int argc, char **argv)
{
    warp_ctx *w = warp_init(&argc, &argv);
    uint64_t total = 1024, writes = 4, bytes = 256;
    const char *style = "reverse";
    const warp_opt opts[] = {
        {"total-lps", WARP_OPT_UINT, &total, "LPs (default 1024)"},
        {"writes", WARP_OPT_UINT, &writes, "8-byte state writes per event (default 4, at most 16)"},
        {"state-bytes", WARP_OPT_UINT, &bytes, "LP state size (default 256)"},
        {"style", WARP_OPT_STRING, &style, "reverse | save | full (default reverse)"},
        {0},
    };
    if (warp_parse_args(w, &argc, argv, opts, "savebench", "usage: savebench [options]") == WARP_ARGS_HELP) {
        warp_finalize(w);
        return 0;
    }
    sb_cfg c = {.total = total, .writes = writes, .words = bytes / 8};
    if (!strcmp(style, "reverse"))
        c.style = 0;
    else if (!strcmp(style, "save"))
        c.style = 1;
    else if (!strcmp(style, "full"))
        c.style = 2;
    else
        warp_fatal(2, "--style=%s: use reverse, save or full", style);
    if (writes > MAX_WRITES || c.words == 0 || !total)
        warp_fatal(2, "--writes must be <= %d, --state-bytes >= 8 and --total-lps >= 1", MAX_WRITES);
    sb_type.state_size = c.words * 8;
    sb_type.save = c.style == 2 ? WARP_SAVE_FULL : WARP_SAVE_NONE;
    warp_model m = {.name = "savebench", .total_lps = total, .msg_size = sizeof(sb_msg),
                    .lookahead = 0.1, .lp_type = sb_lp_type, .arg = &c};
    warp_run(w, &m);
    warp_finalize(w);
    return 0;
}
