#!/bin/sh
# bench/optical_study.sh — the optical data-centre study in one command
# (docs/datacentre.md). Part 1, one flow: two messages of S bytes (80 B ..
# 32 KiB) from a server to one in another rack, 10 ms apart, over the ToR's
# electrical side (same rack), the OPS, the OCS (the first message waits
# for its circuit, the next finds it up) and an electrical leaf-spine of
# 200 ns switches in place of the ToRs and the OPS
# (examples/configs/optical-study-flow.ini, optical-study-electrical.ini).
# Part 2, the 32 x 32 data centre (optical-dc-32x32.ini) under path = ops,
# ocs and hybrid: a MapReduce job (gen:mapreduce, one map per server) and
# the loopback capture tests/replay/pcap/lo-exchange.pcap replayed causally
# with its three hosts in racks 0, 1 and 2.
# Writes RES/optical-study-flow.csv (path,size_bytes,first_ns,next_ns,
# command), RES/optical-study-dc.csv (workload,path,completion_ns,
# ops_sent,ops_dropped,ocs_setups,command) and, with gnuplot, the plots
# RES/optical-study-flow.png and RES/optical-study-dc.png; the runs' outputs
# stay in OUT. Prints the CSVs and the wall time.
# Usage: bench/optical_study.sh [BUILD_DIR]  env: OUT=optical-study
#        RES=bench/results SIZES="80 256 1024 4096 16384 32768"
#        MR=gen:mapreduce:... (the MapReduce job of part 2)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
W="$build/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "bench/optical_study.sh: $W not built" >&2; exit 2; }
OUT=${OUT:-optical-study}
RES=${RES:-$top/bench/results}
C=$top/examples/configs
SIZES=${SIZES:-80 256 1024 4096 16384 32768}
MR=${MR:-gen:mapreduce:workers=1022,rack=32,mappers=1022,reducers=32,block=65536,output=50,map_ns=1000000,reduce_ns=1000000}
mkdir -p "$OUT" "$RES" || exit 3
start=$(date +%s)
flow_csv=$RES/optical-study-flow.csv
dc_csv=$RES/optical-study-dc.csv

# one LOG ARGS...: a run of warpnet whose output goes to LOG; stops the study on failure.
one() {
    log=$1
    shift
    "$W" --quiet "$@" > "$log" 2>&1 || { echo "bench/optical_study.sh: failed: warpnet $*" >&2; tail -3 "$log" >&2; exit 1; }
}
# ARGS with the checkout's path cut: the CSVs' commands run from its top.
rel() { printf '%s' "$1" | sed "s|$top/||g"; }
# A run's message latency (the mean: one message is counted).
lat() { sed -n 's/^message latency *mean \([0-9.e+]*\) ns.*/\1/p' "$1"; }

echo "path,size_bytes,first_ns,next_ns,command" > "$flow_csv"
for s in $SIZES; do
    for path in tor ops ocs electrical; do
        case $path in
        tor) args="$C/optical-study-flow.ini --workload.dst=1" ;;
        ops|ocs) args="$C/optical-study-flow.ini --optical.path=$path" ;;
        electrical) args="$C/optical-study-electrical.ini" ;;
        esac
        # The first message alone, then the second of two (the run file's warm-up).
        # shellcheck disable=SC2086
        one "$OUT/flow-$path-$s-first.log" $args --workload.message_size=${s}B --workload.count=1 --workload.warmup=0ns
        # shellcheck disable=SC2086
        one "$OUT/flow-$path-$s-next.log" $args --workload.message_size=${s}B
        first=$(lat "$OUT/flow-$path-$s-first.log") next=$(lat "$OUT/flow-$path-$s-next.log")
        [ -n "$first" ] && [ -n "$next" ] || { echo "bench/optical_study.sh: no message latency in $OUT/flow-$path-$s-*.log" >&2; exit 1; }
        echo "$path,$s,$first,$next,warpnet $(rel "$args") --workload.message_size=${s}B" >> "$flow_csv"
    done
done

printf '0\n32\n64\n' > "$OUT/capture-racks.txt"
echo "workload,path,completion_ns,ops_sent,ops_dropped,ocs_setups,command" > "$dc_csv"
for wl in mapreduce capture; do
    for path in ops ocs hybrid; do
        case $wl in
        mapreduce) args="--job.0.trace=$MR" ;;
        capture) args="--job.0.trace=$top/tests/replay/pcap/lo-exchange.pcap --job.0.placement=$OUT/capture-racks.txt" ;;
        esac
        # shellcheck disable=SC2086
        one "$OUT/dc-$wl-$path.log" "$C/optical-dc-32x32.ini" --optical.path=$path --end=600s $args
        comp=$(sed -n 's/^  completion_ns  \([0-9.]*\)$/\1/p' "$OUT/dc-$wl-$path.log")
        [ -n "$comp" ] || { echo "bench/optical_study.sh: $wl over $path did not complete" >&2; exit 1; }
        ops=$(sed -n 's/^ops .* sent \([0-9]*\),.* dropped \([0-9]*\),.*/\1,\2/p' "$OUT/dc-$wl-$path.log" | head -1)
        ocs=$(sed -n 's/^ocs .* setups \([0-9]*\),.*/\1/p' "$OUT/dc-$wl-$path.log" | head -1)
        echo "$wl,$path,$comp,${ops:-,},${ocs},warpnet examples/configs/optical-dc-32x32.ini --optical.path=$path --end=600s $(rel "$args")" >> "$dc_csv"
    done
done

if command -v gnuplot > /dev/null 2>&1; then
    gnuplot <<GP || echo "bench/optical_study.sh: gnuplot failed; the CSVs stand" >&2
set terminal pngcairo size 900,560
set datafile separator ","
set output "$RES/optical-study-flow.png"
set title "One flow between two racks: message latency"
set xlabel "message bytes"; set ylabel "latency (ns)"
set logscale xy; set key top left; set grid
plot for [p in "tor ops electrical"] "< grep '^".p.",' $flow_csv" using 2:3 with linespoints title p, \
     "< grep '^ocs,' $flow_csv" using 2:3 with linespoints title "ocs first", \
     "< grep '^ocs,' $flow_csv" using 2:4 with linespoints title "ocs next"
set output "$RES/optical-study-dc.png"
set title "32 x 32 data centre: job completion by path"
unset logscale x; set logscale y; set xlabel ""; set ylabel "completion (ns)"
set style data histograms; set style fill solid 0.8; set boxwidth 0.9
plot "< grep '^mapreduce,' $dc_csv" using 3:xtic(2) title "MapReduce", \
     "< grep '^capture,' $dc_csv" using 3 title "lo capture (causal)"
GP
fi
cat "$flow_csv" "$dc_csv"
echo "bench/optical_study.sh: $(($(date +%s) - start)) s wall; CSVs and plots in $RES"
