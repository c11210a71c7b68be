#!/bin/sh
# test_graph_routes.sh — [graph] routes = FILE, a routing table read from a
# file, and [graph] routing = adaptive (models/graph/README.md), on the
# shipped anynet leaf-spine (leaf L's ports 0-3 lead to spines 8-11, spine
# S's port L to leaf L):
#  - a table equal to the shortest paths (leaves: all four uplinks, listed
#    out of order; spines: the leaf's port) commits the digest of routing =
#    shortest, and with routing = adaptive that of adaptive shortest paths;
#  - the shipped leafspine-8x4-detour.routes, forcing leaf 0 -> leaf 1 over
#    0 -> 8 -> 2 -> 9 -> 1 (4 hops instead of 2), shows that walk's zero-load latency in closed form
#    (cut-through n·s/B + 2·λt + H·λ + (H+1)·d, store-and-forward
#    (n-1)·s/B + (H+2)·s/B + 2·λt + H·λ + (H+1)·d) and needs 4 VCs;
#  - adaptive on the ring of 8: one digest in seq, check and opt on 2 and
#    4 ranks, and the table run too;
#  - bad tables refused, one line naming the file (and line) and the fix.
. "${top_srcdir:-.}/tests/net/lib.sh"
CONF="${top_srcdir:-.}/examples/configs"
INI="$CONF/graph-leafspine.ini"
G="--graph.file=$CONF/leafspine-8x4.anynet"
SP="$TMP/shortest.routes"
{
    echo "# leaves: any uplink; spines: the leaf's own port"
    for l in 0 1 2 3 4 5 6 7; do echo "$l * 3 1 2 0"; done
    for s in 8 9 10 11; do for l in 0 1 2 3 4 5 6 7; do echo "$s $l $l"; done; done
} > "$SP"

digest() { "$WARPNET" "$INI" "$G" --workload.load=0.8 --end=6us "$@" 2>&1 | sed -n 's/.*committed digest: //p'; }
for routing in shortest adaptive; do
    want=$(digest --graph.routing=$routing)
    got=$(digest --graph.routing=$routing --graph.routes="$SP")
    [ -n "$want" ] && [ "$got" = "$want" ] && echo "ok   a shortest-path table, routing = $routing: digest $got as without it" ||
        bad "shortest-path table, routing = $routing: digest '$got', without the table '$want'"
done
[ "$(digest --graph.routing=adaptive)" != "$(digest)" ] && echo "ok   adaptive moves the digest at 80 % load" ||
    bad "adaptive routing commits the digest of ECMP at 80 % load (occupancy unused?)"

# The detour: leaf 0 -> spine 8 (port 0) -> leaf 2 (port 2) -> spine 9
# (port 1) -> leaf 1 (port 1); everything else as the shortest paths.
DT="$CONF/leafspine-8x4-detour.routes"
"$WARPNET" --describe "$INI" "$G" --graph.routes="$DT" > "$TMP/d" 2>&1 || { cat "$TMP/d"; exit 1; }
for line in "routes_max_hops: 4" "vcs: 4" "routing: table from the routes file (ECMP per message, a VC per hop)"; do
    grep -qx "$line" "$TMP/d" && echo "ok   describe detour $line" || { bad "describe detour: no '$line'"; cat "$TMP/d"; }
done
P=256; B=12.5; LT=10; LL=50; D=100
for sw in cut-through store-forward; do
    for n in 1 4; do
        for dst in 4 8; do # leaf 1 over the detour (H = 4), leaf 2 directly (H = 2)
            H=$([ $dst = 4 ] && echo 4 || echo 2)
            "$WARPNET" --quiet "$INI" "$G" --graph.routes="$DT" --workload.pattern=pair --workload.src=0 \
                --workload.dst=$dst --workload.count=1 --workload.message_size=$((n * P))B --workload.start=1us \
                --workload.warmup=0us --network.switching=$sw --graph.terminal_latency=${LT}ns \
                --end=20us --out="$TMP/z" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; continue; }
            want=$(awk -v n=$n -v H=$H -v sw=$sw 'BEGIN { s = '$P'; lat = 2 * '$LT' + H * '$LL' + (H + 1) * '$D'
                print (sw == "cut-through" ? n * s / '$B' : (n - 1) * s / '$B' + (H + 2) * s / '$B') + lat }')
            close "detour table, $sw, $n packets to terminal $dst (H=$H)" "$(json "$TMP/z/summary.json" message_latency_ns mean)" "$want" 1e-5
            close "  hops" "$(json "$TMP/z/summary.json" hops_mean)" "$H"
        done
    done
