#!/bin/sh
# A checkpoint that is corrupt, truncated, incomplete, foreign (another
# configuration) or no checkpoint at all is refused with exit code 2 and
# one line that says what is wrong; so are checkpoint options without
# --checkpoint or with a bad value. Writing never leaves a half directory.
. "${top_srcdir:-.}/tests/checkpoint/lib.sh"
A="--total-lps=32 --end=100 --seed=3"
on 1 "$PHOLD" $A --checkpoint="$TMP/good" --checkpoint-at=50 --checkpoint-exit > "$TMP/log" 2>&1
[ $? = 6 ] || { cat "$TMP/log"; echo "FAIL: no checkpoint to spoil"; exit 1; }

# refused NAME PATTERN ARGS...: phold ARGS exits 2 with one line holding PATTERN.
refused() {
    name=$1 pat=$2; shift 2
    on 1 "$PHOLD" "$@" > "$TMP/log" 2>&1
    rc=$?
    if [ $rc = 2 ] && [ "$(wc -l < "$TMP/log")" = 1 ] && grep -q -- "$pat" "$TMP/log"; then
        ok "$name: $(cat "$TMP/log")"
    else
        bad "$name: exit $rc, want 2 with one line containing '$pat':"; cat "$TMP/log"
    fi
}
spoil() { rm -rf "$TMP/bad"; cp -r "$TMP/good" "$TMP/bad"; }

spoil; f="$TMP/bad/rank-000000"; size=$(wc -c < "$f")
printf 'X' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
refused "a flipped byte" "checksum mismatch" $A --restart="$TMP/bad"

spoil; head -c $((size - 100)) "$TMP/good/rank-000000" > "$f"
refused "a truncated rank file" "truncated" $A --restart="$TMP/bad"

spoil; head -c 40 "$TMP/good/meta" > "$TMP/bad/meta"
refused "a truncated meta file" "meta: truncated" $A --restart="$TMP/bad"

spoil; printf 'NOTACKPT' | dd of="$TMP/bad/meta" bs=1 conv=notrunc 2>/dev/null
refused "a foreign file" "not a Warpnet checkpoint" $A --restart="$TMP/bad"

spoil; rm "$f"
refused "a missing rank file" "cannot open" $A --restart="$TMP/bad"

refused "another seed" "another configuration" --total-lps=32 --end=100 --seed=4 --restart="$TMP/good"
refused "another end" "another configuration" --total-lps=32 --end=120 --seed=3 --restart="$TMP/good"
refused "another model option" "another configuration" $A --remote=0.5 --restart="$TMP/good"
refused "no checkpoint there" "cannot open" $A --restart="$TMP/nothing"
# PHOLD's checkpoint given to a network run.
printf '[engine]\nend = 1us\n[network]\ntopology = torus\n[torus]\ndims = 2,2\n[workload]\npattern = uniform\nload = 0.1\n' > "$TMP/t.ini"
on 1 "$WARPNET" "$TMP/t.ini" --restart="$TMP/good" > "$TMP/log" 2>&1
rc=$?
[ $rc = 2 ] && [ "$(wc -l < "$TMP/log")" = 1 ] && grep -q "another configuration" "$TMP/log" \
    && ok "another program's checkpoint: $(cat "$TMP/log")" || { bad "another program's checkpoint: exit $rc"; cat "$TMP/log"; }

# The same checkpoint, refused on several ranks too.
if [ -n "$MPI" ]; then
    spoil; printf 'X' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
    on 2 "$PHOLD" $A --restart="$TMP/bad" > "$TMP/log" 2>&1
    rc=$?
    [ $rc = 2 ] && grep -q "checksum mismatch" "$TMP/log" && ok "a flipped byte, on 2 ranks: exit 2" \
        || { bad "a flipped byte on 2 ranks: exit $rc"; cat "$TMP/log"; }
fi

# A DIR whose paths would not fit is refused, not cut short.
long="$TMP/$(printf '%4300s' '' | tr ' ' d)"
refused "a --checkpoint DIR too long" "^phold: --checkpoint=DIR: the path .* is longer than 4199 bytes: choose a shorter DIR" $A --checkpoint="$long" --checkpoint-at=50 --checkpoint-exit
refused "a --restart DIR too long" "^phold: --restart=DIR: the path .* is longer than 4199 bytes: choose a shorter DIR" $A --restart="$long"

refused "--checkpoint-at alone" "need --checkpoint=DIR" $A --checkpoint-at=50
refused "a wall time without unit" "checkpoint-every" $A --checkpoint="$TMP/c" --checkpoint-every=30
refused "an unknown signal" "unknown signal" $A --checkpoint="$TMP/c" --checkpoint-signal=KILL
refused "check mode" "does not checkpoint" $A --checkpoint="$TMP/c" --synch=check

# A directory with other files in the way of DIR.tmp is left alone, and
# found at start, not when the first checkpoint falls due (an hour here).
mkdir -p "$TMP/w.tmp"; echo mine > "$TMP/w.tmp/notes.txt"
refused "DIR.tmp holds other files" "no checkpoint file" $A --checkpoint="$TMP/w" --checkpoint-every=1h
[ -f "$TMP/w.tmp/notes.txt" ] && ok "the user's file stays" || bad "the user's file in DIR.tmp was removed"

