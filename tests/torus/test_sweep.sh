#!/bin/sh
# warpnet sweep: one CSV row per point, offered load tracks the swept load,
# accepted never exceeds offered by more than noise, accepted_pct_of_reference
# (last column) is the accepted load over the reference (50 % of injection),
# and PNGs when gnuplot is there.
. "${top_srcdir:-.}/tests/net/lib.sh"
"$WARPNET" sweep "${top_srcdir:-.}/examples/configs/torus-8x8x8.ini" --vary workload.load=0.2:0.6:0.2 \
    --torus.dims=4,4 --end=4us --workload.warmup=1us --network.reference_bandwidth=50% \
    --out="$TMP/sw" > "$TMP/log" 2>&1 \
    || { cat "$TMP/log"; exit 1; }
close "rows" "$(($(wc -l < "$TMP/sw/sweep.csv") - 1))" 3
awk -F, 'NR > 1 { d = $2 - $1; if (d < 0) d = -d; if (d > 0.1 * $1) bad = 1 }
         END { exit bad }' "$TMP/sw/sweep.csv" && echo "ok   offered load follows the swept load" \
    || { echo "FAIL offered load"; cat "$TMP/sw/sweep.csv"; fail=1; }
head -1 "$TMP/sw/sweep.csv" | grep -q ',accepted_pct_of_reference$' || { echo "FAIL header"; fail=1; }
awk -F, 'NR > 1 { want = 200 * $3; d = $NF - want; if (d < 0) d = -d; if ($NF == "" || d > 1e-4 * want) bad = 1 }
         END { exit bad }' "$TMP/sw/sweep.csv" && echo "ok   accepted_pct_of_reference = accepted / 0.5" \
    || { echo "FAIL accepted_pct_of_reference"; cat "$TMP/sw/sweep.csv"; fail=1; }
if command -v gnuplot > /dev/null; then
    for p in throughput latency; do
        [ -s "$TMP/sw/$p.png" ] && echo "ok   $p.png" || { echo "FAIL no $p.png"; fail=1; }
    done
fi
exit $fail
