#!/usr/bin/env bash
# bench/pair.sh — compares two single-process commands by running them at
# the same time, each pinned to a core of its own, and swapping the cores
# every round. Both see the same drift of the VM's speed (and share its
# memory bandwidth and last-level cache alike), so the ratio of their times
# in one round holds still where back-to-back runs (bench/interleave.sh)
# drift by 10-30 %. Prints each round (times, ratio B/A, digests) and then
# the geometric mean, min and max of the ratios. Time = the engine's setup +
# run from the statistics table.
#   bench/pair.sh ROUNDS CMDFILE
# CMDFILE: two `label|command` lines, A then B, each one process (--synch=seq,
# or phold without mpiexec), e.g.
#   old|LD_LIBRARY_PATH=/tmp/old/libs /tmp/old/warpnet --synch=seq slimfly-q163.ini --engine.end=1500ns
#   new|_build/tools/warpnet/warpnet --synch=seq slimfly-q163.ini --engine.end=1500ns
# PAIR_CPUS (default "0 1"): the two cores. Run nothing else meanwhile; the
# pair needs two cores and the memory of both runs.
set -euo pipefail
[ $# -eq 2 ] && [ -r "$2" ] || { echo "usage: bench/pair.sh ROUNDS CMDFILE (two lines label|command)" >&2; exit 2; }
rounds=$1 cmds=$2
. "$(dirname "$0")/engine_stats.sh"
command -v taskset >/dev/null || { echo "bench/pair.sh: needs taskset (apt-get install util-linux)" >&2; exit 2; }
read -r cpu0 cpu1 <<<"${PAIR_CPUS:-0 1}"
mapfile -t lines < <(grep -v '^[[:space:]]*$' "$cmds")
[ "${#lines[@]}" -eq 2 ] || { echo "bench/pair.sh: $cmds needs exactly two label|command lines" >&2; exit 2; }
la=${lines[0]%%|*} ca=${lines[0]#*|} lb=${lines[1]%%|*} cb=${lines[1]#*|}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# seconds FILE CMD: setup + run wall time, or stops naming CMD
seconds() {
    local t
    t=$(engine_seconds "$1")
    [ -n "$t" ] || { echo "bench/pair.sh: no statistics table in the output of $2" >&2; exit 1; }
    echo "$t"
}
ratios=""
for round in $(seq 1 "$rounds"); do
    if [ $((round % 2)) -eq 1 ]; then pa=$cpu0 pb=$cpu1; else pa=$cpu1 pb=$cpu0; fi
    taskset -c "$pa" bash -c "$ca" >"$tmp/a" 2>&1 </dev/null & ja=$!
    taskset -c "$pb" bash -c "$cb" >"$tmp/b" 2>&1 </dev/null & jb=$!
    sa=0 sb=0
    wait "$ja" || sa=$?
    wait "$jb" || sb=$?
    [ "$sa" -eq 0 ] || { echo "$la: exit $sa: $ca" >&2; tail -3 "$tmp/a" >&2; exit 1; }
    [ "$sb" -eq 0 ] || { echo "$lb: exit $sb: $cb" >&2; tail -3 "$tmp/b" >&2; exit 1; }
    ta=$(seconds "$tmp/a" "$ca")
    tb=$(seconds "$tmp/b" "$cb")
    r=$(awk -v a="$ta" -v b="$tb" 'BEGIN { printf "%.4f", b / a }')
    ratios="$ratios $r"
    echo "round $round: $la $ta (cpu $pa) $lb $tb (cpu $pb) ratio $r digests $(engine_digest "$tmp/a") $(engine_digest "$tmp/b")"
done
echo "== $lb / $la over $rounds rounds: $(echo "$ratios" | tr ' ' '\n' | grep . |
    awk '{ s += log($1); if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1 }
         END { printf "geometric mean %.4f, min %.4f, max %.4f", exp(s / NR), lo, hi }')"
