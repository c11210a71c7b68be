#!/bin/sh
# The fault drill (make check-long; docs/checkpoint.md): a 2-rank optimistic
# Slim Fly run checkpointing every second of wall time loses one rank to
# SIGKILL mid-run, after its checkpoint was replaced at least once; the job
# is restarted from the last checkpoint on 1 and on 3 ranks, and each
# restart ends with the uninterrupted run's committed digest and result
# files. DRILL_END (default 300us) sets the model end time: the run must
# outlast two checkpoints (about 12 s on 2 idle cores at the default).
. "${top_srcdir:-.}/tests/checkpoint/lib.sh"
[ -n "$MPI" ] || { echo "SKIP: the drill needs mpiexec"; exit 77; }
END=${DRILL_END:-300us}
sed "s/^end = .*/end = $END/" "${top_srcdir:-.}/examples/configs/slimfly-q5.ini" > "$TMP/drill.ini"

inode() { ls -id "$1" 2>/dev/null | awk '{print $1}'; }

on 2 "$WARPNET" --quiet "$TMP/drill.ini" --out="$TMP/ref" > "$TMP/ref.log" 2>&1 ||
    { bad "the uninterrupted 2-rank run exits $?"; tail -5 "$TMP/ref.log"; exit 1; }
want=$(sed -n 's/.*"committed_digest": "\([0-9a-f]*\)".*/\1/p' "$TMP/ref/summary.json")
ok "uninterrupted on 2 ranks: digest $want"

# The job to kill: the per-run limit still applies (a hang fails).
timeout -k 10 300 $MPI -n 2 "$WARPNET" --quiet "$TMP/drill.ini" --checkpoint="$TMP/ck" \
    --checkpoint-every=1s --out="$TMP/killed" > "$TMP/killed.log" 2>&1 &
job=$!
first="" killed=""
while kill -0 "$job" 2>/dev/null; do
    i=$(inode "$TMP/ck/meta")
    if [ -z "$first" ]; then
        first=$i
    elif [ -n "$i" ] && [ "$i" != "$first" ]; then # a second checkpoint replaced the first
        set -- $(procs_below "$job" warpnet)
        if [ $# = 2 ]; then
            kill -KILL "$2" && killed=$2
            break
        fi
    fi
    sleep 0.2
done
wait "$job"
rc=$?
if [ -z "$killed" ]; then
    bad "the job ended (exit $rc) before a rank could be killed after two checkpoints: raise DRILL_END"
    tail -3 "$TMP/killed.log"
    exit 1
fi
[ "$rc" != 0 ] || bad "the job with a SIGKILLed rank exits 0"
[ ! -e "$TMP/killed/summary.json" ] || bad "the killed job wrote results"
[ -f "$TMP/ck/meta" ] || { bad "no whole checkpoint left after the kill"; ls -la "$TMP"; exit 1; }
ok "rank process $killed SIGKILLed after two checkpoints; the job exits $rc:"
grep -v '^ *$' "$TMP/killed.log" | tail -n 4 | sed 's/^/     /'

for np in 1 3; do
    on $np "$WARPNET" --quiet "$TMP/drill.ini" --restart="$TMP/ck" --out="$TMP/r$np" > "$TMP/r$np.log" 2>&1 ||
        { bad "restart on $np rank(s) exits $?"; tail -5 "$TMP/r$np.log"; continue; }
    if same_results "$TMP/ref" "$TMP/r$np"; then
        ok "restarted on $np rank(s): digest $want and the result files of the uninterrupted run"
    else
        bad "restarted on $np rank(s): results differ from the uninterrupted run's"
    fi
done
exit $fail
