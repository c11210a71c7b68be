#!/bin/sh
# Regression test: --queue=splay under MPI once stopped with "a removed event
# is in the splay tree" in most optimistic torture runs on 4 ranks (13 of 20
# seeds): receives were handled in completion order, so a re-sent event (same
# key, new uid) could overtake the anti-message of its cancelled copy and two
# pending events shared a key. Receives are now handled in posted (match)
# order, and the splay tree breaks key ties by address.
# Expected: the digest of --synch=seq, for every seed.
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
