#!/usr/bin/env bash
# bench/overhead.sh — the optimistic scheduler's per-event cost against the
# sequential one on ONE process (issue 15): the same run under --synch=seq
# and --synch=opt (opt on one rank runs every event optimistically, with
# state saving, the processed lists and fossil collection, but no
# communication or rollback), measured two ways that a shared machine does
# not distort: instructions per committed event (valgrind's callgrind, the
# cost of a 1 ns run, i.e. setup, taken off) and CPU seconds (perf stat
# task-clock, REPS runs, the smallest kept). Prints one CSV row per
# scenario and mode.
#   bench/overhead.sh [SCENARIO ...]   (default: torus-32k slimfly-q13)
# Scenarios: torus-32k (torus-32k-codes.ini to END_TORUS, default 1us),
# slimfly-q13 (slimfly-q13.ini with no warmup to END_SF, default 5us).
# Needs valgrind and perf. WARPNET_BUILD selects the build (default _build).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
reps=${REPS:-3}
cfg=$top/examples/configs
bin=$build/tools/warpnet/.libs/warpnet # libtool's wrapper would be measured too
[ -x "$bin" ] || bin=$warpnet
export LD_LIBRARY_PATH=$build/.libs${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

args() {
    case $1 in
    torus-32k) echo "$cfg/torus-32k-codes.ini" ;;
    slimfly-q13) echo "$cfg/slimfly-q13.ini --workload.warmup=0ns" ;;
    *) echo "bench: unknown scenario $1" >&2; exit 2 ;;
    esac
}
end() {
    case $1 in
    torus-32k) echo "${END_TORUS:-1us}" ;;
    slimfly-q13) echo "${END_SF:-5us}" ;;
    esac
}
json() { sed -n "s/^ *\"$1\": *\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$2" | head -1; }
# instructions of one run (callgrind), its committed count and digest
instr() { # scenario synch end
    # shellcheck disable=SC2046
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" "$bin" $(args "$1") \
        --engine.end="$3" --synch="$2" --quiet --stats-json="$tmp/j" >/dev/null 2>"$tmp/log"
    echo "$(sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$tmp/log") $(json committed "$tmp/j") $(json committed_digest "$tmp/j")"
}
cpu() { # scenario synch end: the smallest task-clock of reps runs, in s
    local best="" t
    for _ in $(seq "$reps"); do
        # shellcheck disable=SC2046
        t=$(perf stat -x, -e task-clock "$bin" $(args "$1") --engine.end="$3" --synch="$2" \
            --quiet 2>&1 >/dev/null | sed -n 's/^\([0-9.]*\),msec,task-clock.*/\1/p')
        best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (b == "" || a < b) ? a : b }')
    done
    awk -v t="$best" 'BEGIN { printf "%.3f", t / 1000 }'
}

echo "scenario,synch,end,committed,instr_per_event,cpu_s,cpu_setup_s,digest,load"
scen=("$@")
[ ${#scen[@]} -gt 0 ] || scen=(torus-32k slimfly-q13)
for s in "${scen[@]}"; do
    e=$(end "$s")
    for m in seq opt; do
        read -r i0 c0 _ <<<"$(instr "$s" "$m" 1ns)"
        read -r i1 c1 d <<<"$(instr "$s" "$m" "$e")"
        ipe=$(awk -v a="$i1" -v b="$i0" -v n="$c1" -v m="$c0" 'BEGIN { printf "%.0f", (a - b) / (n - m) }')
        echo "$s,$m,$e,$c1,$ipe,$(cpu "$s" "$m" "$e"),$(cpu "$s" "$m" 1ns),$d,$(cut -d' ' -f1 /proc/loadavg)"
    done
done
