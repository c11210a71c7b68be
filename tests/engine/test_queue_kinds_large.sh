#!/bin/sh
# The queue kinds on pending sets large enough for the ladder to leave its
# start-up heap (more than 32 Ki pending events: 65,536 PHOLD LPs with one
# event each), so its buckets, overflow, rebuilds, sorted runs and lazy
# removal all take part: every kind, sequential, forced rollbacks
# (--synch=debug: inserts below the last pop, anti-messages) and 2 optimistic
# ranks must commit the digest of the sequential heap run. One variant with
# every delay equal (lock-step: each timestamp holds thousands of events, settled
# by the tie key), one exponential.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

common="--total-lps=65536 --remote=0.25 --start-events=1"
runs=0
for shape in "--mean=1 --lookahead=0.1 --end=4" "--mean=0.5 --lookahead=0.5 --end=3"; do
    # shellcheck disable=SC2086
    ref=$(sig 0 "$PHOLD" --synch=seq --queue=heap $common $shape)
    is_sig "$ref" || { fail "seq heap PHOLD $shape failed: $ref"; continue; }
    for q in ladder splay; do
        # shellcheck disable=SC2086
        got=$(sig 0 "$PHOLD" --synch=seq --queue=$q $common $shape)
        same "seq --queue=$q $shape" "$ref" "$got"
        runs=$((runs + 1))
    done
    for q in ladder heap; do
        # shellcheck disable=SC2086
        got=$(sig 0 "$PHOLD" --synch=debug --queue=$q $common $shape)
        same "debug --queue=$q $shape" "$ref" "$got"
        # shellcheck disable=SC2086
        got=$(sig 2 "$PHOLD" --synch=opt --queue=$q $common $shape)
        same "2 ranks --queue=$q $shape" "$ref" "$got"
        runs=$((runs + 2))
    done
done
echo "$runs runs"
finish "queue kinds on a large pending set"
