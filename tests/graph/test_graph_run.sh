#!/bin/sh
# test_graph_run.sh — the real warpnet binary on networks read from files
# (models/graph/README.md):
#  - --describe of the shipped anynet leaf-spine (8 leaves of 4 nodes, 4
#    spines): 12 routers, 32 nodes, 32 links (each named from both ends,
#    counted once), diameter 2, mean hops 28·2/31;
#  - zero-load latency through links of the file's own bandwidth and
#    latency (leaf 7's 50Gbps, 200ns uplinks): cut-through
#    n·s/B_min + Σλ + (H+1)·d, store-and-forward (n-1)·s/B_min + Σ(s/B + λ) + (H+1)·d;
#  - an edge list: a ring of 8 routers, diameter 4, 4 VCs (one per hop);
#    every packet drains at 100 % load through 2-packet buffers (shortest
#    paths round a ring deadlock on one VC class); one digest in seq, check
#    and opt on 2 and 4 ranks, ECMP included (the antipode's two ways);
#  - errors name the file and line: a bad token, a node on two routers, a
#    link to itself, a gap in the router numbers, a disconnected network,
#    a diameter past the 8 VCs, too few vcs, a file too big for max_memory.
. "${top_srcdir:-.}/tests/net/lib.sh"
CONF="${top_srcdir:-.}/examples/configs"
INI="$CONF/graph-leafspine.ini"
G="--graph.file=$CONF/leafspine-8x4.anynet"

"$WARPNET" --describe "$INI" "$G" > "$TMP/d" 2>&1 || { cat "$TMP/d"; exit 1; }
for line in "nodes: 32" "routers: 12" "links: 32" "radix: 8" "radix_min: 8" "diameter: 2" \
    "mean_hops: 1.806" "vcs: 2"; do
    grep -qx "$line" "$TMP/d" && echo "ok   describe leaf-spine $line" || { bad "describe: no '$line'"; cat "$TMP/d"; }
done

# Zero load from terminal 0 (leaf 0): terminal 2 (same leaf: one router,
# H = 0), terminal 4 (leaf 1, H = 2), terminal 28 (leaf 7, H = 2
# over a 50Gbps, 200ns spine-leaf link).
P=256; B=12.5; SLOW=6.25; LT=10; LL=50; D=100
zero() { # dst packets switching hops slow_links
    dst=$1 n=$2 sw=$3 H=$4 ns=$5
    "$WARPNET" --quiet "$INI" "$G" --workload.pattern=pair --workload.src=0 --workload.dst="$dst" \
        --workload.count=1 --workload.message_size=$((n * P))B --workload.start=1us \
        --workload.warmup=0us --network.switching="$sw" --graph.terminal_latency=${LT}ns \
        --end=20us --out="$TMP/z" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; return; }
    want=$(awk -v n="$n" -v H="$H" -v ns="$ns" -v sw="$sw" 'BEGIN { s = '$P'
        lat = 2 * '$LT' + (H - ns) * '$LL' + ns * 200
        bmin = ns > 0 ? '$SLOW' : '$B'
        if (sw == "cut-through") print n * s / bmin + lat + (H + 1) * '$D'
        else print (n - 1) * s / bmin + (2 + H - ns) * s / '$B' + ns * s / '$SLOW' + lat + (H + 1) * '$D' }')
    close "$sw to terminal $dst, $n packets, H=$H" "$(json "$TMP/z/summary.json" message_latency_ns mean)" "$want" 1e-5
    close "  hops" "$(json "$TMP/z/summary.json" hops_mean)" "$H"
}
for sw in cut-through store-forward; do
    for n in 1 4; do
        zero 2 $n $sw 0 0
        zero 4 $n $sw 2 0
        zero 28 $n $sw 2 1
    done
done

