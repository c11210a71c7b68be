#!/bin/sh
# Generalised fat-trees through the real binary: --describe sizes against the
# XGFT closed forms (the Summit tree pruned as CODES prunes it, written both
# ways; a tapered leaf-spine; BookSim's 4-ary 3-tree), zero-load latency of
# one message across a folded top and a leaf-spine against the closed form,
# 100 % load delivered with every routing, the new keys' errors, and one
# digest in seq, check, debug and opt on 2 ranks (4 with WARP_LONG=1) for
# D-mod-k, adaptive and per-packet ECMP on a pruned, folded, tapered tree;
# the shipped XGFT run files in seq and check.
. "${top_srcdir:-.}/tests/net/lib.sh"

describe() { # name want-nodes want-routers want-links want-radix [switches/level] keys...
    name=$1 nodes=$2 routers=$3 links=$4 radix=$5 per=$6; shift 6
    { printf '[network]\ntopology = fattree\n[fattree]\n'; for kv in "$@"; do echo "$kv"; done; } > "$TMP/d.ini"
    "$WARPNET" --describe "$TMP/d.ini" > "$TMP/desc" 2>&1 || { cat "$TMP/desc"; fail=1; return; }
    field() { sed -n "s/^$1: \([0-9,]*\).*/\1/p" "$TMP/desc"; }
    close "$name: nodes" "$(field nodes)" "$nodes"
    close "$name: routers" "$(field routers)" "$routers"
    close "$name: switch links" "$(field links)" "$links"
    close "$name: radix" "$(field radix)" "$radix"
    [ "$(field switches_per_level)" = "$per" ] && echo "ok   $name: switches per level $per" ||
        bad "$name: switches per level $(field switches_per_level), want $per"
}
# Summit: 11 pods of 18 x 18 nodes; leaves and spines 11 x 18 = 198 each,
# cores 18 x 18 / 3 = 108; links: 198 x 18 leaf-spine + 198 x 18 spine-core
describe "Summit (ports, nodes)" 3564 504 7128 36 198,198,108 ports=36 levels=3 nodes=3564
describe "Summit (down, up, top_fold)" 3564 504 7128 36 198,198,108 down=18,18,11 up=1,18,18 top_fold=3
# BookSim's 4-ary 3-tree: 64 nodes, 16 switches per level, radix 8
describe "4-ary 3-tree" 64 48 128 8 16,16,16 down=4,4,4 up=1,4,4
close "4-ary 3-tree bisection: full" \
    "$(sed -n 's/^bisection_GBps: [^ ]* (\([0-9.]*\) of injection)/\1/p' "$TMP/desc")" 1
# leaf-spine, 3:1 at the leaves: 32 racks of 24, 8 spines of 32 ports; 32 x 8 links
describe "leaf-spine 3:1" 768 40 256 32 32,8 down=24,32 up=1,8
close "leaf-spine 3:1 bisection: 1/3 of injection" \
    "$(sed -n 's/^bisection_GBps: [^ ]* (\([0-9.]*\) of injection)/\1/p' "$TMP/desc")" 0.3333 1e-4

run_ini() { # routing ecmp pattern load count end switching keys...
    r=$1 e=$2 pat=$3 load=$4 count=$5 end=$6 sw=$7; shift 7
    cat <<INI
[engine]
end = $end
[network]
topology = fattree
link_latency = 50ns
terminal_latency = 20ns
router_delay = 90ns
packet_size = 256B
vc_buffer = 1KiB
switching = $sw
link_bandwidth = 10GB/s
[fattree]
routing = $r
ecmp = $e
INI
    for kv in "$@"; do echo "$kv"; done
    cat <<INI
[workload]
pattern = $pat
load = $load
count = $count
message_size = 256B
INI
}
# A pruned, folded, tapered tree: down 3,4,3 up 1,2,4 fold 2 -> 36 nodes, 34 of them.
TREE="down = 3,4,3
up = 1,2,4
top_fold = 2
nodes = 34"

# ---- zero load: one message of n packets, store-and-forward, all links at
# B = 10 GB/s: (n-1)P/B + (H+2)P/B + Hλ + 2λt + (H+1)d over H+2 links
# (PACE, when set, replaces n-1: the packet times before the last leaves).
zero() { # name src dst n H keys...
    name=$1 s=$2 d=$3 n=$4 H=$5; shift 5
    run_ini d-mod-k per-flow pair 0 1 50us store-forward "$@" > "$TMP/z.ini"
    cat >> "$TMP/z.ini" <<INI
src = $s
dst = $d
start = 1us
interval = 1us
INI
    sed -i "s/^message_size = .*/message_size = $((n * 256))B/; /^load =/d" "$TMP/z.ini"
    "$WARPNET" --quiet "$TMP/z.ini" --out="$TMP/z" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; return; }
    close "$name: latency" "$(json "$TMP/z/summary.json" message_latency_ns max)" \
        "$(awk -v k=${PACE:-$((n - 1))} -v H=$H 'BEGIN { print (k + H + 2) * 25.6 + H * 50 + 2 * 20 + (H + 1) * 90 }')" 1e-6
    close "$name: router hops" "$(json "$TMP/z/summary.json" hops_mean)" "$H"
}
zero "pruned folded tree, across the top" 0 33 3 4 "$TREE"
zero "pruned folded tree, within a pod" 0 11 2 2 "$TREE"
zero "pruned folded tree, one leaf" 4 5 1 0 "$TREE"
zero "Summit, core crossing" 0 3563 2 4 "ports = 36" "levels = 3" "nodes = 3564"
zero "leaf-spine" 0 767 4 2 "down = 24,32" "up = 1,8"

