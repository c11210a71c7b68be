#!/bin/sh
# test_hyperx_run.sh — the real warpnet binary on HyperX networks
# (models/hyperx/README.md has the derivations):
#  - --describe of the 8x8x8 run file from the formulas: 512 routers,
#    radix 21 + 8, R·sum(S_d - 1)K_d/2 = 5376 router links, diameter 3,
#    bisection R·S·K/4 = 1024 links of 12.5 GB/s;
#  - zero-load latency of one message over H = 1 and H = 2 router hops
#    (dor: 1 and 4 packets, dal: 1 packet):
#    cut-through n·s/B + Σλ + (H+1)·d, store-and-forward
#    (n-1)·s/B + Σ(s/B + λ) + (H+1)·d;
#  - throughput at 100 % load on 4x4, 4 terminals, under the worst case
#    (each router's terminals to the next router of dimension 0): dor is
#    held by the K_0 links of the pair, K_0/T (0.25, with trunking 2 about
#    0.5 less the hash's imbalance); dal spreads it over the S_0 - 2
#    two-hop paths too, bound S_0·K_0/(2T) = 0.5;
#  - deadlock freedom: dor and dal at 100 % load, uniform and worst case,
#    through buffers of 2 packets per VC, drain every packet;
#  - determinism: seq, check and opt on 2 and 4 ranks commit one digest
#    (dor and dal, trunking 2 for dal);
#  - configuration errors: one line, exit 2, naming the key.
. "${top_srcdir:-.}/tests/net/lib.sh"
CONF="${top_srcdir:-.}/examples/configs"
INI="$CONF/hyperx-4x4.ini"

"$WARPNET" --describe "$CONF/hyperx-8x8x8.ini" > "$TMP/d" 2>&1 || { cat "$TMP/d"; exit 1; }
for line in "nodes: 4096" "routers: 512" "links: 5376" "radix: 29" "router_links: 5376" \
    "diameter: 3" "bisection_GBps: 12800" "vcs: 6"; do
    grep -qx "$line" "$TMP/d" && echo "ok   describe 8x8x8 $line" || { bad "describe 8x8x8: no '$line'"; cat "$TMP/d"; }
done

# Zero load: terminal 0 (router (0,0)) to terminal 4 (router (1,0), H = 1)
# and to terminal 20 (router (1,1), H = 2).
P=256; B=12.5; LT=10; LL=30; D=100
zero() { # dst packets switching hops
    dst=$1 n=$2 sw=$3 H=$4
    "$WARPNET" --quiet "$INI" --workload.pattern=pair --workload.src=0 --workload.dst="$dst" \
        --workload.count=1 --workload.message_size=$((n * P))B --workload.start=1us \
        --workload.warmup=0us --network.switching="$sw" --network.router_delay=${D}ns \
        --hyperx.terminal_latency=${LT}ns --hyperx.link_latency=${LL}ns --hyperx.routing="$5" \
        --end=20us --out="$TMP/z" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; return; }
    want=$(awk -v n="$n" -v H="$H" -v sw="$sw" 'BEGIN { s = '$P'; lat = 2 * '$LT' + H * '$LL'
        if (sw == "cut-through") print n * s / '$B' + lat + (H + 1) * '$D'
        else print (n - 1) * s / '$B' + (H + 2) * s / '$B' + lat + (H + 1) * '$D' }')
    close "$5 $sw to terminal $dst, $n packets, H=$H" "$(json "$TMP/z/summary.json" message_latency_ns mean)" "$want" 1e-5
    close "  hops" "$(json "$TMP/z/summary.json" hops_mean)" "$H"
}
# dal counts a message's own earlier packets in the minimal port's
# occupancy (they hold credits for a round trip), so its later packets may
# deroute even on an idle network: one-packet messages only for dal.
for sw in cut-through store-forward; do
    for n in 1 4; do
        zero 4 $n $sw 1 dor
        zero 20 $n $sw 2 dor
    done
    zero 4 1 $sw 1 dal
    zero 20 1 $sw 2 dal
done

within "dor, worst case: K0/T = 0.25" "$(accepted dw "$INI" --workload.pattern=worst)" 0.24 0.2501
within "dor, worst case, trunking 2: below 2/4" \
    "$(accepted dw2 "$INI" --workload.pattern=worst --hyperx.trunking=2)" 0.38 0.5001
within "dal, worst case: above dor's 0.25, below S0*K0/(2T) = 0.5" \
    "$(accepted aw "$INI" --workload.pattern=worst --hyperx.routing=dal)" 0.33 0.5001

drain() { # routing pattern [options]
    r=$1 pat=$2; shift 2
    out="$TMP/drain-$r-$pat"
    "$WARPNET" "$INI" --hyperx.routing="$r" --workload.pattern="$pat" --workload.load=1.0 \
        --workload.count=30 --end=200us --workload.warmup=0us --network.vc_buffer=512B --quiet "$@" \
        >"$out" 2>&1 || { bad "$r $pat drain run exits $?"; tail -3 "$out"; return; }
    grep -q "^packets .*injected 1920, delivered 1920\$" "$out" &&
        echo "ok   $r $pat $*: all 1920 packets delivered" ||
        bad "$r $pat $*: not all 1920 packets delivered (deadlock?): $(grep -E '^(packets|conservation)' "$out")"
}
for r in dor dal; do
    for pat in uniform worst; do
        drain $r $pat
    done
done
drain dal uniform --hyperx.dims=4,2,8 --hyperx.terminals=1 --hyperx.trunking=2

same_everywhere "dor" "seq check opt2 opt4" "$INI" --workload.load=0.8 --end=4us --workload.warmup=1us
echo "ok   dor: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in seq, check, opt on 2, 4 ranks"
same_everywhere "dal" "seq check opt2 opt4" "$INI" --hyperx.routing=dal --hyperx.trunking=2 \
    --workload.load=0.8 --end=4us --workload.warmup=1us
echo "ok   dal: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in seq, check, opt on 2, 4 ranks"

refused "dims missing" "\[hyperx\] dims" "$WARPNET" --quiet "$INI" --hyperx.dims=
refused "dal on 5 dimensions of 8" "dal needs a VC per hop of its longest path, 10 here" \
    "$WARPNET" --quiet "$INI" --hyperx.dims=8,8,8,8,8 --hyperx.routing=dal
refused "dal with too few VCs" "needs 4 VCs" "$WARPNET" --quiet "$INI" --hyperx.routing=dal --hyperx.vcs=3
refused "trunking of the wrong length" "3 values for 2 dimensions" "$WARPNET" --quiet "$INI" --hyperx.trunking=1,2,3
refused "nodes that do not match" "16 routers x 4 terminals = 64 nodes, not 60" "$WARPNET" --quiet "$INI" --hyperx.nodes=60
refused "a single router" "every dimension has size 1" "$WARPNET" --quiet "$INI" --hyperx.dims=1,1
exit $fail