# A ring of 8 routers as an edge list, one terminal each.
i=0; while [ $i -lt 8 ]; do echo "$i $(( (i + 1) % 8 ))"; i=$((i + 1)); done > "$TMP/ring8.edges"
R="--graph.file=$TMP/ring8.edges --graph.format=edges"
"$WARPNET" --describe "$INI" $R > "$TMP/d" 2>&1 || { cat "$TMP/d"; exit 1; }
for line in "nodes: 8" "routers: 8" "links: 8" "diameter: 4" "vcs: 4" "mean_hops: 2.286"; do
    grep -qx "$line" "$TMP/d" && echo "ok   describe ring $line" || { bad "describe ring: no '$line'"; cat "$TMP/d"; }
done
for pat in uniform bitcomplement; do
    out="$TMP/drain-$pat"
    "$WARPNET" "$INI" $R --workload.pattern=$pat --workload.load=1.0 --workload.count=40 --end=200us \
        --workload.warmup=0us --network.vc_buffer=512B --quiet > "$out" 2>&1 || { bad "ring drain $pat exits $?"; tail -3 "$out"; }
    grep -q "^packets .*injected 320, delivered 320\$" "$out" &&
        echo "ok   ring, $pat at 100 %, 2-packet buffers: all 320 packets delivered" ||
        bad "ring $pat: not all 320 packets delivered (deadlock?): $(grep -E '^(packets|conservation)' "$out")"
done
same_everywhere "ring" "seq check opt2 opt4" "$INI" $R --workload.load=0.8 --end=4us --workload.warmup=1us
echo "ok   ring: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in seq, check, opt on 2, 4 ranks"
same_everywhere "leaf-spine" "seq opt2 opt4" "$INI" "$G" --workload.load=0.8 --end=4us --workload.warmup=1us
echo "ok   leaf-spine: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in seq, opt on 2, 4 ranks"

# Errors: one line, exit 2, naming the file and line.
bad_file() { # name pattern format content...
    name=$1 pat=$2 fmt=$3; shift 3
    printf '%s\n' "$@" > "$TMP/bad.net"
    refused "$name" "$pat" "$WARPNET" --quiet "$INI" --graph.file="$TMP/bad.net" --graph.format="$fmt"
}
bad_file "a bad token" "bad.net:2: 'switch' where 'router' or 'node' belongs" anynet \
    "router 0 node 0 router 1" "switch 1 node 1"
bad_file "a node on two routers" "bad.net:2: node 0 is attached to router 1 here and to router 0 on line 1" anynet \
    "router 0 node 0 router 1" "router 1 node 0"
bad_file "a link to itself" "bad.net:1: router 0 is linked to itself" anynet "router 0 node 0 router 0"
bad_file "a gap in the routers" "router 1 is never named" anynet "router 0 node 0 router 2" "router 2 node 1"
bad_file "no node 1" "node 1 has no router" anynet "router 0 node 0 node 2 router 1"
bad_file "conflicting link attributes" "bad.net:2: link router 0 - router 1 has other attributes than on line 1" anynet \
    "router 0 node 0 router 1 latency=10ns" "router 1 node 1 router 0 latency=20ns"
bad_file "a disconnected network" "router 0 cannot reach router 2: the network is disconnected" edges "0 1" "2 3"
bad_file "an edge without units" "bad.net:1: '100' is not a link attribute" edges "0 1 100"
i=0; : > "$TMP/ring20.edges"; while [ $i -lt 20 ]; do echo "$i $(( (i + 1) % 20 ))" >> "$TMP/ring20.edges"; i=$((i + 1)); done
refused "diameter 10" "diameter is 10 router hops" "$WARPNET" --quiet "$INI" --graph.file="$TMP/ring20.edges" --graph.format=edges
refused "too few vcs" "set vcs to at least 4" "$WARPNET" --quiet "$INI" $R --graph.vcs=3
refused "over max_memory" "limit is 0.0 GiB: raise \[graph\] max_memory" "$WARPNET" --quiet "$INI" $R --graph.max_memory=1KiB
refused "no file" "cannot open the network file" "$WARPNET" --quiet "$INI" --graph.file="$TMP/none.net"
refused "terminals with anynet" "an anynet file attaches its nodes itself" "$WARPNET" --quiet "$INI" "$G" --graph.terminals=2
exit $fail
