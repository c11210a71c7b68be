#!/bin/sh
# test_patterns.sh — the traffic patterns of the references (issue 48 item
# 4) against their theory bounds:
#  - bitrev, shuffle, tornado, bitcomp and randperm are permutations of the
#    ranks (fixed points included: bitrev and shuffle send rank 0 to
#    itself): on one 8-port output-queued switch each output link then
#    carries one source, so a fixed-interval source at full load is
#    accepted in full (>= 0.999), where uniform traffic, which contends
#    for outputs, is not (< 0.95); a pattern that mapped two ranks to one
#    would halve that output's sources' share;
#  - group-shift (BookSim's bad_dragon: a random terminal of the next
#    group) under minimal routing on the a = 4, p = 2, h = 2 dragonfly
#    squeezes each group's a·p terminals through the one global link to the
#    next group: accepted <= 1/(a·p) = 0.125 of injection, and within 10 %
#    of it; Valiant routing spreads it over every global link (> 2x);
#  - hotspot (BookSim's hotspot({spots},{weights}), issue 48 item 4): every
#    message goes to a spot drawn by weight, a spot to the others; on the
#    8-port output-queued switch each spot's output link takes at most 1, so
#    N = 8 nodes accept at most sum_j min(1, demand_j) / N: three equal spots
#    at full load 3/8 = 0.375 (and one spot 1/8, the incast bound); two spots
#    at offered 0.21 take 6 * 0.21 / 2 + 0.21 = 0.84 each, all of it, but
#    with weights 1,3 the heavy one is asked 6 * 0.21 * 3/4 + 0.21 = 1.155
#    and the bound is (1 + 6 * 0.21 / 4 + 0.21) / 8 = 0.1906;
#    a weighted hotspot commits one digest in seq, check and opt on 2
#    processes;
#  - tornado on an 8-router ring (each + link carries 3 flows: bound 1/3)
#    reaches its bound below saturation once the output-queued router's
#    VC buffers are deep (Poisson offered 0.3, 1 MiB: all of it), and not
#    with the run file's 4 KiB (16 packets; one VC class per link before the
#    dateline): the buffer depth, not the routing or the dateline, holds it
#    there (docs/validation.md, "Tornado on a ring");
#  - refusals: group-shift on a topology without groups, bitrev on a
#    number of ranks that is not a power of two, hotspot without spots or
#    with a spot out of range, twice, or more weights than spots, and the
#    hotspot keys with another pattern.
. "${top_srcdir:-.}/tests/net/lib.sh"
CONF="${top_srcdir:-.}/examples/configs"

cat > "$TMP/sw.ini" <<'INI'
[engine]
end = 40us
[network]
topology = torus
link_bandwidth = 1GB/s
link_latency = 1ns
router_delay = 1ns
packet_size = 16B
vc_buffer = 64B
router = output-queued
[torus]
dims = 1
nodes_per_router = 8
[workload]
arrivals = fixed
load = 1.0
message_size = 16B
warmup = 10us
INI
sw() { # PATTERN [ARGS...]: accepted load on the 8-port switch
    p=$1; shift
    "$WARPNET" --quiet "$TMP/sw.ini" --workload.pattern="$p" "$@" --out="$TMP/sw" > "$TMP/log" 2>&1 ||
        { cat "$TMP/log"; fail=1; }
    json "$TMP/sw/summary.json" accepted_load
}
for pat in bitrev shuffle tornado bitcomp randperm; do
    within "$pat on one 8-port switch, a permutation: every output link one source" "$(sw $pat)" 0.999 1.0001
done
within "uniform on the same switch contends for outputs" "$(sw uniform)" 0 0.95
within "hotspot, three equal spots at full load: 3 spot links of 8 nodes, 0.375" \
    "$(sw hotspot --workload.hotspots=0,1,2)" 0.35 0.3751
