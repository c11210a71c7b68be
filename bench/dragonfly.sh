#!/bin/sh
# bench/dragonfly.sh — issue 16's dragonfly benchmark. The CODES synthetic
# dragonfly (examples/configs/dragonfly-codes-1056.ini: 33 groups of a = 8,
# p = 4, h = 4, 1,056 nodes; 5 messages of 2,048 B (CODES's PAYLOAD_SZ) per
# node, one every 1 us on average, uniform; CODES's adaptive routing as
# UGAL-L) sequentially and
# optimistically on 2 ranks, and with UGAL-G; then the 16,512-node
# a = 16, p = h = 8 network built by --describe and run for 2 us.
# Reference: CODES ran the same scenario sequentially in 17.3 s wall with a
# 6.3 GB peak RSS (6.03 M events of 32-byte chunks) on this machine kind.
# Prints CSV (header, one row per run with its exact command), then one line
# of medians per case. delivered_* and last_delivery_ns come from the run's
# summary.json: a finite workload is accepted in full when every message is
# delivered (accepted = offered load over the 50 us window).
# Usage: bench/dragonfly.sh [BUILD_DIR]   env: REPS=3 MPIEXEC=mpiexec
#        CASES=. (grep -E pattern on case names, e.g. 'codes')
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$top/_build}
W="$build/tools/warpnet/warpnet"
C="$top/examples/configs"
[ -x "$W" ] || { echo "bench/dragonfly.sh: $W not built; build first or pass the build dir" >&2; exit 2; }
REPS=${REPS:-3}
MPIEXEC=${MPIEXEC:-mpiexec}
PICK=${CASES:-.}
tmp=$(mktemp -d) || exit 3
trap 'rm -rf "$tmp"' EXIT

# field LABEL FILE: the value after a label of the engine's statistics table.
field() { sed -n "s|^ *$1  *||p" "$2" | head -1 | tr -d ',%' | awk '{print $1}'; }
# sum KEY: a number from the run's summary.json.
sum() { sed -n "s/.*\"$1\": \([-0-9.eE+]*\).*/\1/p" "$tmp/o/summary.json" 2>/dev/null | head -1; }

# row CASE REP CMD...: one timed run, one CSV row.
row() {
    c=$1 rep=$2
    shift 2
    rm -rf "$tmp/o"
    /usr/bin/time -f "%e %M %U" -o "$tmp/time" "$@" >"$tmp/out" 2>&1 ||
        { echo "$c,$rep,FAILED,,,,,,,,,,,\"$*\""; tail -3 "$tmp/out" >&2; return; }
    read -r wall rss_kb cpu <<EOT
$(tail -1 "$tmp/time")
EOT
    rss=$(field "peak RSS (max rank)" "$tmp/out")
    [ -n "$rss" ] || rss=$(awk -v k="$rss_kb" 'BEGIN { printf "%.1f", k / 1024 }')
    echo "$c,$rep,$(field "committed events" "$tmp/out"),$(field "committed events/s" "$tmp/out"),$(field efficiency "$tmp/out"),$(field "run wall time (s)" "$tmp/out"),$wall,$cpu,$rss,$(sum delivered_messages),$(sum accepted_gbps_per_node),$(sum last_delivery_ns),$(sed -n 's/.*committed digest: //p' "$tmp/out"),\"$*\""
}
one() { # CASE CMD...: REPS runs
    echo "$1" | grep -Eq -- "$PICK" || return 0
    c=$1
    shift
    for i in $(seq 1 "$REPS"); do row "$c" "$i" "$@"; done
}
cases() {
    one codes-seq "$W" "$C/dragonfly-codes-1056.ini" --synch=seq --out="$tmp/o"
    one codes-opt2 $MPIEXEC -n 2 "$W" "$C/dragonfly-codes-1056.ini" --synch=opt --out="$tmp/o"
    one codes-ugal-g-seq "$W" "$C/dragonfly-codes-1056.ini" --dragonfly.routing=ugal-g --synch=seq \
        --out="$tmp/o"
    one a16-describe "$W" --describe "$C/dragonfly-a16p8h8.ini"
    one a16-2us-seq "$W" "$C/dragonfly-a16p8h8.ini" --end=2us --workload.warmup=1us --synch=seq \
        --out="$tmp/o"
}
echo "case,rep,committed,event_rate,efficiency,run_s,wall_s,user_cpu_s,peak_rss_mb,delivered_messages,accepted_gbps_per_node,last_delivery_ns,digest,command"
cases | tee "$tmp/csv"
echo "median: case wall_s user_cpu_s peak_rss_mb event_rate"
for c in $(cut -d, -f1 "$tmp/csv" | uniq); do
    med() { grep "^$c," "$tmp/csv" | grep -v FAILED | cut -d, -f"$1" | sort -g |
        awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
    echo "median: $c $(med 7) $(med 8) $(med 9) $(med 4)"
done
