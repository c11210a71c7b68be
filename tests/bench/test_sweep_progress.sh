#!/bin/sh
# test_sweep_progress.sh — bench/slimfly_sweep.sh and dragonfly_sweep.sh
# run for minutes; they said nothing until the end (issue 53, item 14). Now
# each says what it sweeps and prints one progress line per point on stderr,
# keeps the whole output in its log, and writes its CSV where RES says.
set -u
S=$(cd "${top_srcdir:-.}" && pwd)
B=$(cd "${top_builddir:-_build}" && pwd)
[ -x "$B/tools/warpnet/warpnet" ] || { echo "SKIP warpnet not built"; exit 77; }
. "$S/tests/limit.sh"
mkdir -p "$B/tests/.limited/bin/tools/warpnet"
ln -sf "$(limited "$B/tools/warpnet/warpnet")" "$B/tests/.limited/bin/tools/warpnet/warpnet"
fail=0
t=$(mktemp -d /tmp/warpnet-sweep-progress.XXXXXX)
trap 'rm -rf "$t"' EXIT
for s in slimfly dragonfly; do
    RES="$t/res-$s" OUT="$t/out-$s" LOADS=0.2:0.4:0.2 ROUTINGS=minimal PATTERNS=uniform END=2us WARMUP=0ns \
        sh "$S/bench/${s}_sweep.sh" "$B/tests/.limited/bin" > "$t/out" 2> "$t/err"
    rc=$?
    n=$(grep -c '^warpnet: sweep: minimal, workload.load = 0\.[24] ([12] of 2)$' "$t/err")
    if [ $rc = 0 ] && [ "$n" = 2 ] && grep -q "^${s}_sweep.sh: uniform traffic: .*log: $t/out-$s/uniform.log" "$t/err" &&
        grep -q 'sweep: minimal, workload.load = 0.4 (2 of 2)' "$t/out-$s/uniform.log" && [ -s "$t/res-$s/$s-"*"-uniform.csv" ]; then
        echo "ok   ${s}_sweep.sh: $n progress lines on stderr"
    else
        echo "FAIL ${s}_sweep.sh: exit $rc, $n progress lines; stderr:"; cat "$t/err"; fail=1
    fi
done
exit $fail
