#!/bin/sh
# bench/huge_pages.sh — CPU per committed event with each --huge-pages
# setting, in a late window of one sequential run (issue 18): CPU time
# (user + sys from /proc/PID/stat, sampled beside a --heartbeat=0.5 file) between
# the first heartbeat at GVT >= T0 and the end, over the events committed
# in between; also the setup's CPU (up to the first heartbeat), the huge
# pages the process held (AnonHugePages of its smaps, the last sample) and
# peak RSS. Prints CSV with the exact command per row, then one line per setting.
# Usage: bench/huge_pages.sh RUNFILE T0 [SETTINGS [REPEATS [ARGS...]]]
#   e.g. bench/huge_pages.sh examples/configs/slimfly-q163.ini 299 "off on" 1 --engine.end=400ns
. "$(dirname "$0")/lib.sh"
ini=$1; t0=$2; settings=${3:-"off on auto"}; reps=${4:-1}
shift 2; [ $# -gt 0 ] && shift; [ $# -gt 0 ] && shift
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
tck=$(getconf CLK_TCK)
echo "setting,rep,setup_cpu_s,window_cpu_s,window_events,ns_per_event,huge_kb,peak_rss_kb,digest,command"
for i in $(seq 1 "$reps"); do
    for h in $settings; do
        : >"$T/hb"; : >"$T/samples"
        "$warpnet" "$ini" --synch=seq --huge-pages="$h" --heartbeat=0.5 --heartbeat-file="$T/hb" "$@" >"$T/out" 2>&1 &
        pid=$!
        while kill -0 "$pid" 2>/dev/null; do
            cpu=$(awk '{print $14 + $15}' "/proc/$pid/stat" 2>/dev/null)
            hp=$(awk '/^AnonHugePages/ {s += $2} END {print s + 0}' "/proc/$pid/smaps" 2>/dev/null)
            rss=$(awk '/^VmHWM/ {print $2}' "/proc/$pid/status" 2>/dev/null)
            last=$(tail -n 1 "$T/hb")
            [ -n "$cpu" ] && echo "$cpu $hp $rss $last" >>"$T/samples"
            sleep 0.5
        done
        wait "$pid"
        dig=$(sed -n 's/^  committed digest: //p' "$T/out")
        # fields: cpu huge rss "wall" W s "gvt" G ... "committed" C
        awk -v t0="$t0" -v tck="$tck" -v h="$h" -v i="$i" -v dig="$dig" -v cmd="$warpnet $ini --synch=seq --huge-pages=$h $*" '
            { g = ""; c = ""; for (k = 4; k <= NF; k++) { if ($k == "gvt") g = $(k + 1); if ($k == "committed") c = $(k + 1) } }
            g != "" && setup == "" { setup = $1 / tck }
            g != "" && g + 0 >= t0 && c0 == "" { c0 = c; cpu0 = $1 }
            g != "" { c1 = c; cpu1 = $1 }
            $2 + 0 > 0 { hp = $2 } $3 + 0 > 0 { rss = $3 }
            END {
                n = c1 - c0; cpu = (cpu1 - cpu0) / tck
                printf "%s,%d,%.2f,%.2f,%d,%.0f,%d,%d,%s,%s\n", h, i, setup, cpu, n, (n > 0 ? 1e9 * cpu / n : 0), hp, rss, dig, cmd
            }' "$T/samples"
    done
done
