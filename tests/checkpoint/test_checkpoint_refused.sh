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

# A directory with other files in the way of DIR.tmp is left alone.
mkdir -p "$TMP/w.tmp"; echo mine > "$TMP/w.tmp/notes.txt"
refused "DIR.tmp holds other files" "no checkpoint file" $A --checkpoint="$TMP/w" --checkpoint-at=50
[ -f "$TMP/w.tmp/notes.txt" ] && ok "the user's file stays" || bad "the user's file in DIR.tmp was removed"
exit $fail
