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
#  - refusals: group-shift on a topology without groups, bitrev on a
#    number of ranks that is not a power of two.
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
sw() { # PATTERN: accepted load on the 8-port switch
    "$WARPNET" --quiet "$TMP/sw.ini" --workload.pattern="$1" --out="$TMP/sw" > "$TMP/log" 2>&1 ||
        { cat "$TMP/log"; fail=1; }
    json "$TMP/sw/summary.json" accepted_load
}
for pat in bitrev shuffle tornado bitcomp randperm; do
    within "$pat on one 8-port switch, a permutation: every output link one source" "$(sw $pat)" 0.999 1.0001
done
within "uniform on the same switch contends for outputs" "$(sw uniform)" 0 0.95

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
exit $fail
