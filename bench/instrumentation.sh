#!/bin/sh
# bench/instrumentation.sh — what seeing inside a run costs: the same network
# run plain; with --engine-stats only (per-round engine rows); with --out
# (result files, which also turns on --engine-stats and --stats-json); and
# with --out plus --sample time series; sequentially and optimistically on 2
# ranks. The cost of sampling is "sample" against "out". Every variant must
# commit the same digest (checked; a mismatch fails the script).
# Prints CSV (one row per run) and then, per mode and variant, the median
# user CPU time (all ranks: the figure to read on a shared machine) and its
# overhead over the plain run of that mode.
# Usage: bench/instrumentation.sh [BUILD_DIR]
#   env: CONFIG=examples/configs/slimfly-q13.ini EXTRA="--end=60us --workload.warmup=10us"
#        SAMPLE=1us REPS=3 MODES="seq opt2" MPIEXEC=mpiexec
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
W="$build/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "bench/instrumentation.sh: $W not built; build first or pass the build dir" >&2; exit 2; }
CONFIG=${CONFIG:-$top/examples/configs/slimfly-q13.ini}
EXTRA=${EXTRA:---end=60us --workload.warmup=10us}
SAMPLE=${SAMPLE:-1us}
REPS=${REPS:-3}
MODES=${MODES:-"seq opt2"}
MPIEXEC=${MPIEXEC:-mpiexec}
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
rows=$tmp/rows.csv
: >"$rows"

variant_args() { # VARIANT DIR
    case $1 in
    plain) echo "" ;;
    engine_stats) echo "--engine-stats=$2/engine.csv" ;;
    out) echo "--out=$2" ;;
    sample) echo "--out=$2 --sample=$SAMPLE" ;;
    esac
}

echo "mode,variant,rep,wall_s,user_cpu_s,run_s,committed_per_s,peak_rss_mb,digest"
for mode in $MODES; do
    case $mode in
    seq) pre="$W --synch=seq" ;;
    opt*) pre="$MPIEXEC -n ${mode#opt} $W --synch=opt" ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
    esac
    for rep in $(seq 1 "$REPS"); do
        for v in plain engine_stats out sample; do
            d=$tmp/$mode-$v-$rep
            mkdir -p "$d"
            # shellcheck disable=SC2046
            /usr/bin/time -f "%e %U" -o "$tmp/time" $pre "$CONFIG" $EXTRA $(variant_args $v "$d") \
                >"$tmp/out" 2>&1 || { echo "run failed: $mode $v" >&2; tail -3 "$tmp/out" >&2; exit 1; }
            read -r wall cpu <<EOT
$(tail -1 "$tmp/time")
EOT
            run_s=$(sed -n 's/^ *run wall time (s)  *//p' "$tmp/out" | tr -d , | awk '{print $1}')
            rate=$(sed -n 's/^ *committed events\/s  *//p' "$tmp/out" | tr -d , | awk '{print $1}')
            rss=$(sed -n 's/^ *peak RSS (max rank)  *//p' "$tmp/out" | awk '{print $1}')
            dig=$(sed -n 's/.*committed digest: //p' "$tmp/out")
            echo "$mode,$v,$rep,$wall,$cpu,$run_s,$rate,$rss,$dig" | tee -a "$rows"
            rm -rf "$d"
        done
    done
done

if [ "$(cut -d, -f9 "$rows" | sort -u | wc -l)" != 1 ]; then
    echo "bench/instrumentation.sh: the variants committed different digests" >&2
    exit 1
fi
echo
echo "mode,variant,median_user_cpu_s,overhead_vs_plain_pct,median_peak_rss_mb"
for mode in $MODES; do
    base=
    for v in plain engine_stats out sample; do
        med=$(awk -F, -v m="$mode" -v v="$v" '$1 == m && $2 == v { print $5 }' "$rows" | sort -g |
              awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
        rss=$(awk -F, -v m="$mode" -v v="$v" '$1 == m && $2 == v { print $8 }' "$rows" | sort -g |
              awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
        [ -n "$base" ] || base=$med
        awk -v m="$mode" -v v="$v" -v t="$med" -v b="$base" -v r="$rss" \
            'BEGIN { printf "%s,%s,%.3f,%+.1f,%s\n", m, v, t, 100 * (t - b) / b, r }'
    done
done
