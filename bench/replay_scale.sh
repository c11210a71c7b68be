#!/usr/bin/env bash
# bench/replay_scale.sh — the scale cases of issue 18 (TraceR's 512K stencil
# replay, the million-node Slim Fly, FatTreeSim's 524K fat-tree) through
# their run files in examples/configs: each sequentially and on 2 optimistic
# ranks. Prints and writes CSV (bench/results/replay_scale.csv): wall time
# of the process (/usr/bin/time), the engine's setup time (trace reading and
# building included) and run time, setup as a share of the wall time,
# committed events, committed events/s in all and per rank, efficiency,
# peak RSS (largest rank, from the engine; the sum over ranks from the
# processes), the committed digest (the same on 1 and 2 ranks), and the
# 1-minute load average at the start (a busy machine inflates wall times).
#   bench/replay_scale.sh [CASE ...]   default: the scaled-down cases
#     stencil-32k-simplenet stencil-32k-torus slimfly-q41 fattree-50p3l
#   full cases (give END= to run a short window, e.g. END=200ns, and
#   extrapolate): stencil-512k-simplenet stencil-512k-torus slimfly-q163
#   fattree-128p3l. NP="1 2" the rank counts; TIMEOUT=seconds per run (600);
#   MEM=KiB of virtual memory per process (ulimit -v; default 16000000).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
[ -x /usr/bin/time ] || { echo "bench: needs /usr/bin/time (GNU time) for the peak RSS" >&2; exit 1; }
mpiexec=${MPIEXEC:-mpiexec}
cfg=$top/examples/configs
out=$here/results
mkdir -p "$out"
csv=$out/replay_scale.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

file_of() {
    case $1 in
    stencil-32k-simplenet) echo replay-stencil-32k-simplenet ;;
    stencil-32k-torus) echo replay-stencil-32k-torus ;;
    slimfly-q41) echo slimfly-q41 ;;
    fattree-50p3l) echo fattree-50p3l-fts ;;
    stencil-512k-simplenet) echo replay-stencil-512k-simplenet ;;
    stencil-512k-torus) echo replay-stencil-512k-torus ;;
    slimfly-q163) echo slimfly-q163 ;;
    fattree-128p3l) echo fattree-128p3l-fts ;;
    *) echo "bench: unknown case $1" >&2; exit 2 ;;
    esac
}

field() { sed -n "s|^ *$1 *||p" "$2" | head -1 | tr -d ,; }
cases=${*:-stencil-32k-simplenet stencil-32k-torus slimfly-q41 fattree-50p3l}
header=case,ranks,end,wall_s,setup_s,run_s,setup_share,committed_events,events_per_s,events_per_s_per_rank,efficiency,peak_rss_mb_max_rank,rss_mb_all_ranks,digest,load1,status,command
[ -s "$csv" ] || echo "$header" > "$csv"
echo "$header"
for c in $cases; do
    f=$cfg/$(file_of "$c").ini
    for np in ${NP:-1 2}; do
        cmd="$warpnet $f${END:+ --engine.end=$END}"
        [ "$np" = 1 ] || cmd="$mpiexec -n $np $warpnet --synch=opt $f${END:+ --engine.end=$END}"
        load=$(cut -d' ' -f1 /proc/loadavg)
        status=ok
        ( ulimit -v "${MEM:-16000000}"; /usr/bin/time -f '%e %M' -o "$tmp/time" timeout "${TIMEOUT:-600}" $cmd ) \
            > "$tmp/out" 2> "$tmp/err" || status="exit $?"
        grep -q "^conservation.*: ok" "$tmp/out" || status="$status; no conservation line"
        wall=$(tail -1 "$tmp/time" | cut -d' ' -f1)
        # GNU time measures mpiexec's own RSS under mpiexec: the engine's max-rank figure is the one to read there
        rss_all=$([ "$np" = 1 ] && awk '{ printf "%.0f", $2 / 1024 }' < <(tail -1 "$tmp/time") || echo "")
        setup=$(field "setup wall time (s)" "$tmp/out") run=$(field "run wall time (s)" "$tmp/out")
        ev=$(field "committed events" "$tmp/out") rate=$(field "committed events/s" "$tmp/out")
        eff=$(field efficiency "$tmp/out") rss=$(field "peak RSS (max rank)" "$tmp/out" | sed 's/ MB//')
        digest=$(sed -n 's/.*committed digest: //p' "$tmp/out")
        share=$(awk -v s="$setup" -v w="$wall" 'BEGIN { if (w > 0) printf "%.3f", s / w }')
        perrank=$(awk -v r="$rate" -v n="$np" 'BEGIN { if (r > 0) printf "%.0f", r / n }')
        row="$c,$np,${END:-file},$wall,$setup,$run,$share,$ev,$rate,$perrank,$eff,$rss,$rss_all,$digest,$load,$status,$cmd"
        echo "$row" | tee -a "$csv"
    done
done
