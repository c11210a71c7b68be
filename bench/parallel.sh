#!/usr/bin/env bash
# bench/parallel.sh — parallel speed-up of the network models (issue 15):
# for each scenario, the sequential run and 2 optimistic ranks under each
# partition kind, then 2 ranks with --safe-events=ahead and off and with
# --synch=cons (MODES), plus 4 oversubscribed ranks (topology) for the
# digest only. Before the 2-rank runs of a scenario it measures the
# machine's ceiling: two sequential runs at once, each on its own core
# (synch "ceiling": speedup = 2 x one run's wall / the slower of the two;
# a 2-core VM gives 1.6-1.9, not 2), and every 2-rank row's of_ceiling is
# its speed-up over that ceiling (issue 49's goal: 0.95).
# Prints CSV (header row, one row per run with the exact command),
# then one summary line per scenario and partition, and writes
# bench/results/parallel.csv (+ parallel.png when gnuplot is there).
#   bench/parallel.sh [SCENARIO ...]     (default: all; REPS=N repeats, default 1:
#   each repetition runs the sequential run, the ceiling and the 2-rank runs
#   again, so that every row's of_ceiling is taken against the same
#   repetition's ceiling, and the summary prints the median over repetitions;
#   SHORT=1 runs the network scenarios to a quarter of their end time, for a
#   loaded machine)
# Scenarios: slimfly-q13, fattree-codes, torus-32k, replay-ft32 (gen:stencil3d,
# 4,096 ranks on a 32-port 3-tree; replay-ft32-locality: the same job with
# placement = locality; replay-ft64: 32,768 ranks on a 64-port 3-tree),
# phold-large. Columns: wall_s = setup +
# run of the engine (stats JSON); speedup = seq wall / this wall; remote =
# remote events sent / processed; fwd/net/fossil/gvt = the slowest rank's
# time split; final_share = events run final (--safe-events) / processed;
# rss = the largest rank's peak RSS.
set -euo pipefail
. "$(dirname "$0")/lib.sh"
reps=${REPS:-1}
mpiexec=${MPIEXEC:-mpiexec}
out=$here/results
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$here/scenarios.sh"

csv=$out/parallel.csv
echo "scenario,partition,synch,ranks,rep,committed,wall_s,speedup,efficiency,remote_share,fwd_s,net_s,fossil_s,gvt_s,gvt_rounds,final_share,peak_rss_mb,digest,load,of_ceiling,command" | tee "$csv"
declare -A seq_wall ceiling
run() { # scenario partition ranks [synch: opt (default), opt-ahead (--safe-events=ahead), opt-unsafe (--safe-events=off) or cons]
    local name=$1 part=$2 ranks=$3 mode=${4:-opt} j="$tmp/e.json" base cmd
    base=$(scenario "$name")
    cmd="$base --stats-json=$j --quiet"
    if [ "$ranks" -gt 1 ]; then
        case $mode in
        opt) cmd="$mpiexec -n $ranks $cmd --synch=opt" ;;
        opt-ahead) cmd="$mpiexec -n $ranks $cmd --synch=opt --safe-events=ahead" ;;
        opt-unsafe) cmd="$mpiexec -n $ranks $cmd --synch=opt --safe-events=off" ;;
        cons) cmd="$mpiexec -n $ranks $cmd --synch=cons" ;;
        esac
        [ "$name" = phold-large ] || cmd="$cmd --partition=$part"
    else
        cmd="$cmd --synch=seq"
    fi
    local r=$rep
    {
        local l; l=$(load)
        timeout 1200 $cmd >/dev/null
        local wall; wall=$(wall_of "$j")
        [ "$ranks" -eq 1 ] && seq_wall[$name]=$wall
        local sp; sp=$(speedup "${seq_wall[$name]:-0}" "$wall")
        local oc=""
        [ "$ranks" -eq 2 ] && [ -n "${ceiling[$name]:-}" ] && oc=$(awk -v s="$sp" -v c="${ceiling[$name]}" 'BEGIN { printf "%.3f", (c > 0) ? s / c : 0 }')
        printf '%s,%s,%s,%s,%s,%s,%s,%.3f,%s,%.4f,%s,%s,%s,%s,%s,%s,%.1f,%s,%s,%s,"%s"\n' "$name" "$part" \
            "$([ "$ranks" -gt 1 ] && echo "$mode" || echo seq)" "$ranks" "$r" \
            "$(json committed "$j")" "$wall" \
            "$sp" \
            "$(json efficiency "$j")" \
            "$(remote_share "$j")" \
            "$(split forward "$j")" "$(split network "$j")" "$(split fossil "$j")" "$(split gvt "$j")" \
            "$(json gvt_rounds "$j")" \
            "$(final_share "$j")" \
            "$(rss_mb "$j")" \
            "$(json committed_digest "$j")" "$l" "$oc" "${cmd/ --stats-json=$j/}" | tee -a "$csv"
    }
}

