#!/bin/sh
# --gvt-interval on one optimistic rank: left at its default, a round (a
# fossil pass) comes every 32 events (sched_opt.c, run_local); given, even
# at the default's value and from a run file, the given number of batches
# is kept. The option parser's typed flag says which (warp_opts), not the
# value: PHOLD with 64 LPs must take far fewer rounds with the interval given
# as 16 than without it, the same number given on the command line or in
# [engine], and every run the same digest.
set -u
phold="$top_builddir/examples/phold/phold"
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
phold=$(limited "$phold")
fail=0
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpnet-gvtint.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
run() { "$phold" --total-lps=64 --end=200 --synch=opt "$@" 2>&1; }
rounds() { sed -n 's/^ *GVT rounds  *\([0-9,]*\)$/\1/p' | tr -d ,; }
digest() { sed -n 's/.*committed digest: //p'; }

dflt=$(run); given=$(run --gvt-interval=16)
printf '[engine]\ngvt_interval = 16\n' > "$TMP/run.ini"
file=$(run --config="$TMP/run.ini")
rd=$(echo "$dflt" | rounds); rg=$(echo "$given" | rounds); rf=$(echo "$file" | rounds)
case "$rd$rg" in
'' | *[!0-9]*) echo "FAIL: no GVT rounds line (default '$rd', given '$rg')"; exit 1 ;;
esac
if [ $((rg * 8)) -lt "$rd" ]; then
    echo "ok   default: $rd rounds, --gvt-interval=16 given: $rg"
else
    echo "FAIL: --gvt-interval=16 given takes $rg rounds, the default $rd: the given interval was not kept"; fail=1
fi
[ "$rf" = "$rg" ] || { echo "FAIL: gvt_interval = 16 in [engine] takes $rf rounds, on the command line $rg"; fail=1; }
d=$(echo "$dflt" | digest)
[ -n "$d" ] && [ "$d" = "$(echo "$given" | digest)" ] && [ "$d" = "$(echo "$file" | digest)" ] ||
    { echo "FAIL: the GVT interval changed the digest"; fail=1; }
exit $fail
