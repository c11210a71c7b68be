#!/usr/bin/env bash
# bench/scaling.sh — strong scaling of the network models and PHOLD on one
# many-core machine: each scenario sequentially, then on each rank count of
# RANKS (default "1 2 4 8 16"; 1 = --synch=seq) under each of MODES
# (default "opt", add "cons" for conservative windows; MODES_AT="16"
# limits the extra modes to those rank counts). Never oversubscribe: a rank
# count above the machine's cores is skipped. Prints CSV (header row, one row
# per run with its command) and writes $OUTDIR/scaling.csv (default
# bench/results), plus scaling.png where gnuplot is there.
#   bench/scaling.sh [SCENARIO ...]    (bench/scenarios.sh names them;
#   default: phold-large torus-32k fattree-codes replay-ft64 slimfly-q13
#   slimfly-q163-window). TIMEOUT=s per run (default 600); WARPNET, PHOLD
#   and MPIEXEC name other binaries (bench/bundle.sh makes a bundle of them).
#   bench/scaling.sh --plot CSV redraws a CSV's plot (from another machine).
# Columns: wall_s = setup + run (stats JSON); speedup = the seq run's wall /
# this wall; rate_per_rank = committed events / run_s / ranks; rss = the
# largest rank's peak RSS. Exits 1 when a run failed or digests differ.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
mpiexec=${MPIEXEC:-mpiexec}
out=${OUTDIR:-$here/results}
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$here/scenarios.sh"

# plot_csv CSV PNG: speed-up over seq against ranks, one line per scenario.
plot_csv() {
    command -v gnuplot >/dev/null 2>&1 || return 0
    local plot="" s cores cpu
    cores=$(awk -F, 'NR == 2 {print $4}' "$1")
    cpu=$(awk -F, 'NR == 2 {print $20}' "$1")
    for s in $(awk -F, 'NR > 1 {print $1}' "$1" | uniq); do
        awk -F, -v s="$s" '$1 == s && ($2 == "opt" || $2 == "seq") {print $3, $9}' "$1" >"$tmp/$s.dat"
        [ -s "$tmp/$s.dat" ] && plot="$plot${plot:+, }'$tmp/$s.dat' using 1:2 with linespoints title '$s'"
    done
    [ -z "$plot" ] || gnuplot -e "set terminal png size 900,550; set output '$2';
      set logscale x 2; set logscale y 2; set xlabel 'ranks (one per core)'; set ylabel 'speed-up over seq (setup + run)';
      set key top left; set title 'Strong scaling on $cores cores ($cpu)';
      plot x with lines dt 2 title 'ideal', $plot" 2>/dev/null || true
}
# --plot CSV: draw CSV's plot again (beside it, .png for .csv), run nothing.
if [ "${1:-}" = --plot ]; then
    plot_csv "$2" "${2%.csv}.png"
    exit 0
fi

cores=$(nproc)
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1 | tr -d ',')
csv=$out/scaling.csv
echo "scenario,synch,ranks,cores,committed,setup_s,run_s,wall_s,speedup,efficiency,remote_share,rate_per_rank,fwd_s,net_s,gvt_s,final_share,peak_rss_mb,digest,load,cpu,command" | tee "$csv"
declare -A seq_wall
failed=0
run() { # scenario ranks synch
    local name=$1 ranks=$2 mode=$3 j="$tmp/e.json" cmd
    cmd="$(scenario "$name") --stats-json=$j --quiet --synch=$mode"
    [ "$ranks" -gt 1 ] && cmd="$mpiexec -n $ranks $cmd"
    rm -f "$j"
    local l; l=$(load)
    if ! timeout "${TIMEOUT:-600}" $cmd >/dev/null 2>"$tmp/err" || [ ! -s "$j" ]; then
        echo "# $name $mode $ranks ranks: failed or over ${TIMEOUT:-600} s: $(tail -c 300 "$tmp/err" | tr '\n' ' ')"
        failed=1
        return 0
    fi
    local setup run wall
    setup=$(json setup_s "$j"); run=$(json run_s "$j")
    wall=$(wall_of "$j")
    [ "$ranks" -eq 1 ] && seq_wall[$name]=$wall
    printf '%s,%s,%s,%s,%s,%s,%s,%s,%.3f,%s,%.4f,%.0f,%s,%s,%s,%.3f,%.1f,%s,%s,%s,"%s"\n' "$name" "$mode" "$ranks" "$cores" \
        "$(json committed "$j")" "$setup" "$run" "$wall" \
        "$(speedup "${seq_wall[$name]:-0}" "$wall")" \
        "$(json efficiency "$j")" \
        "$(remote_share "$j")" \
        "$(awk -v c="$(json committed "$j")" -v r="$run" -v n="$ranks" 'BEGIN{print ((r > 0) ? c / r / n : 0)}')" \
        "$(split forward "$j")" "$(split network "$j")" "$(split gvt "$j")" \
        "$(final_share "$j")" \
        "$(rss_mb "$j")" \
        "$(json committed_digest "$j")" "$l" "$cpu" "${cmd/ --stats-json=$j/}" | tee -a "$csv"
}

ranks_list=${RANKS:-1 2 4 8 16}
modes=${MODES:-opt}
scenarios=${*:-phold-large torus-32k fattree-codes replay-ft64 slimfly-q13 slimfly-q163-window}
for s in $scenarios; do
    for n in $ranks_list; do
        if [ "$n" -gt "$cores" ]; then echo "# $s: $n ranks skipped, $cores cores"; continue; fi
        if [ "$n" -eq 1 ]; then run "$s" 1 seq; continue; fi
        for m in $modes; do
            [ "$m" = opt ] || [ -z "${MODES_AT:-}" ] || [[ " $MODES_AT " == *" $n "* ]] || continue
            run "$s" "$n" "$m"
        done
    done
done

digests=$(differing_digests "$csv" 18)
[ -z "$digests" ] || { echo "# DIGESTS DIFFER: $digests"; failed=1; }
plot_csv "$csv" "$out/scaling.png"
# A run that failed or a digest that differs makes the whole benchmark fail
# (after the rows that did run are written).
exit $failed
