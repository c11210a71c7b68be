#!/bin/sh
# test_failures.sh — failed links and routers ([network] failed_links,
# failed_fraction; models/net/failures.h) on packet topologies:
#  - a failed link is routed around: on a 4x4 HyperX with the link between
#    routers (0,0) and (1,0) failed, a message from terminal 0 to terminal 4
#    takes H = 2 hops (it took 1), at the zero-load closed form for H = 2;
#  - a failed router: spine 8 of the anynet leaf-spine takes its 8 links
#    down, the diameter stays 2, and the cut between the index halves
#    (leaves 0-5 | leaves 6-7 and the spines: 24 links of 12.5 GB/s) loses
#    a quarter;
#  - failed_fraction: 1 % of the 16-port 3-tree's 2,048 switch links fail
#    (20), 4 VCs for 4 hops; the dragonfly at 100 % load with 5 % of its
#    links failed and 2-packet buffers drains every packet (table routing
#    with a VC per hop is deadlock-free); one digest in seq, check and opt
#    on 2 and 4 ranks with failures;
#  - adaptive table routing (failure_routing, auto where the topology's own
#    routing adapts): on the 8-port 3-tree (128 nodes) with 5 % of its
#    links failed at 100 % load the least occupied minimal next hop accepts
#    more than the ECMP hash (simulated: 0.432 -> 0.484 uniform, 0.464 ->
#    0.593 worst case); --describe and the summary say which; one digest
#    in seq, check and opt on 2 and 4 ranks;
#  - refused with the reason: failures that disconnect nodes, a port that
#    leads to a node, a router that holds nodes, a bad line, and a torus
#    whose diameter around the failures needs more VCs than a port has.
. "${top_srcdir:-.}/tests/net/lib.sh"
CONF="${top_srcdir:-.}/examples/configs"
HX="$CONF/hyperx-4x4.ini"

# Zero load around a failed link: port 0 of router 0 is its link to
# router 1 (dimension 0, coordinate 1).
echo "0 0   # (0,0) - (1,0)" > "$TMP/hx.failed"
P=256; B=12.5; LT=10; LL=30; D=100
for n in 1 4; do
    "$WARPNET" --quiet "$HX" --network.failed_links="$TMP/hx.failed" --workload.pattern=pair \
        --workload.src=0 --workload.dst=4 --workload.count=1 --workload.message_size=$((n * P))B \
        --workload.start=1us --workload.warmup=0us --network.router_delay=${D}ns \
        --hyperx.terminal_latency=${LT}ns --hyperx.link_latency=${LL}ns --end=20us --out="$TMP/z" \
        > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; continue; }
    want=$(awk -v n=$n 'BEGIN { print n * '$P' / '$B' + 2 * '$LT' + 2 * '$LL' + 3 * '$D' }')
    close "around a failed link, $n packets, cut-through, H=2" "$(json "$TMP/z/summary.json" message_latency_ns mean)" "$want" 1e-5
    close "  hops" "$(json "$TMP/z/summary.json" hops_mean)" 2
done
grep -q "^routing *table around failures" "$TMP/log" && echo "ok   the summary names the table routing" ||
    bad "the summary does not name the table routing: $(grep '^routing' "$TMP/log")"

# A failed router (a spine, no nodes).
echo "8" > "$TMP/ls.failed"
"$WARPNET" --describe "$CONF/graph-leafspine.ini" --graph.file="$CONF/leafspine-8x4.anynet" \
    --network.failed_links="$TMP/ls.failed" > "$TMP/d" 2>&1 || { cat "$TMP/d"; exit 1; }
for line in "failed_links: 8 of 32 router links" "failed_routers: 1" "diameter_after_failures: 2" \
    "cut_GBps: 225 of 300 left (the links between the topology's two partition halves)"; do
    grep -qx "$line" "$TMP/d" && echo "ok   describe failed spine $line" || { bad "describe failed spine: no '$line'"; cat "$TMP/d"; }
done

# failed_fraction on the shipped fat-tree: 20 of 2,048 links.
"$WARPNET" --describe "$CONF/fattree-16p3l-failed.ini" > "$TMP/d" 2>&1 || { cat "$TMP/d"; exit 1; }
for line in "failed_links: 20 of 2048 router links" "diameter_after_failures: 4" "vcs: 4"; do
    grep -qx "$line" "$TMP/d" && echo "ok   describe fat-tree 1 % $line" || { bad "describe fat-tree 1 %: no '$line'"; cat "$TMP/d"; }
done
grep -q "^cut_GBps: " "$TMP/d" && echo "ok   describe fat-tree 1 %: $(grep '^cut_GBps' "$TMP/d")" || bad "no cut line"

# Deadlock freedom around failures: 72 nodes x 30 one-packet messages.
for pat in uniform worst; do
    out="$TMP/drain-$pat"
    "$WARPNET" "$CONF/dragonfly-a4.ini" --network.failed_fraction=0.05 --workload.pattern=$pat \
        --workload.load=1.0 --workload.count=30 --end=200us --workload.warmup=0us \
        --network.vc_buffer=512B --quiet > "$out" 2>&1 || { bad "dragonfly drain $pat exits $?"; tail -3 "$out"; continue; }
    grep -q "^packets .*injected 2160, delivered 2160\$" "$out" &&
        echo "ok   dragonfly, 5 % failed, $pat at 100 %: all 2160 packets delivered" ||
        bad "dragonfly $pat with failures: not all 2160 packets delivered (deadlock?): $(grep -E '^(packets|conservation)' "$out")"
