#!/bin/sh
# bench/fattree.sh — fat-tree benchmark of issue 6: committed events/s,
# efficiency, wall time and peak RSS for uniform random traffic on the 8-port
# 3-tree (128 nodes) and the 32-port 3-tree (8,192 nodes) at 10 % and 50 %
# load, sequential and optimistic on 2 ranks; the CODES reference case
# (8-port 3-tree, adaptive, 50 % load, 700 us); construction time and memory
# of the 128-port 3-tree (524,288 nodes) by --describe and by a short run.
# Prints CSV with the exact command per row, then the median per case.
# Usage: bench/fattree.sh [BUILD_DIR] [REPEATS] [CASES]
#   (defaults: _build, 3, all; CASES is a grep -E pattern on the case names,
#   e.g. 'codes' or '8p3l|describe')
B=${1:-_build}; N=${2:-3}; PICK=${3:-.}; C=$(dirname "$0")/../examples/configs
W="$B/tools/warpnet/warpnet"; MPIEXEC=${MPIEXEC:-mpiexec}
[ -x "$W" ] || { echo "bench/fattree.sh: $W not built (give the build directory)" >&2; exit 2; }
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
row() { # case rep command... : one timed run
    c=$1 i=$2; shift 2
    rm -f "$T/st.json"
    s=$(date +%s.%N)
    /usr/bin/time -f %M -o "$T/rss" "$@" > "$T/out" 2>&1 || { echo "$c,$i,FAILED,,,,,,,$*"; return; }
    e=$(date +%s.%N)
    j=""; [ -f "$T/st.json" ] && j=$(tr -d '\n ' < "$T/st.json")
    get() { echo "$j" | sed -n "s/.*\"$1\":\([-0-9.eE+]*\).*/\1/p"; }
    echo "$c,$i,$(get committed),$(get event_rate),$(get efficiency),$(get setup_s),$(get run_s),$(awk -v s="$s" -v e="$e" 'BEGIN { printf "%.3f", e - s }'),$(sort -n "$T/rss" | tail -1),$*"
}
one() { # case command... : N repetitions of a simulation
    echo "$1" | grep -Eq -- "$PICK" || return 0
    c=$1; shift
    for i in $(seq 1 "$N"); do row "$c" "$i" "$@" --quiet --stats-json="$T/st.json" --out="$T/o"; done
}
cases() {
for size in 8p3l 32p3l; do
    for load in 0.1 0.5; do
        one "$size-load$load-seq" "$W" "$C/fattree-$size.ini" --workload.load=$load --synch=seq
        one "$size-load$load-opt2" $MPIEXEC -n 2 "$W" "$C/fattree-$size.ini" --workload.load=$load --synch=opt
    done
done
one "8p3l-codes-seq" "$W" "$C/fattree-8p3l-codes.ini" --synch=seq
one "8p3l-codes-opt2" $MPIEXEC -n 2 "$W" "$C/fattree-8p3l-codes.ini" --synch=opt
if echo "128p3l-describe" | grep -Eq -- "$PICK"; then
    for i in $(seq 1 "$N"); do row "128p3l-describe" "$i" "$W" --describe "$C/fattree-128p3l.ini"; done
fi
one "128p3l-short-seq" "$W" "$C/fattree-128p3l.ini" --synch=seq
}
echo "case,rep,committed,event_rate,efficiency,setup_s,run_s,wall_s,peak_rss_kb,command"
cases | tee "$T/csv"
# Median per case of wall time, event rate and peak RSS (lower median for even N).
echo "median: case wall_s event_rate peak_rss_kb"
for c in $(cut -d, -f1 "$T/csv" | uniq); do
    med() { grep "^$c," "$T/csv" | grep -v FAILED | cut -d, -f"$1" | sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
    echo "median: $c $(med 8) $(med 4) $(med 9)"
done