done
same_everywhere "detour table" "seq check opt2 opt4" "$INI" "$G" --graph.routes="$DT" --graph.routing=adaptive \
    --workload.load=0.8 --end=4us --workload.warmup=1us
echo "ok   detour table, adaptive: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in seq, check, opt on 2, 4 ranks"
i=0; while [ $i -lt 8 ]; do echo "$i $(( (i + 1) % 8 ))"; i=$((i + 1)); done > "$TMP/ring8.edges"
same_everywhere "ring adaptive" "seq check opt2 opt4" "$INI" --graph.file="$TMP/ring8.edges" --graph.format=edges \
    --graph.routing=adaptive --workload.load=0.8 --end=4us --workload.warmup=1us
echo "ok   ring, adaptive: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in seq, check, opt on 2, 4 ranks"

# Errors: one line, exit 2, naming the file (and line) and the fix.
bad_table() { # name pattern lines...
    name=$1 pat=$2; shift 2
    printf '%s\n' "$@" > "$TMP/bad.routes"
    refused "$name" "$pat" "$WARPNET" --quiet "$INI" "$G" --graph.routes="$TMP/bad.routes"
}
bad_table "a word" "bad.routes:1: 'x' is not a router number; write ROUTER DEST PORT" "x 1 0"
bad_table "no port" "bad.routes:2: a route needs a router, a destination and at least one port" "# c" "0 1"
bad_table "unknown router" "bad.routes:1: router 12 does not exist (routers are 0 .. 11)" "12 1 0"
bad_table "unknown destination" "bad.routes:1: destination router 40 does not exist" "0 40 0"
bad_table "to itself" "bad.routes:1: router 3 routes to itself; remove the line" "3 3 0"
bad_table "port out of range" "bad.routes:1: router 0 has ports 0 .. 7, not 9; give a port of that router" "0 1 9"
bad_table "a node port" "bad.routes:1: port 5 of router 0 leads to a node, not to a router (its router ports are 0 .. 3)" "0 1 5"
bad_table "a port twice" "bad.routes:1: port 2 is listed twice; list each port once" "0 1 2 2"
bad_table "a pair twice" "bad.routes:3: router 0 to router 1 is given on line 1 too" "0 1 0" "# again" "0 1 1"
bad_table "a default twice" "bad.routes:2: router 0's default (\*) is given on line 1 too" "0 * 0" "0 * 1"
bad_table "a missing entry" "bad.routes: no route at router 8 to router 0, which packets from router 1 reach (1 -> 8); add a line \`8 0 PORT\` or a default \`8 \* PORT\`" \
    "$(cat "$SP" | grep -v '^8 0 ')"
bad_table "a loop" "bad.routes:[0-9]*: the routes to router 1 loop (0 -> 8 -> 2 -> 8); make every walk reach router 1" \
    "$(grep -v -e '^8 1 ' -e '^2 \*' -e '^0 \*' "$SP")" "0 * 0" "8 1 2" "2 * 0"
# one way round a ring of 12 (diameter 6; port 0 of router r leads to r - 1
# but for router 0, where it leads to 1): 9 -> 8 -> ... -> 0 takes 9 hops
i=0; : > "$TMP/ring12.edges"; while [ $i -lt 12 ]; do echo "$i $(( (i + 1) % 12 ))" >> "$TMP/ring12.edges"; i=$((i + 1)); done
i=0; : > "$TMP/long.routes"; while [ $i -lt 12 ]; do echo "$i * 0" >> "$TMP/long.routes"; i=$((i + 1)); done
refused "a walk past 8 VCs" "long.routes: packets from router 9 to router 0 may take 9 router hops (9 -> 8 -> 7 -> 6 -> 5 -> 4 -> 3 -> 2 -> 1 -> 0), and table routing takes a VC per hop" \
    "$WARPNET" --quiet "$INI" --graph.file="$TMP/ring12.edges" --graph.format=edges --graph.routes="$TMP/long.routes"
refused "no routes file" "none.routes: cannot open the routing table" "$WARPNET" --quiet "$INI" "$G" --graph.routes="$TMP/none.routes"
refused "vcs below the table's walk" "the routing table's longest walk has 4 router hops" \
    "$WARPNET" --quiet "$INI" "$G" --graph.routes="$DT" --graph.vcs=3
exit $fail
