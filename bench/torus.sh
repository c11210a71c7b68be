#!/bin/sh
# bench/torus.sh — torus benchmark of issue 5: committed events/s, efficiency,
# wall time and peak RSS for the 16x16x16 torus at 10 % and 50 % uniform load
# (sequential and optimistic on 2 ranks) and the CODES 32K-node reference case.
# Prints CSV with the exact command per row, then medians per case.
# Usage: bench/torus.sh [BUILD_DIR] [REPEATS]   (defaults: _build, 3)
B=${1:-_build}; N=${2:-3}; C=$(dirname "$0")/../examples/configs
W="$B/tools/warpnet/warpnet"; MPIEXEC=${MPIEXEC:-mpiexec}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
echo "case,rep,committed,event_rate,efficiency,run_s,wall_s,peak_rss_kb,command"
one() { # case command...
    c=$1; shift
    for i in $(seq 1 "$N"); do
        s=$(date +%s.%N)
        /usr/bin/time -f %M -o "$T/rss" "$@" --quiet --stats-json="$T/st.json" > "$T/out" 2>&1 || { echo "$c,$i,FAILED,,,,,,$*"; continue; }
        e=$(date +%s.%N)
        j=$(tr -d '\n ' < "$T/st.json")
        get() { echo "$j" | sed -n "s/.*\"$1\":\([-0-9.eE+]*\).*/\1/p"; }
        echo "$c,$i,$(get committed),$(get event_rate),$(get efficiency),$(get run_s),$(echo "$e - $s" | bc),$(sort -n "$T/rss" | tail -1),$*"
    done
}
for load in 0.1 0.5; do
    one "16^3-load$load-seq" "$W" "$C/torus-16x16x16.ini" --workload.load=$load --synch=seq
    one "16^3-load$load-opt2" $MPIEXEC -n 2 "$W" "$C/torus-16x16x16.ini" --workload.load=$load --synch=opt
done
one "32^3-codes-seq" "$W" "$C/torus-32k-codes.ini" --synch=seq
one "32^3-codes-opt2" $MPIEXEC -n 2 "$W" "$C/torus-32k-codes.ini" --synch=opt
