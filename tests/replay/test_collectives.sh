#!/bin/sh
# test_collectives.sh — the collective algorithms ([collectives], gen:collective)
# on the networks: on simplenet (alpha = latency, 1/beta = bandwidth) ring
# and halving-doubling allreduce, direct allreduce, hierarchical allreduce,
# ring reduce-scatter, halving-doubling allgather and pairwise all-to-all
# finish exactly at their alpha-beta closed forms; on a packet torus no
# algorithm beats the bandwidth bound 2(n-1)/n S/B; the committed digest of a
# tree allreduce in chunks is the same in seq and opt (and on 2 processes);
# a key that cannot run is refused naming [collectives] and the key.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
. "${top_srcdir:-${srcdir:-.}}/tests/replay/lib.sh"
W=$(limited "$W")
tmp=$(mktemp -d /tmp/warpnet-collectives.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }

# simplenet n ranks, 1 us latency, 1 GB/s (1 byte/ns)
simple() { # n op bytes key value [extra collectives lines]
    printf '[engine]\nend = 1s\n[network]\ntopology = simplenet\n[simplenet]\nnodes = %s\nlatency = 1us\n' "$1"
    printf 'bandwidth = 1GB/s\n[workload]\ntype = replay\n[job.0]\ntrace = gen:collective:op=%s,ranks=%s,bytes=%s\n' \
        "$2" "$1" "$3"
    printf '[replay]\nranks_csv = %s\n[collectives]\n%s = %s\n' "$tmp/r.csv" "$4" "$5"
}

finish() { awk -F, 'NR > 1 && $3 > m { m = $3 } END { printf "%.3f", m }' "$tmp/r.csv"; }

exact() { # name want ini-args...
    name=$1 want=$2; shift 2
    simple "$@" > "$tmp/c.ini"
    "$W" "$tmp/c.ini" > "$tmp/out" 2>&1 || { die "$name: $(tail -3 "$tmp/out")"; return; }
    got=$(finish)
    [ "$got" = "$want.000" ] && echo "ok   $name: $got ns" || die "$name: finished at $got ns, closed form $want"
}

a=1000 # alpha, ns
# ring allreduce: 2(n-1) (alpha + S/(nB))
exact "ring allreduce n=8" $((2 * 7 * (a + 524288 / 8))) 8 allreduce 524288 allreduce ring
exact "ring allreduce n=6" $((2 * 5 * (a + 600000 / 6))) 6 allreduce 600000 allreduce ring
# halving-doubling: 2 log2(n) alpha + 2 (n-1)/n S/B
exact "halving-doubling allreduce n=8" $((2 * 3 * a + 2 * 7 * 524288 / 8)) 8 allreduce 524288 allreduce halving-doubling
exact "halving-doubling allreduce n=16" $((2 * 4 * a + 2 * 15 * 1048576 / 16)) 16 allreduce 1048576 allreduce \
    halving-doubling
# direct: two phases of n-1 pieces S/n through the NIC, alpha each
exact "direct allreduce n=8" $((2 * (a + 7 * 524288 / 8))) 8 allreduce 524288 allreduce direct
# hierarchical(4) on 8: ring reduce-scatter in 4, ring allreduce of S/4 across 2, ring allgather in 4
exact "hierarchical(4) allreduce n=8" $((6 * (a + 524288 / 4) + 2 * (a + 524288 / 8))) 8 allreduce 524288 \
    allreduce "hierarchical(4)"
exact "ring reduce_scatter n=8" $((7 * (a + 524288 / 8))) 8 reduce_scatter 524288 reduce_scatter ring
exact "halving-doubling allgather n=8" $((3 * a + 7 * 524288 / 8)) 8 allgather 524288 allgather halving-doubling
exact "pairwise alltoall n=8" $((7 * (a + 524288 / 8))) 8 alltoall 524288 alltoall ring
exact "ring (pipeline) bcast n=4" $((3 * (a + 65536))) 4 bcast 65536 bcast ring

