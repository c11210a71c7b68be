#!/usr/bin/env bash
# bench/interleave.sh — compares commands on a VM whose speed drifts from
# minute to minute: runs each line of CMDFILE once per round, the lines in
# turn, ROUNDS rounds, so that every command sees the same drift; prints
# each run (label, time, digest, share of events run final) and then the
# min and median per label. Time = the engine's setup + run from the
# statistics table, without mpiexec's start-up.
#   bench/interleave.sh ROUNDS CMDFILE
# CMDFILE: one `label|command` per line, e.g.
#   seq|_build/tools/warpnet/warpnet examples/configs/torus-32k-codes.ini --synch=seq
#   opt|mpiexec -n 2 _build/tools/warpnet/warpnet examples/configs/torus-32k-codes.ini
# Compare ratios taken in one call, on an otherwise idle machine.
set -euo pipefail
[ $# -eq 2 ] && [ -r "$2" ] || { echo "usage: bench/interleave.sh ROUNDS CMDFILE (lines label|command)" >&2; exit 2; }
rounds=$1 cmds=$2
. "$(dirname "$0")/engine_stats.sh"
runs=$(mktemp) out=$(mktemp)
trap 'rm -f "$runs" "$out"' EXIT
for _ in $(seq 1 "$rounds"); do
    while IFS='|' read -r label cmd; do
        [ -z "$label" ] && continue
        bash -c "$cmd" >"$out" 2>&1 </dev/null || { echo "$label: exit $?: $cmd" >&2; tail -3 "$out" >&2; exit 1; }
        t=$(engine_seconds "$out")
        [ -n "$t" ] || { echo "$label: no statistics table: $cmd" >&2; exit 1; }
        d=$(engine_digest "$out")
        fin=$(grep -o 'final (no saving) *[0-9,]* ([0-9.]*%)' "$out" | grep -o '[0-9.]*%' || true)
        echo "$label $t ${d:--} ${fin:--}" | tee -a "$runs"
    done <"$cmds"
done
echo "== min / median per label (s)"
awk '{ a[$1] = a[$1] " " $2 } END { for (l in a) print l, a[l] }' "$runs" | sort | while read -r l rest; do
    echo "$l $(echo "$rest" | tr ' ' '\n' | sort -n |
        awk '{ v[NR] = $1 } END { printf "min %.3f med %.3f n %d", v[1], v[int((NR + 1) / 2)], NR }')"
done
