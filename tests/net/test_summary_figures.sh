#!/bin/sh
# test_summary_figures.sh — summary figures that looked valid but were not
# (issue 13): percentiles are clamped to the observed [min, max] (every
# LogGOPS message of loggp-64 takes L + 2o = 4000 ns, so p50 = p99 = max =
# 4000, where the histogram bin's middle said 3966); a latency with no
# packet sent after the warm-up delivered by the end is "none", not
# "mean 0" beside thousands of delivered packets.
. "${top_srcdir:-.}/tests/net/lib.sh"
C="${top_srcdir:-.}/examples/configs"
timeout 60 "$WARPNET" --quiet "$C/loggp-64.ini" --end=100us --out="$TMP/lg" > "$TMP/log" 2>&1 ||
    bad "loggp-64: exit $?: $(tail -3 "$TMP/log")"
for q in mean p50 p99 max; do
    close "loggp-64 packet latency $q" "$(json "$TMP/lg/summary.json" packet_latency_ns $q)" 4000
done
close "loggp-64 packets in the latency" "$(json "$TMP/lg/summary.json" latency_packets)" 320

# 200 GB/s links at load 0.5 of that: the NICs' queues hold everything
# sent after the 2 us warm-up until well past 5 us.
timeout 120 "$WARPNET" --quiet "$C/torus-8x8x8.ini" --network.link_bandwidth=200GB/s --end=5us \
    --out="$TMP/sat" > "$TMP/log" 2>&1 || bad "saturated torus: exit $?"
grep -q '^packet latency    none: no packets sent after the warm-up (2000 ns) arrived by the end' "$TMP/log" &&
    echo "ok   saturated torus: latency none" || bad "saturated torus: $(grep latency "$TMP/log")"
close "saturated torus packets in the latency" "$(json "$TMP/sat/summary.json" latency_packets)" 0
exit $fail
