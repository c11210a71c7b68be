# tests/checkpoint/lib.sh — shared by the checkpoint tests: the programs,
# a scratch directory, and runs that cannot hang. Runs use `timeout -k`:
# with --checkpoint the first TERM asks for a checkpoint, so a hung run
# must still be killed.
PHOLD="${top_builddir:-.}/examples/phold/phold"
WARPNET="${top_builddir:-.}/tools/warpnet/warpnet"
MPI="${MPIEXEC:-}"
[ -x "$PHOLD" ] && [ -x "$WARPNET" ] || { echo "SKIP: programs not built"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpnet-ckpt.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
ok() { echo "ok   $*"; }

# on NP PROGRAM ARGS...: PROGRAM on NP ranks (NP 1 without mpiexec).
on() {
    _np=$1; shift
    if [ "$_np" = 1 ]; then timeout -k 10 300 "$@"
    elif [ -n "$MPI" ]; then timeout -k 10 300 $MPI -n "$_np" "$@"
    else return 77; fi
}
digest() { sed -n 's/.*committed digest: //p' "$1"; }

# procs_below PID NAME: the processes named NAME below PID (timeout ->
# mpiexec -> proxy -> ranks), in pid order. Only this test's own: other
# worktrees run the same commands on the machine at the same time.
procs_below() {
    ps -eo pid=,ppid=,comm= | awk -v root="$1" -v name="$2" '{ up[$1] = $2; comm[$1] = $3 }
        END { for (p in up) if (comm[p] == name) {
                  q = p; while (q in up && q != root && q > 1) q = up[q]
                  if (q == root) print p } }' | sort -n
}
committed() { sed -n 's/^ *committed events  *\([0-9,]*\)$/\1/p' "$1" | tr -d ,; }

# same_results REF DIR: the result files of two --out directories agree
# (summary.json without its engine part, every CSV but the engine's).
same_results() {
    for f in "$1"/*; do
        b=$(basename "$f")
        case $b in engine*|run.txt) continue ;; esac  # run.txt: the run id and command line
        if [ "$b" = summary.json ]; then
            sed '/"engine"/,$d' "$f" > "$TMP/a.json"
            sed '/"engine"/,$d' "$2/$b" > "$TMP/b.json" 2>/dev/null
            cmp -s "$TMP/a.json" "$TMP/b.json" || { echo "  $b differs"; return 1; }
        else
            cmp -s "$f" "$2/$b" || { echo "  $b differs"; return 1; }
        fi
    done
    d1=$(sed -n 's/.*"committed_digest": "\([0-9a-f]*\)".*/\1/p' "$1/summary.json")
    d2=$(sed -n 's/.*"committed_digest": "\([0-9a-f]*\)".*/\1/p' "$2/summary.json")
    [ -n "$d1" ] && [ "$d1" = "$d2" ] || { echo "  digest $d2, want $d1"; return 1; }
}
