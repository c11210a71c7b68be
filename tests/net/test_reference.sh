#!/bin/sh
# [network] reference_bandwidth: at low load accepted = offered, so the
# accepted share of the reference is the offered load over the reference;
# a percentage and the same bandwidth in GB/s give one reference; Slim Fly's
# bisection is the column/slope cut, (a² + b²)/(q p) = 13/15 of the link
# bandwidth for q = 5, p = 3; without the key nothing about it is reported.
. "${top_srcdir:-.}/tests/net/lib.sh"
CONF="${top_srcdir:-.}/examples/configs"
run() { # name config args...: summary.json in $TMP/name, text in $TMP/name.txt
    name=$1 conf=$2; shift 2
    "$WARPNET" "$CONF/$conf" --end=20us --workload.warmup=5us --workload.load=0.2 \
        --out="$TMP/$name" "$@" > "$TMP/$name.txt" 2>&1 || { echo "FAIL $name exits $?"; cat "$TMP/$name.txt"; fail=1; }
}
run pct torus-8x8x8.ini --torus.dims=4,4 --network.reference_bandwidth=50%
run abs torus-8x8x8.ini --torus.dims=4,4 --network.reference_bandwidth=6.25GB/s
run none torus-8x8x8.ini --torus.dims=4,4
run bis slimfly-q5.ini --network.reference_bandwidth=bisection
for r in pct abs; do
    js="$TMP/$r/summary.json"
    close "$r: reference of injection" "$(json "$js" reference of_injection)" 0.5
    close "$r: reference GB/s per node" "$(json "$js" reference gbps_per_node)" 6.25
    acc=$(json "$js" accepted_load)
    close "$r: accepted % of reference = accepted / 0.5" "$(json "$js" accepted_pct_of_reference)" \
        "$(awk -v a="$acc" 'BEGIN { printf "%.17g", 100 * a / 0.5 }')" 1e-9
    close "$r: accepted % of reference ~ offered / reference" \
        "$(json "$js" accepted_pct_of_reference)" 40 0.1
done
js="$TMP/bis/summary.json"
close "slimfly q=5 bisection share" "$(json "$js" reference of_injection)" \
    "$(awk 'BEGIN { printf "%.17g", 13 / 15 }')"
close "slimfly q=5: accepted % of bisection ~ 0.2 / (13/15)" \
    "$(json "$js" accepted_pct_of_reference)" "$(awk 'BEGIN { printf "%.17g", 20 * 15 / 13 }')" 0.1
grep -q '^reference .*bisection of slimfly.*: accepted [0-9.]* % of reference$' "$TMP/bis.txt" &&
    echo "ok   reference line: $(grep '^reference' "$TMP/bis.txt")" ||
    { echo "FAIL no reference line"; cat "$TMP/bis.txt"; fail=1; }
if grep -q reference "$TMP/none/summary.json" "$TMP/none.txt"; then
    echo "FAIL a reference is reported although none is set"; fail=1
else
    echo "ok   no reference, none reported"
fi
exit $fail
