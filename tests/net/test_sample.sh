#!/bin/sh
# --sample=INTERVAL time series (samples.csv):
# - sampling changes neither the committed digest nor any model result;
# - summed over the run, the per-interval counts equal the end-of-run totals
#   (terminal sends = injected packets, receives = delivered packets, router
#   receives = packets into router ports, router sends = receives - queued);
# - 2 and 4 optimistic ranks write the same samples.csv as the sequential run;
# - the occupancy integral of one message at zero load is the closed form
#   n (H+1) P^2 / B byte-ns (each of its n packets holds each of the H+1
#   router buffers for one serialisation time s = P/B);
# - bad uses stop with exit 2 and a message naming the option.
. "${top_srcdir:-.}/tests/net/lib.sh"
MPIEXEC=${MPIEXEC:-mpiexec}
SF="${top_srcdir:-.}/examples/configs/slimfly-q5.ini"
short="--end=12us --workload.warmup=2us"

# summary.json without the engine block and the wall-clock figures.
model_results() {
    sed -e '/"engine"/,$d' "$1/summary.json"
    cat "$1/terminals.csv" "$1/ports.csv" "$1/latency_hist.csv"
}
digest() { sed -n 's/^  committed digest: //p' "$1"; }

"$WARPNET" "$SF" $short --out="$TMP/plain" > "$TMP/plain.log" 2>&1 || { cat "$TMP/plain.log"; exit 1; }
"$WARPNET" "$SF" $short --out="$TMP/seq" --sample=1us > "$TMP/seq.log" 2>&1 || { cat "$TMP/seq.log"; exit 1; }
ref=$(digest "$TMP/plain.log")
if [ -z "$ref" ] || [ "$ref" != "$(digest "$TMP/seq.log")" ]; then
    echo "FAIL the digest changes with --sample: '$ref' vs '$(digest "$TMP/seq.log")'"; fail=1
else
    echo "ok   same digest with and without --sample: $ref"
fi
model_results "$TMP/plain" > "$TMP/plain.res"
model_results "$TMP/seq" > "$TMP/seq.res"
if cmp -s "$TMP/plain.res" "$TMP/seq.res"; then
    echo "ok   same summary.json and CSV files with and without --sample"
else
    echo "FAIL --sample changes model results:"; diff "$TMP/plain.res" "$TMP/seq.res" | head; fail=1
fi
[ -f "$TMP/plain/samples.csv" ] && { echo "FAIL samples.csv written without --sample"; fail=1; }

S=$TMP/seq/samples.csv
if [ "$(head -n 1 "$S")" != "time_ns,kind,id,port,vc,value" ]; then
    echo "FAIL samples.csv header: $(head -n 1 "$S")"; fail=1
fi
total() { awk -F, -v k="$2" 'NR > 1 && $2 == k { s += $6 } END { printf "%.0f", s }' "$1"; }
in_pkts=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "in_packets") c = i }
                  NR > 1 { s += $c } END { printf "%.0f", s }' "$TMP/seq/ports.csv")
queued=$(sed -n 's/.*(queued \([0-9]*\),.*/\1/p' "$TMP/seq.log")
close "terminal sends summed = injected packets" "$(total "$S" term_sent)" "$(json "$TMP/seq/summary.json" injected_packets)" 0
close "terminal receives summed = delivered packets" "$(total "$S" term_recv)" "$(json "$TMP/seq/summary.json" delivered_packets)" 0
close "router receives summed = packets into router ports" "$(total "$S" router_recv)" "$in_pkts" 0
close "router sends summed = router receives - queued ($queued)" "$(total "$S" router_sent)" "$((in_pkts - queued))" 0
# 12 intervals of 1 us, the first at 0, the last at 11 us.
times=$(awk -F, 'NR > 1 { print $1 }' "$S" | sort -g -u | tr '\n' ' ')
[ "$times" = "0 1000 2000 3000 4000 5000 6000 7000 8000 9000 10000 11000 " ] &&
    echo "ok   12 sample times, 1 us apart" || { echo "FAIL sample times: $times"; fail=1; }
awk -F, 'NR > 1 && $2 == "occupancy" && ($6 < 0 || $4 < 0 || $5 < 0 || $5 > 3) { bad = 1 }
         END { exit bad }' "$S" && echo "ok   occupancy rows: ports and VCs in range, no negative mean" ||
    { echo "FAIL an occupancy row out of range"; fail=1; }

for np in 2 4; do
    "$MPIEXEC" -n $np "$WARPNET" "$SF" $short --synch=opt --batch=4 --out="$TMP/o$np" --sample=1us \
        > "$TMP/o$np.log" 2>&1 || { cat "$TMP/o$np.log"; fail=1; continue; }
    if cmp -s "$S" "$TMP/o$np/samples.csv" && [ "$(digest "$TMP/o$np.log")" = "$ref" ]; then
        echo "ok   $np optimistic ranks: same digest and samples.csv"
    else
        echo "FAIL $np optimistic ranks: digest $(digest "$TMP/o$np.log") (want $ref) or samples.csv differs"
        diff "$S" "$TMP/o$np/samples.csv" | head -5; fail=1
    fi
done

# Zero load, torus ring of 8, one message of n packets over H router hops.
B=16 P=256
occ_closed_form() { # dst packets hops switching
    cat > "$TMP/z.ini" <<INI
[engine]
end = 20us
[network]
topology = torus
link_bandwidth = ${B}GB/s
packet_size = ${P}B
switching = $4
[torus]
dims = 8
[workload]
pattern = pair
src = 0
dst = $1
count = 1
message_size = $(($2 * P))B
start = 1us
interval = 1us
INI
    "$WARPNET" --quiet "$TMP/z.ini" --out="$TMP/z" --sample=1us > "$TMP/z.log" 2>&1 ||
        { cat "$TMP/z.log"; fail=1; return; }
    got=$(awk -F, 'NR > 1 && $2 == "occupancy" { s += $6 * 1000 } END { printf "%.6f", s }' "$TMP/z/samples.csv")
    close "$4: occupancy integral of $2 packets over $3 hops (byte-ns)" "$got" \
        "$(awk -v n=$2 -v H=$3 'BEGIN { print n * (H + 1) * '$P' * '$P' / '$B' }')" 1e-6
}
occ_closed_form 3 1 3 cut-through
occ_closed_form 3 5 3 cut-through
occ_closed_form 2 4 2 store-forward

# Errors: exit 2 and the option named.
bad() { # what expected-text args...
    what=$1 want=$2
    shift 2
    "$WARPNET" "$@" > "$TMP/bad.log" 2>&1
    rc=$?
    if [ $rc = 2 ] && grep -q -- "$want" "$TMP/bad.log"; then
        echo "ok   $what: exit 2, '$(tail -n 1 "$TMP/bad.log")'"
    else
        echo "FAIL $what: exit $rc, $(tail -n 1 "$TMP/bad.log")"; fail=1
    fi
}
bad "--sample without --out" "add --out=DIR" "$SF" $short --sample=1us
bad "--sample=abc" "--sample" "$SF" $short --sample=abc --out="$TMP/b1"
bad "--sample=-1us" "--sample" "$SF" $short --sample=-1us --out="$TMP/b2"
bad "--sample on an analytic network" "packet network" \
    "${top_srcdir:-.}/examples/configs/simplenet-64.ini" --sample=1us --out="$TMP/b3"
bad "--sample too fine for memory" "use an interval of at least" "$SF" --sample=1ps --out="$TMP/b4"
[ -f "$TMP/b4/samples.csv" ] && { echo "FAIL a refused run wrote samples.csv"; fail=1; }
exit $fail
