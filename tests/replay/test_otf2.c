/* test_otf2.c — the OTF2 reader on the sample Score-P trace (skipped when
 * ../shared/traces is absent): ranks, halo messages, rendezvous control
 * messages, barriers, and complete matching with zero network time. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "helpers.h"
#include "replay/readers/otf2map.h"

static char *sample(void)
{
    return th_sample("otf2-stencil4d-32/traces.otf2");
}

Test(otf2, sample_structure_and_matching)
{
    char *p = sample();
    replay_source *s = th_open(p, NULL);
    cr_assert_str_eq(s->ops->format, "otf2");
    cr_assert_eq(s->nranks, 32);
    replay_rank *r = th_load_all(s);
    uint64_t halo = 0, ctrl = 0, coll = 0, halo_recv = 0;
    for (int32_t q = 0; q < 32; q++) {
        uint64_t h = 0;
        for (uint32_t k = 0; k < r[q].nmsgs; k++) {
            const replay_msg *m = &r[q].msgs[k];
            cr_assert(m->dst >= 0 && m->dst < 32);
            if (m->tag & O2_TAG_COLL) {
                coll++;
                cr_assert_eq(m->bytes, 0, "barriers carry no data");
            } else if (m->tag & O2_TAG_CTRL) {
                ctrl++;
                cr_assert_eq(m->bytes, O2_CTRL_BYTES);
            } else {
                cr_assert_eq(m->bytes, 131072, "halo messages are 131,072 bytes");
                h++;
            }
        }
        halo += h;
        for (uint32_t i = 0; i < r[q].ntasks; i++)
            halo_recv += (r[q].tasks[i].flags & REPLAY_TRIGGERED) && !(r[q].tasks[i].trig_tag & (O2_TAG_COLL | O2_TAG_CTRL));
        cr_assert_eq(h % 8, 0, "rank %d: 8 halo sends per iteration (4-D stencil)", q);
        /* one chain: every task but the first has a dependency */
        for (uint32_t i = 1; i < r[q].ntasks; i++)
            cr_assert_gt(r[q].tasks[i].dep_end, replay_dep_begin(&r[q], i), "rank %d task %u", q, i);
    }
    cr_assert_gt(halo, 0);
    cr_assert_eq(ctrl, halo, "131072 > eager limit: one control message per halo message");
    cr_assert_eq(halo_recv, halo, "every halo send has its receive");
    /* barriers: recursive doubling over 32 ranks = 5 messages per rank per barrier */
    cr_assert_eq(coll % (32 * 5), 0);
    replay_timing t;
    replay_timing_run(r, 32, 1, &t, NULL);
    cr_assert_eq(t.tasks_stuck, 0);
    cr_assert_eq(t.msgs_unmatched, 0);
    th_free_all(r, 32);
    replay_source_close(s);
    free(p);
}

Test(otf2, eager_limit_changes_rendezvous)
{
    char *p = sample();
    replay_opts o = replay_opts_default();
    cr_assert_null(replay_opts_set(&o, "eager_limit", "1MiB"));
    replay_source *s;
    replay_err err;
    cr_assert_eq(replay_source_open(p, NULL, &o, &s, &err), 0, "%s", err.msg);
    replay_rank *r = th_load_all(s);
    for (int32_t q = 0; q < 32; q++)
        for (uint32_t k = 0; k < r[q].nmsgs; k++)
            cr_assert_eq(r[q].msgs[k].tag & O2_TAG_CTRL, 0, "no control messages when all sends are eager");
    th_free_all(r, 32);
    replay_source_close(s);
    free(p);
}

Test(otf2, not_an_archive_is_refused)
{
    char *p = th_write_temp(".otf2", "not an otf2 anchor\n");
    const char *msg = th_open_error(p, NULL);
    cr_assert(strstr(msg, p), "%s", msg);
    unlink(p);
    free(p);
}
