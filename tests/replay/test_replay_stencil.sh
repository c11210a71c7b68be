#!/bin/sh
# test_replay_stencil.sh — the 3-D stencil replay of issue 18 at small scale.
# (1) One iteration with zero compute on simplenet completes at the closed
# form: every rank sends its six 128 KiB halos back to back through its NIC
# and receives six, one per send slot, so the last arrives at
# latency + 6 x bytes / bandwidth. (2) The process grid mapped linearly onto
# a torus of the same shape puts every neighbour one hop away (mean hops
# exactly 1); random placement does not. (3) A 4,096-rank stencil commits
# the same digest sequentially and on 2 and 4 processes. (4) Event memory
# of a sequential stencil on simplenet: every rank's six sends leave its NIC
# back to back, each leaving a DELIVER and a SENT in the future, so at the
# send instant 12 events per rank are pending at once; their slots are the
# engine header and a message event (288 bytes on LP64: 184 + 104), not a
# packet event's 368 (the analytic networks' trimmed slot). (5) Ranks whose
# graphs differ only in their neighbours' offsets share one graph: a
# periodic 16^3 grid has 3 x 3 = 9 neighbour-offset patterns (low edge,
# inside, high edge in x and y; z wraps exactly as rank +- px*py mod N),
# an open one 3^3 = 27; with the allreduce a rank's recursive-doubling
# partners (rank ^ 2^k) sit at +-2^k by its bit k, which sets apart all
# 2^11 patterns of bits 0-10 (they fix x and y too), while bit 11's
# partner is N/2 away either way: 2048 graphs for 4096 ranks. Each commits the same
# digest on 1, 2 and 4 processes, with 4096 x iters x (tasks per iteration)
# tasks.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W")
TR=$(limited "${top_builddir:-.}/tools/trace/warpnet-trace")
tmp=$(mktemp -d /tmp/warpnet-replay-stencil.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }
completion() { sed -n 's/^  completion_ns *//p' "$1"; }
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-3 && d > -1e-3) }'; }

simplenet() { # nodes trace
    printf '[engine]\nend = 10s\n[network]\ntopology = simplenet\n[simplenet]\nnodes = %s\n' "$1"
    printf 'latency = 1us\nbandwidth = 12.5GB/s\n[workload]\ntype = replay\n[job.0]\ntrace = %s\n' "$2"
}

# (1) closed form: 1000 + 6 x 131072 / 12.5 ns
for grid in "px=4,py=4,pz=4" "px=2,py=8,pz=4" "px=16,py=8,pz=8"; do
    set -- $(echo "$grid" | tr ',=' '  ')
    n=$(($2 * $4 * $6))
    simplenet $n "gen:stencil3d:$grid,iters=1,bytes=131072,compute=0,allreduce=0" > "$tmp/cf.ini"
    "$W" "$tmp/cf.ini" > "$tmp/out" 2>&1 || { die "$grid: $(tail -3 "$tmp/out")"; continue; }
    want=$(awk 'BEGIN { printf "%.3f", 1000 + 6 * 131072 / 12.5 }')
    got=$(completion "$tmp/out")
    same "$got" "$want" && echo "ok   $grid: completion $got = closed form $want" \
        || die "$grid: completion $got, closed form $want"
done

# (2) linear placement = the torus's own coordinates (x fastest)
cat > "$tmp/t.ini" <<'INI'
[engine]
end = 10s
[network]
topology = torus
link_bandwidth = 11.9GB/s
router_delay = 30ns
packet_size = 8KiB
vc_buffer = 64KiB
[torus]
dims = 4,4,8
[workload]
type = replay
[job.0]
trace = gen:stencil3d:px=4,py=4,pz=8,iters=1,bytes=16384,compute=0,allreduce=0
INI
hops() { sed -n 's/^hops *mean \([0-9.]*\).*/\1/p' "$1"; }
"$W" "$tmp/t.ini" --job.0.placement=linear > "$tmp/out" 2>&1 || die "torus linear: $(tail -3 "$tmp/out")"
[ "$(hops "$tmp/out")" = "1.0000" ] && echo "ok   linear placement: every halo one hop" \
    || die "linear placement: mean hops $(hops "$tmp/out"), want 1.0000"
grep -q "conservation.*: ok" "$tmp/out" || die "torus linear: conservation"
"$W" "$tmp/t.ini" --job.0.placement=random > "$tmp/out" 2>&1 || die "torus random: $(tail -3 "$tmp/out")"
awk -v h="$(hops "$tmp/out")" 'BEGIN { exit !(h > 1.5) }' && echo "ok   random placement: mean hops $(hops "$tmp/out")" \
    || die "random placement: mean hops $(hops "$tmp/out"), want more than 1.5"