done

small_fattree "$TMP/ft.ini"
same_everywhere "fat-tree, 3 % failed" "seq check opt2 opt4" "$TMP/ft.ini" --network.failed_fraction=0.03 \
    --network.failed_seed=7
echo "ok   fat-tree with failures: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in seq, check, opt on 2, 4 ranks"

# Adaptive table routing around failures.
FT8="$CONF/fattree-8p3l.ini"
for pat in uniform worst; do
    st=$(accepted "st-$pat" "$FT8" --network.failed_fraction=0.05 --network.failure_routing=static --workload.pattern=$pat)
    ad=$(accepted "ad-$pat" "$FT8" --network.failed_fraction=0.05 --network.failure_routing=adaptive --workload.pattern=$pat)
    gain=$([ $pat = uniform ] && echo 0.025 || echo 0.06)
    awk -v s="$st" -v a="$ad" -v g=$gain 'BEGIN { exit !(s > 0.3 && a >= s + g) }' &&
        echo "ok   fat-tree 5 % failed, $pat at 100 %: adaptive table accepts $ad, static $st" ||
        bad "fat-tree 5 % failed, $pat: adaptive accepts '$ad', static '$st' (want at least $gain more)"
done
grep -q "^routing *adaptive table around failures" "$TMP/ad-worst" && echo "ok   the summary names the adaptive table" ||
    bad "the summary does not name the adaptive table: $(grep '^routing' "$TMP/ad-worst")"
for r in ecmp:static adaptive:adaptive; do
    "$WARPNET" --describe "$FT8" --network.failed_fraction=0.05 --fattree.routing=${r%:*} > "$TMP/d" 2>&1 || { cat "$TMP/d"; exit 1; }
    grep -q "^failure_routing: ${r#*:} shortest-path table" "$TMP/d" &&
        echo "ok   fat-tree routing ${r%:*}, failure_routing auto: $(grep '^failure_routing' "$TMP/d")" ||
        bad "fat-tree routing ${r%:*}: failure_routing not ${r#*:}: $(grep '^failure_routing' "$TMP/d")"
done
for t in "$CONF/dragonfly-a8-failed.ini --dragonfly.routing=ugal-l" "$CONF/dragonfly-a8-failed.ini --dragonfly.routing=par" \
    "$CONF/dragonflyplus-small.ini --network.failed_fraction=0.02 --dragonflyplus.routing=ugal" \
    "$HX --network.failed_fraction=0.02 --hyperx.routing=dal" "$CONF/slimfly-q5.ini --network.failed_fraction=0.02 --slimfly.routing=ugal"; do
    # shellcheck disable=SC2086
    "$WARPNET" --describe $t > "$TMP/d" 2>&1 || { cat "$TMP/d"; fail=1; continue; }
    grep -q "^failure_routing: adaptive " "$TMP/d" && echo "ok   auto is adaptive for $t" ||
        bad "$t: failure_routing not adaptive: $(grep '^failure_routing' "$TMP/d")"
done
same_everywhere "fat-tree, 3 % failed, adaptive" "seq check opt2 opt4" "$TMP/ft.ini" --network.failed_fraction=0.03 \
    --network.failed_seed=7 --network.failure_routing=adaptive --workload.load=0.9
echo "ok   fat-tree with failures, adaptive: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in seq, check, opt on 2, 4 ranks"

# Refusals: one line, exit 2.
printf '0 0\n0 1\n0 2\n0 3\n' > "$TMP/cut.failed" # leaf 0's four uplinks
refused "leaf 0 cut off" "router 0 cannot reach router 1 (both hold nodes): the failures disconnect the network" \
    "$WARPNET" --quiet "$CONF/graph-leafspine.ini" --graph.file="$CONF/leafspine-8x4.anynet" --network.failed_links="$TMP/cut.failed"
echo "0 6" > "$TMP/term.failed"
refused "a port to a node" "term.failed:1: port 6 of router 0 does not lead to a router" \
    "$WARPNET" --quiet "$HX" --network.failed_links="$TMP/term.failed"
echo "3" > "$TMP/r.failed"
refused "a router with nodes" "router 3 holds nodes" "$WARPNET" --quiet "$HX" --network.failed_links="$TMP/r.failed"
echo "0 x" > "$TMP/x.failed"
refused "a bad line" "x.failed:1: not \`ROUTER PORT\` or \`ROUTER\`" "$WARPNET" --quiet "$HX" --network.failed_links="$TMP/x.failed"
refused "torus 8x8x8, diameter past the VCs" "longest shortest path has 1[2-9] router hops" \
    "$WARPNET" --quiet "$CONF/torus-8x8x8.ini" --network.failed_fraction=0.01
exit $fail
