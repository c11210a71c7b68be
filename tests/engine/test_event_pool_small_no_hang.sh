#!/bin/sh
# Regression test: on 2 ranks a small event pool made the optimistic
# scheduler hang instead of finishing or stopping with "raise --events": with
# pool_low() true no rank ran events, GVT stayed below the processed events
# holding the memory, and fossil collection freed nothing. Now the ranks run
# the events at GVT from the reserve. Both --gvt=mattern and --gvt=sync.
# Expected: the sequential digest, or exit 3 naming --events.
. "$top_srcdir/tests/engine/test_torture_lib.sh"
RUN_LIMIT=15

ref=$(sig 0 "$PHOLD" --synch=seq --total-lps=16 --end=50)
is_sig "$ref" || { fail "the sequential run failed: $ref"; finish "no hang"; }
for gvt in mattern sync; do
    # One run, judged as it ended: whether 64 slots suffice depends on how
    # far the ranks run ahead, so finishing and exit 3 are both correct.
    got=$(sig 2 "$PHOLD" --synch=opt --total-lps=16 --end=50 --events=64 --gvt=$gvt)
    case $got in
    "exit 124"*)
        fail "2 ranks --events=64 --gvt=$gvt: no end after ${RUN_LIMIT}s (the run takes 0.2s with a big pool)" ;;
    "exit 3"*)
        grep -q -- 'raise --events' "$TT_OUT" ||
            fail "2 ranks --events=64 --gvt=$gvt: exit 3 without naming --events" ;;
    *)
        same "2 ranks --events=64 --gvt=$gvt" "$ref" "$got" ;;
    esac
done
finish "small pools end, never hang"