# Runs INI sequentially and, where MPIEXEC is set, on 2 and 4 processes:
# every run commits all TASKS tasks and one digest. Leaves the sequential
# output in $tmp/out1 and the digest in $digest.
digest_runs() { # label ini tasks
    digest=""
    for np in 1 2 4; do
        if [ $np = 1 ]; then "$W" "$2" > "$tmp/out$np" 2>&1
        else [ -n "${MPIEXEC:-}" ] || continue; $MPIEXEC -n $np "$W" --synch=opt "$2" > "$tmp/out$np" 2>&1
        fi || { die "$1, $np processes: $(tail -3 "$tmp/out$np")"; continue; }
        d=$(sed -n 's/.*committed digest: //p' "$tmp/out$np")
        grep -q "tasks *$3 of $3\$" "$tmp/out$np" || die "$1, $np processes: want $3 tasks: $(grep tasks "$tmp/out$np")"
        if [ -z "$digest" ]; then digest=$d; echo "ok   $1 sequentially: digest $d, completion $(completion "$tmp/out$np")"
        elif [ "$d" = "$digest" ]; then echo "ok   $1 on $np processes: same digest"
        else die "$1: $np processes commit $d, the first run $digest"; fi
    done
}

# (3) 4,096 ranks: one digest in every process count
simplenet 4096 "gen:stencil3d:px=16,py=16,pz=16,iters=2,bytes=131072,compute=1000,allreduce=1,reduce=10" > "$tmp/d.ini"
printf 'placement = random\n' >> "$tmp/d.ini"
digest_runs "4,096 ranks" "$tmp/d.ini" 270336
# (5) shared graphs: (periodic, allreduce, graphs, tasks): periodic 9 tasks per
# iteration (compute, send, 6 receives, join); open edges lose 6 x 16^2
# receives per iteration; the allreduce adds 2 x 12 rounds
for c in "1 0 9 73728" "0 0 27 70656" "1 1 2048 270336"; do
    set -- $c
    simplenet 4096 "gen:stencil3d:px=16,py=16,pz=16,iters=2,bytes=65536,compute=1000,allreduce=$2,periodic=$1" > "$tmp/s.ini"
    printf '[replay]\nmemory_line = 1\n' >> "$tmp/s.ini"
    digest_runs "periodic=$1 allreduce=$2" "$tmp/s.ini" $4
    grep -q "^replay memory (process 0): 4096 ranks share $3 task graphs" "$tmp/out1" \
        && echo "ok   periodic=$1 allreduce=$2: 4096 ranks share $3 graphs" \
        || die "periodic=$1 allreduce=$2: want $3 shared graphs: $(grep '^replay memory' "$tmp/out1")"
    if [ "$2" = 0 ]; then
        # The generator names each rank's shape class, so it builds one
        # rank per class; the binary trace of the same stencil names
        # none (every rank built, hashed and compared): one digest.
        "$TR" gen stencil3d px=16 py=16 pz=16 iters=2 bytes=65536 compute=1000 allreduce=0 \
            periodic=$1 --binary -o "$tmp/s.wtb" > /dev/null 2>&1 || die "warpnet-trace gen periodic=$1"
        simplenet 4096 "$tmp/s.wtb" > "$tmp/b.ini"
        "$W" "$tmp/b.ini" > "$tmp/bout" 2>&1 || die "binary periodic=$1: $(tail -3 "$tmp/bout")"
        db=$(sed -n 's/.*committed digest: //p' "$tmp/bout")
        [ "$db" = "$digest" ] && echo "ok   periodic=$1: shape classes commit the binary trace's digest" \
            || die "periodic=$1: the generator commits $digest, its binary trace $db"
    fi
done
# (4) peak event memory: (12 x ranks + a few) slots of one size, <= 288 bytes
peak_bytes() { sed -n 's/.*"peak_event_bytes": *\([0-9]*\).*/\1/p' "$1/summary.json"; }
for e in 4 8; do
    n=$((e * e * e))
    simplenet $n "gen:stencil3d:px=$e,py=$e,pz=$e,iters=2,bytes=131072,compute=1000,allreduce=0" > "$tmp/p.ini"
    "$W" "$tmp/p.ini" --out="$tmp/p$n" > "$tmp/out" 2>&1 || die "peak $n: $(tail -3 "$tmp/out")"
done
b1=$(peak_bytes "$tmp/p64"); b2=$(peak_bytes "$tmp/p512")
slot=$(( (b2 - b1) / (12 * (512 - 64)) ))
if [ "$slot" -gt 0 ] && [ "$slot" -le 288 ] && [ $((b1 % slot)) = 0 ] && [ $((b2 % slot)) = 0 ] &&
   [ $((b1 / slot)) -ge 768 ] && [ $((b1 / slot)) -le 776 ] && [ $((b2 / slot)) -ge 6144 ] && [ $((b2 / slot)) -le 6152 ]; then
    echo "ok   peak event memory: $((b1 / slot)) / $((b2 / slot)) slots of $slot bytes for 64 / 512 ranks"
else
    die "peak event memory $b1 / $b2 bytes for 64 / 512 ranks: want 12 x ranks (+ <= 8) slots of <= 288 bytes (slot $slot)"
fi
exit $fail
