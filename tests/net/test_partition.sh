#!/bin/sh
# tests/net/test_partition.sh — [engine] partition: block and topology
# commit the same digest and network summary on 1, 2 and 4 processes for
# every topology; --describe --ranks=N counts cut links as a hand count
# does; bad --ranks values and METIS (in a build without it) are refused;
# --gvt-interval=auto changes nothing committed; a workload on part of the
# terminals is balanced by its expected events.
. "$(dirname "$0")/lib.sh"

. "${top_srcdir:-.}/tests/net/partition_cases.sh"

same_as_block topology "seq opt2 opt4" "opt2 opt4"

# --gvt-interval=auto moves the interval with the memory in use: speed only.
same_everywhere "torus gvt-interval=auto" "opt2" "$TMP/torus.ini" --gvt-interval=auto --batch=1
if [ -s "$TMP/torus.block.res" ] && cmp -s "$TMP/torus.block.res" "$TMP/same.res"; then
    echo "ok   torus: --gvt-interval=auto commits the same digest and summary"
else
    bad "torus: --gvt-interval=auto differs from block"
fi

# 4-port 3-tree on 2: pods {0,1} and {2,3}, each with half of the 4 top
# switches; a top switch has one link into each pod, so 2 of its 4 cross:
# 4 x 2 = 8 of the 32 links (16 inside pods, 16 to the top).
cut "fat-tree 4p3l on 2" 8 --ranks=2 --partition=topology "$TMP/ft4.ini"
# 8-port 3-tree on 16 ranks: 8 pods of 4 edge and 4 aggregation switches
# with 2 of the 16 top switches each, so each rank takes half a pod. Every
# rank can hold 2 edge, 2 aggregation and 1 top switch (and the 8
# terminals of its 2 edge switches): the same LPs and expected events on
# every rank. Listing a pod's top switches after its switches gave one half
# 3 edge switches and the other both top switches (1.381 and 1.208).
balanced=$(timeout 60 "$WARPNET" --describe --ranks=16 --partition=topology "$C/fattree-8p3l.ini" |
    sed -n 's/^\(lp_imbalance\|event_imbalance\): \([0-9.]*\) .*/\2/p' | tr '\n' ' ')
[ "$balanced" = "1.000 1.000 " ] && echo "ok   fat-tree 8p3l on 16: LP and event imbalance 1.000" ||
    bad "fat-tree 8p3l on 16: LP and event imbalance '$balanced', want 1.000 1.000 (2 edge, 2 aggregation and 1 top switch a rank)"
# Slim Fly q = 53 on 16 ranks: 2 x 53^2 = 5,618 routers of equal load, 106
# groups of 53. Whole groups give a rank 6 or 7 (6.625 on average: 1.020
# on the busiest); runs that may end inside a group give at most 352
# routers where the mean is 351.125: 1.002.
sf53=$(timeout 60 "$WARPNET" --describe --ranks=16 --partition=topology --slimfly.q=53 "$C/slimfly-q13.ini" |
    sed -n 's/^event_imbalance: \([0-9.]*\) .*/\1/p')
[ "$sf53" = "1.002" ] && echo "ok   slimfly q53 on 16: event imbalance 1.002" ||
    bad "slimfly q53 on 16: event imbalance '$sf53', want 1.002 (352 of 5,618 routers on the busiest rank)"
