#!/bin/sh
# Torus behaviour through the real binary: mean hop count under uniform
# traffic matches the k-ary n-cube value; saturating all-to-one and 100 %
# uniform load deliver everything (no deadlock) with conservation; and one
# configuration gives the same digest and summary in seq, check, debug, opt and opt
# on 2 and 4 ranks (not cons: a workload reaches its NIC with no delay, so the
# model has no lookahead).
. "${top_srcdir:-.}/tests/net/lib.sh"
base() { # dims pattern load count end
cat <<INI
[engine]
end = $5
[network]
topology = torus
link_bandwidth = 12.5GB/s
link_latency = 50ns
router_delay = 100ns
packet_size = 256B
vc_buffer = 1KiB
[torus]
dims = $1
[workload]
pattern = $2
load = $3
count = $4
message_size = 256B
INI
}
# Mean distance of a k-ring over all destinations: k/4 (k even),
# (k^2-1)/(4k) (odd); excluding self multiplies by N/(N-1).
base 4,4,5 uniform 0.2 60 200us > "$TMP/h.ini"
"$WARPNET" --quiet "$TMP/h.ini" --out="$TMP/h" > "$TMP/log" 2>&1 || { cat "$TMP/log"; exit 1; }
want=$(awk 'BEGIN { N = 80; print (1 + 1 + 24/20) * N / (N - 1) }')
# 4800 one-packet messages, sd of the hop count ~1.3: 4 standard errors.
close "mean hops 4x4x5 uniform" "$(json "$TMP/h/summary.json" hops_mean)" "$want" 0.025
close "all delivered" "$(json "$TMP/h/summary.json" delivered_packets)" 4800

for case in "incast 1.0 40" "uniform 1.0 40"; do
    set -- $case
    base 4,4,4 $1 $2 $3 2ms > "$TMP/s.ini"
    "$WARPNET" --quiet "$TMP/s.ini" --out="$TMP/s" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; }
    grep -q "conservation .*: ok" "$TMP/log" || { echo "FAIL $1: conservation line"; fail=1; }
    [ "$1" = incast ] && msgs=$((63 * $3)) || msgs=$((64 * $3))
    close "$1 at load $2: every packet delivered" "$(json "$TMP/s/summary.json" delivered_packets)" $msgs
    close "$1: nothing left in flight" "$(json "$TMP/s/summary.json" in_flight_packets)" 0
done

# --describe counts without simulating: 4x4x5 with 2 nodes per router has
# 160 nodes, 80 routers, 3 links per router (k >= 3), radix 2*3 + 2; a
# dimension of size 2 has two links between each pair (the + and - ports).
describe() { # dims p nodes routers links radix
    base "$1" uniform 0.1 0 1us > "$TMP/x.ini"
    "$WARPNET" --describe "$TMP/x.ini" --torus.nodes_per_router=$2 > "$TMP/desc" 2>&1 || { cat "$TMP/desc"; fail=1; return; }
    for kv in "nodes $3" "routers $4" "links $5" "radix $6"; do
        set -- $kv
        close "describe $dims: $1" "$(sed -n "s/^$1: //p" "$TMP/desc")" "$2"
    done
}
dims=4,4,5; describe 4,4,5 2 160 80 240 8
dims=2,3; describe 2,3 1 6 6 12 5
dims=4,4,5
"$WARPNET" --dump-topology="$TMP/t.dot" "$TMP/x.ini" --torus.dims=4,4,5 > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; }
close "dump-topology router-router edges" "$(grep -c -- '-- r' "$TMP/t.dot")" 240
"$WARPNET" --dump-topology="$TMP/big.dot" "$TMP/x.ini" --torus.dims=64,64,2 > "$TMP/log" 2>&1
[ $? -eq 2 ] && grep -q "too many routers" "$TMP/log" && echo "ok   dump-topology refuses 8192 routers" \
    || { echo "FAIL dump-topology of a big network"; cat "$TMP/log"; fail=1; }

base 4,4,4 uniform 0.6 0 6us > "$TMP/d.ini"
ref=""
for mode in "--synch=seq" "--synch=check" "--synch=debug" "--synch=opt" "--synch=opt --lps-per-kp=1" \
            "np2 --synch=opt" "np4 --synch=opt --batch=4"; do
    case $mode in
    np*) [ -n "$MPIEXEC" ] || continue
          np=${mode%% *}; np=${np#np}
          $MPIEXEC -n $np "$WARPNET" --quiet ${mode#np? } "$TMP/d.ini" --out="$TMP/d" > "$TMP/log" 2>&1 ;;
    *)    "$WARPNET" --quiet $mode "$TMP/d.ini" --out="$TMP/d" > "$TMP/log" 2>&1 ;;
    esac || { echo "FAIL $mode"; cat "$TMP/log"; fail=1; continue; }
    got=$(sed '/"engine"/,$d' "$TMP/d/summary.json" | cksum)
    digest=$(sed -n 's/.*"committed_digest": "\([0-9a-f]*\)".*/\1/p' "$TMP/d/summary.json")
    if [ -z "$ref" ]; then ref="$digest $got"; echo "ok   reference digest $digest"; continue; fi
    if [ "$digest $got" = "$ref" ]; then echo "ok   $mode: same digest and summary"
    else echo "FAIL $mode: digest/summary $digest $got differ from $ref"; fail=1; fi
done
exit $fail
