#!/bin/sh
# bench/soak.sh — long-run stability: an optimistic 2-rank run of one network
# configuration for about DURATION seconds under memory pressure (a small
# --events pool forces GVT rounds and fossil collection all the time), with
# the RSS of both ranks sampled from /proc every INTERVAL seconds into a CSV.
# Then a sequential run of the same configuration and end time. Passes when
#   - both runs succeed and commit the same digest, and
#   - memory stays flat after the warm-up: of the samples taken after
#     WARMUP seconds, on each rank, the highest RSS of the last third
#     exceeds the highest of the first third by at most MARGIN_PCT percent
#     (plus 2 MiB for page-granularity noise). The warm-up (pools, send
#     buffers and the queue growing to their working size) is excluded:
#     memory that rises in it and then stays is not a leak.
# The end time is calibrated first: a short run of CAL_END measures the
# optimistic speed, and END is scaled so the long run takes about DURATION.
# The sequential reference then takes about as long again.
# Usage: bench/soak.sh [BUILD_DIR]
#   env: DURATION=1800 (seconds)  CONFIG=examples/configs/slimfly-q5.ini
#        EVENTS=24576 (per rank; the default pool is 1M)  INTERVAL=60
#        WARMUP=DURATION/6  MARGIN_PCT=5  CAL_END=50us
#        END= (skip the calibration: e.g. 20ms)
#        OUT=bench/results/soak (CSV, logs)  MPIEXEC=mpiexec
#        EXTRA= (more options for both runs, e.g. "--window=1us --slimfly.routing=ugal")
# Prints the settings, one line per sample, and a summary; exit 0 when both
# checks pass, 1 when one fails, 2 on a usage error. Never run by make check.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
W="$build/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "bench/soak.sh: $W not built; build first or pass the build dir" >&2; exit 2; }
DURATION=${DURATION:-1800}
CONFIG=${CONFIG:-$top/examples/configs/slimfly-q5.ini}
EVENTS=${EVENTS:-24576}
INTERVAL=${INTERVAL:-60}
WARMUP=${WARMUP:-$((DURATION / 6))}
MARGIN_PCT=${MARGIN_PCT:-5}
CAL_END=${CAL_END:-50us}
END=${END:-}
EXTRA=${EXTRA:-}
OUT=${OUT:-$top/bench/results/soak}
MPIEXEC=${MPIEXEC:-mpiexec}
[ -f "$CONFIG" ] || { echo "bench/soak.sh: CONFIG=$CONFIG: no such file" >&2; exit 2; }
mkdir -p "$OUT" || exit 2
csv="$OUT/rss.csv"

# field LABEL FILE: the value after a label of the engine's statistics table.
field() { sed -n "s|^ *$1  *||p" "$2" | head -1 | tr -d ',%' | awk '{print $1}'; }
digest() { sed -n 's/.*committed digest: *\([0-9a-f]*\).*/\1/p' "$1" | head -1; }

# The warpnet processes below PID (mpiexec -> proxy -> ranks), sorted.
ranks_of() {
    kids=$1 all=
    while [ -n "$kids" ]; do
        next=
        for p in $kids; do
            all="$all $p"
            next="$next $(ps -o pid= --ppid "$p" 2>/dev/null)"
        done
        kids=$(echo $next)
    done
    for p in $all; do
        case $(cat /proc/"$p"/comm 2>/dev/null) in *warpnet*) echo "$p" ;; esac
    done | sort -n
}

rss_kb() { awk '/^VmRSS:/ {print $2}' /proc/"$1"/status 2>/dev/null; }

opt_run() { # END LOG: the optimistic 2-rank run, in the background; sets pid
    # shellcheck disable=SC2086
    "$MPIEXEC" -n 2 "$W" --synch=opt --events="$EVENTS" "$CONFIG" --end="$1" $EXTRA >"$2" 2>&1 &
    pid=$!
}

if [ -z "$END" ]; then
    opt_run "$CAL_END" "$OUT/calibrate.log"
    wait "$pid" || { echo "bench/soak.sh: the calibration run failed:"; tail -3 "$OUT/calibrate.log"; exit 1; }
    cal_s=$(field 'run wall time (s)' "$OUT/calibrate.log") # without MPI start and setup
    END=$(awk -v c="$CAL_END" -v w="$cal_s" -v d="$DURATION" 'BEGIN {
        v = c + 0; u = substr(c, length(v "") + 1);
        printf "%.0f%s", v * d / (w > 0.1 ? w : 0.1), u }')
    echo "# calibration: --end=$CAL_END took $cal_s s; END=$END for about $DURATION s"
