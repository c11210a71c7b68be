#!/bin/sh
# tests/net/test_lookahead.sh — the packet network's lookahead (printed by
# --describe as lookahead_ns) equals the closed form of its least delay
# between groups, with B bandwidth, λ link latency, d router delay and s the
# workload's smallest packet (traffic: message_size mod packet_size, or
# packet_size; unknown, so 0, for a replay):
#   min( λ + d [+ s/B store-and-forward]   a packet into a router
#        s/B + λ                           a packet out to a terminal
#        c/B + λ )                         a credit, c = min(s, credit_unit)
# and runs with it commit seq's digest in cons and opt on 2 ranks, where
# the engine refuses any delay between groups below the lookahead.
. "$(dirname "$0")/lib.sh"

B=12.5 LAT=40 D=100 P=256
small_torus "$TMP/t.ini"
sed '/^load = /d' "$TMP/t.ini" >"$TMP/replay.ini" # replay reads no load
set -- --network.link_bandwidth=${B}GB/s --network.link_latency=${LAT}ns --network.router_delay=${D}ns \
    --network.packet_size=${P}B --workload.message_size=1024B
NET="$*"

# expect NAME WANT [RUN.ini] OPTIONS...: --describe's lookahead_ns is WANT
# (to 1e-6 ns) for the torus with the options above and OPTIONS.
expect() {
    name=$1 want=$2 ini=$TMP/t.ini; shift 2
    case ${1:-} in *.ini) ini=$1; shift ;; esac
    # shellcheck disable=SC2086 # NET holds separate options
    got=$("$WARPNET" --describe "$ini" $NET "$@" 2>&1 | sed -n 's/^lookahead_ns: \([0-9.e+-]*\).*/\1/p')
    if [ -n "$got" ] && awk -v g="$got" -v w="$want" 'BEGIN { exit !(g - w < 1e-6 && w - g < 1e-6) }'; then
        echo "ok   $name: lookahead $got ns"
    else
        bad "$name: lookahead '$got' ns, want $want"
    fi
}

s256=$(awk -v b=$B 'BEGIN { printf "%.9g", 256 / b }') # 20.48 ns
expect "1024 B messages, 256 B packets: a credit" "$(awk -v s="$s256" -v l=$LAT 'BEGIN { print s + l }')"
expect "1000 B messages: the 232 B last packet" "$(awk -v b=$B -v l=$LAT 'BEGIN { print 232 / b + l }')" \
    --workload.message_size=1000B
expect "100 B messages: one packet of 100 B" "$(awk -v b=$B -v l=$LAT 'BEGIN { print 100 / b + l }')" \
    --workload.message_size=100B
expect "store-and-forward: still the credit" "$(awk -v s="$s256" -v l=$LAT 'BEGIN { print s + l }')" \
    --network.switching=store-forward
expect "credit_unit 64 B: a unit's time" "$(awk -v b=$B -v l=$LAT 'BEGIN { print 64 / b + l }')" \
    --network.credit_unit=64B
expect "router delay 10 ns: a packet into a router" "$((LAT + 10))" --network.router_delay=10ns
expect "0 ns links: the bytes' time alone" "$s256" --network.link_latency=0ns
expect "0 ns links and router delay: none" 0 --network.link_latency=0ns --network.router_delay=0ns
NET="--network.link_bandwidth=${B}GB/s --network.link_latency=${LAT}ns --network.router_delay=${D}ns \
    --network.packet_size=${P}B --workload.type=replay"
expect "replay of a generated stencil: its 232 B last packets" \
    "$(awk -v b=$B -v l=$LAT 'BEGIN { print 232 / b + l }')" "$TMP/replay.ini" \
    --job.0.trace=gen:stencil2d:px=4,py=6,iters=1,bytes=1000,compute=100
expect "and its 8 B allreduce" "$(awk -v b=$B -v l=$LAT 'BEGIN { print 8 / b + l }')" "$TMP/replay.ini" \
    --job.0.trace=gen:stencil2d:px=4,py=4,iters=1,bytes=1000,compute=100,allreduce=1,arbytes=8
# A trace file's sizes are unknown until it is read: the latency (of the
# shipped jacobi run file, 50 ns links, 4x4x2 torus, 32 ranks).
NET="--network.link_latency=${LAT}ns"
expect "replay of a trace file (packet sizes unknown): the latency" "$LAT" \
    "${top_srcdir:-.}/examples/configs/replay-jacobi-torus.ini" \
    --job.0.trace="${top_srcdir:-.}/examples/traces/stencil2d-32.wtt"

# Wider windows commit the same: odd packet sizes, credit units and a
# generated replay, seq against cons and opt on 2 ranks (each refuses a
# shorter delay).
before=$fail
same_everywhere "1000 B messages" "seq cons2 opt2" "$TMP/t.ini" "$@" --workload.message_size=1000B
same_everywhere "credit_unit 64 B, store-and-forward" "seq cons2 opt2" "$TMP/t.ini" "$@" \
    --network.credit_unit=64B --network.switching=store-forward
same_everywhere "replay of a generated stencil with an 8 B allreduce" "seq cons2 opt2" "$TMP/replay.ini" \
    --network.link_bandwidth=${B}GB/s --network.link_latency=${LAT}ns --network.router_delay=${D}ns \
    --network.packet_size=${P}B --workload.type=replay \
    --job.0.trace=gen:stencil2d:px=4,py=4,iters=2,bytes=1000,compute=100,allreduce=1,arbytes=8
[ "$fail" = "$before" ] && echo "ok   cons and opt on 2 ranks commit seq's digest and summary in all three"
exit $fail