# measure_ceiling SCENARIO: the machine's own limit for two processes, measured as
# two independent sequential runs started together, each pinned to a core
# when taskset is there. Its speed-up is 2 x (one run alone) / (the slower
# of the pair): what 2 ranks would give with no communication at all.
measure_ceiling() {
    local name=$1 ja="$tmp/ca.json" jb="$tmp/cb.json" base pa pb l
    base=$(scenario "$name")
    pa="" pb=""
    command -v taskset >/dev/null 2>&1 && pa="taskset -c 0" pb="taskset -c 1"
    l=$(load)
    timeout 1200 $pa $base --stats-json="$ja" --quiet --synch=seq >/dev/null &
    local a=$!
    timeout 1200 $pb $base --stats-json="$jb" --quiet --synch=seq >/dev/null
    wait "$a"
    local wa wb slow
    wa=$(wall_of "$ja") wb=$(wall_of "$jb")
    slow=$(awk -v a="$wa" -v b="$wb" 'BEGIN { print (a > b) ? a : b }')
    ceiling[$name]=$(awk -v s="${seq_wall[$name]}" -v w="$slow" 'BEGIN { printf "%.3f", (w > 0) ? 2 * s / w : 0 }')
    printf '%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.1f,%s,%s,%s,"%s"\n' "$name" seq ceiling 2 "$rep" \
        "$(json committed "$ja")" "$slow" "${ceiling[$name]}" 1 0 "$(split forward "$ja")" 0 0 0 0 0 \
        "$(rss_mb "$ja")" "$(json committed_digest "$ja")" "$l" 1.000 \
        "two at once: $pa $base --synch=seq & $pb $base --synch=seq" | tee -a "$csv"
}

scenarios=${*:-slimfly-q13 fattree-codes torus-32k replay-ft32 replay-ft32-locality replay-ft64 phold-large}
# PARTITIONS=...: the kinds on 2 ranks (default block, topology, and metis
# where the build has METIS).
partitions=${PARTITIONS:-block topology}
if [ -z "${PARTITIONS:-}" ] && "$warpnet" --describe --ranks=2 --partition=metis "$cfg/slimfly-q5.ini" >/dev/null 2>&1; then
    partitions="$partitions metis"
fi
# MODES=...: the other synchronisations on 2 ranks (default opt-ahead opt-unsafe cons).
modes=${MODES-opt-ahead opt-unsafe cons}
for s in $scenarios; do
    for rep in $(seq 1 "$reps"); do
        run "$s" seq 1
        measure_ceiling "$s"
        if [ "$s" = phold-large ]; then
            run "$s" block 2
            for m in $modes; do run "$s" block 2 "$m"; done
            continue
        fi
        for p in $partitions; do run "$s" "$p" 2; done
        # --safe-events=ahead (optimism past the bound), off (the optimistic
        # path every event used to take) and conservative windows, all on the
        # default partition.
        for m in $modes; do run "$s" topology 2 "$m"; done
    done
    rep=1
    run "$s" topology 4 # oversubscribed: the digest only, not a timing
done

echo "# per scenario, partition and synch: wall s, speed-up, efficiency, remote share, share of events run final (load = 1-min load average)"
tail -n +2 "$csv" | awk -F, '{printf "# %-14s %-9s %-10s ranks %s  rep %s  wall %8.3f s  speed-up %5.2f  eff %s  remote %.3f  final %.3f  digest %s  load %s%s\n", $1, $2, $3, $4, $5, $7, $8, $9, $10, $16, $18, $19, ($20 != "" && $3 != "ceiling") ? "  of ceiling " $20 : ""}'
if [ "$reps" -gt 1 ]; then
    # The median over repetitions of each 2-rank row's share of its own
    # repetition's ceiling (the goal's measure), with the spread.
    echo "# median of ceiling over $reps repetitions (min-max):"
    tail -n +2 "$csv" | awk -F, '$4 == 2 && $3 != "ceiling" && $20 != "" {print $1 " " $2 " " $3, $20}' |
        sort -k1,3 -k4,4n | awk '{k = $1 " " $2 " " $3; v[k] = v[k] " " $4; n[k]++}
            END {for (k in v) {split(substr(v[k], 2), a, " "); m = (n[k] % 2) ? a[(n[k] + 1) / 2] : (a[n[k] / 2] + a[n[k] / 2 + 1]) / 2;
                 printf "#   %-38s %.3f (%s-%s)\n", k, m, a[1], a[n[k]]}}' | sort
fi
digests=$(differing_digests "$csv" 18)
[ -z "$digests" ] || echo "# DIGESTS DIFFER: $digests"
if command -v gnuplot >/dev/null 2>&1; then
    awk -F, 'NR > 1 && $4 == 2 {print $1 "/" $2 "/" $3 "," $8}' "$csv" >"$tmp/plot.csv"
    gnuplot -e "set terminal png size 900,500; set output '$out/parallel.png'; set datafile separator ',';
      set style data histogram; set style fill solid; set ylabel 'speed-up over seq (2 ranks)'; set xtics rotate by -30;
      set yrange [0:*]; set arrow from graph 0, first 1 to graph 1, first 1 nohead dt 2;
      set title 'Network models on 2 ranks: partitions (opt), safe events off, conservative'; plot '$tmp/plot.csv' using 2:xtic(1) notitle" 2>/dev/null || true
fi
