#!/bin/sh
# test_replay_run.sh — the replay workload end to end through warpnet.
# On an ideal simplenet (zero latency, practically infinite bandwidth, zero
# overheads) every job's completion equals the reference timing of its task
# graph computed independently by warpnet-trace info (the closed form for
# the stencil); two jobs sharing one network each keep their own; the
# committed digest is the same in seq, check, debug, opt and on 2 processes.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
T="${top_builddir:-.}/tools/trace/warpnet-trace"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
. "${top_srcdir:-${srcdir:-.}}/tests/replay/lib.sh"
W=$(limited "$W"); T=$(limited "$T")
tmp=$(mktemp -d /tmp/warpnet-replay-run.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }

ini() { # nodes jobs... -> run file on an ideal network
    nodes=$1; shift
    printf '[engine]\nend = 10s\n[network]\ntopology = simplenet\n[simplenet]\nnodes = %s\n' "$nodes"
    printf 'latency = 0ns\nbandwidth = 1e9TB/s\n[workload]\ntype = replay\n'
    j=0
    for t in "$@"; do printf '[job.%d]\ntrace = %s\n' $j "$t"; j=$((j + 1)); done
}

# completion OUTPUT JOB: the completion_ns the replay report printed
completion() { awk -v j="job $2:" '$0 ~ "^replay " j { f = 1; next } f && /completion_ns/ { print $2; exit }' "$1"; }
same() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; exit !(d < 1e-3 && d > -1e-3) }'; }

check_ideal() { # trace nodes [closed form]
    ini "$2" "$1" > "$tmp/r.ini"
    "$W" "$tmp/r.ini" > "$tmp/out" 2>&1 || { die "$1: warpnet failed: $(tail -3 "$tmp/out")"; return; }
    got=$(completion "$tmp/out" 0)
    want=$("$T" info "$1" | sed -n 's/^ideal_replay_ns: //p')
    same "$got" "$want" && echo "ok   $1: completion $got = ideal replay $want" || die "$1: completion $got, ideal replay $want"
    [ $# -lt 3 ] || same "$got" "$3" || die "$1: completion $got, closed form $3"
    grep -q "tasks *\([0-9]*\) of \1\$" "$tmp/out" || die "$1: not every task ran: $(grep 'tasks ' "$tmp/out")"
}

check_ideal "gen:stencil3d:px=4,py=4,pz=2,iters=6,compute=1500,reduce=20" 32 $((6 * (1500 + 5 * 20)))
check_ideal "gen:stencil2d:px=6,py=5,iters=5,compute=333" 30 $((5 * 333))
check_ideal "gen:allreduce:ranks=12,ring=1,iters=2,reduce=50" 12 $((2 * 2 * 11 * 50))
check_ideal "gen:alltoall:ranks=9,iters=3,step=7" 9 $((3 * 8 * 7))
check_ideal "gen:random:ranks=10,layers=40,seed=3,fanout=70" 16

cat > "$tmp/pp.goal" <<'GOAL'
num_ranks 2
rank 0 {
  a: calc 100
  b: send 64b to 1 tag 1
  c: recv 64b from 1 tag 2
  b requires a
  c requires b
}
rank 1 {
  a: recv 64b from 0 tag 1
  b: calc 250
  c: send 64b to 0 tag 2
  b requires a
  c requires b
}
GOAL
check_ideal "$tmp/pp.goal" 2 350

# Two jobs on one network: each completes in its own critical path.
ini 64 "gen:stencil3d:px=2,py=2,pz=2,iters=4,compute=900,reduce=5" \
       "gen:alltoall:ranks=16,iters=2,step=11" > "$tmp/m.ini"
printf 'placement = random\n' >> "$tmp/m.ini"
"$W" "$tmp/m.ini" > "$tmp/out" 2>&1 || die "two jobs: $(tail -3 "$tmp/out")"
same "$(completion "$tmp/out" 0)" $((4 * (900 + 3 * 5))) || die "job 0 of two: $(completion "$tmp/out" 0)"
same "$(completion "$tmp/out" 1)" $((2 * 15 * 11)) || die "job 1 of two: $(completion "$tmp/out" 1)"

# iterations = 3 replays the graph three times in sequence.
ini 8 "gen:stencil3d:px=2,py=2,pz=2,iters=2,compute=400,reduce=9" > "$tmp/it.ini"
printf 'iterations = 3\n' >> "$tmp/it.ini"
"$W" "$tmp/it.ini" > "$tmp/out" 2>&1 || die "iterations: $(tail -3 "$tmp/out")"
same "$(completion "$tmp/out" 0)" $((3 * 2 * (400 + 3 * 9))) || die "iterations: $(completion "$tmp/out" 0)"

# Overheads: each send adds overhead + bytes x per_byte_ns before the task ends.
ini 2 "$tmp/pp.goal" > "$tmp/o.ini"
printf '[replay]\noverhead = 40ns\nper_byte_ns = 0.5\n' >> "$tmp/o.ini"
"$W" "$tmp/o.ini" > "$tmp/out" 2>&1 || die "overheads: $(tail -3 "$tmp/out")"
# rank 0: calc 100, send (+40+32); rank 1: recv at 100+72, calc 250, send (+72): 100+72+250+72
same "$(completion "$tmp/out" 0)" 494 || die "overheads: completion $(completion "$tmp/out" 0), want 494"

# Determinism: same digest in every mode.
ini 16 "gen:random:ranks=16,layers=30,seed=9,fanout=80" > "$tmp/d.ini"
same_digest "$tmp/d.ini" "--synch=seq" "--synch=check" "--synch=debug" "--synch=opt" "--synch=opt --lps-per-kp=1" "np2 --synch=opt"

# Errors name the place.
ini 4 "$tmp/none.goal" > "$tmp/e.ini"
"$W" "$tmp/e.ini" > "$tmp/out" 2>&1 && die "missing trace accepted"
grep -q "warpnet: .*none.goal: cannot open" "$tmp/out" || die "missing trace: $(tail -2 "$tmp/out")"
ini 4 "gen:alltoall:ranks=8" > "$tmp/e.ini"
"$W" "$tmp/e.ini" > "$tmp/out" 2>&1 && die "8 ranks on 4 accepted"
grep -q "job.0.*placement.*more ranks" "$tmp/out" || die "too many ranks: $(tail -2 "$tmp/out")"
# A rank flooded with messages it never receives: an error once committed.
printf 'warpnet-trace text 1\nranks 2\nrank 0 1\n0 send=1:8:1 send=1:8:2 send=1:8:3\nrank 1 1\n5\n' > "$tmp/flood.txt"
ini 2 "$tmp/flood.txt" > "$tmp/e.ini"
for mode in seq debug; do
    "$W" --synch=$mode "$tmp/e.ini" > "$tmp/out" 2>&1 && die "$mode: flood accepted"
    grep -q "flood.txt: rank 1 received more messages than it has receives" "$tmp/out" || die "flood: $(tail -2 "$tmp/out")"
done
exit $fail
