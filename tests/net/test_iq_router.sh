#!/bin/sh
# test_iq_router.sh — the input-queued router ([network] router =
# input-queued) against theory and across execution modes:
#  - one switch (a torus of one router with N terminals), one FIFO per input,
#    uniform traffic at full load: accepted load within 3 % of the
#    head-of-line-blocking limit, which an exact Markov chain below computes
#    (the state: each input's head destination; every slot each contended
#    output serves one head at random, the winner's next head goes to one of
#    the N-1 other terminals; uniform traffic never sends to itself, so N = 3
#    gives 0.75 and N = 4 0.6905, not Karol's 0.6825 and 0.6553); the
#    output-queued router, which has no head-of-line blocking, beats it;
#  - VOQ-like lanes (several FIFOs per input) lift the same switch above
#    the head-of-line limit, towards the output-queued switch and never
#    above it; more lanes (VCs) per class lift a congested 8x8 torus
#    (head-of-line blocking shrinks);
#  - allocator rounds (alloc_iters): as many as the switch has ports give
#    the maximal matching's digest, one lies between the HOL limit and it;
#    VC allocation before the switch keeps a one-FIFO switch at that limit;
#  - internal speed-up (internal_speedup = 2) lifts a one-FIFO switch from
#    the HOL limit to its links' rate, never beyond, and leaves a lone
#    packet's latency alone;
#  - per-cycle allocation (alloc_timing): one allocation per cycle is the
#    slotted switch the Markov chain models, so a one-FIFO switch stays at
#    the head-of-line limit;
#  - configuration errors name the key;
#  - the input-queued router is rollback-safe: torus, fat-tree, Slim Fly
#    and dragonfly at high load commit the same digest and summary in seq,
#    check and opt on 1, 2 and 4 ranks.
. "${top_srcdir:-.}/tests/net/lib.sh"
CONF="${top_srcdir:-.}/examples/configs"

# hol N: saturation throughput of an N-port FIFO input-queued switch whose
# inputs send uniformly to the other N-1 outputs (power iteration).
hol() {
    awk -v N="$1" 'BEGIN {
        K = N - 1; S = 1; for (i = 0; i < N; i++) S *= K
        for (s = 0; s < S; s++) {
            x = s; for (i = 0; i < N; i++) { j = x % K; x = int(x / K); d[s, i] = j >= i ? j + 1 : j }
        }
        for (s = 0; s < S; s++) {
            for (o = 0; o < N; o++) g[o] = 0
            for (i = 0; i < N; i++) g[d[s, i]]++
            thr[s] = 0; for (o = 0; o < N; o++) thr[s] += g[o] > 0
            for (w = 0; w < 2 ^ N; w++) {          # w: the set of winners
                for (o = 0; o < N; o++) c[o] = 0
                nw = 0; p = 1
                for (i = 0; i < N; i++) if (int(w / 2 ^ i) % 2) { c[d[s, i]]++; nw++; p /= g[d[s, i]] }
                ok = 1; for (o = 0; o < N; o++) if (g[o] > 0 && c[o] != 1) ok = 0
                if (!ok) continue
                for (t = 0; t < S; t++) {          # losers keep their head
                    same = 1
                    for (i = 0; i < N; i++) if (!(int(w / 2 ^ i) % 2) && d[t, i] != d[s, i]) same = 0
                    if (same) P[s, t] += p / K ^ nw
                }
            }
        }
        for (s = 0; s < S; s++) pi[s] = 1 / S
        for (it = 0; it < 400; it++) {
            for (t = 0; t < S; t++) nx[t] = 0
            for (s = 0; s < S; s++) for (t = 0; t < S; t++) if ((s, t) in P) nx[t] += pi[s] * P[s, t]
            for (t = 0; t < S; t++) pi[t] = nx[t]
        }
        r = 0; for (s = 0; s < S; s++) r += pi[s] * thr[s]
        printf "%.4f\n", r / N }'
}

