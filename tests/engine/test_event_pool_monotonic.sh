#!/bin/sh
# Regression test: a pool that is enough for a run must stay enough when it
# grows. Batches once checked pool_low() only between batches, so one batch
# could exhaust a pool whose low-water margin (1/8 of it) was smaller than a
# batch: PHOLD with 16 LPs finished with --events=32 and 35 but stopped "out
# of event memory" with --events=38..47, 56..62, 74..77.
. "$top_srcdir/tests/engine/test_torture_lib.sh"
RUN_LIMIT=30

ref=$(sig 0 "$PHOLD" --synch=seq --total-lps=16 --end=50)
is_sig "$ref" || { fail "the sequential run failed: $ref"; finish "pool monotonic"; }
smallest=
for events in 32 35 38 41 44 47 56 62 74 77; do
    got=$(sig 0 "$PHOLD" --synch=opt --total-lps=16 --end=50 --events=$events)
    if [ "$got" = "$ref" ]; then
        [ -z "$smallest" ] && smallest=$events
    elif [ -n "$smallest" ]; then
        fail "--synch=opt --events=$events: $got, yet --events=$smallest finished with the sequential digest"
    fi
done
[ -n "$smallest" ] || fail "no pool size from 32 to 77 finished"
finish "a larger event pool never breaks a run"
