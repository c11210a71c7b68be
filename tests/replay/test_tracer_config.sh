#!/bin/sh
# test_tracer_config.sh — `[workload] tracer_config = FILE` reads TraceR's job
# file and binary rank maps: the two 32-rank sample traces as two jobs on one
# 4x4x4 torus, placed interleaved and reversed by a global map and job maps
# written here in TraceR's formats, give the same per-job completion times,
# task counts and committed digest as the equivalent run file with [job.N]
# sections and placement files; paths in the tracer_config are relative to
# it; NA means TraceR's linear placement; M rewrites message sizes; broken
# maps are refused with the file named.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
T="${top_builddir:-.}/tools/trace/warpnet-trace"
S="${top_srcdir:-..}/../shared/traces"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W"); T=$(limited "$T")
command -v perl > /dev/null || { echo "SKIP: perl writes the binary maps"; exit 77; }
tmp=$(mktemp -d /tmp/warpnet-tracer.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }
# job J's completion_ns / tasks line / messages line from a run's output
field() { awk -v j="$2" -v k="$3" '$0 ~ "^replay job " j ":" { f = 1; next }
    /^replay job/ { f = 0 } f && $1 == k { print $2; exit }' "$1"; }
digest() { sed -n 's/.*committed digest: //p' "$1"; }

# The shared sample traces (BigSim and OTF2) where they are beside the
# checkout; in a plain clone two 32-rank traces generated here, so the
# tracer_config reader is tested in every clone.
if [ -d "$S/bigsim-jacobi2d-32" ]; then
    S=$(cd "$S" && pwd)
    job0="$S/bigsim-jacobi2d-32"
    job1="$S/otf2-stencil4d-32/traces.otf2"
    if ! "$T" info --no-timing "$job1" > /dev/null 2>&1; then
        echo "note: OTF2 support not built; the second job is the BigSim sample again"
        job1="$job0"
    fi
else
    echo "note: sample traces not found in $S; two generated 32-rank traces instead"
    mkdir -p "$tmp/gen"
    "$T" gen stencil2d px=8 py=4 iters=3 --binary -o "$tmp/gen/stencil32" > /dev/null 2>&1 ||
        { echo "FAIL: warpnet-trace gen stencil2d"; exit 1; }
    "$T" gen alltoall ranks=32 iters=2 bytes=256 --binary -o "$tmp/gen/alltoall32" > /dev/null 2>&1 ||
        { echo "FAIL: warpnet-trace gen alltoall"; exit 1; }
    job0="$tmp/gen/stencil32"
    job1="$tmp/gen/alltoall32"
fi

# Placement: job 0 rank r on network rank 2r+1 reversed (63, 61, ...), job 1
# rank r on 2r. The global map lists servers in network-rank order.
mkdir -p "$tmp/dir/maps"
perl -e 'for $r (0..31) { print pack("l", 63 - 2*$r) }' > "$tmp/dir/maps/job0"
perl -e 'for $r (0..31) { print pack("l", 2*$r) }' > "$tmp/dir/maps/job1"
perl -e 'for $g (0..63) { if ($g % 2) { print pack("lll", $g, (63 - $g) / 2, 0) }
                          else { print pack("lll", $g, $g / 2, 1) } }' > "$tmp/dir/global.bin"
for r in $(seq 0 31); do echo $((63 - 2 * r)); done > "$tmp/place0"
for r in $(seq 0 31); do echo $((2 * r)); done > "$tmp/place1"

net='[engine]\nend = 1s\n[network]\ntopology = torus\nlink_bandwidth = 12.5GB/s\nlink_latency = 50ns\n'
net="${net}router_delay = 100ns\npacket_size = 512B\nvc_buffer = 4KiB\n[torus]\ndims = 4,4,4\n"
printf "$net[workload]\ntype = replay\n[job.0]\ntrace = %s\nplacement = %s\n[job.1]\ntrace = %s\nplacement = %s\n" \
    "$job0" "$tmp/place0" "$job1" "$tmp/place1" > "$tmp/ref.ini"
# TraceR's own layout: the trace paths relative to the tracer_config
ln -s "$job0" "$tmp/dir/traceJ"
ln -s "$(dirname "$job1")" "$tmp/dir/second"
printf 'global.bin\n2\ntraceJ maps/job0 32 1\nsecond/%s maps/job1 32 1\n' "$(basename "$job1")" \
    > "$tmp/dir/tracer_config"
printf "$net[workload]\ntype = replay\ntracer_config = %s\n" "$tmp/dir/tracer_config" > "$tmp/tr.ini"

