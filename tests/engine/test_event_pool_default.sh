#!/bin/sh
# The event pool's default comes from the rank's memory (engine/pool.c): a
# run with more events live at once than the old fixed default
# (max(1 Mi, 4 x LPs + 64 Ki) per rank) runs with no --events and commits
# the sequential digest on 2 ranks; the same run capped at the old default
# with an explicit --events stops with exit 3 and the line that names
# --events. Torture, 32 LPs starting 66,000 jobs each at 1000 + U[0, 1):
# 2,112,000 events pending at once, 1,056,000 per rank on 2 ranks, above the
# old 1,048,576. With the lookahead at 1000 and the end at 1001 every job's
# successors fall after the end: 2,112,000 committed, no rollback chains.
. "$top_srcdir/tests/engine/test_torture_lib.sh"
RUN_LIMIT=240

args="--lps=32 --start-events=66000 --lookahead=1000 --end=1001"
ref=$(sig 0 "$TORTURE" --synch=seq $args)
is_sig "$ref" || fail "sequential with the default pool: $ref"
got=$(sig 2 "$TORTURE" --synch=opt $args)
same "2 ranks --synch=opt with the default pool" "$ref" "$got"
case $ref in
*"committed 2112000 "*) ;;
*) fail "sequential: expected 2112000 committed events (every start job): $ref" ;;
esac

run_failing 2 "$TORTURE" --synch=opt $args --events=1048576
if [ "$TT_RC" != 3 ]; then
    fail "2 ranks --events=1048576 (the old default): exit $TT_RC, expected 3 (out of event memory)"
elif ! grep -q -- 'of --events are in use; raise --events' "$TT_OUT"; then
    fail "2 ranks --events=1048576: the error does not say --events ran out: $(tail -n 1 "$TT_OUT")"
fi
finish "the default event pool holds what the old default could not"
