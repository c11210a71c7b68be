#!/usr/bin/env bash
# bench/savestyle.sh — per-event cost of reverse computation, incremental
# saving (warp_save) and full copy, in seq, opt (1 rank) and debug modes.
#   bench/savestyle.sh [REPS] [WRITES] [STATE_BYTES]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${WARPNET_BUILD:-$(dirname "$here")/_build}
bin=$build/bench/savebench
[ -x "$bin" ] || { echo "bench: build first (./quickstart build); no $bin" >&2; exit 1; }
reps=${1:-3} writes=${2:-4} bytes=${3:-256}
json() { sed -n "s/^ *\"$1\": *\"\{0,1\}\([^\",]*\)\"\{0,1\},\{0,1\}$/\1/p" "$2" | head -1; }
mkdir -p "$here/results"
csv=$here/results/savestyle.csv
echo "style,synch,rep,committed,run_s,ns_per_event,rolled_back,digest,command" | tee "$csv"
for style in reverse save full; do for synch in seq opt debug; do for r in $(seq 1 "$reps"); do
    j=$(mktemp)
    cmd="$bin --style=$style --synch=$synch --writes=$writes --state-bytes=$bytes --end=2000 --quiet"
    $cmd --stats-json="$j" >/dev/null
    c=$(json committed "$j"); t=$(json run_s "$j")
    printf '%s,%s,%s,%s,%s,%.1f,%s,%s,"%s"\n' "$style" "$synch" "$r" "$c" "$t" \
        "$(awk -v t="$t" -v c="$c" 'BEGIN{print 1e9*t/c}')" "$(json rolled_back "$j")" \
        "$(json committed_digest "$j")" "$cmd" | tee -a "$csv"
    rm -f "$j"
done; done; done
echo "# median ns per committed event:"
for style in reverse save full; do for synch in seq opt debug; do
    printf '# %-8s %-6s %8s\n' "$style" "$synch" "$(awk -F, -v s="$style" -v y="$synch" '$1==s && $2==y {print $6}' "$csv" | sort -g | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}')"
done; done
