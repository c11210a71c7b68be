#!/bin/sh
# bench/dragonfly_sweep.sh — throughput-vs-load and latency-vs-load curves of
# a balanced dragonfly, one curve per routing (minimal, Valiant, UGAL-L,
# UGAL-G, PAR), under uniform random traffic and the worst-case group shift
# ([workload] pattern = worst): one `warpnet sweep --series
# dragonfly.routing=...` per pattern. Writes bench/results/dragonfly-aA-
# PATTERN.csv (sweep.csv) and, when gnuplot is installed, -throughput.png and
# -latency.png; the runs stay in OUT/PATTERN/. Prints each curve's
# saturation throughput (largest accepted load) next to the bounds of
# models/dragonfly/README.md.
# Usage: bench/dragonfly_sweep.sh [BUILD_DIR]  env: A=8 (a = 2p = 2h, g = a·h + 1:
#        8 gives 1,056 nodes) OUT=dragonfly-sweep LOADS=0.1:1.0:0.1 END=15us
#        WARMUP=5us ROUTINGS=minimal,valiant,ugal-l,ugal-g,par
#        PATTERNS="uniform worst" EXTRA="" (more warpnet options) RES=bench/results
# Progress: one line per point on stderr.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
W="$build/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "bench/dragonfly_sweep.sh: $W not built" >&2; exit 2; }
A=${A:-8}
P=$((A / 2))
OUT=${OUT:-dragonfly-sweep}
RES=${RES:-$top/bench/results}
WARPNET=$W
. "$top/bench/lib.sh"
mkdir -p "$OUT" "$RES" || exit 3
nodes=$((A * P * (A * P + 1)))
for pattern in ${PATTERNS:-uniform worst}; do
    name=dragonfly-a$A-$pattern
    echo "${0##*/}: $pattern traffic: a sweep of several minutes (log: $OUT/$pattern.log)" >&2
    # shellcheck disable=SC2086
    logged "$OUT/$pattern.log" "$W" sweep "$top/examples/configs/dragonfly-a4.ini" --vary "workload.load=${LOADS:-0.1:1.0:0.1}" \
        --series "dragonfly.routing=${ROUTINGS:-minimal,valiant,ugal-l,ugal-g,par}" \
        --title="dragonfly a = $A, p = h = $P ($nodes nodes), $pattern traffic" --out="$OUT/$pattern" \
        --dragonfly.a="$A" --dragonfly.p="$P" --dragonfly.h="$P" --workload.pattern="$pattern" \
        --end="${END:-15us}" --workload.warmup="${WARMUP:-5us}" ${EXTRA:-} \
        || { echo "sweep $pattern failed: see $OUT/$pattern.log" >&2; exit 1; }
    cp "$OUT/$pattern/sweep.csv" "$RES/$name.csv"
    for png in throughput latency; do
        [ -s "$OUT/$pattern/$png.png" ] && cp "$OUT/$pattern/$png.png" "$RES/$name-$png.png"
    done
    # Bounds (README): shift: minimal 1/(a·p), Valiant (a·h-1)/(2ap), UGAL (a·h+1)/(2ap);
    # uniform: Valiant (N-1)/(2(a·p)^2); minimal min(1, ...) = 1 for a balanced network.
    awk -F, -v pat="$pattern" -v a="$A" -v p="$P" -v n="$nodes" '
        NR > 1 { if ($4 > best[$1]) best[$1] = $4; if (!($1 in seen)) { seen[$1] = 1; order[k++] = $1 } }
        END { ap = a * p
              if (pat == "worst") { b["minimal"] = 1 / ap; b["valiant"] = (a * p - 1) / (2 * ap)
                                    b["ugal-l"] = b["ugal-g"] = b["par"] = (a * p + 1) / (2 * ap) }
              else { b["minimal"] = b["ugal-l"] = b["ugal-g"] = b["par"] = 1; b["valiant"] = (n - 1) / (2 * ap * ap) }
              printf "%s saturation:", pat
              for (i = 0; i < k; i++) printf " %s %.3f (bound %.3f);", order[i], best[order[i]], (b[order[i]] > 1 ? 1 : b[order[i]])
              print "" }' "$RES/$name.csv"
done