fi

echo "# soak: $CONFIG --synch=opt on 2 ranks --events=$EVENTS --end=$END $EXTRA, RSS every $INTERVAL s after a $WARMUP s warm-up -> $csv"
echo "# command: $MPIEXEC -n 2 $W --synch=opt --events=$EVENTS $CONFIG --end=$END $EXTRA"
t0=$(date +%s)
opt_run "$END" "$OUT/opt.log"
# Both ranks, once started (setup of a large network takes a while).
ranks=
while kill -0 "$pid" 2>/dev/null; do
    ranks=$(ranks_of "$pid")
    set -- $ranks
    [ $# -ge 2 ] && break
    sleep 1
done
set -- $ranks
[ $# -eq 2 ] || echo "bench/soak.sh: warning: found $# warpnet ranks under mpiexec ($ranks)" >&2
echo "elapsed_s,rank0_rss_kb,rank1_rss_kb" >"$csv"
while kill -0 "$pid" 2>/dev/null; do
    row="$(($(date +%s) - t0))"
    for p in $ranks; do row="$row,$(rss_kb "$p")"; done
    case $row in *,) ;; *,*,*) echo "$row" >>"$csv"; echo "$row" ;; esac
    sleep "$INTERVAL"
done
wait "$pid"
rc_opt=$?
wall_opt=$(($(date +%s) - t0))
t0=$(date +%s)
# shellcheck disable=SC2086
"$W" --synch=seq "$CONFIG" --end="$END" $EXTRA >"$OUT/seq.log" 2>&1
rc_seq=$?
wall_seq=$(($(date +%s) - t0))

fail=0
d_opt=$(digest "$OUT/opt.log") d_seq=$(digest "$OUT/seq.log")
echo "# optimistic: exit $rc_opt, $wall_opt s, digest ${d_opt:-none}, committed $(field 'committed events' "$OUT/opt.log"), efficiency $(field 'efficiency' "$OUT/opt.log") %, GVT rounds $(field 'GVT rounds' "$OUT/opt.log"), peak event memory $(field 'peak event memory (max rank)' "$OUT/opt.log") MB"
echo "# sequential: exit $rc_seq, $wall_seq s, digest ${d_seq:-none}"
if [ "$rc_opt" -ne 0 ] || [ "$rc_seq" -ne 0 ] || [ -z "$d_opt" ] || [ "$d_opt" != "$d_seq" ]; then
    echo "FAIL: digest: optimistic ${d_opt:-none} (exit $rc_opt) vs sequential ${d_seq:-none} (exit $rc_seq); logs in $OUT"
    fail=1
else
    echo "ok: digest $d_opt equals the sequential run's"
fi
# Memory after the warm-up: per rank, max of the last third vs max of the
# first third.
if ! awk -F, -v m="$MARGIN_PCT" -v w="$WARMUP" 'NR > 1 && $1 >= w { n++; t[n] = $1; for (c = 2; c <= NF; c++) v[n, c] = $c; nc = NF }
    END {
        if (n < 6) { printf "FAIL: memory: only %d samples after the %d s warm-up (need 6: raise DURATION or lower INTERVAL or WARMUP)\n", n, w; exit 1 }
        third = int(n / 3); bad = 0
        for (c = 2; c <= nc; c++) {
            a = 0; b = 0
            for (i = 1; i <= third; i++) if (v[i, c] > a) a = v[i, c]
            for (i = n - third + 1; i <= n; i++) if (v[i, c] > b) b = v[i, c]
            lim = a * (1 + m / 100) + 2048
            dt = t[n] - t[n - third + 1]
            rate = dt > 0 ? (v[n, c] - v[n - third + 1, c]) * 60 / dt : 0
            printf "%s: memory rank %d after the %d s warm-up: first third max %d kB, last third max %d kB (limit %d kB), %d samples; last third grew %.0f kB/min\n",
                   (b <= lim ? "ok" : "FAIL"), c - 2, w, a, b, lim, n, rate
            if (b > lim) bad = 1
        }
        exit bad
    }' "$csv"; then
    fail=1
fi
exit $fail
