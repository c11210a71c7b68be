#!/bin/sh
# test_chakra_replay.sh — ASTRA-sim's public Chakra sample ETs (tests/replay/chakra,
# 4 ranks, one 1 MiB collective each) replay end to end on simplenet (1 us,
# 1 GB/s): every rank reports its completion time, which is the collective's
# alpha-beta closed form with the default algorithms (ring allreduce,
# allgather and reduce-scatter, direct all-to-all) and with halving-doubling
# chosen by [collectives]; the committed digest is the same in seq, opt and
# on 2 processes. Skipped when the Chakra reader is not built.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
. "${top_srcdir:-${srcdir:-.}}/tests/replay/lib.sh"
W=$(limited "$W")
S="${top_srcdir:-${srcdir:-.}}/tests/replay/chakra"
tmp=$(mktemp -d /tmp/warpnet-chakra.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }

ini() { # trace [collectives lines]
    printf '[engine]\nend = 1s\n[network]\ntopology = simplenet\n[simplenet]\nnodes = 4\nlatency = 1us\n'
    printf 'bandwidth = 1GB/s\n[workload]\ntype = replay\n[job.0]\ntrace = %s\n[replay]\nranks_csv = %s\n%s' \
        "$1" "$tmp/r.csv" "${2:-}"
}

ini "$S/all_reduce" > "$tmp/c.ini"
if ! "$W" "$tmp/c.ini" > "$tmp/out" 2>&1; then
    grep -q "CHAKRA support was not built" "$tmp/out" && { echo "SKIP: $(tail -1 "$tmp/out")"; exit 77; }
    die "all_reduce: $(tail -3 "$tmp/out")"
fi

piece=$((1048576 / 4)) a=1000
check() { # name trace want [collectives lines]
    ini "$2" "${4:-}" > "$tmp/c.ini"
    "$W" "$tmp/c.ini" > "$tmp/out" 2>&1 || { die "$1: $(tail -3 "$tmp/out")"; return; }
    got=$(awk -F, 'NR > 1 { printf "%s%.3f", sep, $3; sep = " " }' "$tmp/r.csv")
    want="$3.000 $3.000 $3.000 $3.000"
    [ "$got" = "$want" ] && echo "ok   $1: ranks finish at $got ns" || die "$1: ranks finish at '$got', want '$want'"
}
check "all_reduce (ring)" "$S/all_reduce.0.et" $((2 * 3 * (a + piece)))
check "all_reduce (halving-doubling)" "$S/all_reduce" $((2 * 2 * a + 2 * 3 * piece)) \
    "[collectives]
allreduce = halving-doubling
"
check "all_gather (ring)" "$S/all_gather" $((3 * (a + piece)))
check "reduce_scatter (ring)" "$S/reduce_scatter" $((3 * (a + piece)))
check "all_to_all (direct)" "$S/all_to_all.3.et" $((a + 3 * piece))

# The same committed digest in every mode and on 2 processes.
ini "$S/all_reduce" "[collectives]
allreduce = tree
chunks = 4
" > "$tmp/d.ini"
same_digest "$tmp/d.ini" "--synch=seq" "--synch=opt --lps-per-kp=1" "--synch=debug" "np2 --synch=opt"

# A missing trace is named.
ini "$tmp/none.0.et" > "$tmp/e.ini"
"$W" "$tmp/e.ini" > "$tmp/out" 2>&1 && die "a missing trace accepted"
grep -q "none.0.et: no Chakra rank files" "$tmp/out" || die "missing trace: $(tail -2 "$tmp/out")"
exit $fail
