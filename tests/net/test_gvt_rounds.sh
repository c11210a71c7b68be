#!/bin/sh
# GVT rounds and send completion on a network model (issue 15, item 2):
# Mattern's rounds reduce the in-transit count, the committed and
# rolled-back counts and the minimum key in ONE non-blocking all-reduce,
# and completed sends are collected only once several are in flight. On the
# fat-tree CODES case (short), every GVT setting below must commit the
# sequential run's digest and network summary, and the committed count
# that rank 0 prints must be the sequential one: --batch=1 makes a round
# attempt and a flush of one or two events at every event (sends rarely
# reach the collection threshold), --gvt-interval=1 a round per batch,
# --gvt=sync the blocking variant, auto the adaptive interval; 4 ranks
# oversubscribed as well.
. "${srcdir:-.}/tests/net/lib.sh"
MPI=${MPIEXEC:-mpiexec}
FT="${srcdir:-.}/examples/configs/fattree-8p3l-codes.ini"
A="--end=2us"

timeout 300 "$WARPNET" "$FT" $A --synch=seq > "$TMP/seq.out" 2>&1 || bad "seq exits $?"
result "$TMP/seq.out" > "$TMP/seq.res"
grep -q "committed digest" "$TMP/seq.res" || bad "seq: no digest printed"
want=$(sed -n 's/^  committed events  *//p' "$TMP/seq.out" | tr -d ,)

n=0
for np_opts in "2 --batch=1 --gvt-interval=1" "2 --batch=1 --gvt-interval=16" \
    "2 --batch=16 --gvt-interval=1 --gvt=sync" "2 --batch=64 --gvt-interval=auto" \
    "4 --batch=1 --gvt-interval=4" "4 --batch=16 --gvt-interval=16 --gvt=sync"; do
    n=$((n + 1))
    set -- $np_opts
    np=$1; shift
    # shellcheck disable=SC2086
    timeout 300 $MPI -n "$np" "$WARPNET" "$FT" $A --synch=opt "$@" > "$TMP/$n.out" 2>&1 ||
        { bad "$np ranks $*: exit $?"; tail -5 "$TMP/$n.out"; continue; }
    result "$TMP/$n.out" > "$TMP/$n.res"
    if cmp -s "$TMP/seq.res" "$TMP/$n.res"; then
        echo "ok   $np ranks $*: digest and summary of seq"
    else
        bad "$np ranks $*: differs from seq"; diff "$TMP/seq.res" "$TMP/$n.res" | head -10
    fi
    got=$(sed -n 's/^  committed events  *//p' "$TMP/$n.out" | tr -d ,)
    [ "$got" = "$want" ] || bad "$np ranks $*: $got committed events, seq $want"
done
exit $fail
