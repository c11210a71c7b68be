#!/bin/sh
# test_dragonflyplus_run.sh — the real warpnet binary on the Dragonfly+
# (models/dragonflyplus/README.md has the derivations):
#  - --describe: groups, leaf-spine and global links, links per group pair
#    and diameter from the formulas;
#  - zero-load latency of one message, minimal routing, on the three path
#    lengths (same leaf, same group, another group), cut-through and
#    store-and-forward, links of three kinds with their own latencies;
#  - throughput at 100 % load on 9 groups of 4 leaves and 4 spines (p = 4,
#    h = 2, 144 nodes): minimal under the group shift is held by the one
#    global link from group i to i+1, 1/(L·p) = 0.0625 (half that with
#    global links at half speed); uniform minimal (output-queued) reaches
#    the global bound (N-1)/(L·p)² = 0.5586; Valiant stays below
#    (g-2)/(2·L·p) = 0.219 under the shift and (N-1)/(2(L·p)²) = 0.279
#    uniform; PAR beats minimal under the shift;
#  - deadlock freedom: every routing, uniform and shift, 100 % load through
#    buffers of 2 packets per VC, on g = 9 and g = 5 (2 links per pair):
#    all packets delivered;
#  - determinism: seq, check and opt on 1, 2 and 4 ranks commit one digest;
#  - configuration errors: one line, exit 2, naming the key.
. "${top_srcdir:-.}/tests/net/lib.sh"
. "${top_srcdir:-.}/tests/dragonfly/dfly_lib.sh"
SECTION=dragonflyplus PER_GROUP=16 DRAIN_END=300us
CONF="${top_srcdir:-.}/examples/configs"
INI="$CONF/dragonflyplus-small.ini"

# g = S·h + 1 = 9, routers g(L+S) = 72, nodes g·L·p = 144, leaf-spine links
# g·L·S = 144, global g·S·h/2 = 36; with g = 5: 4 others for 8 ports, 2
# links per pair, 5·8/2 = 20 global links.
"$WARPNET" --describe "$INI" > "$TMP/d" 2>&1 || { cat "$TMP/d"; exit 1; }
for line in "nodes: 144" "routers: 72" "groups: 9" "leaf_spine_links: 144" "global_links: 36" \
    "links: 180" "radix: 8" "global_ports_per_group: 8" "links_per_group_pair: 1" "diameter: 3" "vcs: 1"; do
    grep -qx "$line" "$TMP/d" && echo "ok   describe $line" || { echo "FAIL describe: no '$line'"; cat "$TMP/d"; fail=1; }
done
"$WARPNET" --describe "$INI" --dragonflyplus.g=5 --dragonflyplus.routing=par > "$TMP/d" 2>&1 || { cat "$TMP/d"; exit 1; }
for line in "global_links: 20" "leaf_spine_links: 80" "links_per_group_pair: 2" "vcs: 2"; do
    grep -qx "$line" "$TMP/d" && echo "ok   describe g=5 $line" || { echo "FAIL describe g=5: no '$line'"; cat "$TMP/d"; fail=1; }
done

# Zero load from terminal 0 (leaf 0, group 0): terminal 1 on the same leaf
# (H = 0), terminal 4 on leaf 1 (H = 2: up, down), terminal 16 in group 1
# (H = 3: up, global, down).
P=256; B=12.5; G=4.7; LT=10; LL=20; LG=300; D=100
for sw in cut-through store-forward; do
    for n in 1 4; do
        zero 1 $n $sw 0 0 0
        zero 4 $n $sw 2 2 0
        zero 16 $n $sw 3 2 1
    done
done

within "minimal, shift: one global link per L*p = 16 terminals" \
    "$(accepted mw "$INI" --workload.pattern=worst)" 0.060 0.0626
within "minimal, shift, global links at half speed" \
    "$(accepted mw2 "$INI" --workload.pattern=worst --dragonflyplus.global_bandwidth=50Gbps)" 0.030 0.0313
within "minimal, uniform (output-queued): the global bound (N-1)/(L*p)^2" \
    "$(accepted mu "$INI" --network.router=output-queued)" 0.50 0.5587
within "valiant, shift: below (g-2)/(2*L*p) = 0.219" \
    "$(accepted vw "$INI" --workload.pattern=worst --dragonflyplus.routing=valiant)" 0.16 0.2188
within "valiant, uniform: below (N-1)/(2*(L*p)^2) = 0.279" \
    "$(accepted vu "$INI" --dragonflyplus.routing=valiant)" 0.21 0.2794
within "par, shift: well above minimal's 0.0625" \
    "$(accepted pw "$INI" --workload.pattern=worst --dragonflyplus.routing=par)" 0.15 0.2188

for routing in minimal valiant ugal par; do
    for pattern in uniform worst; do
        drain "$routing" "$pattern" 9 20
        drain "$routing" "$pattern" 5 20
    done
    same_everywhere "$routing" "seq check opt1 opt2 opt4" "$INI" --dragonflyplus.routing="$routing" \
        --workload.load=0.8 --end=3us --workload.warmup=1us
    echo "ok   $routing: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in seq, check, opt on 1, 2, 4 ranks"
done

refuse() { # name pattern options...
    name=$1 pat=$2; shift 2
    refused "$name" "$pat" "$WARPNET" --quiet "$INI" "$@"
}
refuse "valiant with 1 VC" "needs 2 VCs" --dragonflyplus.routing=valiant --dragonflyplus.vcs=1
refuse "more groups than spines*h + 1" "lower g to at most 9" --dragonflyplus.g=10
refuse "leaves missing" "\[dragonflyplus\] leaves" --dragonflyplus.leaves=
refuse "level_links out of range" "level_links" --dragonflyplus.level_links=17
refuse "unknown routing" "routing" --dragonflyplus.routing=ugal-l
refuse "global buffer below a packet" "global_vc_buffer" --dragonflyplus.global_vc_buffer=100B
exit $fail
