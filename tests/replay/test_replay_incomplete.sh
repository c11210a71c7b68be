#!/bin/sh
# test_replay_incomplete.sh — a replay whose tasks did not all run is not a
# result: a trace whose ranks deadlock exits 2 with one line naming the
# blocked ranks and what they wait on (with or without an end time, on 1
# and 2 processes) and writes no summary.json; warpnet-trace info exits 2 on
# it too. A run file without an end time runs until every task completed
# (the engine's 100 ns default once cut a 5 us replay short); an end time
# the user chose may cut it off: exit 0, and instead of a completion time
# (it used to print the last task's end, a number a script took for one)
# "none" and a WARNING that the figures cover the run up to the end time.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
T="${top_builddir:-.}/tools/trace/warpnet-trace"
[ -x "$W" ] && [ -x "$T" ] || { echo "SKIP: warpnet or warpnet-trace not built"; exit 77; }
tmp=$(mktemp -d /tmp/warpnet-replay-incomplete.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }

# Ranks 0 and 1 each receive before they send; rank 3 waits for a message
# rank 2 never sends.
cat > "$tmp/dl.goal" <<'GOAL'
num_ranks 4
rank 0 {
  a: recv 64b from 1 tag 1
  b: send 64b to 1 tag 2
  b requires a
}
rank 1 {
  a: recv 64b from 0 tag 2
  b: send 64b to 0 tag 1
  b requires a
}
rank 2 {
  a: calc 10
}
rank 3 {
  a: recv 8b from 2 tag 7
}
GOAL
# Compute of 5 us, then a message: far beyond the engine's default end.
cat > "$tmp/long.goal" <<'GOAL'
num_ranks 2
rank 0 {
  a: calc 5000
  b: send 64b to 1 tag 1
  b requires a
}
rank 1 {
  a: recv 64b from 0 tag 1
}
GOAL
run_file() { printf '[network]\ntopology = %s\n[workload]\ntype = replay\n[job.0]\ntrace = %s\n' "$1" "$2"; }
run_file loggp "$tmp/dl.goal" > "$tmp/dl.ini"
run_file simplenet "$tmp/dl.goal" > "$tmp/dl-simple.ini"
run_file loggp "$tmp/long.goal" > "$tmp/long.ini"

want="warpnet: replay deadlock: 5 of 6 tasks never ran, 3 ranks blocked: job 0 rank 0 task 0 waits for a message from rank 1 with tag 1; job 0 rank 1 task 0 waits for a message from rank 0 with tag 2; job 0 rank 3 task 0 waits for a message from rank 2 with tag 7 (the trace is inconsistent, or its sends block: rendezvous above the eager limit)"
for args in "$tmp/dl.ini" "$tmp/dl.ini --end=1ms" "$tmp/dl-simple.ini"; do
    for np in 1 2; do
        rm -rf "$tmp/out"
        # shellcheck disable=SC2086
        timeout 60 ${MPIEXEC:-mpiexec} -n $np "$W" --quiet $args --out="$tmp/out" > "$tmp/log" 2> "$tmp/err"
        rc=$?
        [ $rc = 2 ] || die "deadlock ($args, $np processes): exit $rc, want 2"
        [ "$(grep -c '^warpnet:' "$tmp/err")" = 1 ] && grep -qxF "$want" "$tmp/err" ||
            die "deadlock ($args, $np processes): $(cat "$tmp/err")"
        [ ! -e "$tmp/out/summary.json" ] || die "deadlock ($args): summary.json written"
    done
done

timeout 30 "$T" info "$tmp/dl.goal" > "$tmp/info" 2> "$tmp/err"
rc=$?
[ $rc = 2 ] || die "warpnet-trace info on a deadlocking trace: exit $rc, want 2"
grep -q 'tasks never run and 0 messages are never received.*the trace is inconsistent' "$tmp/err" ||
    die "warpnet-trace info: $(cat "$tmp/err")"
grep -qx 'tasks_never_run: 5' "$tmp/info" || die "warpnet-trace info: counts not printed first"

# No end time: the replay runs until its last task (5000 ns of compute, then
# the message) and every task runs.
timeout 60 "$W" --quiet "$tmp/long.ini" > "$tmp/log" 2>&1 || die "no end: exit $?: $(tail -3 "$tmp/log")"
grep -q '^  tasks *3 of 3$' "$tmp/log" || die "no end: $(grep 'tasks ' "$tmp/log")"
# An end time the user chose cuts it: no completion time, a warning, exit 0.
timeout 60 "$W" --quiet "$tmp/long.ini" --end=1us > "$tmp/log" 2>&1 || die "--end=1us: exit $?"
grep -q 'WARNING: 3 tasks never ran: the figures above cover the replay up to the end time only' "$tmp/log" \
    && ! grep -q nan "$tmp/log" || die "--end=1us: no warning: $(tail -3 "$tmp/log")"
grep -qx '  completion_ns  none: cut off at the end time 1000 ns before 3 of its tasks ran' "$tmp/log" \
    && ! grep -q 'completion_ns  [0-9]' "$tmp/log" || die "--end=1us: $(grep completion_ns "$tmp/log")"
# Time series need an end time: a replay without one is refused at once.
timeout 60 "$W" --quiet "$tmp/long.ini" --sample=1us --out="$tmp/s" > "$tmp/log" 2>&1
rc=$?
[ $rc = 2 ] && grep -qx 'warpnet: --sample: a replay without an end time runs until its last task, so time series have no span; give --end (e.g. the completion_ns of a run without --sample)' "$tmp/log" ||
    die "--sample without end: exit $rc: $(cat "$tmp/log")"
exit $fail
