#!/bin/sh
# Regression test: a rank that fills more than one 64 KiB send buffer for
# the same destination between two flushes listed that destination again
# each time, overrunning the list of destinations (one entry per rank): heap
# corruption, a crash in transport_flush on the 32,768-rank fat-tree replay
# on 2 ranks, and a heap-buffer-overflow under --enable-sanitizers. PHOLD
# with every event remote and 4,096-event batches sends about 2,000 events
# (several buffers) to the other rank per batch.
# Expected: the digest of --synch=seq on 2 and 4 ranks.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

args="--remote=1.0 --start-events=16 --total-lps=4096 --end=20"
ref=$(sig 0 "$PHOLD" --synch=seq $args)
is_sig "$ref" || fail "the sequential run failed: $ref"
for np in 2 4; do
    got=$(sig $np "$PHOLD" --synch=opt --batch=4096 $args)
    same "PHOLD on $np ranks, several send buffers per destination and batch" "$ref" "$got"
done
finish "send-buffer bursts"