# A packet network never beats the bandwidth bound 2(n-1)/n S/B of an
# allreduce (B: the 12.5 GB/s injection link), whatever the algorithm.
torus() { # alg bytes
    printf '[engine]\nend = 1s\n[network]\ntopology = torus\nlink_bandwidth = 12.5GB/s\nlink_latency = 50ns\n'
    printf 'router_delay = 100ns\npacket_size = 2KiB\nvc_buffer = 16KiB\n[torus]\ndims = 4,4\n[workload]\ntype = replay\n'
    printf '[job.0]\ntrace = gen:collective:op=allreduce,ranks=16,bytes=%s\n[replay]\nranks_csv = %s\n' "$2" "$tmp/r.csv"
    printf '[collectives]\nallreduce = %s\nchunks = 2\n' "$1"
}
for alg in ring halving-doubling tree direct "hierarchical(4)"; do
    torus "$alg" 1048576 > "$tmp/t.ini"
    "$W" "$tmp/t.ini" > "$tmp/out" 2>&1 || { die "torus $alg: $(tail -3 "$tmp/out")"; continue; }
    got=$(finish)
    bound=$(awk 'BEGIN { printf "%.3f", 2 * 15 / 16 * 1048576 / 12.5 }')
    awk -v g="$got" -v b="$bound" 'BEGIN { exit !(g >= b) }' && echo "ok   torus $alg: $got ns >= bound $bound ns" ||
        die "torus $alg: $got ns beats the bandwidth bound $bound ns"
done

# Determinism: the same digest in every mode.
torus tree 65536 > "$tmp/d.ini"
same_digest "$tmp/d.ini" "--synch=seq" "--synch=opt --lps-per-kp=1" "--synch=debug" "np2 --synch=opt"

# A Dimemas trace's collectives take [collectives]' algorithm: stencil.dim's
# 3 allreduces on 16 tasks go from 4 recursive-doubling rounds (192
# messages) to 30 ring steps (1440), its 498 messages to 1746.
D="${top_srcdir:-${srcdir:-.}}/tests/replay/dimemas/stencil.dim"
dim() { # [collectives lines]
    printf '[engine]\nend = 1s\n[network]\ntopology = simplenet\n[simplenet]\nnodes = 16\nlatency = 1us\n'
    printf 'bandwidth = 1GB/s\n[workload]\ntype = replay\n[job.0]\ntrace = %s\n%s' "$D" "$1"
}
for c in "" "[collectives]
allreduce = ring
"; do
    dim "$c" > "$tmp/m.ini"
    "$W" "$tmp/m.ini" > "$tmp/out" 2>&1 || { die "dimemas ${c:+ring}: $(tail -3 "$tmp/out")"; continue; }
    got=$(sed -n 's/^  messages *\([0-9]*\) .*/\1/p' "$tmp/out")
    want=$([ -n "$c" ] && echo 1746 || echo 498)
    [ "$got" = "$want" ] && echo "ok   dimemas ${c:-built-in}: $got messages" | tr "\n" " "; echo ||
        die "dimemas ${c:+allreduce = ring}: $got messages, want $want"
done
dim "[collectives]
allreduce = hierarchical(5)
" > "$tmp/m.ini"
"$W" "$tmp/m.ini" > "$tmp/out" 2>&1 && die "hierarchical(5) on 16 tasks accepted"
grep -q "stencil.dim:[0-9]*: \[collectives\] allreduce = hierarchical(5, ...) needs .* multiple of 5 members, not 16" \
    "$tmp/out" || die "hierarchical(5) on 16: $(tail -2 "$tmp/out")"

# Errors name the key.
simple 8 alltoall 4096 alltoall tree > "$tmp/e.ini"
"$W" "$tmp/e.ini" > "$tmp/out" 2>&1 && die "alltoall = tree accepted"
grep -q "warpnet: .*e.ini:.*\[collectives\] alltoall.*not an algorithm for alltoall" "$tmp/out" ||
    die "alltoall = tree: $(tail -2 "$tmp/out")"
simple 6 allreduce 4096 allreduce "hierarchical(4)" > "$tmp/e.ini"
"$W" "$tmp/e.ini" > "$tmp/out" 2>&1 && die "hierarchical(4) on 6 accepted"
grep -q "multiple of 4 members, not 6" "$tmp/out" || die "hierarchical(4) on 6: $(tail -2 "$tmp/out")"
simple 6 allreduce 4096 allredcue ring > "$tmp/e.ini"
"$W" "$tmp/e.ini" > "$tmp/out" 2>&1 && die "a misspelt key accepted"
grep -q "allredcue.*did you mean allreduce" "$tmp/out" || die "misspelt key: $(tail -2 "$tmp/out")"
exit $fail