timeout 120 "$W" "$tmp/ref.ini" > "$tmp/ref" 2>&1 || die "reference run: $(tail -3 "$tmp/ref")"
timeout 120 "$W" "$tmp/tr.ini" > "$tmp/tr" 2>&1 || die "tracer_config run: $(tail -3 "$tmp/tr")"
for j in 0 1; do
    a=$(field "$tmp/ref" $j completion_ns); b=$(field "$tmp/tr" $j completion_ns)
    [ -n "$a" ] && [ "$a" = "$b" ] && echo "ok   job $j completion $b ns as the run file's" \
        || die "job $j completion: run file $a, tracer_config $b"
    a=$(field "$tmp/ref" $j tasks); b=$(field "$tmp/tr" $j tasks)
    [ -n "$a" ] && [ "$a" = "$b" ] || die "job $j tasks: run file $a, tracer_config $b"
done
a=$(digest "$tmp/ref"); b=$(digest "$tmp/tr")
[ -n "$a" ] && [ "$a" = "$b" ] && echo "ok   same committed digest $a" || die "digest: run file $a, tracer_config $b"

# The placement is the maps', not linear: NA gives TraceR's linear default,
# the same as placement = linear, and (on this torus) another completion.
sed 's/^global.bin$/NA/' "$tmp/dir/tracer_config" > "$tmp/dir/linear_config"
sed "s|^placement = .*|placement = linear|" "$tmp/ref.ini" > "$tmp/lin.ini"
timeout 120 "$W" "$tmp/lin.ini" > "$tmp/lin" 2>&1 || die "linear run file: $(tail -3 "$tmp/lin")"
timeout 120 "$W" "$tmp/tr.ini" --workload.tracer_config="$tmp/dir/linear_config" > "$tmp/na" 2>&1 \
    || die "NA run: $(tail -3 "$tmp/na")"
[ "$(digest "$tmp/lin")" = "$(digest "$tmp/na")" ] && echo "ok   NA global map = linear placement" \
    || die "NA global map: digest $(digest "$tmp/na"), linear run file $(digest "$tmp/lin")"
[ "$(digest "$tmp/na")" != "$(digest "$tmp/tr")" ] || die "the maps changed nothing: placement ignored?"

# M JOB LIMIT BY: every message of job 0 of at least 1 byte becomes 8 bytes.
cp "$tmp/dir/tracer_config" "$tmp/dir/m_config"
echo 'M 0 1 8' >> "$tmp/dir/m_config"
timeout 120 "$W" "$tmp/tr.ini" --workload.tracer_config="$tmp/dir/m_config" > "$tmp/m" 2>&1 \
    || die "M run: $(tail -3 "$tmp/m")"
n=$(awk '/^replay job 0:/ { f = 1 } f && $1 == "messages" { print $2, $3; exit }' "$tmp/m" | tr -d '(')
set -- $n
[ $# -eq 2 ] && [ "$2" = "$(($1 * 8))" ] && echo "ok   M 0 1 8: $1 messages, $2 bytes" \
    || die "M directive: messages/bytes '$n'"

# Mistakes stop with exit 2 and the file named.
expect_error() { # NAME WANT-IN-MESSAGE CONFIG
    timeout 60 "$W" "$tmp/tr.ini" --workload.tracer_config="$3" > "$tmp/e" 2>&1
    rc=$?
    if [ $rc -eq 2 ] && grep -q "$2" "$tmp/e"; then echo "ok   refused: $1"; else
        die "$1: exit $rc, $(tail -2 "$tmp/e")"; fi
}
perl -e 'for $r (0..31) { print pack("l", 2*$r + 1) }' > "$tmp/dir/maps/bad0"
sed 's|maps/job0|maps/bad0|' "$tmp/dir/tracer_config" > "$tmp/dir/bad_config"
expect_error "job map disagreeing with the global map" "maps/bad0: rank 0 of job 0" "$tmp/dir/bad_config"
sed 's| 32 1$| 31 1|' "$tmp/dir/tracer_config" > "$tmp/dir/count_config"
expect_error "wrong rank count" "has 32" "$tmp/dir/count_config"
printf 'NA\n2\ntraceJ NA 32 1\n' > "$tmp/dir/short_config"
expect_error "missing job line" "short_config:3: the file ends" "$tmp/dir/short_config"
cp "$tmp/dir/tracer_config" "$tmp/dir/e_config"; echo 'E 0 AMPI_Bcast 0.1' >> "$tmp/dir/e_config"
expect_error "E directive" "E directive" "$tmp/dir/e_config"
printf "$net[workload]\ntype = replay\ntracer_config = %s\n[job.0]\ntrace = x\n" "$tmp/dir/tracer_config" > "$tmp/both.ini"
timeout 60 "$W" "$tmp/both.ini" > "$tmp/e" 2>&1
[ $? -eq 2 ] && grep -q "remove the \[job.N\]" "$tmp/e" && echo "ok   refused: [job.N] beside tracer_config" \
    || die "[job.N] with tracer_config: $(tail -2 "$tmp/e")"
exit $fail
