# tests/dragonfly/dfly_lib.sh — helpers of the dragonfly and Dragonfly+ run
# tests, sourced after tests/net/lib.sh (whose accepted and within they use
# beside these). They run warpnet on $INI with the topology's section
# $SECTION ("dragonfly" or "dragonflyplus").

# zero DST PACKETS SWITCHING HOPS LOCALS GLOBALS: one message from terminal 0
# to DST at zero load, links of three kinds (terminal, local, a slower
# global one, each its own latency: $P $B $G $LT $LL $LG $D), against
# cut-through n·s/B_min + Σλ + (H+1)d (B_min the global link's when the path
# has one) and store-and-forward (n-1)·s/B_min + Σ(s/B + λ) + (H+1)d.
zero() {
    dst=$1 n=$2 sw=$3 H=$4 nl=$5 ng=$6
    "$WARPNET" --quiet "$INI" --workload.pattern=pair --workload.src=0 --workload.dst="$dst" \
        --workload.count=1 --workload.message_size=$((n * P))B --workload.start=1us \
        --workload.warmup=0us --network.switching="$sw" --network.router_delay=${D}ns \
        --network.vc_buffer=64KiB --$SECTION.terminal_latency=${LT}ns \
        --$SECTION.local_latency=${LL}ns --$SECTION.global_latency=${LG}ns \
        --$SECTION.global_bandwidth=${G}GB/s --end=20us --out="$TMP/z" > "$TMP/log" 2>&1 ||
        { cat "$TMP/log"; fail=1; return; }
    want=$(awk -v n="$n" -v H="$H" -v nl="$nl" -v ng="$ng" -v sw="$sw" 'BEGIN {
        s = '$P'; lat = 2 * '$LT' + nl * '$LL' + ng * '$LG'
        bmin = ng > 0 ? '$G' : '$B'
        if (sw == "cut-through") print n * s / bmin + lat + (H + 1) * '$D'
        else print (n - 1) * s / bmin + (2 + nl) * s / '$B' + ng * s / '$G' + lat + (H + 1) * '$D' }')
    close "$sw to terminal $dst, $n packets, H=$H" "$(json "$TMP/z/summary.json" message_latency_ns mean)" "$want" 1e-5
    close "  hops" "$(json "$TMP/z/summary.json" hops_mean)" "$H"
}

# drain ROUTING PATTERN GROUPS COUNT: every terminal sends COUNT one-packet
# messages at 100 % load through buffers of 2 packets per VC ($PER_GROUP
# terminals per group); all must be delivered by $DRAIN_END (no deadlock).
drain() {
    out="$TMP/drain-$1-$2-$3"
    timeout 120 "$WARPNET" "$INI" --$SECTION.routing="$1" --workload.pattern="$2" --$SECTION.g="$3" \
        --workload.load=1.0 --workload.count="$4" --end="$DRAIN_END" --workload.warmup=0us \
        --network.vc_buffer=512B --quiet >"$out" 2>&1 || { bad "$1 $2 g=$3 drain run exits $?"; tail -3 "$out"; return; }
    want=$(($3 * PER_GROUP * $4))
    grep -q "^packets .*injected $want, delivered $want\$" "$out" &&
        echo "ok   $1 $2 g=$3: all $want packets delivered" ||
        bad "$1 $2 g=$3: not all $want packets delivered (deadlock?): $(grep -E '^(packets|conservation)' "$out")"
}
