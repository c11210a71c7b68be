#!/bin/sh
# --describe's memory_per_rank_bytes is what a rank will reach (issue 53,
# item 8): for runs whose model, not the program, fills the memory, the
# measured peak RSS of the busiest rank lies between half the estimate and
# the estimate. Before: "memory_bound_bytes" with every buffer full (20-4000x
# the measured peak) and a per-rank figure without events (0.3-0.8x).
. "${srcdir:-.}/tests/net/lib.sh"
C="${top_srcdir:-${srcdir:-.}}/examples/configs"

# A sanitizer build's shadow memory and quarantine are not the model's.
if grep -q '^SAN_CFLAGS = .*fsanitize' "${top_builddir:-.}/Makefile" 2>/dev/null; then
    echo "SKIP: peak RSS under the sanitizers measures them, not the model"; exit 77
fi

# within NAME RANKS RUN-FILE OVERRIDES...: estimate/2 <= measured <= estimate.
within() {
    name=$1 np=$2 ini=$3; shift 3
    if [ "$np" = 1 ]; then
        "$WARPNET" "$ini" "$@" --describe > "$TMP/desc" 2>&1 &&
            "$WARPNET" "$ini" "$@" --quiet --stats-json="$TMP/s.json" > "$TMP/log" 2>&1
    else
        timeout 300 ${MPIEXEC:-mpiexec} -n "$np" "$WARPNET" "$ini" "$@" --describe > "$TMP/desc" 2>&1 &&
            timeout 300 ${MPIEXEC:-mpiexec} -n "$np" "$WARPNET" "$ini" "$@" --quiet \
                --stats-json="$TMP/s.json" > "$TMP/log" 2>&1
    fi
    rc=$?
    est=$(sed -n 's/^memory_per_rank_bytes: \([0-9]*\) .*/\1/p' "$TMP/desc")
    rss=$(json "$TMP/s.json" peak_rss_bytes)
    if [ $rc -ne 0 ] || [ -z "$est" ] || [ -z "$rss" ]; then
        echo "FAIL $name: exit $rc, estimate '$est', peak RSS '$rss'"; cat "$TMP/desc" "$TMP/log"; fail=1
    elif awk -v e="$est" -v r="$rss" 'BEGIN { exit !(r <= e && e <= 2 * r) }'; then
        echo "ok   $name on $np rank(s): peak RSS $rss, estimate $est"
    else
        echo "FAIL $name on $np rank(s): peak RSS $rss outside [estimate/2, estimate] = [$((est / 2)), $est]"
        grep '^memory_' "$TMP/desc"; fail=1
    fi
}

# A 4,096-rank stencil on a 16^3 torus: six 128 KiB halos a rank at once.
cat > "$TMP/stencil.ini" <<'INI'
[engine]
end = 1s
[network]
topology = torus
link_bandwidth = 11.9GB/s
link_latency = 50ns
router_delay = 30ns
packet_size = 8KiB
vc_buffer = 64KiB
[torus]
dims = 16,16,16
[workload]
type = replay
[job.0]
trace = gen:stencil3d:px=16,py=16,pz=16,iters=1,bytes=131072,compute=100000,allreduce=0
INI

within fattree-32p3l 1 "$C/fattree-32p3l.ini"
within dragonfly-a16p8h8 2 "$C/dragonfly-a16p8h8.ini"
within torus-8x8x8-0.45 1 "$C/torus-8x8x8.ini" --workload.load=0.45
within stencil-32k-simplenet 1 "$C/replay-stencil-32k-simplenet.ini"
within stencil-32k-simplenet 2 "$C/replay-stencil-32k-simplenet.ini"
within stencil-4k-torus 1 "$TMP/stencil.ini"
within optical-dc-32x32 1 "$C/optical-dc-32x32.ini"
exit $fail
