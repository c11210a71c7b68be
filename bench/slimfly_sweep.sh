#!/bin/sh
# bench/slimfly_sweep.sh — throughput-vs-load and latency-vs-load curves of a
# Slim Fly for minimal, Valiant and UGAL routing under uniform random and
# worst-case traffic, each drawn by `warpnet sweep` (sweep.csv, PNGs when
# gnuplot is installed) into OUT/<pattern>-<routing>/. Prints one CSV of all
# points (pattern, routing, then sweep.csv's columns) and a line with each
# curve's saturation throughput (largest accepted load).
# Usage: bench/slimfly_sweep.sh [BUILD_DIR]  env: Q=5 P=3 OUT=slimfly-sweep
#        LOADS=0.1:1.0:0.1 END=20us WARMUP=5us ROUTINGS="minimal valiant ugal"
#        EXTRA="" (more warpnet options, e.g. --slimfly.ugal_threshold=256B)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
W="$build/tools/warpnet/warpnet"
PL="$build/bench/slimfly_worst_placement"
for x in "$W" "$PL"; do
    [ -x "$x" ] || { echo "bench/slimfly_sweep.sh: $x not built" >&2; exit 2; }
done
Q=${Q:-5}
P=${P:-3}
OUT=${OUT:-slimfly-sweep}
LOADS=${LOADS:-0.1:1.0:0.1}
ROUTINGS=${ROUTINGS:-"minimal valiant ugal"}
mkdir -p "$OUT" || exit 3
OUT=$(cd "$OUT" && pwd)
"$PL" "$Q" "$P" >"$OUT/worst-placement.txt" || exit 3
half=$(($(wc -l <"$OUT/worst-placement.txt") / 2))
first=1
for pattern in uniform worst; do
    case $pattern in
    uniform) traffic="--workload.pattern=uniform" ;;
    worst) traffic="--workload.pattern=neighbor --workload.distance=$half --network.placement=$OUT/worst-placement.txt" ;;
    esac
    for routing in $ROUTINGS; do
        dir="$OUT/$pattern-$routing"
        rm -rf "$dir"
        mkdir -p "$dir"
        # shellcheck disable=SC2086
        "$W" sweep "$top/examples/configs/slimfly-q5.ini" --vary "workload.load=$LOADS" \
            --out="$dir" --slimfly.q="$Q" --slimfly.p="$P" --slimfly.routing="$routing" \
            --end="${END:-20us}" --workload.warmup="${WARMUP:-5us}" $traffic ${EXTRA:-} \
            >"$dir/sweep.out" 2>&1 || { echo "sweep $pattern $routing failed: see $dir/sweep.out" >&2; continue; }
        if [ $first = 1 ]; then
            echo "pattern,routing,$(head -1 "$dir/sweep.csv")"
            first=0
        fi
        tail -n +2 "$dir/sweep.csv" | sed "s/^/$pattern,$routing,/"
    done
done >"$OUT/all.csv"
cat "$OUT/all.csv"
awk -F, 'NR > 1 { k = $1 "/" $2; if ($5 > best[k]) best[k] = $5 }
         END { line = "saturation (max accepted load):"; for (k in best) line = line " " k " " best[k] ";"; print line }' "$OUT/all.csv"
