#!/bin/sh
# Issue 4's stress test: many short optimistic PHOLD runs with ROSS's default
# parameters (--nlp=8 per rank, remote 0.25, mean 1, lookahead 1: every delay
# is exactly 1.0, so every event ties with many others) on 2 and 4 ranks,
# each of which must finish and commit the sequential digest of the same
# model (8 x ranks LPs). ROSS 8.1 crashes in most such runs. make check runs a
# few; WARP_LONG=1 (make check-long) runs 40 per rank count.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

if [ "${WARP_LONG:-0}" = 1 ]; then
    seeds=$(seq 1 40) end=500
else
    seeds="1 2 3" end=60
fi
ross="--nlp=8 --remote=0.25 --mean=1 --lookahead=1 --start-events=1"
runs=0
for np in 2 4; do
    total=$((8 * np))
    for seed in $seeds; do
        ref=$(sig 0 "$PHOLD" --synch=seq --total-lps=$total --end=$end --seed="$seed")
        is_sig "$ref" || { fail "seq PHOLD $total LPs seed $seed failed: $ref"; continue; }
        gvt=mattern
        [ $((seed % 3)) = 0 ] && gvt=sync
        # shellcheck disable=SC2086
        got=$(sig "$np" "$PHOLD" --synch=opt $ross --end=$end --seed="$seed" --gvt=$gvt)
        same "PHOLD ROSS defaults on $np ranks, seed $seed, --end=$end --gvt=$gvt" "$ref" "$got"
        runs=$((runs + 1))
    done
done
echo "$runs optimistic runs"
finish "PHOLD tie stress"
