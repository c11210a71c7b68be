#!/bin/sh
# bench/topo_sweep.sh — throughput-vs-load and latency-vs-load curves of
# the HyperX 4 x 4 (examples/configs/hyperx-4x4.ini, dor and dal) and the
# small Dragonfly+ (dragonflyplus-small.ini, minimal, valiant and par),
# under uniform random traffic and each topology's worst case ([workload]
# pattern = worst): one `warpnet sweep --series ROUTING` per pattern, with
# the output-queued router (the bounds are the links'; the input-queued
# default adds head-of-line blocking, see the model READMEs). Writes
# bench/results/TOPO-PATTERN.csv (sweep.csv) and, with gnuplot, the
# -throughput.png and -latency.png plots; prints each curve's saturation
# (largest accepted load) next to the bound its README derives.
# Usage: bench/topo_sweep.sh [BUILD_DIR]  env: OUT=topo-sweep LOADS=0.1:1.0:0.1
#        END=25us WARMUP=5us TOPOS="hyperx dfp" PATTERNS="uniform worst" RES=bench/results
# Progress: one line per point on stderr.
set -u
[ -n "${1:-}" ] && WARPNET_BUILD=$1
. "$(dirname "$0")/lib.sh" # top, warpnet (from BUILD_DIR), logged
W=$warpnet OUT=${OUT:-topo-sweep} RES=${RES:-$top/bench/results}
mkdir -p "$OUT" "$RES" || exit 3
for topo in ${TOPOS:-hyperx dfp}; do
    case $topo in
    hyperx) ini=hyperx-4x4.ini name=hyperx-4x4 series=hyperx.routing=dor,dal
        title="HyperX 4 x 4, T = 4 (64 nodes)"
        # README: uniform min_d S_d K_d B/(T B_t) = 1; worst dor K B/(T B_t) = 1/4, dal S K B/(2 T B_t) = 1/2
        bounds_uniform="dor=1 dal=1" bounds_worst="dor=0.25 dal=0.5" ;;
    dfp) ini=dragonflyplus-small.ini name=dragonflyplus-small series=dragonflyplus.routing=minimal,valiant,par
        title="Dragonfly+ L = S = p = 4, h = 2, 9 groups (144 nodes)"
        # dragonflyplus.md: uniform minimal (N-1)/(Lp)^2 = 143/256, Valiant half; worst minimal 1/(Lp),
        # Valiant (g-2)/(2Lp); PAR may add the direct link to Valiant's paths: (g-2)/(2Lp) + 1/(Lp)
        bounds_uniform="minimal=0.5586 valiant=0.2793 par=0.5586"
        bounds_worst="minimal=0.0625 valiant=0.2188 par=0.2813" ;;
    *) echo "bench/topo_sweep.sh: unknown topology $topo (hyperx, dfp)" >&2; exit 2 ;;
    esac
    for pattern in ${PATTERNS:-uniform worst}; do
        echo "${0##*/}: $name, $pattern traffic: a sweep of a few minutes (log: $OUT/$name-$pattern.log)" >&2
        logged "$OUT/$name-$pattern.log" "$W" sweep "$top/examples/configs/$ini" \
            --vary "workload.load=${LOADS:-0.1:1.0:0.1}" --series "$series" \
            --title="$title, $pattern traffic, output-queued" --out="$OUT/$name-$pattern" \
            --network.router=output-queued --workload.pattern="$pattern" \
            --end="${END:-25us}" --workload.warmup="${WARMUP:-5us}" \
            || { echo "sweep $name $pattern failed: see $OUT/$name-$pattern.log" >&2; exit 1; }
        cp "$OUT/$name-$pattern/sweep.csv" "$RES/$name-$pattern.csv"
        for png in throughput latency; do
            [ -s "$OUT/$name-$pattern/$png.png" ] && cp "$OUT/$name-$pattern/$png.png" "$RES/$name-$pattern-$png.png"
        done
        eval "bounds=\$bounds_$pattern"
        awk -F, -v pat="$pattern" -v name="$name" -v bounds="$bounds" '
            BEGIN { n = split(bounds, kv, " "); for (i = 1; i <= n; i++) { split(kv[i], x, "="); b[x[1]] = x[2] } }
            NR > 1 { if ($4 > best[$1]) best[$1] = $4; if (!($1 in seen)) { seen[$1] = 1; order[k++] = $1 } }
            END { printf "%s %s saturation:", name, pat
                  for (i = 0; i < k; i++) printf " %s %.3f (bound %.3f);", order[i], best[order[i]], b[order[i]]
                  print "" }' "$RES/$name-$pattern.csv"
    done
done
