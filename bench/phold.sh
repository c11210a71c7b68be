#!/usr/bin/env bash
# bench/phold.sh — PHOLD benchmarks of issues 2-4. Prints CSV (header row, one
# row per run with the exact command), then the median per configuration, and
# writes bench/results/phold-SUITE.csv (+ .png when gnuplot is there).
#   bench/phold.sh [seq|queue|debug|opt|gvt|kps|all] [REPS]
# PHOLD parameters of the issues: remote 0.1, mean 1.0, lookahead 0.1, one start
# event per LP; small = 1,024 LPs to end 30,000; large = 1,048,576 LPs to end 10
# (end 2 for the optimistic large case, as ROSS was measured).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${WARPNET_BUILD:-$top/_build}
phold=$build/examples/phold/phold
[ -x "$phold" ] || { echo "bench: build first (./quickstart build); no $phold" >&2; exit 1; }
suite=${1:-seq}
reps=${2:-3}
mpiexec=${MPIEXEC:-mpiexec}
out=$here/results
mkdir -p "$out"
common="--remote=0.1 --mean=1.0 --lookahead=0.1 --start-events=1 --quiet"
small="--total-lps=1024 --end=30000"
large="--total-lps=1048576 --end=10"
large_opt="--total-lps=1048576 --end=2"

json() { sed -n "s/^ *\"$1\": *\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$2" | head -1; }

csv=$out/phold-$suite.csv
echo "config,ranks,rep,committed,setup_s,run_s,events_per_s,efficiency,peak_rss_mb,digest,command" | tee "$csv"
run() { # config ranks args...
    local config=$1 ranks=$2; shift 2
    local j; j=$(mktemp)
    local cmd="$phold $common $* --stats-json=$j"
    [ "$ranks" -gt 1 ] && cmd="$mpiexec -n $ranks $cmd"
    for r in $(seq 1 "$reps"); do
        $cmd >/dev/null
        printf '%s,%s,%s,%s,%s,%s,%s,%s,%.1f,%s,"%s"\n' "$config" "$ranks" "$r" \
            "$(json committed "$j")" "$(json setup_s "$j")" "$(json run_s "$j")" \
            "$(json event_rate "$j")" "$(json efficiency "$j")" \
            "$(awk -v b="$(json peak_rss_bytes "$j")" 'BEGIN{print b/1048576}')" \
            "$(json committed_digest "$j")" "${cmd% --stats-json=*}" | tee -a "$csv"
    done
    rm -f "$j"
}

case "$suite" in
seq)
    run small-seq 1 --synch=seq $small
    run large-seq 1 --synch=seq $large ;;
queue)
    for q in ladder heap splay; do
        run "small-seq-$q" 1 --synch=seq --queue=$q $small
        run "large-seq-$q" 1 --synch=seq --queue=$q $large
    done ;;
debug)
    run small-seq 1 --synch=seq $small
    run small-opt1 1 --synch=opt $small
    run small-debug 1 --synch=debug $small ;;
opt)
    for n in 1 2 4; do
        run "small-opt" "$n" --synch=opt $small
        run "large-opt" "$n" --synch=opt $large_opt
    done
    run large-seq-end2 1 --synch=seq $large_opt ;;
gvt)
    for g in mattern sync; do for i in 1 16 256; do
        run "small-opt-$g-i$i" 2 --synch=opt --gvt=$g --gvt-interval=$i $small
    done; done ;;
kps)
    for k in 1 4 16 64 256 1024; do
        run "small-opt-kps$k" 2 --synch=opt --kps=$k $small
    done ;;
all)
    for s in seq queue debug opt gvt kps; do "$0" "$s" "$reps"; done
    exit 0 ;;
*) echo "usage: bench/phold.sh [seq|queue|debug|opt|gvt|kps|all] [REPS]" >&2; exit 2 ;;
esac

echo "# medians (events/s, run s, peak RSS MB) per config and ranks:"
median() { sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
tail -n +2 "$csv" | cut -d, -f1,2 | sort -u | while IFS=, read -r cfg n; do
    rows=$(tail -n +2 "$csv" | awk -F, -v c="$cfg" -v n="$n" '$1==c && $2==n')
    printf '# %-28s ranks %s  events/s %12.0f  run %8.3f s  rss %8.1f MB  eff %s\n' "$cfg" "$n" \
        "$(echo "$rows" | cut -d, -f7 | median)" "$(echo "$rows" | cut -d, -f6 | median)" \
        "$(echo "$rows" | cut -d, -f9 | median)" "$(echo "$rows" | cut -d, -f8 | median)"
done
if command -v gnuplot >/dev/null 2>&1; then
    gnuplot -e "set terminal png size 900,500; set output '$out/phold-$suite.png'; set datafile separator ',';
      set style data histogram; set style fill solid; set ylabel 'committed events/s'; set xtics rotate by -30;
      set title 'PHOLD ($suite): every repetition'; plot '$csv' using 7:xtic(stringcolumn(1).'/'.stringcolumn(2)) notitle" 2>/dev/null || true
fi
