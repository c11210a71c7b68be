#!/bin/sh
# bench/slimfly_sweep.sh — throughput-vs-load and latency-vs-load curves of a
# Slim Fly, one curve per routing (minimal, Valiant, UGAL), under uniform
# random and worst-case traffic ([workload] pattern = worst): one
# `warpnet sweep --series slimfly.routing=...` per pattern. Writes
# bench/results/slimfly-qQ-PATTERN.csv (sweep.csv) and, when gnuplot is
# installed, slimfly-qQ-PATTERN-throughput.png and -latency.png; the runs
# stay in OUT/PATTERN/. Prints each curve's saturation throughput (largest
# accepted load) as a share of injection and of the bisection reference.
# Usage: bench/slimfly_sweep.sh [BUILD_DIR]  env: Q=5 (13 for the issue's
#        3,042-node network) P= (default floor(k'/2)) OUT=slimfly-sweep
#        LOADS=0.1:1.0:0.1 END=20us WARMUP=5us ROUTINGS=minimal,valiant,ugal
#        PATTERNS="uniform worst" EXTRA="" (more warpnet options) RES=bench/results
# Progress: one line per point on stderr.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
W="$build/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "bench/slimfly_sweep.sh: $W not built" >&2; exit 2; }
Q=${Q:-5}
OUT=${OUT:-slimfly-sweep}
RES=${RES:-$top/bench/results}
WARPNET=$W
. "$top/bench/lib.sh"
mkdir -p "$OUT" "$RES" || exit 3
# p = floor(k'/2), k' = (3q - d)/2 with q = 4w + d: the base run file's p
# is for q = 5.
case $((Q % 4)) in 1) d=1 ;; 0) d=0 ;; *) d=-1 ;; esac
P=${P:-$(((3 * Q - d) / 4))}
for pattern in ${PATTERNS:-uniform worst}; do
    name=slimfly-q$Q-$pattern
    echo "${0##*/}: $pattern traffic: a sweep of several minutes (log: $OUT/$pattern.log)" >&2
    # shellcheck disable=SC2086
    logged "$OUT/$pattern.log" "$W" sweep "$top/examples/configs/slimfly-q5.ini" --vary "workload.load=${LOADS:-0.1:1.0:0.1}" \
        --series "slimfly.routing=${ROUTINGS:-minimal,valiant,ugal}" \
        --title="Slim Fly q = $Q, $pattern traffic" --out="$OUT/$pattern" \
        --slimfly.q="$Q" --slimfly.p="$P" --workload.pattern="$pattern" --end="${END:-20us}" \
        --workload.warmup="${WARMUP:-5us}" --network.reference_bandwidth=bisection ${EXTRA:-} \
        || { echo "sweep $pattern failed: see $OUT/$pattern.log" >&2; exit 1; }
    cp "$OUT/$pattern/sweep.csv" "$RES/$name.csv"
    for png in throughput latency; do
        [ -s "$OUT/$pattern/$png.png" ] && cp "$OUT/$pattern/$png.png" "$RES/$name-$png.png"
    done
    ref=$(sed -n 's/.*"of_injection": \([0-9.eE+-]*\).*/\1/p' "$OUT/$pattern/point-000/summary.json")
    awk -F, -v pat="$pattern" -v ref="$ref" 'NR > 1 { if ($4 > best[$1]) best[$1] = $4; if (!($1 in seen)) { seen[$1] = 1; order[n++] = $1 } }
        END { printf "%s saturation:", pat
              for (i = 0; i < n; i++) printf " %s %.3f (%.0f %% of bisection %.3f);", order[i], best[order[i]], 100 * best[order[i]] / ref, ref
              print "" }' "$RES/$name.csv"
done
