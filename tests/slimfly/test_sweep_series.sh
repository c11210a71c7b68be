#!/bin/sh
# warpnet sweep --series: one curve per routing in one sweep. Slim Fly q = 4
# (96 nodes) under worst-case traffic, loads 0.3 and 0.9, three routings:
# sweep.csv has the series column first and one row per series x point in
# series-major order; offered load follows the swept load; no series accepts
# more than offered; at 0.3 minimal routing takes 2 hops and Valiant more (at
# 0.9 minimal's packets of the window are still queued at the end); at 0.9
# minimal stays near its bound of 1/(2p) = 1/6 while Valiant and UGAL accept
# more. Two --series combine into every pair. PNGs when gnuplot is there.
. "${top_srcdir:-.}/tests/net/lib.sh"
CONF="${top_srcdir:-.}/examples/configs"
"$WARPNET" sweep "$CONF/slimfly-q5.ini" --vary workload.load=0.3:0.9:0.6 \
    --series slimfly.routing=minimal,valiant,ugal --slimfly.q=4 --workload.pattern=worst \
    --end=8us --workload.warmup=2us --title="q = 4, worst case" --out="$TMP/sw" > "$TMP/log" 2>&1 ||
    { cat "$TMP/log"; exit 1; }
csv="$TMP/sw/sweep.csv"
head -1 "$csv" | grep -q '^slimfly.routing,workload.load,offered_load,accepted_load,' &&
    echo "ok   header: $(head -1 "$csv" | cut -d, -f1-4)" || { echo "FAIL header: $(head -1 "$csv")"; fail=1; }
close "rows" "$(($(wc -l < "$csv") - 1))" 6
order=$(awk -F, 'NR > 1 { printf "%s:%s ", $1, $2 }' "$csv")
[ "$order" = "minimal:0.3 minimal:0.9 valiant:0.3 valiant:0.9 ugal:0.3 ugal:0.9 " ] &&
    echo "ok   series-major rows" || { echo "FAIL row order: $order"; fail=1; }
awk -F, 'NR > 1 { d = $3 - $2; if (d < 0) d = -d; if (d > 0.1 * $2) bad = 1
                  if ($4 > $3 * 1.02 + 0.01) bad = 1 }
         END { exit bad }' "$csv" && echo "ok   offered follows the load, accepted <= offered" ||
    { echo "FAIL loads"; cat "$csv"; fail=1; }
awk -F, '$2 == 0.3 && $1 == "minimal" && $9 != 2 { bad = 1 }
         $2 == 0.3 && $1 == "valiant" && $9 <= 2.5 { bad = 1 }
         $2 == 0.9 { acc[$1] = $4 }
         END { if (acc["minimal"] > 0.18 || acc["valiant"] < 2 * acc["minimal"] ||
                   acc["ugal"] < 2 * acc["minimal"]) bad = 1; exit bad }' "$csv" &&
    echo "ok   hops and worst-case throughput per routing" || { echo "FAIL per routing"; cat "$csv"; fail=1; }
[ -s "$TMP/sw/point-005/summary.json" ] && echo "ok   point-005 is the last point" ||
    { echo "FAIL no point-005"; fail=1; }

"$WARPNET" sweep "$CONF/slimfly-q5.ini" --vary workload.load=0.5:0.5:0.1 --slimfly.q=4 \
    --series workload.pattern=uniform,worst --series=slimfly.routing=minimal,ugal \
    --end=4us --workload.warmup=1us --out="$TMP/sw2" > "$TMP/log2" 2>&1 || { cat "$TMP/log2"; exit 1; }
pairs=$(awk -F, 'NR > 1 { printf "%s/%s ", $1, $2 }' "$TMP/sw2/sweep.csv")
[ "$pairs" = "uniform/minimal uniform/ugal worst/minimal worst/ugal " ] &&
    echo "ok   two --series: $pairs" || { echo "FAIL two --series: $pairs"; fail=1; }

if command -v gnuplot > /dev/null; then
    for p in throughput latency; do
        [ -s "$TMP/sw/$p.png" ] && echo "ok   $p.png" || { echo "FAIL no $p.png"; fail=1; }
    done
    grep -q "title 'ugal'" "$TMP/sw/plot.gp" && echo "ok   one curve per series" ||
        { echo "FAIL plot.gp"; cat "$TMP/sw/plot.gp"; fail=1; }
fi
exit $fail
