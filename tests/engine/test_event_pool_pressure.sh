#!/bin/sh
# Event pool pressure: a --events just above what the model needs forces
# extra GVT rounds (fossil collection) and still commits the sequential digest;
# a pool too small to make progress stops with exit code 3 and a message that
# names --events, on 1 and 2 ranks, and never hangs (every run has a limit).
. "$top_srcdir/tests/engine/test_torture_lib.sh"
RUN_LIMIT=30

# PHOLD, 16 LPs, one event each, delays exactly 1.0: 16 pending events plus
# at most 16 processed ones at the current time (they tie with GVT and cannot
# commit yet), so 40 slots suffice with --batch=1. Torture: 90 slots (its
# sequential peak is about 85).
for case in "phold 40 --total-lps=16 --end=50" "torture 100 --lps=24 --end=15"; do
    set -- $case
    model=$1 events=$2
    shift 2
    if [ "$model" = phold ]; then prog=$PHOLD; else prog=$TORTURE; fi
    ref=$(sig 0 "$prog" --synch=seq "$@")
    is_sig "$ref" || { fail "$model: the sequential run failed: $ref"; continue; }
    got=$(sig 0 "$prog" --synch=opt --gvt-interval=256 "$@")
    same "$model --synch=opt with the default pool" "$ref" "$got"
    rounds_big=$(stat "GVT rounds")
    got=$(sig 0 "$prog" --synch=opt --gvt-interval=256 --batch=1 --events="$events" "$@")
    same "$model --synch=opt --batch=1 --events=$events" "$ref" "$got"
    rounds_small=$(stat "GVT rounds")
    if [ "${rounds_small:-0}" -le "${rounds_big:-0}" ] 2>/dev/null; then
        fail "$model: --events=$events ran ${rounds_small:-?} GVT rounds, no more than the default pool's ${rounds_big:-?}: low memory forced no round"
    fi
    # Debug mode cancels many events; the heap frees cancelled events only
    # when they surface (lazy deletion), so it gets twice the slots.
    got=$(sig 0 "$prog" --synch=debug --batch=1 --queue=splay --events="$events" "$@")
    same "$model --synch=debug --batch=1 --queue=splay --events=$events" "$ref" "$got"
    got=$(sig 0 "$prog" --synch=debug --batch=1 --queue=heap --events=$((2 * events)) "$@")
    same "$model --synch=debug --batch=1 --queue=heap --events=$((2 * events))" "$ref" "$got"
done

# Two ranks with a pool of 512 events (the default is 1M): still the
# sequential digest. (128 is not enough on 2 ranks: events received from the
# faster rank exhaust it, see test_event_pool_bug_mpi_hang.sh.)
ref=$(sig 0 "$PHOLD" --synch=seq --total-lps=16 --end=50)
for gvt in mattern sync; do
    got=$(sig 2 "$PHOLD" --synch=opt --total-lps=16 --end=50 --events=512 --gvt=$gvt)
    same "PHOLD on 2 ranks --events=512 --gvt=$gvt" "$ref" "$got"
done

# Too small to progress: exit 3, one line naming --events, no hang.
too_small() {
    np=$1
    shift
    run_failing "$np" "$@"
    if [ "$TT_RC" = 124 ]; then
        fail "$np rank(s): $*: no end after ${RUN_LIMIT}s (hang) instead of an out-of-memory error"
    elif [ "$TT_RC" != 3 ]; then
        fail "$np rank(s): $*: exit $TT_RC, expected 3 (out of event memory)"
    elif ! grep -q -- 'raise --events' "$TT_OUT"; then
        fail "$np rank(s): $*: the error does not name --events: $(tail -n 1 "$TT_OUT")"
    fi
}
too_small 0 "$PHOLD" --synch=opt --total-lps=16 --end=50 --events=16
too_small 0 "$PHOLD" --synch=seq --total-lps=64 --end=50 --events=32
too_small 0 "$TORTURE" --synch=debug --lps=24 --end=15 --events=40
# 8 LPs a rank fit in 16 slots when ranks wait at the safe bound (every
# event commits as it runs, as in seq); running ahead of it, they do not.
too_small 2 "$PHOLD" --synch=opt --total-lps=16 --end=50 --events=16 --safe-events=ahead
too_small 2 "$PHOLD" --synch=opt --total-lps=16 --end=50 --events=16 --safe-events=ahead --gvt=sync
too_small 2 "$PHOLD" --synch=opt --total-lps=16 --end=50 --events=16 --safe-events=off
too_small 2 "$PHOLD" --synch=opt --total-lps=64 --end=50 --events=16
finish "event pool pressure"
