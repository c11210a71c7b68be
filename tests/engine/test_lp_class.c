/* tests/engine/test_lp_class.c — the engine's copy of an LP type
 * (setup.c: lp_class_for): one class per model type, and the state head
 * queue_prefetch_ahead loads an event ahead: the type's state_head when it
 * names one, else the first STATE_HEAD_DEFAULT (256) bytes, never past the
 * end of the state. */
#include <criterion/criterion.h>
#include <stdlib.h>

#include "internal.h"

static void forward(warp_lp *lp, void *state, void *msg, warp_bits *bits)
{
    (void)lp;
    (void)state;
    (void)msg;
    (void)bits;
}

/* The model's types: each its own, so a class each; they must outlive
 * their classes (a class remembers its type's address). */
static warp_lp_type types[8];
static int ntypes;

static size_t head_of(warp_ctx *w, size_t state_size, size_t state_head)
{
    cr_assert_lt(ntypes, 8);
    warp_lp_type *t = &types[ntypes++];
    t->name = "t";
    t->state_size = state_size;
    t->state_head = state_head;
    t->forward = forward;
    const warp_lp_type *c = lp_class_for(w, t);
    cr_assert_neq(c, t, "the class is the engine's copy");
    cr_assert_eq(c->state_size, state_size);
    cr_assert_eq(lp_class_for(w, t), c, "one class per type");
    return c->state_head;
}

Test(lp_class, state_head_defaults_and_caps)
{
    warp_ctx *w = calloc(1, sizeof *w);
    cr_assert_not_null(w);
    cr_assert_eq(head_of(w, 14120, 0), STATE_HEAD_DEFAULT, "a large state without a head: its first 256 bytes");
    cr_assert_eq(head_of(w, 192, 0), 192, "a small state: all of it");
    cr_assert_eq(head_of(w, 0, 0), 0, "no state: nothing");
    cr_assert_eq(head_of(w, 14120, 88), 88, "a router's head: what it names");
    cr_assert_eq(head_of(w, 14120, 1000), 1000, "a head past the default is kept");
    cr_assert_eq(head_of(w, 100, 4096), 100, "a head past the state stops at its end");
    cr_assert_eq(w->nclasses, 6u);
    lp_classes_free(w);
    free(w);
}
