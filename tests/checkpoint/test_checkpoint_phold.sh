#!/bin/sh
# PHOLD checkpoint and restart: a checkpoint at T/2 (taken on 2 ranks, in
# opt, seq and cons) restarted to T on 1, 2 and 4 ranks commits the digest
# and event count of the uninterrupted run; periodic checkpoints change
# nothing and the last one restarts too; a checkpoint taken on SIGTERM
# mid-run restarts to the same digest; writing is atomic.
. "${top_srcdir:-.}/tests/checkpoint/lib.sh"
A="--total-lps=96 --end=400 --seed=11 --remote=0.4"
on 1 "$PHOLD" $A --synch=seq > "$TMP/ref" 2>&1 || { cat "$TMP/ref"; exit 1; }
ref=$(digest "$TMP/ref") refc=$(committed "$TMP/ref")
[ -n "$ref" ] && [ "$refc" -gt 0 ] || { echo "FAIL: no reference digest"; exit 1; }
ok "reference digest $ref, $refc events"

restart_all() { # label dir
    for np in 1 2 4; do
        on $np "$PHOLD" $A --restart="$2" --synch=opt > "$TMP/r" 2>&1
        rc=$?
        [ $rc = 77 ] && continue
        if [ $rc = 0 ] && [ "$(digest "$TMP/r")" = "$ref" ] && [ "$(committed "$TMP/r")" = "$refc" ]; then
            ok "$1, restarted on $np rank(s): same digest and count"
        else
            bad "$1, restarted on $np rank(s): exit $rc, digest $(digest "$TMP/r"), $(committed "$TMP/r") events"
            tail -3 "$TMP/r"
        fi
    done
}

for how in "2 opt" "1 seq" "2 cons" "1 debug"; do
    set -- $how
    rm -rf "$TMP/ck"
    on $1 "$PHOLD" $A --synch=$2 --checkpoint="$TMP/ck" --checkpoint-at=200 --checkpoint-exit > "$TMP/w" 2>&1
    rc=$?
    [ $rc = 77 ] && continue
    [ $rc = 6 ] || { bad "checkpoint at T/2 ($2 on $1): exit $rc, want 6"; cat "$TMP/w"; continue; }
    grep -q "resume with --restart=" "$TMP/w" || bad "checkpoint at T/2 ($2): no resume hint"
    [ -f "$TMP/ck/meta" ] && [ ! -e "$TMP/ck.tmp" ] || bad "checkpoint at T/2 ($2): DIR incomplete or DIR.tmp left"
    restart_all "checkpoint at T/2 ($2 on $1)" "$TMP/ck"
done

# Checkpoints every 10 ms of wall time while the run goes on: the
# result is unchanged, the last checkpoint replaces the earlier ones (no
# DIR.tmp or DIR.old stays) and restarts to the same digest.
rm -rf "$TMP/ck"
B="--total-lps=96 --end=30000 --seed=11 --remote=0.4"
on 1 "$PHOLD" $B --synch=seq > "$TMP/bref" 2>&1
on 2 "$PHOLD" $B --synch=opt --checkpoint="$TMP/ck" --checkpoint-every=0.01s > "$TMP/p" 2>&1
rc=$?
if [ $rc != 77 ]; then
    n=$(grep -c "checkpoint [0-9]* written" "$TMP/p")
    [ $rc = 0 ] && [ "$(digest "$TMP/p")" = "$(digest "$TMP/bref")" ] && [ "$n" -ge 1 ] \
        && ok "periodic checkpoints ($n) leave the result unchanged" \
        || { bad "periodic checkpoints: exit $rc, $n written, digest $(digest "$TMP/p")"; tail -3 "$TMP/p"; }
    [ -f "$TMP/ck/meta" ] && [ ! -e "$TMP/ck.tmp" ] && [ ! -e "$TMP/ck.old" ] \
        && ok "one whole checkpoint stays" || bad "after periodic checkpoints: $(ls "$TMP")"
    on 2 "$PHOLD" $B --restart="$TMP/ck" --synch=opt > "$TMP/r" 2>&1
    [ "$(digest "$TMP/r")" = "$(digest "$TMP/bref")" ] && ok "the last periodic checkpoint restarts to the same digest" \
        || bad "restart of the last periodic checkpoint: digest $(digest "$TMP/r")"
fi

# SIGTERM mid-run: a long run is stopped by the signal with a checkpoint
# and exit code 6; the restart ends with the uninterrupted digest.
L="--total-lps=96 --end=120000 --seed=11 --remote=0.4"
on 1 "$PHOLD" $L --synch=seq > "$TMP/lref" 2>&1
lref=$(digest "$TMP/lref")
rm -rf "$TMP/ck"
np=2; [ -n "$MPI" ] || np=1
if [ $np = 2 ]; then
    timeout -k 10 300 $MPI -n 2 "$PHOLD" $L --synch=opt --checkpoint="$TMP/ck" > "$TMP/s" 2>&1 &
else
    timeout -k 10 300 "$PHOLD" $L --synch=opt --checkpoint="$TMP/ck" > "$TMP/s" 2>&1 &
fi
pid=$!
sleep 1
# The signal reaches the ranks as Slurm sends it: to every process of the
# job (this job's only: a machine-wide pgrep also stopped the same test's
# runs in other worktrees).
for p in $(procs_below "$pid" phold); do kill -TERM "$p" 2>/dev/null; done
wait $pid
rc=$?
if [ $rc = 0 ]; then
    echo "SKIP-PART: the run ended before the signal (a fast machine); nothing to restart"
elif [ $rc = 6 ] && [ -f "$TMP/ck/meta" ]; then
    on 1 "$PHOLD" $L --restart="$TMP/ck" --synch=seq > "$TMP/r" 2>&1
    [ "$(digest "$TMP/r")" = "$lref" ] && [ "$(committed "$TMP/r")" = "$(committed "$TMP/lref")" ] \
        && ok "SIGTERM mid-run: checkpoint, exit 6, restart gives digest $lref" \
        || { bad "SIGTERM restart: digest $(digest "$TMP/r"), want $lref"; tail -3 "$TMP/r"; }
else
    bad "SIGTERM mid-run: exit $rc, want 6 with a checkpoint"; tail -5 "$TMP/s"
fi
exit $fail
