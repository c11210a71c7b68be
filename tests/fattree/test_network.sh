#!/bin/sh
# Fat-tree through the real binary: --describe sizes against the m-port n-tree
# formulas; mean hop count under uniform traffic against the exact average
# over destinations; 100 % uniform load with every routing choice delivers
# everything (conservation, nothing in flight); bad [fattree] keys stop with
# one line; and one 8-port 3-tree run gives the same digest and summary in
# seq, check, debug (forced rollbacks), opt, opt with one LP per KP, and opt
# on 2 ranks (and on 4 ranks when WARP_LONG=1, as `make check-long` sets:
# 4 ranks crawl on 2 cores).
. "${top_srcdir:-.}/tests/net/lib.sh"

# ---- sizes: nodes m(m/2)^(n-1), switches (2n-1)(m/2)^(n-1), switch-switch
# links (n-1) * nodes, radix m
for mn in 4,2 4,3 8,3 16,3 128,3; do
    m=${mn%,*} n=${mn#*,}
    printf '[network]\ntopology = fattree\n[fattree]\nports = %s\nlevels = %s\n' $m $n > "$TMP/d.ini"
    "$WARPNET" --describe "$TMP/d.ini" > "$TMP/desc" 2>&1 || { cat "$TMP/desc"; fail=1; continue; }
    field() { sed -n "s/^$1: \([0-9]*\).*/\1/p" "$TMP/desc"; }
    k=$((m / 2)) p=1 i=1
    while [ $i -lt $n ]; do p=$((p * k)); i=$((i + 1)); done
    close "($m,$n) nodes" "$(field nodes)" $((m * p))
    close "($m,$n) switches" "$(field routers)" $(((2 * n - 1) * p))
    close "($m,$n) switch links" "$(field links)" $(((n - 1) * m * p))
    close "($m,$n) radix" "$(field radix)" $m
done
printf '[network]\ntopology = fattree\n[fattree]\npods = 8\n' > "$TMP/d.ini"
"$WARPNET" --describe "$TMP/d.ini" > "$TMP/desc" 2>&1
close "pods = 8 is the 8-port 3-tree: nodes" "$(sed -n 's/^nodes: //p' "$TMP/desc")" 128
close "pods = 8: switches" "$(sed -n 's/^routers: //p' "$TMP/desc")" 80

base() { # pattern load count end routing ecmp [switching]
cat <<INI
[engine]
end = $4
[network]
topology = fattree
link_latency = 50ns
router_delay = 90ns
packet_size = 256B
vc_buffer = 1KiB
switching = ${7:-cut-through}
[fattree]
ports = 8
levels = 3
routing = $5
ecmp = $6
host_bandwidth = 12.5GB/s
switch_bandwidth = 10GB/s
[workload]
pattern = $1
load = $2
count = $3
message_size = 256B
INI
}

# ---- mean router hops, uniform: 3 leaf mates (0), 12 pod mates (2), 112
# others (4) out of 127 destinations. 5120 one-packet messages, sd ~0.7.
base uniform 0.2 40 200us ecmp per-flow > "$TMP/h.ini"
"$WARPNET" --quiet "$TMP/h.ini" --out="$TMP/h" > "$TMP/log" 2>&1 || { cat "$TMP/log"; exit 1; }
close "mean hops, uniform" "$(json "$TMP/h/summary.json" hops_mean)" "$(awk 'BEGIN { print (12*2 + 112*4) / 127 }')" 0.02
close "all delivered" "$(json "$TMP/h/summary.json" delivered_packets)" 5120

# ---- 100 % load: everything arrives, with each routing choice
for case in "ecmp per-flow cut-through" "ecmp per-packet store-forward" "adaptive per-flow cut-through" \
            "adaptive per-packet store-forward"; do
    set -- $case
    base uniform 1.0 30 2ms $1 $2 $3 > "$TMP/s.ini"
    "$WARPNET" --quiet "$TMP/s.ini" --out="$TMP/s" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; }
    grep -q "conservation .*: ok" "$TMP/log" || { echo "FAIL $case: conservation line"; cat "$TMP/log"; fail=1; }
    close "$case at 100 %: every packet delivered" "$(json "$TMP/s/summary.json" delivered_packets)" $((128 * 30))
    close "$case: nothing left in flight" "$(json "$TMP/s/summary.json" in_flight_packets)" 0
done

# ---- configuration errors: exit 2, one line naming the key
expect() { # name pattern override...
    name=$1 pat=$2; shift 2
    refused "$name" "$pat" "$WARPNET" --quiet "$TMP/h.ini" "$@"
}
expect "odd ports" "\[fattree\] ports" --fattree.ports=7
expect "pods with ports" "\[fattree\] pods" --fattree.pods=8
expect "unknown routing" "\[fattree\] routing" --fattree.routing=random
expect "unknown ecmp mode" "\[fattree\] ecmp" --fattree.ecmp=per-byte
expect "bandwidth unit" "\[fattree\] host_bandwidth" --fattree.host_bandwidth=10
expect "levels out of range" "\[fattree\] levels" --fattree.levels=0

# ---- determinism: adaptive routing (reads occupancy) and per-packet ECMP
# (draws from the router's stream) are the sensitive cases
for r in "adaptive per-packet" "ecmp per-flow"; do
    base uniform 0.7 0 8us $r > "$TMP/d.ini"
    ref=""
    for mode in "--synch=seq" "--synch=check" "--synch=debug" "--synch=opt" \
                "--synch=opt --lps-per-kp=1" "np2 --synch=opt" "np4 --synch=opt --batch=4"; do
        case $mode in np4*) [ -n "$WARP_LONG" ] || continue ;; esac
        case $mode in
        np*) [ -n "$MPIEXEC" ] || continue
             np=${mode%% *}; np=${np#np}
             $MPIEXEC -n $np "$WARPNET" --quiet ${mode#np? } "$TMP/d.ini" --out="$TMP/d" > "$TMP/log" 2>&1 ;;
        *)   "$WARPNET" --quiet $mode "$TMP/d.ini" --out="$TMP/d" > "$TMP/log" 2>&1 ;;
        esac || { echo "FAIL $r $mode"; cat "$TMP/log"; fail=1; continue; }
        got=$(sed '/"engine"/,$d' "$TMP/d/summary.json" | cksum)
        digest=$(sed -n 's/.*"committed_digest": "\([0-9a-f]*\)".*/\1/p' "$TMP/d/summary.json")
        if [ -z "$ref" ]; then ref="$digest $got"; echo "ok   $r: reference digest $digest"; continue; fi
        if [ "$digest $got" = "$ref" ]; then echo "ok   $r $mode: same digest and summary"
        else echo "FAIL $r $mode: digest/summary $digest $got differ from $ref"; fail=1; fi
    done
done
exit $fail
