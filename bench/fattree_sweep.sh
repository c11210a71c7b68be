#!/bin/sh
# bench/fattree_sweep.sh — throughput-vs-load and latency-vs-load curves of
# the generalised fat-trees, one curve per routing (ECMP per flow, adaptive,
# D-mod-k), under uniform random traffic and the worst case ([workload]
# pattern = worst: every node sends one group along, so that every packet
# crosses the top level): one `warpnet sweep --series fattree.routing=...`
# per tree and pattern. Trees: the 3:1 leaf-spine (examples/configs/
# leafspine-3to1.ini) and BookSim's 4-ary 3-tree (fattree-4ary3tree.ini).
# Writes bench/results/fattree-TREE-PATTERN.csv (sweep.csv; TREE without
# its own "fattree-") and, when gnuplot is installed, -throughput.png (the
# bound marked) and -latency.png; the runs stay in OUT/NAME/. Prints each
# curve's saturation throughput (largest accepted load) next to the bound:
# the tree's bisection share (--describe's bisection_GBps over injection)
# divided by the share of traffic that crosses the top (1 for the worst
# case, (N - N/G)/(N - 1) for uniform with G groups).
# Usage: bench/fattree_sweep.sh [BUILD_DIR]  env: OUT=fattree-sweep
#        LOADS=0.1:1.0:0.1 END=15us WARMUP=5us ROUTINGS=ecmp,adaptive,d-mod-k
#        TREES="leafspine-3to1 fattree-4ary3tree" PATTERNS="uniform worst"
#        EXTRA="" (more warpnet options) RES=bench/results
# Progress: one line per point on stderr.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
W="$build/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "bench/fattree_sweep.sh: $W not built" >&2; exit 2; }
OUT=${OUT:-fattree-sweep}
RES=${RES:-$top/bench/results}
WARPNET=$W
. "$top/bench/lib.sh"
mkdir -p "$OUT" "$RES" || exit 3
for tree in ${TREES:-leafspine-3to1 fattree-4ary3tree}; do
    ini="$top/examples/configs/$tree.ini"
    "$W" --describe "$ini" > "$OUT/$tree.describe" 2>&1 || { cat "$OUT/$tree.describe" >&2; exit 1; }
    share=$(sed -n 's/^bisection_GBps: [^ ]* (\([0-9.e+-]*\) of injection)/\1/p' "$OUT/$tree.describe")
    nodes=$(sed -n 's/^nodes: //p' "$OUT/$tree.describe")
    groups=$(sed -n 's/^xgft_down: //p' "$OUT/$tree.describe" | awk -F, '{ print $NF }')
    for pattern in ${PATTERNS:-uniform worst}; do
        case $tree in fattree*) name=$tree-$pattern ;; *) name=fattree-$tree-$pattern ;; esac
        echo "${0##*/}: $tree, $pattern traffic: a sweep of several minutes (log: $OUT/$name.log)" >&2
        # shellcheck disable=SC2086
        logged "$OUT/$name.log" "$W" sweep "$ini" --vary "workload.load=${LOADS:-0.1:1.0:0.1}" \
            --series "fattree.routing=${ROUTINGS:-ecmp,adaptive,d-mod-k}" \
            --title="$tree ($nodes nodes), $pattern traffic" --out="$OUT/$name" \
            --workload.pattern="$pattern" --end="${END:-15us}" --workload.warmup="${WARMUP:-5us}" ${EXTRA:-} \
            || { echo "sweep $name failed: see $OUT/$name.log" >&2; exit 1; }
        cp "$OUT/$name/sweep.csv" "$RES/$name.csv"
        for png in throughput latency; do
            [ -s "$OUT/$name/$png.png" ] && cp "$OUT/$name/$png.png" "$RES/$name-$png.png"
        done
        bound=$(awk -v pat="$pattern" -v share="$share" -v n="$nodes" -v g="$groups" 'BEGIN {
            cross = pat == "worst" ? 1 : (n - n / g) / (n - 1); b = share / cross
            printf "%.4f", (b > 1 ? 1 : b) }')
        awk -F, -v pat="$pattern" -v b="$bound" '
            NR > 1 { if ($4 > best[$1]) best[$1] = $4; if (!($1 in seen)) { seen[$1] = 1; order[k++] = $1 } }
            END { printf "%s saturation:", pat
                  for (i = 0; i < k; i++) printf " %s %.3f;", order[i], best[order[i]]
                  printf " bound %.3f\n", b }' "$RES/$name.csv"
        # the throughput plot again, with the bound marked
        command -v gnuplot > /dev/null && gnuplot <<GP
set terminal pngcairo size 800,500
set output "$RES/$name-throughput.png"
set datafile separator ","
set title "$tree ($nodes nodes), $pattern traffic: accepted load, bound $bound"
set xlabel "offered load (fraction of injection bandwidth)"
set ylabel "accepted load"
set key top left
set grid
series = system("awk -F, 'NR > 1 && !seen[\$1]++ { printf \"%s \", \$1 }' $RES/$name.csv")
plot for [s in series] "$RES/$name.csv" using (strcol(1) eq s ? \$3 : NaN):4 with linespoints title s, \
     x with lines dashtype 3 title "offered", $bound with lines dashtype 2 lw 2 title "bound (bisection)"
GP
    done
done
