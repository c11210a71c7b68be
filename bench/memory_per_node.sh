#!/bin/sh
# bench/memory_per_node.sh — peak memory per node of the shipped run files
# of issue 47's topologies against its bound of 10 KB per node: each run
# file runs sequentially as shipped (its own load, pattern and end; END
# and WARMUP, if given, replace the end and warm-up), and its peak
# RSS (/usr/bin/time's maximum resident set) less the baseline, the same
# binary's peak on a tiny network (a 2-router torus, one node each: the
# program, its libraries and MPI), is divided by the run's nodes. Also
# prints --describe's estimate (memory_state_bytes + memory_events_bytes)
# per node next to it. Peak RSS counts pages touched, so it does not
# depend on the machine's load; it does depend on the allocator (jemalloc
# keeps freed pages a while) and on how far the run got, so it is a
# figure for the run file's own settings, not a bound for every load.
# Where the run's peak is within 1 MiB of the baseline (a few dozen nodes)
# the difference is the allocator's noise, not the nodes': the note says so.
# Writes bench/results/memory-per-node.csv (RES) and prints it.
# Usage: bench/memory_per_node.sh [BUILD_DIR]
#        env: END= WARMUP= (as shipped) FILES="dragonflyplus-1024 ..." RES=bench/results
set -u
[ -n "${1:-}" ] && WARPNET_BUILD=$1
. "$(dirname "$0")/lib.sh" # top, warpnet
RES=${RES:-$top/bench/results}
FILES=${FILES:-dragonflyplus-1024 dragonfly-theta hyperx-8x8x8 graph-leafspine dragonfly-a8-failed fattree-16p3l-failed}
END=${END:-} WARMUP=${WARMUP:-}
BOUND=10240
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$RES" || exit 3

# peak_kib ARGS...: the peak RSS (KiB) of warpnet ARGS, or nothing on failure.
peak_kib() {
    /usr/bin/time -f "%M" -o "$tmp/time" "$warpnet" --quiet "$@" >"$tmp/out" 2>&1 ||
        { echo "bench/memory_per_node.sh: warpnet $* failed:" >&2; tail -3 "$tmp/out" >&2; return 1; }
    tail -1 "$tmp/time"
}
# describe KEY ARGS...: the number after "KEY: " in warpnet --describe ARGS.
describe() {
    k=$1; shift
    "$warpnet" --describe "$@" 2>/dev/null | sed -n "s/^$k: \([0-9]*\).*/\1/p"
}

cat >"$tmp/tiny.ini" <<'INI'
[engine]
end = 1us
[network]
topology = torus
[torus]
dims = 2
[workload]
type = traffic
load = 0.3
INI
base=$(peak_kib "$tmp/tiny.ini") || exit 1

csv="$RES/memory-per-node.csv"
echo "run_file,nodes,end,peak_rss_kib,baseline_kib,bytes_per_node,describe_bytes_per_node,bound_bytes_per_node,within_bound,note" >"$csv"
for f in $FILES; do
    ini="$top/examples/configs/$f.ini"
    [ -f "$ini" ] || { echo "bench/memory_per_node.sh: no $ini" >&2; exit 2; }
    # run from the source tree's top: run files name their data files from there
    nodes=$(cd "$top" && describe nodes "$ini")
    st=$(cd "$top" && describe memory_state_bytes "$ini")
    ev=$(cd "$top" && describe memory_events_bytes "$ini")
    end=${END:-$(sed -n 's/^end *= *\([^ #]*\).*/\1/p' "$ini" | head -1)}
    kib=$(cd "$top" && peak_kib "$ini" ${END:+--end="$END"} ${WARMUP:+--workload.warmup="$WARMUP"}) || exit 1
    awk -v f="$f" -v n="$nodes" -v e="$end" -v k="$kib" -v b="$base" -v s="$st" -v v="$ev" -v B=$BOUND 'BEGIN {
        per = (k - b) * 1024 / n; est = (s + v) / n
        note = k - b < 1024 ? "within 1 MiB of the baseline: allocator noise, not a per-node figure" : ""
        printf "%s.ini,%d,%s,%d,%d,%.0f,%.0f,%d,%s,%s\n", f, n, e, k, b, per, est, B, per <= B ? "yes" : "no", note }' >>"$csv"
done
cat "$csv"