switch_run() { # router ports [extra args]
    r=$1 p=$2; shift 2
    cat > "$TMP/sw.ini" <<INI
[engine]
end = 200us
[network]
topology = torus
link_bandwidth = 1GB/s
link_latency = 1ns
router_delay = 1ns
packet_size = 16B
vc_buffer = 64B
router = $r
[torus]
dims = 1
nodes_per_router = $p
[workload]
pattern = uniform
arrivals = fixed
load = 1.0
message_size = 16B
warmup = 20us
INI
    "$WARPNET" --quiet "$TMP/sw.ini" --out="$TMP/sw" "$@" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; }
    json "$TMP/sw/summary.json" accepted_load
}
for N in 3 4; do
    want=$(hol $N)
    got=$(switch_run input-queued $N)
    close "input-queued $N-port switch, one FIFO per input, saturates at the HOL limit" "$got" "$want" 0.03
    oq=$(switch_run output-queued $N)
    awk -v o="$oq" -v w="$want" 'BEGIN { exit !(o > w + 0.1) }' &&
        echo "ok   output-queued $N-port switch: $oq, well above the HOL limit $want" ||
        bad "output-queued $N-port switch: $oq, not above the HOL limit $want + 0.1"
done

# VOQ-like lanes: with L FIFOs (VCs) per input each input offers L heads,
# so an output idles only when no head of any unmatched input asks for it;
# throughput rises from the one-FIFO head-of-line limit towards the
# output-queued switch (the ideal that no input-buffered switch with
# speedup 1 can beat): hol(4) + 0.05 < 2 lanes < 4 lanes - 0.03 <= OQ + 0.01 <= 1.01.
want=$(hol 4)
oq=$(switch_run output-queued 4)
two=$(switch_run input-queued 4 --network.lanes=2)
four=$(switch_run input-queued 4 --network.lanes=4)
awk -v h="$want" -v a="$two" -v b="$four" -v o="$oq" \
    'BEGIN { exit !(a > h + 0.05 && b > a + 0.03 && b <= o + 0.01 && o <= 1.01) }' &&
    echo "ok   4-port switch, lanes lift the HOL limit $want: 2 lanes $two, 4 lanes $four, output-queued $oq" ||
    bad "4-port switch, lanes do not lift the HOL limit $want towards output-queued $oq: 2 lanes $two, 4 lanes $four"

# Internal speed-up ([network] internal_speedup = 2): the switch moves a
# packet in half a link time into an output buffer, so an output may take
# two packets a link time and a FIFO's head waits half as long behind a
# head it lost to; the 4-port switch's input side then carries
# min(1, 2 x the HOL limit) = 1, and its output links, never more than 1:
# accepted >= 0.97 of the offered 1 (a fixed-interval source still meets
# bursts), <= 1.0005. A packet alone (pair) crosses the switch with the
# latency it has without speed-up: the output buffer is empty and the link
# takes as long.
sp=$(switch_run input-queued 4 --network.internal_speedup=2)
awk -v s="$sp" -v h="$want" 'BEGIN { exit !(s >= 0.97 && s <= 1.0005) }' &&
    echo "ok   4-port switch, internal_speedup = 2: $sp, above the HOL limit $want, at most the link" ||
    bad "4-port switch, internal_speedup = 2: $sp, not in [0.97, 1.0005] (HOL limit $want)"
switch_run input-queued 4 --workload.pattern=pair --workload.load=0.5 > /dev/null
l1=$(json "$TMP/sw/summary.json" packet_latency_ns mean)
switch_run input-queued 4 --workload.pattern=pair --workload.load=0.5 --network.internal_speedup=2 > /dev/null
close "a packet alone, internal_speedup = 2: the latency of internal_speedup = 1 ($l1 ns)" \
    "$(json "$TMP/sw/summary.json" packet_latency_ns mean)" "$l1"

# Allocator rounds ([network] alloc_iters): a round that leaves a grant
# declined starts at least one packet and an output starts at most one, so
# as many rounds as the switch has ports (4 terminals and the ring's 2)
# always end in the maximal matching: alloc_iters = 6 runs exactly what
# maximal does (same digest). One round, as BookSim's iSLIP, leaves an
# output idle for a cycle whenever the input it granted took another grant:
# with 4 lanes it stays above the one-FIFO limit (each input still offers
# several heads) and below the maximal matching.
dig() { json "$TMP/sw/engine.json" committed_digest; }
switch_run input-queued 4 --network.lanes=4 --end=50us > /dev/null; dmax=$(dig)
switch_run input-queued 4 --network.lanes=4 --end=50us --network.alloc_iters=6 > /dev/null; d6=$(dig)
[ -n "$dmax" ] && [ "$dmax" = "$d6" ] &&
    echo "ok   alloc_iters = 6 (the switch's ports) is the maximal matching: digest $d6" ||
    bad "alloc_iters = 6 differs from maximal: digest '$d6' against '$dmax'"
