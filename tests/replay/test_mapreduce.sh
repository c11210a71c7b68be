#!/bin/sh
# test_mapreduce.sh — the MapReduce generator (docs/mapreduce.md) as theory
# says: a shuffle-bound job (no compute, no output, a shuffle of 4x the
# input) on an alpha-beta network takes half as long when the NIC bandwidth
# doubles, and its shuffle phase lasts what one NIC needs for a reducer's
# input (reduce input / bandwidth: every node sends and receives that much
# in the all-to-all, maps serving reducers in staggered order); a
# compute-bound job hardly moves; the job runs to
# completion on the fat-tree, leaf-spine and optical example configurations
# with every phase timed; seq and opt on 2 processes commit the same digest.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W")
C="${top_srcdir:-${srcdir:-.}}/examples/configs"
tmp=$(mktemp -d /tmp/warpnet-mapreduce.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }
completion() { sed -n 's/^  completion_ns  \([0-9.]*\)$/\1/p' "$1"; }
span() { sed -n "s/^  phase $2 *[0-9.]* \.\. [0-9.]* ns (\([0-9.]*\) ns)\$/\1/p" "$1"; }
ratio_in() { awk -v a="$1" -v b="$2" -v lo="$3" -v hi="$4" 'BEGIN { if (b <= 0) exit 1; r = a / b; exit !(r >= lo && r <= hi) }'; }

run_simple() { # out bandwidth(GB/s) spec
    printf '[engine]\nend = 100s\n[network]\ntopology = simplenet\n[simplenet]\nnodes = 10\n' > "$tmp/$1.ini"
    printf 'latency = 1us\nbandwidth = %sGB/s\n[workload]\ntype = replay\n[job.0]\ntrace = %s\n' "$2" "$3" >> "$tmp/$1.ini"
    "$W" "$tmp/$1.ini" > "$tmp/$1" 2>&1 || die "$1: warpnet failed: $(tail -3 "$tmp/$1")"
}

# Shuffle-bound: 8 maps of 256 KiB, each reducer takes 4 x 2 MiB / 8 = 1 MiB;
# three replicas placed by seed 1 let every map run data-local (no reads).
SHUF=gen:mapreduce:workers=8,rack=4,mappers=8,reducers=8,block=262144,replication=3,seed=1,map_ns=0,reduce_ns=0,shuffle=400,output=0
run_simple s1 1 "$SHUF"
run_simple s2 2 "$SHUF"
t1=$(completion "$tmp/s1"); t2=$(completion "$tmp/s2")
ratio_in "$t1" "$t2" 1.8 2.05 && echo "ok   shuffle-bound: job $t1 ns at 1 GB/s, $t2 ns at 2 GB/s" \
    || die "shuffle-bound: job $t1 ns at 1 GB/s, $t2 ns at 2 GB/s: not halved"
sh1=$(span "$tmp/s1" shuffle)
grep -q "phase read     no messages" "$tmp/s1" || die "a map read over the network: $(grep 'phase read' "$tmp/s1")"
ratio_in "$sh1" 1048576 1.0 1.1 && echo "ok   shuffle phase $sh1 ns, bound 1048576 ns (1 MiB at 1 GB/s)" \
    || die "shuffle phase $sh1 ns, the all-to-all bound is 1048576 ns: $(grep 'phase' "$tmp/s1")"
for p in submit assign shuffle commit; do
    [ -n "$(span "$tmp/s1" $p)" ] || die "no time for phase $p: $(grep phase "$tmp/s1")"
done
grep -q "phase write    no messages" "$tmp/s1" || die "output = 0 still wrote: $(grep 'phase write' "$tmp/s1")"

# Compute-bound: 20 ms per MiB of map input (5 ms a map): the network hardly matters.
COMP=gen:mapreduce:workers=8,rack=4,mappers=8,reducers=2,block=262144,map_ns=20000000,reduce_ns=1000000
run_simple c1 1 "$COMP"
run_simple c2 2 "$COMP"
c1=$(completion "$tmp/c1"); c2=$(completion "$tmp/c2")
ratio_in "$c1" "$c2" 1.0 1.25 && echo "ok   compute-bound: job $c1 ns at 1 GB/s, $c2 ns at 2 GB/s" \
    || die "compute-bound: job $c1 ns at 1 GB/s, $c2 ns at 2 GB/s: moved too much"
ratio_in "$c2" 5000000 1.0 2.0 || die "compute-bound job $c2 ns is shorter than one map's 5 ms"

# The example configurations: every task runs and every phase is timed.
for cfg in mapreduce-fattree mapreduce-leafspine mapreduce-optical; do
    "$W" --synch=seq "$C/$cfg.ini" > "$tmp/$cfg" 2>&1 || { die "$cfg: failed: $(tail -3 "$tmp/$cfg")"; continue; }
    grep -q "tasks *\([0-9]*\) of \1\$" "$tmp/$cfg" || die "$cfg: not every task ran: $(grep 'tasks ' "$tmp/$cfg")"
    for p in submit assign read shuffle write commit; do
        [ -n "$(span "$tmp/$cfg" $p)" ] || die "$cfg: no time for phase $p"
    done
    echo "ok   $cfg: job $(completion "$tmp/$cfg") ns"
done
ref=$(sed -n 's/.*committed digest: //p' "$tmp/mapreduce-leafspine")
if [ -n "${MPIEXEC:-}" ]; then
    $MPIEXEC -n 2 "$W" --synch=opt "$C/mapreduce-leafspine.ini" > "$tmp/np2" 2>&1 || die "np2 opt failed: $(tail -3 "$tmp/np2")"
    d=$(sed -n 's/.*committed digest: //p' "$tmp/np2")
    [ -n "$d" ] && [ "$d" = "$ref" ] && echo "ok   leaf-spine: opt on 2 processes commits seq's digest" \
        || die "leaf-spine: opt on 2 processes digest '$d', seq '$ref'"
    grep '^  phase' "$tmp/np2" > "$tmp/p2"; grep '^  phase' "$tmp/mapreduce-leafspine" > "$tmp/p1"
    cmp -s "$tmp/p1" "$tmp/p2" || die "phase times differ on 2 processes: $(diff "$tmp/p1" "$tmp/p2" | head -4)"
fi
exit $fail
