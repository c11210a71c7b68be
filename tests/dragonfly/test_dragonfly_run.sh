#!/bin/sh
# test_dragonfly_run.sh — the real warpnet binary on dragonflies, for every
# routing (minimal, valiant, ugal-l, ugal-g, par):
#  - deadlock freedom: every rank sends COUNT one-packet messages at 100 %
#    load, uniform and under the group shift, through buffers of 2 packets
#    per VC, on a = 4 (g = 9, one link per pair) and on a = 4, g = 5
#    (two links per pair); the network must drain: all packets delivered;
#  - determinism: a = 4 at 80 % uniform load passes --synch=check, and
#    seq, check and opt on 1, 2 and 4 ranks commit the same digest and print
#    the same network summary (conservation ok);
#  - --sample leaves the result unchanged and warpnet report renders it;
#  - UGAL-G's status events: per-type buffers and latencies (the CODES run
#    file) on 1 and 2 ranks give one digest.
. "${top_srcdir:-.}/tests/net/lib.sh"
. "${top_srcdir:-.}/tests/dragonfly/dfly_lib.sh"
SECTION=dragonfly PER_GROUP=8 DRAIN_END=200us
W=$WARPNET tmp=$TMP
CONF="${top_srcdir:-.}/examples/configs"
INI="$CONF/dragonfly-a4.ini"

for routing in minimal valiant ugal-l ugal-g par; do
    for pattern in uniform worst; do
        drain "$routing" "$pattern" 9 30
        drain "$routing" "$pattern" 5 30
    done
    same_everywhere "$routing" "seq check opt1 opt2 opt4" "$INI" --dragonfly.routing="$routing" \
        --workload.load=0.8 --end=4us --workload.warmup=1us
    echo "ok   $routing: $(grep 'committed digest' "$tmp/same.res" | tr -s ' ') in seq, check, opt on 1, 2, 4 ranks"
done

# --sample and warpnet report work unchanged: sampling leaves the result as
# it was (UGAL-G, with its status events, on 2 ranks).
same_everywhere "sampled ugal-g" "seq opt2" "$INI" --dragonfly.routing=ugal-g --end=4us \
    --workload.warmup=1us
cp "$tmp/same.res" "$tmp/plain.res"
same_everywhere "sampled ugal-g" "opt2" "$INI" --dragonfly.routing=ugal-g --end=4us \
    --workload.warmup=1us --sample=500ns --out="$tmp/smp"
cmp -s "$tmp/plain.res" "$tmp/same.res" && [ -s "$tmp/smp/samples.csv" ] &&
    echo "ok   --sample on 2 ranks: same result, samples.csv written" ||
    bad "--sample changes the result or writes no samples.csv"
timeout 120 "$W" report "$tmp/smp" > "$tmp/report.log" 2>&1 && [ -s "$tmp/smp/report.md" ] &&
    echo "ok   warpnet report renders the dragonfly run" || { bad "warpnet report fails"; tail -3 "$tmp/report.log"; }

# The CODES case with UGAL-G: status events cross ranks.
same_everywhere "codes ugal-g" "opt1 opt2" "$CONF/dragonfly-codes-1056.ini" --dragonfly.routing=ugal-g
grep -q "delivered 5280$" "$tmp/same.res" &&
    echo "ok   codes case, ugal-g: $(grep 'committed digest' "$tmp/same.res" | tr -s ' ') on 1 and 2 ranks, 5280 messages" ||
    bad "codes case ugal-g: not all 5280 messages delivered"
exit $fail
