#!/bin/sh
# test_bundle.sh — bench/bundle.sh's bundle runs with nothing from the build
# or the system's MPICH on its library path: warpnet and phold started
# through the bundle's mpiexec on 2 ranks commit the digests the build's own
# binaries do, and bench/scaling.sh driven through it (seq and 2 ranks)
# writes one row per run, each with that digest. Every program, bundled
# or not, runs under tests/limit.sh's time limit.
set -u
S=$(cd "${top_srcdir:-.}" && pwd)
B=$(cd "${top_builddir:-_build}" && pwd)
. "$S/tests/limit.sh"
W=$(limited "$B/tools/warpnet/warpnet")
P=$(limited "$B/examples/phold/phold")
fail=0
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
WARPNET_BUILD=$B "$S/bench/bundle.sh" "$t" >/dev/null || { echo "FAIL bench/bundle.sh $t"; exit 1; }
bin="$t/warpnet-bundle/bin"
for p in warpnet phold mpiexec hydra_pmi_proxy; do
    [ -x "$bin/$p" ] && [ -f "$bin/$p.elf" ] || { echo "FAIL the bundle has no $p"; fail=1; }
done
BM=$(limited "$bin/mpiexec")
BW=$(limited "$bin/warpnet")
BP=$(limited "$bin/phold")
digest() { sed -n 's/.*committed digest: \([0-9a-f]*\).*/\1/p' "$1" | head -1; }
# The bundle's programs alone: no LD_LIBRARY_PATH, the system's mpiexec off PATH.
bundled() { env -u LD_LIBRARY_PATH PATH="$bin:/usr/bin:/bin" "$@"; }
cfg="$S/examples/configs/slimfly-q5.ini"
"$W" "$cfg" --synch=seq --engine.end=8us >"$t/seq.out" 2>&1 || { echo "FAIL the build's warpnet on $cfg"; fail=1; }
bundled "$BM" -n 2 "$BW" "$cfg" --synch=opt --engine.end=8us >"$t/b.out" 2>&1 ||
    { echo "FAIL the bundle's warpnet on 2 ranks:"; tail -5 "$t/b.out"; fail=1; }
if [ -n "$(digest "$t/seq.out")" ] && [ "$(digest "$t/seq.out")" = "$(digest "$t/b.out")" ]; then
    echo "ok   bundled warpnet on 2 ranks commits the build's digest $(digest "$t/seq.out")"
else
    echo "FAIL bundled warpnet digest '$(digest "$t/b.out")', the build's '$(digest "$t/seq.out")'"; fail=1
fi
"$P" --total-lps=64 --end=20 >"$t/ps.out" 2>&1
bundled "$BM" -n 2 "$BP" --total-lps=64 --end=20 >"$t/pb.out" 2>&1 || { echo "FAIL the bundle's phold on 2 ranks"; fail=1; }
if [ -n "$(digest "$t/ps.out")" ] && [ "$(digest "$t/ps.out")" = "$(digest "$t/pb.out")" ]; then
    echo "ok   bundled phold on 2 ranks commits the build's digest"
else
    echo "FAIL bundled phold digest '$(digest "$t/pb.out")', the build's '$(digest "$t/ps.out")'"; fail=1
fi
mkdir "$t/res"
if bundled env WARPNET_BUILD="$B" WARPNET="$BW" PHOLD="$BP" MPIEXEC="$BM" OUTDIR="$t/res" RANKS="1 2" \
    TIMEOUT="${WARP_TEST_TIMEOUT:-300}" "$S/bench/scaling.sh" phold-large >"$t/sc.out" 2>&1; then
    rows=$(tail -n +2 "$t/res/scaling.csv" | wc -l)
    ds=$(tail -n +2 "$t/res/scaling.csv" | cut -d, -f18 | sort -u | wc -l)
    if [ "$rows" -eq 2 ] && [ "$ds" -eq 1 ] && ! grep -q 'DIGESTS DIFFER\|failed' "$t/sc.out"; then
        echo "ok   bench/scaling.sh through the bundle: seq and 2 ranks, one digest"
    else
        echo "FAIL bench/scaling.sh wrote $rows rows with $ds digests:"; cat "$t/sc.out"; fail=1
    fi
else
    echo "FAIL bench/scaling.sh:"; tail -5 "$t/sc.out"; fail=1
fi
exit $fail
