#!/bin/sh
# Network models and the replay: a checkpoint at T/2 taken on 2 ranks,
# restarted to T on 1, 2 and 4 ranks, gives the uninterrupted run's digest
# and every result file (summary.json less its engine part, terminals.csv,
# ports.csv, latency histogram) byte for byte. Covers a torus, a Slim Fly
# (their router queues are warp_alloc lists: relocated pointers) and the
# replay of the 32-rank Jacobi trace (its task progress: the ckpt hooks);
# the Slim Fly again with huge pages (warp_alloc slabs in 2 MiB chunks).
. "${top_srcdir:-.}/tests/checkpoint/lib.sh"
cd "$top_srcdir" || exit 1   # the replay's trace path is relative to the checkout
cat > "$TMP/torus.ini" <<'INI'
[engine]
end = 6us
[network]
topology = torus
link_bandwidth = 12.5GB/s
link_latency = 50ns
router_delay = 100ns
packet_size = 256B
vc_buffer = 1KiB
[torus]
dims = 4,4,4
[workload]
pattern = uniform
load = 0.6
message_size = 256B
INI
sed 's/^end = 50us/end = 10us/' examples/configs/slimfly-q5.ini > "$TMP/sf.ini"
cp examples/configs/replay-jacobi-torus.ini "$TMP/replay.ini"
[ -d ../shared/traces/bigsim-jacobi2d-32 ] || { echo "(no sample traces: replay case skipped)"; rm "$TMP/replay.ini"; }

# name run-file cut (the replay of examples/traces/stencil2d-32.wtt completes at 15.74 us)
for case in "torus 3us" "sf 5us" "replay 8us"; do
    set -- $case
    ini="$TMP/$1.ini"
    [ -f "$ini" ] || continue
    on 1 "$WARPNET" --quiet --synch=seq "$ini" --out="$TMP/$1.ref" > "$TMP/log" 2>&1 \
        || { bad "$1 reference run"; cat "$TMP/log"; continue; }
    wr=2; [ -n "$MPI" ] || wr=1
    on $wr "$WARPNET" --quiet "$ini" --checkpoint="$TMP/$1.ck" --checkpoint-at=$2 --checkpoint-exit \
        > "$TMP/log" 2>&1
    rc=$?
    [ $rc = 6 ] || { bad "$1: checkpoint at $2 exits $rc, want 6"; cat "$TMP/log"; continue; }
    for n in 1 2 4; do
        rm -rf "$TMP/$1.r"
        on $n "$WARPNET" --quiet "$ini" --restart="$TMP/$1.ck" --out="$TMP/$1.r" > "$TMP/log" 2>&1
        rc=$?
        [ $rc = 77 ] && continue
        if [ $rc = 0 ] && same_results "$TMP/$1.ref" "$TMP/$1.r"; then
            ok "$1: checkpoint at $2 on $wr rank(s), restarted on $n: same digest and result files"
        else
            bad "$1: restart on $n rank(s) exits $rc or differs"; tail -3 "$TMP/log"
        fi
    done
done

# With huge pages, warp_alloc's slabs lie in 2 MiB chunks: the checkpoint
# still finds every router queue's blocks by slab, and a restart with them
# gives the reference results.
if [ -f "$TMP/sf.ref/summary.json" ]; then
    rm -rf "$TMP/sfh.ck" "$TMP/sfh.r"
    on $wr "$WARPNET" --quiet "$TMP/sf.ini" --huge-pages=on --checkpoint="$TMP/sfh.ck" --checkpoint-at=5us \
        --checkpoint-exit > "$TMP/log" 2>&1
    rc=$?
    if [ $rc = 6 ] && on 1 "$WARPNET" --quiet "$TMP/sf.ini" --huge-pages=on --restart="$TMP/sfh.ck" \
        --out="$TMP/sfh.r" > "$TMP/log" 2>&1 && same_results "$TMP/sf.ref" "$TMP/sfh.r"; then
        ok "sf --huge-pages=on: checkpoint at 5us, restarted on 1: same digest and result files"
    else
        bad "sf --huge-pages=on: checkpoint exits $rc, or the restart fails or differs"; tail -3 "$TMP/log"
    fi
fi

# The replay's timeline is written while the run goes: refused, not cut short.
if [ -f "$TMP/replay.ini" ]; then
    on 1 "$WARPNET" "$TMP/replay.ini" --replay.timeline="$TMP/tl.csv" --checkpoint="$TMP/x" > "$TMP/log" 2>&1
    rc=$?
    [ $rc = 2 ] && grep -q "cannot span a checkpoint" "$TMP/log" && ok "replay timeline with --checkpoint refused" \
        || { bad "replay timeline with --checkpoint: exit $rc"; cat "$TMP/log"; }
fi
exit $fail