# Where nothing can be written is refused at start, before the run, even
# when the first checkpoint would fall due only after an hour.
: > "$TMP/afile"
refused "DIR in an unwritable place" "cannot write beside it" $A --checkpoint="$TMP/afile/ck" --checkpoint-every=1h
refused "DIR is a file" "exists and is not a directory" $A --checkpoint="$TMP/afile" --checkpoint-every=1h

# A checkpoint time at or past the end would never be written (cons and
# opt once wrote one "at time inf" and stopped with exit 6, no results).
for s in seq cons opt; do
    refused "--checkpoint-at past the end ($s)" "not before the end time 100" $A --synch=$s \
        --checkpoint="$TMP/late" --checkpoint-at=500 --checkpoint-exit
done
[ ! -e "$TMP/late" ] && ok "no checkpoint written past the end" || bad "a checkpoint past the end was written"
# A replay that completes before --checkpoint-at (its end is only a bound)
# gives its results; cons once wrote a checkpoint "at time inf" instead.
R="${top_srcdir:-.}/examples/configs/replay-jacobi-torus.ini"
(cd "${top_srcdir:-.}" && on 1 "$WARPNET" "$R" --synch=cons --checkpoint="$TMP/never" --checkpoint-at=50us \
    --checkpoint-exit) > "$TMP/log" 2>&1
rc=$?
[ $rc = 0 ] && grep -q "tasks  *2240 of 2240" "$TMP/log" && [ ! -e "$TMP/never" ] \
    && ok "a replay done before --checkpoint-at: results, no checkpoint" \
    || { bad "a replay done before --checkpoint-at: exit $rc"; tail -3 "$TMP/log"; }

# Two runs never write one checkpoint DIR: the second is refused while the
# first runs (it holds DIR.lock locked), and DIR is free again after it.
timeout -k 10 300 "$PHOLD" --total-lps=64 --end=1e9 --checkpoint="$TMP/shared" --checkpoint-every=1h \
    > "$TMP/first" 2>&1 &
first=$!
for i in $(seq 300); do [ -e "$TMP/shared.lock" ] && break; sleep 0.1; done
refused "a DIR another run writes" "another run (process [0-9]*) is writing its checkpoints there" \
    $A --checkpoint="$TMP/shared" --checkpoint-every=1h
kill -TERM $first; wait $first
on 1 "$PHOLD" $A --checkpoint="$TMP/shared" --checkpoint-at=50 > "$TMP/log" 2>&1 \
    && ok "the DIR is free once the first run ended" || { bad "the DIR stays locked after the run: $(cat "$TMP/log")"; }

# A checkpoint on a full disk (a file size limit: EFBIG as ENOSPC) stops
# with exit 3 and takes its unfinished DIR.tmp with it; the previous
# checkpoint in DIR stays.
# (UCX_TLS: MPICH over UCX would otherwise write its shared-memory files
# under the same limit and fail in MPI_Init.)
cp -r "$TMP/good" "$TMP/fullck"
(trap '' XFSZ; ulimit -f 1; UCX_TLS=self,tcp exec timeout -k 10 300 "$PHOLD" --total-lps=512 --end=100 --seed=3 \
    --checkpoint="$TMP/fullck" --checkpoint-at=50) > "$TMP/log" 2>&1
rc=$?
[ $rc = 3 ] && grep -q "cannot write .*fullck.tmp/rank-000000 (File too large)" "$TMP/log" \
    && ok "a checkpoint on a full disk: exit 3" || { bad "a checkpoint on a full disk: exit $rc"; cat "$TMP/log"; }
[ ! -e "$TMP/fullck.tmp" ] && cmp -s "$TMP/good/meta" "$TMP/fullck/meta" \
    && ok "no DIR.tmp left filling the disk; the previous checkpoint stays" \
    || bad "after a full disk: $(ls "$TMP"; ls "$TMP/fullck.tmp" 2>/dev/null)"

# After --restart the statistics say which figures are the whole run's
# (committed events: the digest's) and which this segment's; efficiency and
# events/s come from the segment (processed once fell below committed and
# the rate counted events the earlier run committed).
on 1 "$PHOLD" $A --restart="$TMP/good" --stats-json="$TMP/seg.json" > "$TMP/log" 2>&1 || bad "restart: exit $?"
all=$(committed "$TMP/log")
seg=$(sed -n 's/^ *committed this segment  *\([0-9,]*\) (restarted from a checkpoint.*/\1/p' "$TMP/log" | tr -d ,)
proc=$(sed -n 's/^ *processed events  *\([0-9,]*\)$/\1/p' "$TMP/log" | tr -d ,)
js=$(sed -n 's/^  "committed_segment": \([0-9]*\),$/\1/p' "$TMP/seg.json")
if [ -n "$seg" ] && [ "$seg" -gt 0 ] && [ "$seg" -lt "$all" ] && [ "$proc" -ge "$seg" ] && [ "$js" = "$seg" ]; then
    ok "after --restart: $all committed in the whole run, $seg this segment, $proc processed"
else
    bad "after --restart: committed '$all', segment '$seg', processed '$proc', json '$js'"; grep committed "$TMP/log"
fi
exit $fail
