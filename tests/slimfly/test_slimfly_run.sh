#!/bin/sh
# test_slimfly_run.sh — runs the real warpnet binary on Slim Fly networks.
# For each routing (minimal, valiant, ugal):
#  - deadlock freedom: every rank sends COUNT one-packet messages at 100 % load
#    through small buffers (2 packets per VC); the network must drain, i.e.
#    deliver ranks * COUNT packets, on q = 5 and q = 13;
#  - q = 5 saturated at 100 % load: --synch=check passes, and seq, check and
#    opt on 1 and 2 ranks (4 too with WARP_LONG=1) commit the same digest and
#    print the same network summary, whose conservation line says ok;
#  - q = 5, p = 3 worst case (bench/slimfly_worst_placement + neighbor pattern
#    at distance nodes/2) at 100 % load: minimal routing accepts exactly what
#    the shared links allow: the 40 routers in quadruples push 2p terminals'
#    traffic through one link (1/(2p) each), the 10 left-over routers p
#    (1/p): 0.8/6 + 0.2/3 = 0.2000 of injection bandwidth; UGAL, which can
#    route around the shared links, must accept at least twice that.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
CONF="${top_srcdir:-.}/examples/configs"
MPIEXEC="${MPIEXEC:-mpiexec}"
[ -x "$W" ] || { echo "SKIP: $W is not built"; exit 77; }
tmp=$(mktemp -d) || exit 99
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }

# The committed digest and the network summary: what must not depend on mode.
result() { sed -n -e '/committed digest/p' -e '/^== warpnet:/,$p' "$1"; }

drain() { # q ranks routing count
    out="$tmp/drain-$1-$3"
    "$W" "$CONF/slimfly-q$1.ini" --slimfly.routing="$3" --workload.load=1.0 \
        --workload.count="$4" --end=100us --workload.warmup=1us \
        --network.port_buffer=2KB --quiet >"$out" 2>&1 || { bad "q=$1 $3 drain run exits $?"; cat "$out"; return; }
    want=$(($2 * $4))
    grep -q "^packets .*injected $want, delivered $want\$" "$out" ||
        bad "q=$1 $3: not all $want packets delivered (deadlock?): $(grep -E '^(packets|conservation)' "$out")"
    grep -q "^conservation .*in flight 0 .*: ok" "$out" || bad "q=$1 $3: $(grep conservation "$out")"
}

runs="seq check opt1 opt2"
[ "${WARP_LONG:-0}" = 1 ] && runs="$runs opt4"
for routing in minimal valiant ugal; do
    drain 5 150 "$routing" 200
    drain 13 3042 "$routing" 10
    for run in $runs; do
        set -- "$CONF/slimfly-q5.ini" --slimfly.routing="$routing" --workload.load=1.0 \
            --end=4us --workload.warmup=1us
        case $run in
        seq | check) "$W" "$@" --synch="$run" >"$tmp/$run.out" 2>&1 ;;
        opt*) $MPIEXEC -n "${run#opt}" "$W" "$@" --synch=opt >"$tmp/$run.out" 2>&1 ;;
        esac || { bad "$routing $run exits $?"; tail -5 "$tmp/$run.out"; continue; }
        result "$tmp/$run.out" >"$tmp/$run.res"
        grep -q "^conservation .*: ok" "$tmp/$run.res" || bad "$routing $run: conservation fails"
        grep -q "committed digest" "$tmp/$run.res" || bad "$routing $run: no digest printed"
        if [ "$run" != seq ] && ! cmp -s "$tmp/seq.res" "$tmp/$run.res"; then
            bad "$routing: $run differs from seq"
            diff "$tmp/seq.res" "$tmp/$run.res" | head -10
        fi
    done
    echo "$routing: $(grep 'committed digest' "$tmp/seq.res") in $runs"
done
P="${top_builddir:-.}/bench/slimfly_worst_placement"
if [ -x "$P" ]; then
    "$P" 5 3 >"$tmp/worst5.txt" || bad "slimfly_worst_placement 5 3 exits $?"
    for routing in minimal ugal; do
        "$W" "$CONF/slimfly-q5.ini" --network.placement="$tmp/worst5.txt" \
            --workload.pattern=neighbor --workload.distance=75 --workload.load=1.0 \
            --slimfly.routing="$routing" --end=20us --quiet >"$tmp/worst-$routing" 2>&1 ||
            bad "worst case $routing exits $?"
        acc=$(sed -n 's/^accepted load *\([0-9.]*\).*/\1/p' "$tmp/worst-$routing")
        echo "worst case, $routing: accepted load $acc"
        case $routing in
        minimal) awk -v a="$acc" 'BEGIN { exit !(a >= 0.195 && a <= 0.205) }' ||
            bad "worst case minimal accepts $acc, not 0.2000" ;;
        ugal) awk -v a="$acc" 'BEGIN { exit !(a >= 0.4) }' ||
            bad "worst case UGAL accepts only $acc" ;;
        esac
    done
else
    echo "SKIP (worst case): $P is not built"
fi
exit $fail
