#!/bin/sh
# Zero-load latency of one message equals the closed form, for virtual
# cut-through and store-and-forward, 1 and several packets, on paths of known
# router hop count H (B bandwidth, λ link latency, d router delay, s = P/B):
#   cut-through:       M/B + (H+2)λ + (H+1)d
#   store-and-forward: (n-1)s + (H+2)(s+λ) + (H+1)d
# Both router models ([network] router) give the same closed forms: without
# contention the input-queued router's allocation adds no time.
. "${top_srcdir:-.}/tests/net/lib.sh"
B=16; LAT=50; D=100; P=256
check() { # dims dst packets switching hops [placement [torus-line expected]]
    dims=$1 dst=$2 n=$3 sw=$4 H=$5 place=${6:-linear} extra=${7:-} expected=${8:-}
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
router = $ROUTER
placement = $place
${NETX:-}
[torus]
dims = $dims
$extra
[workload]
pattern = pair
src = 0
dst = $dst
count = 1
message_size = ${M}B
start = 1us
interval = 1us
${WLX:-}
INI
    "$WARPNET" --quiet "$TMP/z.ini" --out="$TMP/o" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; return; }
    if [ -n "$expected" ]; then
        want=$expected
    elif [ "$sw" = cut-through ]; then
        want=$(awk -v M=$M -v H=$H 'BEGIN { print M/'$B' + (H+2)*'$LAT' + (H+1)*'$D' }')
    else
        want=$(awk -v n=$n -v H=$H 'BEGIN { s='$P'/'$B'; print (n-1)*s + (H+2)*(s+'$LAT') + (H+1)*'$D' }')
    fi
    close "$ROUTER $sw dims=$dims dst=$dst packets=$n hops=$H" "$(json "$TMP/o/summary.json" message_latency_ns mean)" "$want"
    close "  hops of that route" "$(json "$TMP/o/summary.json" hops_mean)" "$H"
}
for ROUTER in output-queued input-queued; do
for sw in cut-through store-forward; do
    check 8 3 1 $sw 3
    check 8 3 5 $sw 3
    check 8 4 4 $sw 4      # tie: both ways are 4 hops
    check 8 6 3 $sw 2      # the short way is backwards over the wrap link
    check 4,4,4 63 2 $sw 3 # (3,3,3): one hop back in each dimension
done
# Placement from a file: rank 0 on terminal 7, rank 1 on terminal 4: 3 hops back.
printf '7\n4\n0\n1\n2\n3\n5\n6\n' > "$TMP/place"
check 8 1 2 cut-through 3 "$TMP/place"

# Terminal links slower than router links (T = 8 GB/s, B = 16 GB/s, s_t = P/T):
# cut-through cannot finish forwarding before the tail is in, so the first
# router waits s_t - s; afterwards the fast links keep pace:
#   cut-through:       (n-1)s_t + 2 s_t - s + (H+2)λ + (H+1)d
#   store-and-forward: (n-1)s_t + 2(s_t + λ) + H(s + λ) + (H+1)d
mixed() { # dst packets switching hops
    n=$2 H=$4
    check 8 $1 $2 $3 $4 linear "terminal_bandwidth = 8GB/s" "$(awk -v n=$n -v H=$H -v sw=$3 'BEGIN {
        s = '$P'/'$B'; st = '$P'/8; l = '$LAT'; d = '$D'
        if (sw == "cut-through") print (n-1)*st + 2*st - s + (H+2)*l + (H+1)*d
        else print (n-1)*st + 2*(st+l) + H*(s+l) + (H+1)*d }')"
}
for sw in cut-through store-forward; do
    mixed 3 1 $sw 3
    mixed 3 4 $sw 3
done
# Two terminals of one router (H = 0), slow links only: n s_t + 2λ + d, and
# store-and-forward (n-1)s_t + 2(s_t + λ) + d.
check 8 1 3 cut-through 0 linear "nodes_per_router = 2
terminal_bandwidth = 8GB/s" "$(awk 'BEGIN { print 3*'$P'/8 + 2*'$LAT' + '$D' }')"
check 8 1 3 store-forward 0 linear "nodes_per_router = 2
terminal_bandwidth = 8GB/s" "$(awk 'BEGIN { print 2*'$P'/8 + 2*('$P'/8 + '$LAT') + '$D' }')"
# Terminal links with a latency of their own (λt = 20 ns): the two terminal
# hops take λt, the H router-router hops λ:  M/B + 2λt + Hλ + (H+1)d.
NETX="terminal_latency = 20ns"
check 8 3 2 cut-through 3 linear "" "$(awk 'BEGIN { print 2*'$P'/'$B' + 2*20 + 3*'$LAT' + 4*'$D' }')"
check 8 1 2 cut-through 0 linear "nodes_per_router = 2" "$(awk 'BEGIN { print 2*'$P'/'$B' + 2*20 + '$D' }')"
NETX=""
done
# Per-cycle allocation (input-queued, alloc_cycle c = 40 ns), the message
# sent at 1000 ns (fixed arrivals): a packet reaches each router λ + d =
# 150 ns after a cycle boundary (the send, then each allocation), 30 ns past
# one, and waits w = 10 ns for the next: M/B + (H+2)λ + (H+1)(d + w).
ROUTER=input-queued WLX="arrivals = fixed" NETX="alloc_timing = per-cycle
alloc_cycle = 40ns"
check 8 3 1 cut-through 3 linear "" "$(awk 'BEGIN { print '$P'/'$B' + 5*'$LAT' + 4*('$D' + 10) }')"
check 8 6 1 cut-through 2 linear "" "$(awk 'BEGIN { print '$P'/'$B' + 4*'$LAT' + 3*('$D' + 10) }')"
NETX="" WLX=""
printf '7\n7\n' > "$TMP/bad"
printf '[engine]\nend = 1us\n[network]\ntopology = torus\nplacement = %s\n[torus]\ndims = 8\n' "$TMP/bad" > "$TMP/p.ini"
"$WARPNET" --quiet "$TMP/p.ini" --network.ranks=2 > "$TMP/log" 2>&1
[ $? -eq 2 ] && grep -q "holds two ranks" "$TMP/log" && echo "ok   a placement file with a terminal twice is refused" \
    || { echo "FAIL placement file with a duplicate"; cat "$TMP/log"; fail=1; }
exit $fail