# ---- 100 % uniform load on the pruned tree: everything arrives
for r in "d-mod-k per-flow" "s-mod-k per-flow" "ecmp per-packet" "adaptive per-flow"; do
    set -- $r
    run_ini $1 $2 uniform 1.0 20 2ms cut-through "$TREE" > "$TMP/s.ini"
    "$WARPNET" --quiet "$TMP/s.ini" --out="$TMP/s" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; continue; }
    close "$r at 100 %: every packet delivered" "$(json "$TMP/s/summary.json" delivered_packets)" $((34 * 20))
    close "$r: nothing in flight" "$(json "$TMP/s/summary.json" in_flight_packets)" 0
done

# ---- errors: exit 2, one line naming [fattree] and the key
run_ini ecmp per-flow uniform 0.5 1 1us cut-through "$TREE" > "$TMP/e.ini"
expect() { name=$1 pat=$2; shift 2; refused "$name" "$pat" "$WARPNET" --quiet "$TMP/e.ini" "$@"; }
expect "up without down" "\[fattree\] down" --fattree.down= 
expect "up shorter than down" "\[fattree\] up" --fattree.up=1,2
expect "w1 past 16 planes" "\[fattree\] up" --fattree.up=17,2,4
expect "a zero count" "\[fattree\] down" --fattree.down=3,0,3
expect "fold not dividing w2" "\[fattree\] top_fold" --fattree.top_fold=3
expect "ports with down" "\[fattree\] ports" --fattree.ports=8
expect "levels not matching" "\[fattree\] levels" --fattree.levels=2
expect "too many nodes" "\[fattree\] nodes" --fattree.nodes=37
expect "unknown routing" "\[fattree\] routing" --fattree.routing=d-mod
printf '[network]\ntopology = fattree\n[fattree]\nports = 8\nlevels = 3\n' > "$TMP/e.ini"
expect "top_fold with ports" "\[fattree\] top_fold" --fattree.top_fold=2
expect "nodes past the m-port n-tree" "\[fattree\] nodes" --fattree.nodes=129

# ---- determinism on the pruned, folded tree
runs="seq check debug opt2"
[ -n "$WARP_LONG" ] && runs="$runs opt4"
for r in "d-mod-k per-flow" "adaptive per-packet" "ecmp per-packet"; do
    set -- $r
    run_ini $1 $2 uniform 0.7 0 6us cut-through "$TREE" > "$TMP/d.ini"
    same_everywhere "$r" "$runs" "$TMP/d.ini"
    echo "ok   $r: $(grep 'committed digest' "$TMP/same.res")"
done

# ---- planes: two copies of the 4-ary 3-tree, every node with a NIC port
# in each (XGFT w1 = 2): twice the switches and links, the same radix
describe "two planes" 64 96 256 8 32,32,32 down=4,4,4 up=1,4,4 planes=2
describe "two planes, written as w1" 64 96 256 8 32,32,32 down=4,4,4 up=2,4,4
# One message of 4 packets 0 -> 63 across the top (H = 4), store-and-forward:
# static and round-robin send it on one port, (n-1)P/B + ...; adaptive
# sends two packets at once, one per plane, (n/2-1)P/B + ...
PLANES="down = 4,4,4
up = 1,4,4
planes = 2"
for rs in static:3 round-robin:3 adaptive:1; do
    PACE=${rs#*:}
    zero "two planes, rail_select = ${rs%:*}" 0 63 4 4 "$PLANES" "rail_select = ${rs%:*}"
done
PACE=
for rs in static round-robin adaptive; do
    run_ini d-mod-k per-flow uniform 1.0 20 2ms cut-through "$PLANES" "rail_select = $rs" > "$TMP/s.ini"
    "$WARPNET" --quiet "$TMP/s.ini" --out="$TMP/s" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; continue; }
    close "two planes, $rs at 100 %: every packet delivered" "$(json "$TMP/s/summary.json" delivered_packets)" $((64 * 20))
done
run_ini ecmp per-flow uniform 0.5 1 1us cut-through "$PLANES" > "$TMP/e.ini"
expect "planes past 16" "\[fattree\] planes" --fattree.planes=17
expect "planes against w1" "\[fattree\] planes" --fattree.up=3,4,4
expect "unknown rail_select" "\[fattree\] rail_select" --fattree.rail_select=random
expect "rail_select without planes" "\[fattree\] rail_select" --fattree.planes=1 --fattree.rail_select=adaptive
expect "planes with failed links" "\[network\] failed_fraction" --network.failed_fraction=0.05
for r in "adaptive per-flow adaptive" "d-mod-k per-flow round-robin"; do
    set -- $r
    run_ini $1 $2 uniform 0.7 0 6us cut-through "$PLANES" "rail_select = $3" > "$TMP/d.ini"
    same_everywhere "planes, $r" "$runs" "$TMP/d.ini"
    echo "ok   planes, $r: $(grep 'committed digest' "$TMP/same.res")"
done

# ---- the shipped run files: Summit, the 3:1 leaf-spine, BookSim's 4-ary
# 3-tree and the dual-plane tree, short, in seq and check (every event
# undone and redone)
C="${top_srcdir:-.}/examples/configs"
for ini in fattree-summit-codes.ini leafspine-3to1.ini fattree-4ary3tree.ini fattree-dual-plane.ini; do
    same_everywhere "$ini" "seq check" "$C/$ini" --end=1us --workload.warmup=0ns
    echo "ok   $ini: $(grep 'committed digest' "$TMP/same.res")"
done
exit $fail
