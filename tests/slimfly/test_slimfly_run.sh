#!/bin/sh
# test_slimfly_run.sh — runs the real warpnet binary on Slim Fly networks.
# For each routing (minimal, valiant, ugal):
#  - deadlock freedom: every rank sends COUNT one-packet messages at 100 % load
#    through small buffers (2 packets per VC); the network must drain, i.e.
#    deliver ranks * COUNT packets, on q = 5 and q = 13;
#  - q = 5 saturated at 100 % load: --synch=check passes, and seq, check and
#    opt on 1 and 2 ranks (4 too with WARP_LONG=1) commit the same digest and
#    print the same network summary, whose conservation line says ok.
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
exit $fail
