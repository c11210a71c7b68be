#!/bin/sh
# test_replay_samples.sh — replay of the sample BigSim and OTF2 traces in
# ../shared/traces: on an ideal simplenet the completion equals the
# zero-network reference of warpnet-trace info and every task runs; on a
# 4x4x2 torus every task runs and the completion is no shorter; the digest is
# the same sequentially and optimistically on 2 processes.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
T="${top_builddir:-.}/tools/trace/warpnet-trace"
S="${top_srcdir:-..}/../shared/traces"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W"); T=$(limited "$T")
if [ ! -d "$S/bigsim-jacobi2d-32" ]; then echo "SKIP: sample traces not found in $S"; exit 77; fi
tmp=$(mktemp -d /tmp/warpnet-replay-samples.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }
completion() { awk '/^replay job 0:/ { f = 1; next } f && /completion_ns/ { print $2; exit }' "$1"; }

traces="$S/bigsim-jacobi2d-32"
if "$T" info --no-timing "$S/otf2-stencil4d-32" > /dev/null 2>&1; then
    traces="$traces $S/otf2-stencil4d-32"
else
    echo "note: OTF2 support not built; OTF2 sample skipped"
fi
for t in $traces; do
    want=$("$T" info "$t" | sed -n 's/^ideal_replay_ns: //p')
    printf '[engine]\nend = 1s\n[network]\ntopology = simplenet\n[simplenet]\nnodes = 32\nlatency = 0ns\n' > "$tmp/i.ini"
    printf 'bandwidth = 1e9TB/s\n[workload]\ntype = replay\n[job.0]\ntrace = %s\n' "$t" >> "$tmp/i.ini"
    "$W" "$tmp/i.ini" > "$tmp/out" 2>&1 || { die "$t: $(tail -3 "$tmp/out")"; continue; }
    got=$(completion "$tmp/out")
    awk -v a="$got" -v b="$want" 'BEGIN { d = a - b; exit !(d < 1e-3 && d > -1e-3) }' \
        && echo "ok   $(basename "$t") ideal: $got ns" || die "$t: completion $got, ideal replay $want"
    grep -q "tasks *\([0-9]*\) of \1\$" "$tmp/out" || die "$t: not every task ran"

    # With send overheads (delayed sends), --synch=check must agree with seq.
    sed 's/latency = 0ns/latency = 200ns/; s/bandwidth = 1e9TB\/s/bandwidth = 10GB\/s/' "$tmp/i.ini" > "$tmp/c.ini"
    printf '[replay]\noverhead = 50ns\nper_byte_ns = 0.01\n' >> "$tmp/c.ini"
    "$W" --synch=seq "$tmp/c.ini" > "$tmp/cs" 2>&1 && "$W" --synch=check "$tmp/c.ini" > "$tmp/cc" 2>&1 \
        || die "$t check: $(tail -3 "$tmp/cc")"
    a=$(sed -n 's/.*committed digest: //p' "$tmp/cs"); b=$(sed -n 's/.*committed digest: //p' "$tmp/cc")
    [ -n "$a" ] && [ "$a" = "$b" ] && echo "ok   $(basename "$t") overheads: seq and check digest $a" \
        || die "$t: digest seq $a, check $b"

    printf '[engine]\nend = 1s\n[network]\ntopology = torus\nlink_bandwidth = 12.5GB/s\n' > "$tmp/t.ini"
    printf 'link_latency = 50ns\nrouter_delay = 100ns\npacket_size = 256B\nvc_buffer = 4KiB\n' >> "$tmp/t.ini"
    printf '[torus]\ndims = 4,4,2\n[workload]\ntype = replay\n[job.0]\ntrace = %s\n' "$t" >> "$tmp/t.ini"
    "$W" --synch=seq "$tmp/t.ini" > "$tmp/seq" 2>&1 || { die "$t torus: $(tail -3 "$tmp/seq")"; continue; }
    grep -q "tasks *\([0-9]*\) of \1\$" "$tmp/seq" || die "$t torus: not every task ran"
    tor=$(completion "$tmp/seq")
    awk -v a="$tor" -v b="$want" 'BEGIN { exit !(a >= b) }' && echo "ok   $(basename "$t") torus: $tor ns" \
        || die "$t torus: $tor ns is below the zero-network time $want"
    if [ -n "${MPIEXEC:-}" ]; then
        $MPIEXEC -n 2 "$W" --synch=opt "$tmp/t.ini" > "$tmp/opt" 2>&1 || { die "$t opt: $(tail -3 "$tmp/opt")"; continue; }
        a=$(sed -n 's/.*committed digest: //p' "$tmp/seq"); b=$(sed -n 's/.*committed digest: //p' "$tmp/opt")
        [ -n "$a" ] && [ "$a" = "$b" ] && echo "ok   $(basename "$t") torus: seq and opt x2 digest $a" \
            || die "$t: digest seq $a, opt on 2 processes $b"
    fi
done
exit $fail