one=$(switch_run input-queued 4 --network.lanes=4 --network.alloc_iters=1)
awk -v h="$want" -v a="$one" -v b="$four" 'BEGIN { exit !(a > h + 0.03 && a < b - 0.05) }' &&
    echo "ok   4-port switch, 4 lanes, one allocator round: $one, between the HOL limit $want and maximal $four" ||
    bad "4-port switch, 4 lanes, one allocator round: $one, not between the HOL limit $want + 0.03 and maximal $four - 0.05"
# VC allocation before the switch: with one lane an output has one VC, and
# the head that takes it is the one the output serves next, so a one-FIFO
# switch still saturates at the head-of-line limit (lanes must free again).
got=$(switch_run input-queued 4 --network.vc_allocation=before-switch --network.alloc_iters=1)
close "input-queued 4-port switch, VC allocation before the switch, one round: the HOL limit" "$got" "$want" 0.03

# Per-cycle allocation ([network] alloc_timing): the switch allocates once
# per packet time, after every arrival of that instant, as the chain's
# slots do; with the fixed arrivals here the HOL limit stays.
got=$(switch_run input-queued 4 --network.alloc_timing=per-cycle --network.alloc_iters=1)
close "input-queued 4-port switch, per-cycle allocation, one round: the HOL limit" "$got" "$want" 0.03

# Lanes: an 8x8 torus at full uniform load, one-byte packets at 1 GB/s,
# BookSim's per-hop costs (a cycle per flit, a 3-cycle allocation pipeline
# per VC), 8-packet VC buffers: a VC FIFO passes a packet at most every
# 4 ns, so 2 VCs stay below 0.25 per node and 8 VCs more than double it.
torus_sat() { # lanes
    "$WARPNET" --quiet "$CONF/torus-8x8x8.ini" --torus.dims=8,8 --network.router=input-queued \
        --network.lanes="$1" --network.link_bandwidth=1GB/s --network.link_latency=1ns \
        --network.router_delay=5ns --network.alloc_delay=3ns --network.packet_size=1B --network.vc_buffer=8B \
        --workload.message_size=1B --workload.load=1.0 --end=10us --workload.warmup=3us \
        --out="$TMP/l$1" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; }
    json "$TMP/l$1/summary.json" accepted_load
}
one=$(torus_sat 1) four=$(torus_sat 4)
awk -v a="$one" -v b="$four" 'BEGIN { exit !(a < 0.25 && b > a * 2) }' &&
    echo "ok   8x8 torus saturation rises with lanes: $one (2 VCs) -> $four (8 VCs)" ||
    bad "8x8 torus saturation does not rise with lanes: $one (2 VCs) -> $four (8 VCs)"

RUNS="seq check opt2 opt4"
IQ="--network.router=input-queued --end=4us --workload.warmup=1us"
same_everywhere "torus" "$RUNS" "$CONF/torus-8x8x8.ini" --torus.dims=4,4 --workload.load=0.9 \
    --network.lanes=2 --network.credit_unit=64B --network.alloc_delay=20ns --network.lane_hold=10ns \
    --network.injection_vcs=all --torus.dateline=dimension --network.alloc_iters=1 \
    --network.vc_allocation=before-switch $IQ
echo "ok   torus: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in $RUNS"
# Per-cycle allocation with Poisson arrivals (off the cycle grid), a cycle
# that is not the packet time and before-switch VC allocation.
same_everywhere "torus per-cycle" "$RUNS" "$CONF/torus-8x8x8.ini" --torus.dims=4,4 --workload.load=0.9 \
    --network.lanes=2 --network.credit_unit=64B --network.alloc_delay=20ns --network.lane_hold=10ns \
    --network.alloc_timing=per-cycle --network.alloc_cycle=7ns --workload.arrivals=poisson \
    --network.alloc_iters=1 --network.vc_allocation=before-switch $IQ
echo "ok   torus per-cycle: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in $RUNS"
same_everywhere "fattree" "$RUNS" "$CONF/fattree-8p3l.ini" --workload.load=0.9 --network.speedup=2 \
    --network.lanes=2 $IQ
