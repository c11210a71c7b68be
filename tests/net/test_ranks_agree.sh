#!/bin/sh
# Ranks started with different configurations (MPMD launches, a different
# option, a trace or placement file that differs between nodes) must stop
# before building anything: exit 2 and one line from rank 0 naming the first
# differing key and the ranks (issue 13, item 2). Before, they hung, hit an
# assert or silently mixed results.
. "${srcdir:-.}/tests/net/lib.sh"
MPI=${MPIEXEC:-mpiexec}
C="${srcdir:-.}/examples/configs"
SF="$C/slimfly-q5.ini"

# differs NAME PATTERN ARGS-OF-RANK-0 -- ARGS-OF-RANK-1: exit 2, one line with PATTERN.
differs() {
    name=$1 pat=$2; shift 2
    a=""
    while [ "$1" != "--" ]; do a="$a $1"; shift; done
    shift
    # shellcheck disable=SC2086
    refused "$name" "configuration differs across ranks: $pat" \
        timeout 60 $MPI -n 1 "$WARPNET" $a : -n 1 "$WARPNET" "$@"
}

differs end "--end is 1000ns on rank 0 but 2000ns on rank 1" \
    "$SF" --end=1us -- "$SF" --end=2us
differs routing "--slimfly.routing is minimal on rank 0 but ugal on rank 1" \
    "$SF" --end=1us -- "$SF" --end=1us --slimfly.routing=ugal
differs seed "--seed is 1 on rank 0 but 3 on rank 1" \
    "$SF" --end=1us -- "$SF" --end=1us --seed=3
differs queue "--queue is heap on rank 0 but ladder on rank 1" \
    "$SF" --end=1us --queue=heap -- "$SF" --end=1us
differs gvt "--gvt is mattern on rank 0 but sync on rank 1" \
    "$SF" --end=1us -- "$SF" --end=1us --gvt=sync
differs load "--workload.load is" \
    "$SF" --end=1us -- "$SF" --end=1us --workload.load=0.1
differs unset "--network.ranks is 100 on rank 0 but (unset) on rank 1" \
    "$SF" --end=6us --network.ranks=100 -- "$SF" --end=6us

# The same path names files that differ (as on two nodes' local disks):
# one working directory per rank.
mkdir -p "$TMP/a" "$TMP/b"
seq 0 511 > "$TMP/a/place.txt"
seq 0 511 > "$TMP/b/place.txt"
touch -d '2020-01-01' "$TMP/b/place.txt"
T8="$(cd "$C" && pwd)/torus-8x8x8.ini"
WN="$(cd "$(dirname "$WARPNET")" && pwd)/$(basename "$WARPNET")"
refused "file stamps" "configuration differs across ranks: --network.placement (file) is 1938 bytes modified at [0-9]* on rank 0 but 1938 bytes modified at 1577836800 on rank 1" \
    timeout 60 $MPI -n 1 -wdir "$TMP/a" "$WN" "$T8" --end=1us --network.placement=place.txt : \
    -n 1 -wdir "$TMP/b" "$WN" "$T8" --end=1us --network.placement=place.txt

# The same configuration on both ranks still runs (the check costs nothing).
timeout 120 $MPI -n 2 "$WARPNET" "$SF" --end=6us --quiet > "$TMP/log" 2>&1 ||
    { echo "FAIL equal configurations: exit $?"; cat "$TMP/log"; fail=1; }
exit $fail
