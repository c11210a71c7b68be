#!/bin/sh
# The engine notices a causality violation by itself where nothing rolls
# back: in cons every event commits as it runs, in opt those below the
# safe-events bound do, so one that arrives below an event already run
# final must stop the run (exit 1, internal error) rather than commit out of
# order and exit 0 with a wrong digest. Planted with the torture model's
# --lying-groups, which makes the engine let sends inside the declared
# lookahead (1; the model sends from 0.5) cross ranks. The same model with
# a lookahead it keeps commits the sequential digest: no false alarm.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

args="--lps=36 --end=15 --start-events=3 --seed=3"
for np in 2 4; do
    for mode in cons opt; do
        # shellcheck disable=SC2086
        run_failing "$np" "$TORTURE" --synch=$mode $args --lookahead=0.5 --claim-lookahead=1 --lying-groups
        what="$mode on $np ranks, events arriving inside the lookahead"
        [ "$TT_RC" = 1 ] || fail "$what: exit $TT_RC, expected 1 (internal error): $(grep -v '^ ' "$TT_OUT" | tail -n 1)"
        case $mode in
        cons) why='--synch=cons commits each event as it runs' fix=--synch=opt ;;
        *) why='below the safe-events bound' fix=--safe-events=off ;;
        esac
        grep -q "internal error: causality violated on rank [0-9]*: an event for LP [0-9]* (torture-[a-z]*) at time [0-9.e+-]* runs after one at time [0-9.e+-]* ran final ($why).*run with $fix meanwhile" "$TT_OUT" ||
            fail "$what: no causality-violation line: $(grep -v '^ ' "$TT_OUT" | tail -n 1)"
    done
    # shellcheck disable=SC2086
    ref=$(sig 0 "$TORTURE" --synch=seq $args --lookahead=1 --lying-groups)
    for mode in cons opt; do
        # shellcheck disable=SC2086
        got=$(sig "$np" "$TORTURE" --synch=$mode $args --lookahead=1 --lying-groups)
        same "$mode on $np ranks, the lookahead kept: no false alarm" "$ref" "$got"
    done
done
finish "causality check"
