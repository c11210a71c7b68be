#!/bin/sh
# KNOWN ENGINE BUG (XFAIL_TESTS until fixed): --queue=splay under MPI stops
# with "internal error at engine/queue.c: invariant broken: a removed event is
# in the splay tree" in most optimistic torture runs on 4 ranks (13 of 20
# seeds). Cause: transport_poll handles completed receives in completion
# order, and a receive matched earlier (a larger message still being
# transferred) can complete after a later one, so a re-sent event (same key
# (ts, depth, src, seq), new uid) is delivered before the anti-message of its
# cancelled incarnation. Two pending events then share one key; the heap
# removes by pointer and copes, but splay_remove finds events by key and
# unlinks or asserts on the wrong one.
# Repro: mpiexec -n 4 tests/engine/torture --synch=opt --queue=splay --end=12 --seed=1
# Expected: the digest of --synch=seq --end=12 --seed=1; actual: exit 1.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

# Ten seeds: the failure is timing dependent; with about half the runs failing
# on this machine, an accidental pass of all ten (XPASS) is unlikely.
for seed in 1 2 3 4 5 6 7 8 9 10; do
    ref=$(sig 0 "$TORTURE" --synch=seq --end=12 --seed=$seed)
    is_sig "$ref" || { fail "seed $seed: the sequential run failed: $ref"; continue; }
    got=$(sig 4 "$TORTURE" --synch=opt --queue=splay --end=12 --seed=$seed)
    same "torture on 4 ranks, --queue=splay --seed=$seed" "$ref" "$got"
done
finish "the splay queue under MPI"
