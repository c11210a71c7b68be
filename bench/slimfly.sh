#!/bin/sh
# bench/slimfly.sh — issue 7's Slim Fly benchmark. Scenario: q = 13, p = 9
# (3,042 nodes), 100 Gbps links, 50 ns links, 100 ns routers, 256 B packets,
# 100 KB per port, 220 us simulated (20 us warm-up), uniform random traffic,
# minimal routing (examples/configs/slimfly-q13.ini), at each LOAD, in each
# MODE (seq, optN = optimistic on N ranks). Then the build of the q = 37 and
# q = 163 (p = 19) networks (--describe) and a short q = 37 run.
# Prints CSV (header, one row per run with its exact command), then one line
# of medians per scenario. user_cpu_s (all ranks, via mpiexec's children)
# is the figure to read on a shared, oversubscribed machine.
# Usage: bench/slimfly.sh [BUILD_DIR]   env: LOADS="0.1 0.5" MODES="seq opt2"
#        REPS=1 MPIEXEC=mpiexec SKIP_LARGE=0 EXTRA="" (more options for the q = 13 runs,
#        e.g. EXTRA="--end=40us --workload.warmup=5us" for a quick try)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
W="$build/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "bench/slimfly.sh: $W not built; build first or pass the build dir" >&2; exit 2; }
LOADS=${LOADS:-"0.1 0.5"}
MODES=${MODES:-"seq opt2"}
REPS=${REPS:-1}
MPIEXEC=${MPIEXEC:-mpiexec}
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT
rows="$tmp/rows.csv"
: >"$rows"

# field LABEL FILE: the value after a label of the engine's statistics table.
field() { sed -n "s|^ *$1  *||p" "$2" | head -1 | tr -d ',%' | awk '{print $1}'; }

# run SCENARIO MODE REP CMD...: runs CMD, appends a CSV row.
run() {
    sc=$1 mode=$2 rep=$3
    shift 3
    out="$tmp/out"
    /usr/bin/time -f "%e %M %U" -o "$tmp/time" "$@" >"$out" 2>&1 || {
        echo "run failed: $*" >&2
        tail -3 "$out" >&2
    }
    read -r wall rss_kb cpu <<EOT
$(tail -1 "$tmp/time")
EOT
    ev=$(field "committed events" "$out")
    rate=$(field "committed events/s" "$out")
    eff=$(field "efficiency" "$out")
    run_s=$(field "run wall time (s)" "$out")
    rss=$(field "peak RSS (max rank)" "$out") # the ranks' own, not mpiexec's
    [ -n "$rss" ] || rss=$((rss_kb / 1024))
    dig=$(sed -n 's/.*committed digest: //p' "$out")
    echo "$sc,$mode,$rep,${ev:-},${rate:-},${eff:-},${run_s:-},$wall,$cpu,$rss,${dig:-},\"$*\"" >>"$rows"
}

cmd_for() { # MODE -> command prefix
    case $1 in
    seq) echo "$W" ;;
    opt*) echo "$MPIEXEC -n ${1#opt} $W --synch=opt" ;;
    esac
}

for load in $LOADS; do
    for mode in $MODES; do
        r=1
        while [ "$r" -le "$REPS" ]; do
            # shellcheck disable=SC2046
            run "q13-uniform-minimal-load$load" "$mode" "$r" $(cmd_for "$mode") \
                "$top/examples/configs/slimfly-q13.ini" --workload.load="$load" ${EXTRA:-}
            r=$((r + 1))
        done
    done
done
if [ "${SKIP_LARGE:-0}" != 1 ]; then
    run q37-describe seq 1 "$W" --describe "$top/examples/configs/slimfly-q37.ini"
    run q163-p19-describe seq 1 "$W" --describe "$top/examples/configs/slimfly-q37.ini" \
        --slimfly.q=163 --slimfly.p=19
    run q37-5us-load0.1 seq 1 "$W" "$top/examples/configs/slimfly-q37.ini"
fi

echo "scenario,mode,rep,committed,events_per_s,efficiency_pct,run_wall_s,process_wall_s,user_cpu_s,peak_rss_mb,digest,command"
cat "$rows"
# One line: per scenario and mode, the medians of events/s, run time, RSS.
sort -t, -k1,2 -k5,5n "$rows" | awk -F, '
    { key = $1 " " $2; n[key]++; v[key, n[key]] = $5 "/" $7 "/" $8 "/" $9 "/" $10; order[key] = ++seen }
    END {
        line = "median (events/s / run s / process s / user CPU s / RSS MB):"
        for (k in n) line = line " " k " " v[k, int((n[k] + 1) / 2)] ";"
        print line
    }'
