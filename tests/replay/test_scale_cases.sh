#!/bin/sh
# test_scale_cases.sh — the run files of issue 18 (examples/configs): the
# full-size cases describe to their formula sizes (2^19 torus and simplenet
# nodes, q = 163 Slim Fly 2q^2 routers x 19, 128-port 3-tree 128 x 64^2);
# with WARP_LONG=1 (`make check-long`) the scaled-down versions run to the
# end sequentially and on 2 processes: every replay task runs, packets are
# conserved, and both commit the same digest.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W")
C="${top_srcdir:-${srcdir:-.}}/examples/configs"
tmp=$(mktemp -d /tmp/warpnet-scale-cases.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }

for fn in replay-stencil-512k-torus:524288:524288 replay-stencil-512k-simplenet:524288:0 \
          slimfly-q163:1009622:53138 fattree-128p3l-fts:524288:20480 \
          replay-stencil-32k-torus:32768:32768 replay-stencil-32k-simplenet:32768:0 \
          slimfly-q41:63878:3362 fattree-50p3l-fts:31250:3125; do
    f=${fn%%:*} rest=${fn#*:}
    "$W" --describe "$C/$f.ini" > "$tmp/desc" 2>&1 || { die "$f: --describe: $(tail -2 "$tmp/desc")"; continue; }
    n=$(sed -n 's/^nodes: //p' "$tmp/desc") r=$(sed -n 's/^routers: //p' "$tmp/desc")
    [ "$n:$r" = "$rest" ] && echo "ok   $f: $n nodes, $r routers" || die "$f: $n nodes, $r routers; want $rest"
done

# The partition's quality of a network described from its sizes alone (the
# q = 163 Slim Fly has too many ports to build for --describe): it used to
# crash reading the placement the unbuilt network does not have.
if "$W" --describe --ranks=16 "$C/slimfly-q163.ini" > "$tmp/desc" 2>&1; then
    share=$(sed -n 's/^expected_remote_share: \([0-9.]*\) %.*/\1/p' "$tmp/desc")
    imb=$(sed -n 's/^event_imbalance: \([0-9.]*\) .*/\1/p' "$tmp/desc")
    if [ -n "$share" ] && [ -n "$imb" ] && awk -v s="$share" -v i="$imb" 'BEGIN { exit !(s > 0 && s < 100 && i >= 1 && i < 2) }'; then
        echo "ok   slimfly-q163 --describe --ranks=16: remote share $share %, event imbalance $imb"
    else
        die "slimfly-q163 --describe --ranks=16: remote share '$share', imbalance '$imb'"
    fi
else
    die "slimfly-q163 --describe --ranks=16: exit $?: $(tail -2 "$tmp/desc")"
fi

[ "${WARP_LONG:-0}" = 1 ] || exit $fail
# each run takes a minute or two on an idle box, several on a busy one
WARP_TEST_TIMEOUT=${WARP_TEST_TIMEOUT:-900}
export WARP_TEST_TIMEOUT
for f in replay-stencil-32k-simplenet replay-stencil-32k-torus slimfly-q41 fattree-50p3l-fts; do
    ref=""
    for np in 1 2; do
        if [ $np = 1 ]; then "$W" "$C/$f.ini" > "$tmp/out" 2>&1
        else [ -n "${MPIEXEC:-}" ] || continue; $MPIEXEC -n 2 "$W" --synch=opt "$C/$f.ini" > "$tmp/out" 2>&1
        fi || { die "$f on $np: $(tail -3 "$tmp/out")"; continue; }
        grep -q "^conservation.*: ok" "$tmp/out" || die "$f on $np: $(grep conservation "$tmp/out")"
        case $f in replay-*)
            grep -q "tasks *\([0-9]*\) of \1\$" "$tmp/out" || die "$f on $np: $(grep 'tasks ' "$tmp/out")";;
        esac
        d=$(sed -n 's/.*committed digest: //p' "$tmp/out")
        w=$(sed -n 's/^ *run wall time (s) *//p' "$tmp/out")
        if [ -z "$ref" ]; then ref=$d; echo "ok   $f sequentially: digest $d (${w}s)"
        elif [ "$d" = "$ref" ]; then echo "ok   $f on 2 processes: same digest (${w}s)"
        else die "$f on 2 processes: digest $d differs from $ref"; fi
    done
done
exit $fail