echo "ok   fattree: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in $RUNS"
same_everywhere "slimfly" "$RUNS" "$CONF/slimfly-q5.ini" --slimfly.routing=ugal --workload.load=0.9 $IQ
echo "ok   slimfly: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in $RUNS"
same_everywhere "dragonfly" "$RUNS" "$CONF/dragonfly-a4.ini" --dragonfly.routing=ugal-g --workload.load=0.9 $IQ
echo "ok   dragonfly: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in $RUNS"
# Internal speed-up: output buffers drained by the link (its time in the
# output's record), per-cycle allocation at half the link cycle.
same_everywhere "dragonfly internal_speedup" "$RUNS" "$CONF/dragonfly-a4.ini" --dragonfly.routing=ugal-l \
    --workload.load=0.9 --network.internal_speedup=2 --network.alloc_timing=per-cycle \
    --network.vc_allocation=before-switch --network.alloc_iters=1 $IQ
echo "ok   dragonfly internal_speedup: $(grep 'committed digest' "$TMP/same.res" | tr -s ' ') in $RUNS"
# Configuration errors name the key (docs/errors.md).
refused "unknown router" "router = iq: not one of" "$WARPNET" "$CONF/torus-8x8x8.ini" --network.router=iq
refused "alloc_delay beyond router_delay" "must lie in \[0, router_delay\]" "$WARPNET" \
    "$CONF/torus-8x8x8.ini" --network.alloc_delay=200ns
refused "lane_hold beyond router_delay" "lane_hold = 200ns: must lie in \[0, router_delay\]" "$WARPNET" \
    "$CONF/torus-8x8x8.ini" --network.lane_hold=200ns
refused "alloc_iters 0" "alloc_iters = 0: must be maximal or a number of rounds from 1 to 64" "$WARPNET" \
    "$CONF/torus-8x8x8.ini" --network.alloc_iters=0
refused "unknown vc_allocation" "vc_allocation = first: not one of" "$WARPNET" "$CONF/torus-8x8x8.ini" \
    --network.vc_allocation=first
refused "unknown alloc_timing" "alloc_timing = cycle: not one of" "$WARPNET" "$CONF/torus-8x8x8.ini" \
    --network.alloc_timing=cycle
refused "alloc_cycle 0" "alloc_cycle = 0ns: must be a positive time" "$WARPNET" "$CONF/torus-8x8x8.ini" \
    --network.alloc_cycle=0ns
# The allocator keys mean nothing to the output-queued router: the run goes
# on, with one warning per key that names the router setting ruling it out,
# and commits what the same run without them commits.
"$WARPNET" --quiet "$CONF/torus-8x8x8.ini" --end=3us --network.router=output-queued >"$TMP/oq.out" 2>&1 ||
    bad "output-queued run exits $?"
"$WARPNET" --quiet "$CONF/torus-8x8x8.ini" --end=3us --network.router=output-queued \
    --network.alloc_timing=per-cycle --network.speedup=2 >"$TMP/oqk.out" 2>"$TMP/oqk.err" ||
    bad "output-queued run with allocator keys exits $?"
want="warpnet: warning: --network.speedup: [network] speedup applies only with [network] router = input-queued (this run has output-queued); it is ignored
warpnet: warning: --network.alloc_timing: [network] alloc_timing applies only with [network] router = input-queued (this run has output-queued); it is ignored"
if [ "$(cat "$TMP/oqk.err")" = "$want" ]; then
    echo "ok   allocator keys on the output-queued router: one warning each"
else
    bad "allocator keys on the output-queued router warn:"; cat "$TMP/oqk.err"
fi
cmp -s "$TMP/oq.out" "$TMP/oqk.out" || bad "the ignored allocator keys changed the output-queued run"
refused "internal_speedup 0" "internal_speedup = 0" "$WARPNET" "$CONF/torus-8x8x8.ini" --network.internal_speedup=0
refused "unknown injection_vcs" "injection_vcs = any: not one of" "$WARPNET" "$CONF/torus-8x8x8.ini" \
    --network.injection_vcs=any
refused "unknown dateline" "dateline = wrap: not one of" "$WARPNET" "$CONF/torus-8x8x8.ini" --torus.dateline=wrap
refused "too many lanes" "at most 8 are supported" "$WARPNET" "$CONF/torus-8x8x8.ini" --network.lanes=8
exit $fail
