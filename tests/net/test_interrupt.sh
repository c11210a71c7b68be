#!/bin/sh
# Errors and interrupts as a user meets them (issue 13, item 5): a run-file
# error under MPI prints once (rank 0), whole; an interrupted sequential run
# says how far it got, not that it reached its end time; SIGINT/SIGTERM
# during setup stop the run with exit 5 instead of being ignored.
. "${srcdir:-.}/tests/net/lib.sh"
MPI=${MPIEXEC:-mpiexec}
C="${srcdir:-.}/examples/configs"

# A run-file error found by every rank: one "warpnet:" line, exit 2 (MPICH
# may add its own "Abort(2) on node ..." line).
sed 's/^link_latency = .*/link_latency = 50/' "$C/torus-8x8x8.ini" > "$TMP/nounit.ini"
timeout 60 $MPI -n 2 "$WARPNET" "$TMP/nounit.ini" > "$TMP/log" 2>&1
rc=$?
n=$(grep -c 'warpnet:' "$TMP/log")
if [ $rc -eq 2 ] && [ "$n" -eq 1 ] && grep -q '^warpnet: .*nounit.ini:[0-9]*: \[network\] link_latency = 50: missing unit' "$TMP/log"; then
    echo "ok   run-file error on 2 ranks: $(grep 'warpnet:' "$TMP/log")"
else
    echo "FAIL run-file error on 2 ranks: exit $rc, $n warpnet lines:"; cat "$TMP/log"; fail=1
fi

# Interrupted sequential run: the line names a GVT below the end time.
timeout --preserve-status -s INT 4 "$WARPNET" "$C/torus-8x8x8.ini" --synch=seq --end=1s --quiet > "$TMP/log" 2>&1
rc=$?
line=$(grep 'interrupted by a signal' "$TMP/log")
gvt=$(printf '%s\n' "$line" | sed -n 's/.*at GVT \([0-9.e+]*\) of \([0-9.e+]*\).*/\1/p')
end=$(printf '%s\n' "$line" | sed -n 's/.*at GVT \([0-9.e+]*\) of \([0-9.e+]*\).*/\2/p')
if [ $rc -eq 5 ] && [ -n "$gvt" ] && awk -v g="$gvt" -v e="$end" 'BEGIN { exit !(g < e) }'; then
    echo "ok   seq interrupted: $line"
else
    echo "FAIL seq interrupted: exit $rc (want 5, GVT below the end):"; cat "$TMP/log"; fail=1
fi

# SIGTERM early, while the network is set up or just after: exit 5, one
# line saying so, within the limit (before: ignored until setup ended).
# An interrupted run exits without freeing its network on purpose (messages
# may be in flight): a sanitizer build must not scan its heap for leaks then.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
timeout --preserve-status -s TERM 5 "$WARPNET" "$C/torus-8x8x8.ini" --torus.dims=64,64,32 --end=1s --quiet \
    > "$TMP/log" 2>&1
rc=$?
if [ $rc -eq 5 ] && grep -q '^warpnet: interrupted by a signal' "$TMP/log"; then
    echo "ok   SIGTERM early: $(grep '^warpnet: interrupted' "$TMP/log")"
else
    echo "FAIL SIGTERM early: exit $rc (want 5):"; cat "$TMP/log"; fail=1
fi
# One request delivered twice in a burst (a batch system, or `timeout`
# signalling the process and then its process group) is one orderly stop, not
# the "second signal kills" of a user who insists.
ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
"$WARPNET" "$C/torus-8x8x8.ini" --torus.dims=32,32,32 --end=1s --quiet > "$TMP/log" 2>&1 &
pid=$!
sleep 3
kill -TERM $pid; sleep 0.3; kill -TERM $pid 2>/dev/null
wait $pid
rc=$?
if [ $rc -eq 5 ] && grep -q '^warpnet: interrupted by a signal' "$TMP/log"; then
    echo "ok   SIGTERM twice in a burst: one orderly stop"
else
    echo "FAIL SIGTERM twice in a burst: exit $rc (want 5):"; cat "$TMP/log"; fail=1
fi
exit $fail