# A workload on half the terminals (pods 0 and 1 of the 4-port 3-tree):
# the topology partition balances the routers' expected events, not their
# count, so each rank gets a share of the busy pods. Counting every router
# alike gave rank 0 both busy pods and rank 1 the idle ones: committed
# events 5,852 against 298 (imbalance 1.90) with 8 traffic ranks, 139,631
# against 5,155 (1.93) for an 8-rank replay job, which places a network
# rank on every terminal but work on 8. Same digest either way.
small_fattree "$TMP/ft4-replay.ini" 1s "type = replay
[job.0]
trace = gen:stencil3d:px=2,py=2,pz=2,iters=20,bytes=4096,compute=1000"
half_busy() { # NAME RUN.ini OPTION...
    name=$1 ini=$2
    shift 2
    for p in block topology; do
        timeout 120 mpiexec -n 2 "$WARPNET" "$ini" "$@" --synch=opt --partition=$p \
            --stats-json="$TMP/half.$p.json" > "$TMP/half.$p.out" 2>&1 ||
            bad "$name, partition=$p: exit $?"
    done
    imb=$(json "$TMP/half.topology.json" committed_per_rank imbalance)
    if [ -n "$imb" ] && awk -v i="$imb" 'BEGIN { exit !(i <= 1.35) }' &&
       [ "$(result "$TMP/half.topology.out")" = "$(result "$TMP/half.block.out")" ]; then
        echo "ok   $name: event imbalance $imb on 2 ranks (block: $(json "$TMP/half.block.json" committed_per_rank imbalance)), same digest"
    else
        bad "$name: topology's event imbalance '$imb' (want <= 1.35) or digests differ"
        # What differed (a distcheck under load failed here once; unexplained).
        result "$TMP/half.block.out" > "$TMP/half.block.res"
        result "$TMP/half.topology.out" > "$TMP/half.topology.res"
        diff "$TMP/half.block.res" "$TMP/half.topology.res" | head -20
    fi
    # Block placement runs lopsided here, and says so before the run.
    grep -q 'partition = block puts [0-9]* % of the expected events on one of 2 ranks.*partition = topology' \
        "$TMP/half.block.out" || bad "$name: block placement gave no warning of its imbalance"
    ! grep -q 'partition = block puts' "$TMP/half.topology.out" ||
        bad "$name: the topology partition warns of block's imbalance"
}
half_busy "fat-tree 4p3l, 8 traffic ranks on 16 nodes" "$TMP/ft4.ini" --network.ranks=8
half_busy "fat-tree 4p3l, 8-rank replay job on 16 nodes" "$TMP/ft4-replay.ini"
# 3x3 torus on 3: rows of 3; every link of dimension 1 (3 rings of 3) is cut.
cut "torus 3x3 on 3" 9 --ranks=3 --partition=topology "$TMP/t33.ini"
cut "torus 3x3 on 3, block" 9 --ranks=3 --partition=block "$TMP/t33.ini"
# Slim Fly q=5 (50 routers; each has 2 local links and one global link to
# each of the 5 groups of the other subgraph, 5 links per group pair).
# Block puts subgraph 0 on one rank: all 125 global links cross. Topology
# takes columns of both subgraphs: groups (0,0) (1,0) (0,1) (1,1) (0,2) on
# rank 0, so 3 x 3 + 2 x 2 = 13 group pairs x 5 = 65 links cross.
cut "slimfly q5 on 2, block" 125 --ranks=2 --partition=block "$C/slimfly-q5.ini"
cut "slimfly q5 on 2" 65 --ranks=2 --partition=topology "$C/slimfly-q5.ini"

refused "--ranks=0" "give 1 .. 9 ranks" "$WARPNET" --describe --ranks=0 "$TMP/t33.ini"
refused "--ranks above routers" "give 1 .. 9 ranks" "$WARPNET" --describe --ranks=10 "$TMP/t33.ini"
refused "--ranks without --describe" "goes with --describe" "$WARPNET" --ranks=2 "$TMP/t33.ini"
# Without METIS, partition = metis names the fix (with it:
# test_partition_metis.sh).
if ! timeout 60 "$WARPNET" --describe --ranks=2 --partition=metis "$TMP/t33.ini" >/dev/null 2>&1; then
    refused "metis" "no METIS partitioner: install libmetis-dev and reconfigure" \
        "$WARPNET" --partition=metis "$TMP/t33.ini"
fi
refused "unknown partition" "use block, topology, metis or file:PATH" "$WARPNET" --partition=pods "$TMP/t33.ini"
exit $fail
