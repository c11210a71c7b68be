#!/bin/sh
# test_replay_stencil.sh — the 3-D stencil replay of issue 18 at small scale.
# (1) One iteration with zero compute on simplenet completes at the closed
# form: every rank sends its six 128 KiB halos back to back through its NIC
# and receives six, one per send slot, so the last arrives at
# latency + 6 x bytes / bandwidth. (2) The process grid mapped linearly onto
# a torus of the same shape puts every neighbour one hop away (mean hops
# exactly 1); random placement does not. (3) A 4,096-rank stencil commits
# the same digest sequentially and on 2 and 4 processes.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W")
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

# (3) 4,096 ranks: one digest in every process count
simplenet 4096 "gen:stencil3d:px=16,py=16,pz=16,iters=2,bytes=131072,compute=1000,allreduce=1,reduce=10" > "$tmp/d.ini"
printf 'placement = random\n' >> "$tmp/d.ini"
ref=""
for np in 1 2 4; do
    if [ $np = 1 ]; then "$W" "$tmp/d.ini" > "$tmp/out" 2>&1
    else [ -n "${MPIEXEC:-}" ] || continue; $MPIEXEC -n $np "$W" --synch=opt "$tmp/d.ini" > "$tmp/out" 2>&1
    fi || { die "$np processes: $(tail -3 "$tmp/out")"; continue; }
    d=$(sed -n 's/.*committed digest: //p' "$tmp/out")
    grep -q "tasks *270336 of 270336" "$tmp/out" || die "$np processes: not every task ran"
    if [ -z "$ref" ]; then ref=$d; echo "ok   4,096 ranks sequentially: digest $d, completion $(completion "$tmp/out")"
    elif [ "$d" = "$ref" ]; then echo "ok   4,096 ranks on $np processes: same digest"
    else die "$np processes: digest $d differs from $ref"; fi
done
exit $fail
