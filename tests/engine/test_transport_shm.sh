#!/bin/sh
# --transport (auto, mpi, shm) only changes how remote events travel between
# ranks, never what commits: PHOLD and a Slim Fly commit the sequential
# digest with MPI messages and with shared-memory rings, on 2 and 4 ranks
# (oversubscribed), optimistic, with --gvt=sync (its drain; safe events off:
# held ranks under blocking rounds took 30 s on 4 ranks) and conservative;
# rings of the smallest size (WARP_SHM_RING_BYTES=1: two records) make
# nearly every buffer find its ring full and wait, and still commit it; a
# checkpoint taken over one transport restarts over the other. ring_records
# in --stats-json says the rings carried the events (and mpi none), and
# gvt_shared_reductions that Mattern's rounds went through shared slots
# with the rings (never with mpi, --gvt=sync or conservative windows).
# Shared memory that cannot be backed (a full /dev/shm: SIGBUS on the first
# write, faked by WARP_SHM_PROBE_FAIL) leaves auto on MPI's messages and
# reductions with the same digest, and stops shm with a message.
. "$top_srcdir/tests/engine/test_torture_lib.sh"

# jsig NP PROGRAM ARGS...: the signature, and the ring counters of the run
# in $TT_DIR/ring ("records N waits N").
jsig() {
    np=$1
    shift
    rm -f "$TT_DIR/s.json"
    s=$(sig "$np" "$@" --stats-json="$TT_DIR/s.json")
    r=$(sed -n 's/^  "ring_records": \([0-9]*\),/\1/p' "$TT_DIR/s.json" 2>/dev/null)
    q=$(sed -n 's/^  "ring_waits": \([0-9]*\),/\1/p' "$TT_DIR/s.json" 2>/dev/null)
    g=$(sed -n 's/^  "gvt_shared_reductions": \([0-9]*\),/\1/p' "$TT_DIR/s.json" 2>/dev/null)
    echo "records ${r:-none} waits ${q:-none} shared ${g:-none}" >"$TT_DIR/ring"
    echo "$s"
}

# rings WHAT WANT: the last run's records through rings are WANT (0 or
# "some"), and with a tiny ring ($tiny set) some buffers waited.
rings() {
    set -- "$1" "$2" $(cat "$TT_DIR/ring")
    [ "$4" = none ] && return # the run failed: sig said so
    case $2 in
    0) [ "$4" = 0 ] || fail "$1: $4 records went through rings, want none" ;;
    some) [ "$4" != none ] && [ "$4" -gt 0 ] || fail "$1: no record went through a ring ($*)" ;;
    esac
    if [ -n "$tiny" ]; then
        [ "$6" != none ] && [ "$6" -gt 0 ] || fail "$1: no buffer found its tiny ring full ($*)"
    fi
}

# shared WHAT WANT: the last run's GVT reductions through shared slots are
# WANT (0 or "some"): Mattern's rounds on one node with rings take them.
shared() {
    set -- "$1" "$2" $(cat "$TT_DIR/ring")
    [ "$8" = none ] && return
    case $2 in
    0) [ "$8" = 0 ] || fail "$1: $8 GVT reductions went through shared slots, want none" ;;
    some) [ "$8" -gt 0 ] || fail "$1: no GVT reduction went through shared slots" ;;
    esac
}

common="--total-lps=512 --remote=0.5 --lookahead=0.1 --end=50"
ref=$(sig 0 "$PHOLD" --synch=seq $common)
is_sig "$ref" || fail "seq PHOLD failed: $ref"
for tiny in "" 1; do
    export WARP_SHM_RING_BYTES=$tiny
    for np in 2 4; do
        for mode in "--synch=opt" "--synch=opt --gvt=sync --safe-events=off" "--synch=cons"; do
            for tr in mpi shm; do
                [ -n "$tiny" ] && [ $tr = mpi ] && continue
                what="PHOLD $np ranks $mode --transport=$tr${tiny:+ (tiny rings)}"
                got=$(jsig $np "$PHOLD" $mode --transport=$tr $common)
                same "$what" "$ref" "$got"
                if [ $tr = mpi ]; then rings "$what" 0; else rings "$what" some; fi
                if [ $tr = shm ] && [ "$mode" = --synch=opt ]; then shared "$what" some; else shared "$what" 0; fi
            done
        done
    done
done
tiny=
unset WARP_SHM_RING_BYTES

