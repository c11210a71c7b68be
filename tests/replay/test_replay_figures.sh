#!/bin/sh
# test_replay_figures.sh — a replay's figures are its own, not its end
# bound's (issue 53, items 5 and 6): run files give replays `end = 1s` as a
# bound, and the summary once took offered and accepted load and the
# busiest link's utilisation over that second (0.0000 for a 15.7 us
# replay); --progress showed a share of that second and an ETA of hours.
# Now the loads are taken over the replay's completion, the progress line
# shows no ETA, and [replay] ranks_csv appears only after a whole run (a
# run stopped early, here by --checkpoint-exit, left a header-only file).
. "${top_srcdir:-.}/tests/net/lib.sh"
cd "${top_srcdir:-.}" || exit 1   # the trace path is relative to the checkout
RUN=examples/configs/replay-jacobi-torus.ini
line() { sed -n "s/^$2  *\([0-9.]*\).*/\1/p" "$1" | head -1; }

"$WARPNET" --progress "$RUN" --replay.ranks_csv="$TMP/ranks.csv" > "$TMP/out" 2> "$TMP/err" \
    || { echo "FAIL: the replay exits $?"; cat "$TMP/err"; exit 1; }
done_ns=$(sed -n 's/^  completion_ns  *//p' "$TMP/out")
bytes=$(sed -n 's/^  messages .*(\([0-9]*\) bytes)$/\1/p' "$TMP/out")
# offered load = bytes / (nodes * completion * 12.5 GB/s); 32 nodes, no warm-up
want=$(awk -v b="$bytes" -v t="$done_ns" 'BEGIN { printf "%.4f", b / (32 * t * 12.5) }')
close "offered load over the completion ($done_ns ns)" "$(line "$TMP/out" "offered load")" "$want" 2e-3
close "accepted load equals it" "$(line "$TMP/out" "accepted load")" "$want" 2e-3
busiest=$(line "$TMP/out" "busiest link")
awk -v u="$busiest" -v o="$want" 'BEGIN { exit !(u >= o && u <= 1) }' \
    && echo "ok   busiest link $busiest, at least the mean load" || { echo "FAIL busiest link $busiest"; fail=1; }
tr '\r' '\n' < "$TMP/err" | grep '^\[warp\] ' > "$TMP/progress"
if [ -s "$TMP/progress" ] && ! grep -q "ETA\|%)" "$TMP/progress" && grep -q "done" "$TMP/progress"; then
    echo "ok   progress without a share of the end bound or an ETA: $(tail -1 "$TMP/progress")"
else
    echo "FAIL progress line: $(tail -2 "$TMP/progress")"; fail=1
fi
[ "$(wc -l < "$TMP/ranks.csv")" = 33 ] && [ "$(head -1 "$TMP/ranks.csv")" = "job,rank,finish_ns" ] \
    && grep -q "^0,31,$done_ns\$\|^0,[0-9]*,$done_ns\$" "$TMP/ranks.csv" \
    && echo "ok   ranks_csv: 32 ranks, the latest at the completion" || { echo "FAIL ranks_csv:"; head -3 "$TMP/ranks.csv"; fail=1; }

# A run that stops before the end writes no ranks_csv, and leaves a
# previous one as it was.
cp "$TMP/ranks.csv" "$TMP/keep.csv"
"$WARPNET" --quiet "$RUN" --replay.ranks_csv="$TMP/ranks.csv" --checkpoint="$TMP/ck" --checkpoint-at=5us \
    --checkpoint-exit > "$TMP/log" 2>&1
rc=$?
[ $rc = 6 ] && cmp -s "$TMP/ranks.csv" "$TMP/keep.csv" && echo "ok   stopped at a checkpoint: ranks_csv untouched" \
    || { echo "FAIL stopped at a checkpoint: exit $rc, ranks_csv: $(head -2 "$TMP/ranks.csv")"; fail=1; }
rm -f "$TMP/new.csv"
"$WARPNET" --quiet "$RUN" --replay.ranks_csv="$TMP/new.csv" --checkpoint="$TMP/ck2" --checkpoint-at=5us \
    --checkpoint-exit > "$TMP/log" 2>&1
[ ! -e "$TMP/new.csv" ] && echo "ok   stopped at a checkpoint: no header-only ranks_csv" \
    || { echo "FAIL stopped at a checkpoint: ranks_csv left with $(wc -l < "$TMP/new.csv") line(s)"; fail=1; }
exit $fail
