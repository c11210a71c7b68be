#!/bin/sh
# Optimistic torture runs on 2 and 4 ranks for many seeds, each with its own
# KP, batch and GVT settings (picked from the seed), against the sequential
# run of the same seed: catches rare interleavings the fixed matrix misses.
# make check-long only (WARP_LONG=1: 30 seeds); otherwise 2 seeds.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

if [ "${WARP_LONG:-0}" = 1 ]; then seeds=$(seq 1 30); else seeds="1 2"; fi
runs=0
for seed in $seeds; do
    case $((seed % 4)) in
    0) la=0 ;;
    1) la=0.5 ;;
    2) la=0 ;;
    3) la=1.0 ;;
    esac
    args="--lps=36 --end=15 --start-events=3 --lookahead=$la --seed=$seed"
    # shellcheck disable=SC2086
    ref=$(sig 0 "$TORTURE" --synch=seq $args)
    is_sig "$ref" || { fail "seed $seed: the sequential run failed: $ref"; continue; }
    for np in 2 4; do
        set -- 1 4 16 64
        shift $((seed % 4))
        b=${1:-256}
        set -- --synch=opt --batch="$b" --gvt-interval=$((1 + seed % 7 * 9)) \
            --kps=$((1 + seed % 5)) --gvt=$([ $((seed % 2)) = 0 ] && echo mattern || echo sync)
        # shellcheck disable=SC2086
        got=$(sig "$np" "$TORTURE" "$@" $args)
        same "torture on $np ranks: $* $args" "$ref" "$got"
        runs=$((runs + 1))
    done
done
echo "$runs optimistic runs"
finish "torture stress"
