#!/bin/sh
# The checks can fail: the torture model with --broken=1 (its reverse handler
# forgets to decrement the count at byte 0 of torture-rev's state) must make
# --synch=check stop with exit code 4 and the documented message, and must
# make --synch=debug commit a different digest than seq. Seq never runs a
# reverse handler, so the broken switch must not change its result.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

for seed in 1 2 3; do
    args="--lps=24 --end=15 --seed=$seed"
    # shellcheck disable=SC2086
    ref=$(sig 0 "$TORTURE" --synch=seq $args)
    is_sig "$ref" || { fail "seed $seed: the sequential run failed: $ref"; continue; }
    # shellcheck disable=SC2086
    got=$(sig 0 "$TORTURE" --synch=seq --broken=1 $args)
    same "seed $seed: --broken=1 changes the sequential run" "$ref" "$got"

    # shellcheck disable=SC2086
    run_failing 0 "$TORTURE" --synch=check --broken=1 $args
    if [ "$TT_RC" != 4 ]; then
        fail "seed $seed: --synch=check --broken=1 exits $TT_RC, expected 4 (check failure)"
    fi
    pattern='^torture: --synch=check: LP [0-9]* (type torture-rev), event at time [0-9.e+-]* (job) from LP [0-9]*: state byte 0 is 0x[0-9a-f][0-9a-f] after forward+rollback but was 0x[0-9a-f][0-9a-f] before'
    if ! grep -q "$pattern" "$TT_OUT"; then
        fail "seed $seed: --synch=check --broken=1 does not report byte 0 of a torture-rev LP; it said: $(tail -n 1 "$TT_OUT")"
    fi
    lines=$(grep -c . "$TT_OUT")
    [ "$lines" = 1 ] || fail "seed $seed: --synch=check --broken=1 printed $lines lines, expected one error line"

    # shellcheck disable=SC2086
    got=$(sig 0 "$TORTURE" --synch=debug --broken=1 $args)
    d_ref=${ref%% committed*}
    d_got=${got%% committed*}
    if [ "$d_ref" = "$d_got" ]; then
        fail "seed $seed: --synch=debug --broken=1 gives the sequential $d_ref: debug mode missed a broken reverse handler"
    fi
done
finish "broken reverse handler detected"
