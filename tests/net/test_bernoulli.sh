#!/bin/sh
# [workload] arrivals = bernoulli: messages only at slot boundaries (multiples
# of arrival_slot from time 0), each slot one with probability
# p = slot / mean inter-arrival. Checked against numbers derived here:
#  - (zero-load latency on the allocation cycle's grid: test_zero_load.sh);
#  - p = 1 (load = 1, default slot = one message's time on the link): one
#    message every slot from start to end, an exact count;
#  - the count of messages over a window against ranks · slots · p, within
#    4 standard deviations of the binomial;
#  - the committed digest and summary on seq, check and opt on 2 and 4 ranks;
#  - bad values refused.
. "${top_srcdir:-.}/tests/net/lib.sh"
# p = 1: a message every slot of 16 ns (256 B at 16 GB/s) from 0 to
# end = 10 us: 625 a rank, 24 ranks.
small_torus "$TMP/t.ini"
T="$TMP/t.ini --end=10us --workload.arrivals=bernoulli --workload.message_size=256B --network.packet_size=256B
--network.link_bandwidth=16GB/s"
"$WARPNET" --quiet $T --out="$TMP/o" --workload.load=1 > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; }
close "p = 1: one message a slot" "$(json "$TMP/o/summary.json" offered_messages)" $((24 * 625))
# Load 0.3 with the default slot (p = 0.3, 625 slots) and with 4 ns slots
# (p = 4 / 53.3 = 0.075, 2500 slots): 4500 messages expected either way,
# binomial standard deviations 56 and 64.
for c in "16 0.3" "4 0.075"; do
    set -- $c
    "$WARPNET" --quiet $T --out="$TMP/o" --workload.load=0.3 --workload.arrival_slot=${1}ns \
        > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; }
    got=$(json "$TMP/o/summary.json" offered_messages)
    n=$((24 * 10000 / $1))
    if awk -v g="$got" -v n=$n -v p=$2 'BEGIN { m = n * p; sd = sqrt(n * p * (1 - p)); d = g - m
            exit !(d * d <= 16 * sd * sd) }'; then
        echo "ok   slot ${1} ns, p = $2: $got messages offered (expected $n x $2)"
    else
        bad "slot ${1} ns, p = $2: $got messages offered, expected $n x $2 within 4 sd"
    fi
done

# Digests: uniform traffic at 0.6 on a 4x3x2 torus, 1 ns slots, per-cycle
# input-queued routers; seq, check, opt on 2 and 4 ranks.
same_everywhere "bernoulli" "${RUNS:-seq check opt2 opt4}" "$TMP/t.ini" --workload.arrivals=bernoulli \
    --workload.arrival_slot=1ns --network.router=input-queued --network.alloc_timing=per-cycle
[ "$fail" = 0 ] && echo "ok   bernoulli digests agree on seq, check, opt2, opt4"

refused "bernoulli: p > 1" "arrival_slot" "$WARPNET" --quiet $T --workload.load=0.5 --workload.arrival_slot=1us
refused "bernoulli: zero slot" "arrival_slot" "$WARPNET" --quiet $T --workload.arrival_slot=0ns
refused "arrival_slot without bernoulli" "arrival_slot" "$WARPNET" --quiet $T --workload.arrivals=poisson \
    --workload.arrival_slot=1ns
refused "arrivals misspelt" "arrivals" "$WARPNET" --quiet $T --workload.arrivals=bernouli
exit $fail