within "hotspot, one spot: the incast bound 1/8" "$(sw hotspot --workload.hotspots=5)" 0.12 0.1251
within "hotspot, two equal spots at offered 0.21: 0.84 of each spot link, all accepted" \
    "$(sw hotspot --workload.hotspots=0,1 --workload.load=0.21)" 0.2079 0.2101
within "hotspot, weights 1,3 at offered 0.21: the heavy spot asked 1.155, bound 0.1906" \
    "$(sw hotspot --workload.hotspots=0,1 --workload.hotspot_weights=1,3 --workload.load=0.21)" 0.17 0.1907

df() { # ROUTING: accepted load of group-shift on the a = 4, p = 2 dragonfly
    "$WARPNET" --quiet "$CONF/dragonfly-a4.ini" --dragonfly.routing="$1" --workload.pattern=group-shift \
        --workload.load=1.0 --end=20us --workload.warmup=5us --out="$TMP/df" > "$TMP/log" 2>&1 ||
        { cat "$TMP/log"; fail=1; }
    json "$TMP/df/summary.json" accepted_load
}
within "group-shift, minimal routing: one global link per group pair, 1/(a p) = 0.125" "$(df minimal)" 0.1125 0.1263
within "group-shift, Valiant routing: every global link" "$(df valiant)" 0.25 1.0

refused "group-shift without groups" "group-shift needs a topology of groups" "$WARPNET" \
    "$CONF/torus-8x8x8.ini" --workload.pattern=group-shift
refused "bitrev on 6 ranks" "bitrev needs a power-of-two number of ranks" "$WARPNET" "$TMP/sw.ini" \
    --torus.nodes_per_router=6 --workload.pattern=bitrev
ring() { # VC_BUFFER: accepted load of tornado at offered 0.3 on an 8-router ring
    "$WARPNET" --quiet "$CONF/torus-8x8x8.ini" --torus.dims=8 --workload.pattern=tornado --network.router=output-queued \
        --network.vc_buffer="$1" --workload.load=0.3 --end=60us --workload.warmup=10us --out="$TMP/ring" > "$TMP/log" 2>&1 ||
        { cat "$TMP/log"; fail=1; }
    json "$TMP/ring/summary.json" accepted_load
}
within "tornado on an 8-ring, 1 MiB VC buffers, offered 0.3 (bound 1/3): all of it" "$(ring 1MiB)" 0.285 0.31
within "the same with 4 KiB VC buffers: held back by credit" "$(ring 4KiB)" 0 0.25

# Drawn from the rank's own stream, so the same in every mode.
same_everywhere "hotspot with weights" "seq check opt2" "$CONF/torus-8x8x8.ini" --torus.dims=4,4 \
    --workload.pattern=hotspot --workload.hotspots=0,5,10 --workload.hotspot_weights=1,2 --end=3us
grep -q "committed digest" "$TMP/same.res" && echo "ok   hotspot: one digest in seq, check, opt on 2 processes"

refused "hotspot without spots" "hotspot needs \[workload\] hotspots" "$WARPNET" "$TMP/sw.ini" \
    --workload.pattern=hotspot
refused "a hotspot beyond the ranks" "hotspots = 0,8: value 2 is not a whole number from 0 to 7" \
    "$WARPNET" "$TMP/sw.ini" --workload.pattern=hotspot --workload.hotspots=0,8
refused "a hotspot twice" "rank 3 is listed twice" "$WARPNET" "$TMP/sw.ini" --workload.pattern=hotspot \
    --workload.hotspots=3,1,3
refused "more weights than spots" "3 weights for 2 hotspots" "$WARPNET" "$TMP/sw.ini" --workload.pattern=hotspot \
    --workload.hotspots=0,1 --workload.hotspot_weights=1,2,3
refused "hotspots with another pattern" "applies to pattern = hotspot only (pattern is uniform)" \
    "$WARPNET" "$TMP/sw.ini" --workload.hotspots=0,1
exit $fail
