#!/bin/sh
# Fat-tree zero-load latency of one message equals the closed form, for
# store-and-forward and virtual cut-through, on an 8-port 3-tree with
# different host (Bh) and switch (Bs) bandwidths, over paths of 2, 4 and 6
# links (H = 0, 2, 4 router-to-router hops; H+2 links and H+1 switches).
# With λ the link latency, d the switch delay, P the packet size and n packets:
#   store-and-forward: (n-1)P/B + 2P/Bh + H·P/Bs + (H+2)λ + (H+1)d
#   cut-through:       (n-1)P/B + P/Bh + [H>0]·|P/Bh - P/Bs| + (H+2)λ + (H+1)d
# (with node links of their own latency λt, (H+2)λ becomes Hλ + 2λt)
# where B, the slowest link on the path, paces the packets after the first
# (B = Bh when H = 0, else min(Bh, Bs))
# (cut-through: a packet leaves a switch once its tail cannot overtake it, so
# the slower of the two links at each bandwidth change costs the difference).
. "${top_srcdir:-.}/tests/net/lib.sh"
LAT=50; D=100; P=256; TLAT=$LAT
check() { # dst packets switching hops Bh Bs
    dst=$1 n=$2 sw=$3 H=$4 BH=$5 BS=$6
    cat > "$TMP/z.ini" <<INI
[engine]
end = 100us
[network]
topology = fattree
link_latency = ${LAT}ns
terminal_latency = ${TLAT}ns
router_delay = ${D}ns
packet_size = ${P}B
vc_buffer = 64KiB
switching = $sw
[fattree]
ports = 8
levels = 3
host_bandwidth = ${BH}GB/s
switch_bandwidth = ${BS}GB/s
[workload]
pattern = pair
src = 0
dst = $dst
count = 1
message_size = $((n * P))B
start = 1us
interval = 1us
INI
    "$WARPNET" --quiet "$TMP/z.ini" --out="$TMP/o" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; return; }
    want=$(awk -v n=$n -v H=$H -v bh=$BH -v bs=$BS -v sw=$sw 'BEGIN {
        bmin = H > 0 && bs < bh ? bs : bh; th = '$P'/bh; ts = '$P'/bs
        base = (n-1)*'$P'/bmin + H*'$LAT' + 2*'$TLAT' + (H+1)*'$D'
        if (sw == "store-forward") print base + 2*th + H*ts
        else { dif = th - ts; if (dif < 0) dif = -dif; print base + th + (H > 0 ? dif : 0) } }')
    close "$sw to $dst, $n packets, H=$H, Bh=$BH Bs=$BS" \
        "$(json "$TMP/o/summary.json" message_latency_ns max)" "$want" 1e-6
    close "  router hops of that route" "$(json "$TMP/o/summary.json" hops_mean)" "$H"
}
# node 0 shares its leaf with 1..3, its group (pod) with 4..15; 16.. are in other groups
for sw in store-forward cut-through; do
    for bw in "25 10" "8 20" "12.5 12.5"; do
        set -- $bw
        check 1 1 $sw 0 $1 $2
        check 5 1 $sw 2 $1 $2
        check 100 1 $sw 4 $1 $2
        check 3 4 $sw 0 $1 $2
        check 14 3 $sw 2 $1 $2
        check 127 5 $sw 4 $1 $2
    done
done
# Node links faster to cross than switch links: λt = 10 ns.
TLAT=10
for sw in store-forward cut-through; do
    check 1 2 $sw 0 25 10
    check 127 3 $sw 4 25 10
done
exit $fail
