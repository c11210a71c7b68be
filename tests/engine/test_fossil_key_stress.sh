#!/bin/sh
# Fossil collection on several ranks commits below GVT's key; committing the
# event whose key equals it (a one-character mutant of engine/fossil.c) let
# an anti-message arrive after its event was committed, and some runs of
# this tie-heavy PHOLD on 4 ranks (zero lookahead, 90 % remote, a GVT round
# every batch of 4, no optimism window, no safe events) committed a digest
# other than seq's: 1 in 16 to 24 on a lightly loaded machine, 1 in 64 under
# a load average of 24. Each run must commit the sequential digest. make
# check runs 8 seeds, WARP_LONG=1 (make check-long) 64: a race, so it may
# miss that mutant; tests/engine/test_torture_rollback's
# fossil.key_bound_keeps_the_event_equal_to_it catches it every time.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

if [ "${WARP_LONG:-0}" = 1 ]; then seeds=$(seq 1 64); else seeds=$(seq 1 8); fi
base="--total-lps=64 --remote=0.9 --lookahead=0 --gvt-interval=1 --batch=4 --window=0 --safe-events=off"
runs=0
for seed in $seeds; do
    args="$base --seed=$seed"
    [ $((seed % 2)) = 0 ] && args="$args --mean=0.1 --end=20"
    # shellcheck disable=SC2086
    ref=$(sig 0 "$PHOLD" --synch=seq $args)
    is_sig "$ref" || { fail "seq PHOLD $args failed: $ref"; continue; }
    # shellcheck disable=SC2086
    got=$(sig 4 "$PHOLD" --synch=opt $args)
    same "PHOLD on 4 ranks: $args" "$ref" "$got"
    runs=$((runs + 1))
done
echo "$runs runs on 4 ranks"
finish "fossil key boundary stress"
