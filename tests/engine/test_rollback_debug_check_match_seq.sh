#!/bin/sh
# Rollback machinery on one PE: for 20 seeds, the torture model and PHOLD give
# the sequential committed digest, committed count and model summary in
# --synch=debug (forced random rollbacks) and pass --synch=check (every event
# rolled back and compared). Debug runs must really roll back.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

seeds=${SEEDS:-$(seq 1 20)}
for seed in $seeds; do
    # Odd seeds: one KP (every rollback is shared by all LPs), zero delays;
    # even seeds: one LP per KP, lookahead 0.5 and small batches.
    if [ $((seed % 2)) = 1 ]; then
        tort="--lps=24 --end=15 --kps=1"
        phold="--total-lps=16 --end=40 --kps=1"
    else
        tort="--lps=30 --end=12 --lookahead=0.5 --lps-per-kp=1 --batch=4"
        phold="--total-lps=16 --end=40 --lookahead=0 --mean=0.5 --remote=0.5 --lps-per-kp=1 --batch=4"
    fi
    for model in torture phold; do
        if [ $model = torture ]; then prog=$TORTURE args=$tort; else prog=$PHOLD args=$phold; fi
        # shellcheck disable=SC2086
        ref=$(sig 0 "$prog" --synch=seq --seed="$seed" $args)
        if ! is_sig "$ref"; then
            fail "$model seed $seed: the sequential run failed: $ref"
            continue
        fi
        # shellcheck disable=SC2086
        got=$(sig 0 "$prog" --synch=debug --seed="$seed" $args)
        same "$model seed $seed: --synch=debug $args differs from seq" "$ref" "$got"
        rb=$(stat "rolled back events")
        if [ "${rb:-0}" -le 0 ] 2>/dev/null; then
            fail "$model seed $seed: --synch=debug rolled back ${rb:-no} events: the test proves nothing"
        fi
        # shellcheck disable=SC2086
        got=$(sig 0 "$prog" --synch=check --seed="$seed" $args)
        same "$model seed $seed: --synch=check $args fails or differs from seq" "$ref" "$got"
    done
done
finish "debug and check modes equal seq"