# auto on one node is rings; a run file's [engine] transport = mpi is MPI.
got=$(jsig 2 "$PHOLD" $common)
same "PHOLD 2 ranks, default transport" "$ref" "$got"
rings "default transport (auto) on one node" some
printf '[engine]\ntransport = mpi\n' >"$TT_DIR/mpi.ini"
got=$(jsig 2 "$PHOLD" --config="$TT_DIR/mpi.ini" $common)
same "run file transport = mpi" "$ref" "$got"
rings "run file transport = mpi" 0

# A network model: packets, credits and the Slim Fly's routing cross ranks.
WARPNET=$top_builddir/tools/warpnet/warpnet
sf="$top_srcdir/examples/configs/slimfly-q5.ini --end=6us"
sfref=$(sig 0 "$WARPNET" --synch=seq $sf)
is_sig "$sfref" || fail "seq Slim Fly failed: $sfref"
for np in 2 4; do
    for tr in mpi shm; do
        got=$(jsig $np "$WARPNET" --synch=opt --transport=$tr $sf)
        same "Slim Fly $np ranks opt --transport=$tr" "$sfref" "$got"
    done
done
tiny=1
export WARP_SHM_RING_BYTES=1
got=$(jsig 4 "$WARPNET" --synch=opt --transport=shm $sf)
same "Slim Fly 4 ranks opt, tiny rings" "$sfref" "$got"
rings "Slim Fly 4 ranks opt, tiny rings" some
got=$(jsig 2 "$WARPNET" --synch=cons --transport=shm $sf)
same "Slim Fly 2 ranks cons, tiny rings" "$sfref" "$got"
rings "Slim Fly 2 ranks cons, tiny rings" some
tiny=
unset WARP_SHM_RING_BYTES

# A checkpoint is a cut with nothing in transit, rings included: taken over
# one transport (tiny rings: full ones at the cut), it restarts over the other.
for pair in "shm mpi" "mpi shm"; do
    set -- $pair
    rm -rf "$TT_DIR/ck"
    export WARP_SHM_RING_BYTES=1
    run 2 "$PHOLD" --synch=opt --transport=$1 $common \
        --checkpoint="$TT_DIR/ck" --checkpoint-at=25 --checkpoint-exit
    unset WARP_SHM_RING_BYTES
    [ "$TT_RC" = 6 ] || fail "checkpoint over $1: exit $TT_RC, want 6: $(tail -n 1 "$TT_OUT")"
    for np in 2 4; do
        got=$(sig $np "$PHOLD" --synch=opt --transport=$2 $common --restart="$TT_DIR/ck")
        same "checkpoint over $1 at 25, restarted over $2 on $np ranks" "$ref" "$got"
    done
done

# A rank whose segment cannot be backed: under auto every rank keeps MPI
# (no rings, or rings but no shared slots) and commits the same digest;
# under shm the run stops with exit 3 and says why. Without the probe the
# first write raises SIGBUS and the run dies of it.
mpiref=$(jsig 2 "$PHOLD" --transport=mpi $common)
same "PHOLD 2 ranks --transport=mpi" "$ref" "$mpiref"
for fault in 1 0 1:slots 0:slots; do
    export WARP_SHM_PROBE_FAIL=$fault
    what="auto, WARP_SHM_PROBE_FAIL=$fault"
    got=$(jsig 2 "$PHOLD" $common)
    same "$what" "$mpiref" "$got"
    case $fault in
    *:slots) rings "$what" some ;;
    *) rings "$what" 0 ;;
    esac
    shared "$what" 0
    run_failing 2 "$PHOLD" --transport=shm $common
    [ "$TT_RC" = 3 ] && grep -q "shared memory for the .* could not be allocated or backed (is /dev/shm full or small?); use --transport=mpi, or enlarge /dev/shm (mount -o remount,size=" "$TT_OUT" ||
        fail "--transport=shm, WARP_SHM_PROBE_FAIL=$fault: exit $TT_RC, want 3: $(cat "$TT_OUT")"
done
export WARP_SHM_PROBE_FAIL=x
run_failing 2 "$PHOLD" $common
[ "$TT_RC" = 2 ] && grep -q "WARP_SHM_PROBE_FAIL=x: expected a rank" "$TT_OUT" ||
    fail "WARP_SHM_PROBE_FAIL=x: exit $TT_RC, want 2: $(cat "$TT_OUT")"
unset WARP_SHM_PROBE_FAIL

# A bad value names the option and the choices.
run_failing 0 "$PHOLD" --transport=tcp $common
[ "$TT_RC" != 0 ] && grep -q -- "--transport.*auto.*mpi.*shm" "$TT_OUT" ||
    fail "--transport=tcp: exit $TT_RC, $(cat "$TT_OUT")"
finish "transport"
