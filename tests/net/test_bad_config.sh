#!/bin/sh
# Bad run files stop with exit code 2 and one line naming the place and key.
. "${top_srcdir:-.}/tests/net/lib.sh"
good='[engine]
end = 2us
[network]
topology = torus
link_bandwidth = 12.5GB/s
[torus]
dims = 4,4
[workload]
load = 0.1'
expect() { # name pattern override...
    name=$1 pat=$2; shift 2
    printf '%s\n' "$good" > "$TMP/b.ini"
    refused "$name" "$pat" "$WARPNET" --quiet "$TMP/b.ini" "$@"
}
"$WARPNET" --quiet "$(printf '%s\n' "$good" > "$TMP/g.ini"; echo "$TMP/g.ini")" > "$TMP/log" 2>&1 \
    && echo "ok   the good file runs" || { echo "FAIL good file"; cat "$TMP/log"; fail=1; }
expect "missing unit" "link_bandwidth" --network.link_bandwidth=12.5
expect "unknown key" "bogus" --torus.bogus=1
expect "dims vs nodes" "nodes" --torus.nodes=20
expect "zero bandwidth" "link_bandwidth" --network.link_bandwidth=0GB/s
expect "unknown topology" "topology" --network.topology=hypercube
expect "buffer below a packet" "vc_buffer" --network.vc_buffer=100B
expect "transpose needs 4^k ranks" "transpose" --workload.pattern=transpose --torus.dims=2,4
expect "end without unit" "end" --end=5
expect "worst case needs a topology that has one" "worst needs a topology" --workload.pattern=worst
expect "reference without unit" "reference_bandwidth" --network.reference_bandwidth=12.5
expect "bisection reference needs a formula" "no bisection formula" --network.reference_bandwidth=bisection
# Issue 13: values outside physical sense once ran (vc_buffer = 0B silently
# took the default; 1e30GB/s never finished); now refused with the range.
expect "zero VC buffer" "vc_buffer = 0B: a VC buffer must hold at least one packet (256 B)" --network.vc_buffer=0B
expect "zero port buffer" "port_buffer = 0B: a port buffer must hold" --network.port_buffer=0B
expect "absurd bandwidth" "link_bandwidth = 1e30GB/s: outside physical sense; give a value from 1B/s to 1e9TB/s" \
    --network.link_bandwidth=1e30GB/s
expect "absurd latency" "link_latency = 1e30s: outside physical sense; give a value from 0 to 1e15ns" \
    --network.link_latency=1e30s
expect "absurd buffer" "vc_buffer = 2048TiB: outside physical sense; give a value from 1B to 1PiB" --network.vc_buffer=2048TiB
# Routers count credits in 32-bit words (a port's record in one cache line).
expect "VC buffer past 1 GiB" "vc_buffer = 2GiB: a VC buffer (2147483648 B) may hold at most 1 GiB; give a smaller one" \
    --network.vc_buffer=2GiB
expect "port buffer past 1 GiB per VC" "port_buffer = 8GiB: a VC buffer (4294967296 B) may hold at most 1 GiB" \
    --network.port_buffer=8GiB --network.vcs=2
"$WARPNET" --quiet "$TMP/g.ini" --network.vc_buffer=1GiB > "$TMP/log" 2>&1 \
    && echo "ok   a 1 GiB VC buffer runs" || { echo "FAIL a 1 GiB VC buffer"; cat "$TMP/log"; fail=1; }
exit $fail
