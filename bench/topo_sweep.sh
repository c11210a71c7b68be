#!/bin/sh
# bench/topo_sweep.sh — throughput-vs-load and latency-vs-load curves of
# the HyperX 4 x 4 (examples/configs/hyperx-4x4.ini, dor and dal), the
# small Dragonfly+ (dragonflyplus-small.ini, minimal, valiant and par), the
# Cray XC Cascade dragonfly (dragonfly-xc.ini, minimal and ugal-l; TOPOS
# cascade) and the anynet leaf-spine read from a file (graph-leafspine.ini,
# shortest and adaptive; TOPOS graph), under uniform random traffic and
# each topology's worst case ([workload] pattern = worst; the leaf-spine
# file has none: a shift by one leaf, neighbor at distance 4): one
# `warpnet sweep --series ROUTING` per pattern, with
# the output-queued router (the bounds are the links'; the input-queued
# default adds head-of-line blocking, see the model READMEs). Writes
# bench/results/TOPO-PATTERN.csv (sweep.csv) and, with gnuplot, the
# -throughput.png and -latency.png plots; prints each curve's saturation
# (largest accepted load) next to the bound its README derives.
# Usage: bench/topo_sweep.sh [BUILD_DIR]  env: OUT=topo-sweep LOADS=0.1:1.0:0.1
#        END=25us WARMUP=5us TOPOS="hyperx dfp" (also cascade, graph) PATTERNS="uniform worst"
#        RES=bench/results
# Progress: one line per point on stderr.
set -u
[ -n "${1:-}" ] && WARPNET_BUILD=$1
. "$(dirname "$0")/lib.sh" # top, warpnet (from BUILD_DIR), logged
W=$warpnet OUT=${OUT:-topo-sweep} RES=${RES:-$top/bench/results}
mkdir -p "$OUT" "$RES" || exit 3
for topo in ${TOPOS:-hyperx dfp}; do
    worst_args="--workload.pattern=worst" extra=""
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
    cascade) ini=dragonfly-xc.ini name=dragonfly-xc series=dragonfly.routing=minimal,ugal-l
        title="Cascade dragonfly (Cray XC): 13 groups of 6 x 16 routers, p = 4 (4,992 nodes)"
        # dragonfly README's bounds with L = a*h/(g-1) = 80 global links per group pair (B_g 4.7,
        # B_t 5.25 GiB/s): worst minimal L*B_g/(a*p*B_t) = 0.1865, UGAL (a*h+L)*B_g/(2*a*p*B_t) > 1;
        # uniform minimal (a*p)^2/(N-1)/L*B_t <= B_g holds to 2.42: injection, 1. Local channels
        # (row then column hops) are not in these bounds.
        bounds_uniform="minimal=1 ugal-l=1" bounds_worst="minimal=0.1865 ugal-l=1" ;;
    graph) ini=graph-leafspine.ini name=graph-leafspine series=graph.routing=shortest,adaptive
        title="anynet leaf-spine: 8 leaves of 4 nodes, 4 spines, leaf 7 at half speed (32 nodes)"
        worst_args="--workload.pattern=neighbor --workload.distance=4"
        extra="--graph.file=$top/examples/configs/leafspine-8x4.anynet" # the run file's path is the top's
        # leaf 7's four 6.25 GB/s down- and uplinks (25 GB/s each way) are offered 28*4/31*12.5
        # = 45.2 GB/s each way at full load, the rest runs at injection: the mean accepted load
        # is at most 1 - 2*(45.16 - 25)/(32*12.5) = 0.899 (0.554 if every flow kept one rate);
        # the leaf shift: 6 leaves at 1, leaves 6 -> 7 and 7 -> 0 at 1/2: mean 7/8
        bounds_uniform="shortest=0.899 adaptive=0.899" bounds_worst="shortest=0.875 adaptive=0.875" ;;
    *) echo "bench/topo_sweep.sh: unknown topology $topo (hyperx, dfp, cascade, graph)" >&2; exit 2 ;;
    esac
    for pattern in ${PATTERNS:-uniform worst}; do
        echo "${0##*/}: $name, $pattern traffic: a sweep of a few minutes (log: $OUT/$name-$pattern.log)" >&2
        logged "$OUT/$name-$pattern.log" "$W" sweep "$top/examples/configs/$ini" \
            --vary "workload.load=${LOADS:-0.1:1.0:0.1}" --series "$series" \
            --title="$title, $pattern traffic, output-queued" --out="$OUT/$name-$pattern" \
            --network.router=output-queued $([ "$pattern" = worst ] && echo "$worst_args" || echo "--workload.pattern=$pattern") \
            --end="${END:-25us}" --workload.warmup="${WARMUP:-5us}" $extra \
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
