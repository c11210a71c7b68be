#!/bin/sh
# Zero-load latency of one message equals the closed form, for virtual
# cut-through and store-and-forward, 1 and several packets, on paths of known
# router hop count H (B bandwidth, λ link latency, d router delay, s = P/B):
#   cut-through:       M/B + (H+2)λ + (H+1)d
#   store-and-forward: (n-1)s + (H+2)(s+λ) + (H+1)d
. "${top_srcdir:-.}/tests/net/lib.sh"
B=16; LAT=50; D=100; P=256
check() { # dims dst packets switching hops
    dims=$1 dst=$2 n=$3 sw=$4 H=$5
    M=$((n * P))
    cat > "$TMP/z.ini" <<INI
[engine]
end = 100us
[network]
topology = torus
link_bandwidth = ${B}GB/s
link_latency = ${LAT}ns
router_delay = ${D}ns
packet_size = ${P}B
vc_buffer = 64KiB
switching = $sw
[torus]
dims = $dims
[workload]
pattern = pair
src = 0
dst = $dst
count = 1
message_size = ${M}B
start = 1us
interval = 1us
INI
    "$WARPNET" --quiet "$TMP/z.ini" --out="$TMP/o" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; return; }
    if [ "$sw" = cut-through ]; then
        want=$(awk -v M=$M -v H=$H 'BEGIN { print M/'$B' + (H+2)*'$LAT' + (H+1)*'$D' }')
    else
        want=$(awk -v n=$n -v H=$H 'BEGIN { s='$P'/'$B'; print (n-1)*s + (H+2)*(s+'$LAT') + (H+1)*'$D' }')
    fi
    close "$sw dims=$dims dst=$dst packets=$n hops=$H" "$(json "$TMP/o/summary.json" message_latency_ns mean)" "$want"
    close "  hops of that route" "$(json "$TMP/o/summary.json" hops_mean)" "$H"
}
for sw in cut-through store-forward; do
    check 8 3 1 $sw 3
    check 8 3 5 $sw 3
    check 8 4 4 $sw 4      # tie: both ways are 4 hops
    check 8 6 3 $sw 2      # the short way is backwards over the wrap link
    check 4,4,4 63 2 $sw 3 # (3,3,3): one hop back in each dimension
done
exit $fail
