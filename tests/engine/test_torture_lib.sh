# tests/engine/test_torture_lib.sh — shared by the rollback and determinism
# test scripts (sourced, not a test itself): runs a model, reduces its output
# to one comparable signature line, and compares signatures with messages
# that say what differed. Every run has a time limit, so a hang is a failure:
# RUN_LIMIT, 60 s unless a test sets its own. The 461 runs of make check's
# engine tests took 17 s at most (median 0.3 s) on 2 cores at a load
# average of 20 (TT_TIMES, below), so 60 s leaves room for ASan builds and
# a hang fails its test in about a minute.

: "${top_builddir:?run me from make check (top_builddir unset)}"
MPIEXEC=${MPIEXEC:-mpiexec}
TORTURE=$top_builddir/tests/engine/torture
PHOLD=$top_builddir/examples/phold/phold
RUN_LIMIT=${RUN_LIMIT:-60}
for prog in "$TORTURE" "$PHOLD"; do
    if [ ! -x "$prog" ]; then
        echo "SKIP: $prog is not built"
        exit 77
    fi
done
TT_DIR=$(mktemp -d "${TMPDIR:-/tmp}/warp-torture.XXXXXX") || exit 99
trap 'rm -rf "$TT_DIR"' EXIT
TT_OUT=$TT_DIR/last.out
failures=0

# run NP PROGRAM ARGS...: runs on NP ranks (NP 0: directly, no mpiexec) with
# a time limit; output in $TT_OUT, exit status in $TT_RC. After one run
# hangs the others are not started (they would most likely hang too, one
# limit each: a hang took 20 minutes to report): each returns 124 at once,
# and finish fails the test. TT_TIMES=FILE appends each run's seconds and
# command line to FILE (how the limits were fitted).
run() {
    np=$1
    shift
    if [ -e "$TT_DIR/hung" ]; then
        echo "not run: an earlier run hung: $(cat "$TT_DIR/hung")" >"$TT_OUT"
        TT_RC=124
        return
    fi
    tt_t0=$(date +%s%N)
    if [ "$np" = 0 ]; then
        timeout -k 10 "$RUN_LIMIT" "$@" >"$TT_OUT" 2>&1
    else
        timeout -k 10 "$RUN_LIMIT" "$MPIEXEC" -n "$np" "$@" >"$TT_OUT" 2>&1
    fi
    TT_RC=$?
    if [ -n "${TT_TIMES:-}" ]; then
        echo "$((($(date +%s%N) - tt_t0) / 1000000)) ms $(basename "$0") np=$np $*" >>"$TT_TIMES"
    fi
    case $TT_RC in
    124 | 137) echo "no end after ${RUN_LIMIT}s on $np rank(s): $*" >"$TT_DIR/hung" ;;
    esac
}

# run_failing NP PROGRAM ARGS...: run, for a run expected to stop with an
# error: its exit() leaves memory behind on purpose, so a sanitizer build
# must not turn the exit code into a leak report's.
run_failing() {
    tt_asan=${ASAN_OPTIONS-}
    ASAN_OPTIONS="${tt_asan:+$tt_asan:}detect_leaks=0"
    export ASAN_OPTIONS
    run "$@"
    ASAN_OPTIONS=$tt_asan
}

# sig NP PROGRAM ARGS...: prints "digest D committed C [model summary]" of a
# run that must exit 0; on any other exit prints "exit N: last line".
sig() {
    run "$@"
    if [ "$TT_RC" != 0 ]; then
        [ "$TT_RC" = 124 ] && echo "exit 124 (no end after ${RUN_LIMIT}s: a hang)" && return
        echo "exit $TT_RC: $(grep -v '^ ' "$TT_OUT" | tail -n 1)"
        { echo "--- output of the failed run: $*"; tail -n 20 "$TT_OUT"; echo "---"; } >&2
        return
    fi
    d=$(sed -n 's/^  committed digest: //p' "$TT_OUT")
    c=$(sed -n 's/^  committed events  *//p' "$TT_OUT" | tr -d ,)
    m=$(sed -n 's/^torture: //p' "$TT_OUT")
    echo "digest ${d:-MISSING} committed ${c:-MISSING}${m:+ $m}"
}

# stat NAME: a number from the statistics table of the last run.
stat() {
    sed -n "s/^  $1  *//p" "$TT_OUT" | tr -d , | awk '{print $1}'
}

# same WHAT EXPECTED ACTUAL: counts a failure when the signatures differ.
same() {
    if [ "$2" != "$3" ]; then
        echo "FAIL: $1"
        echo "  expected (seq): $2"
        echo "  actual:         $3"
        failures=$((failures + 1))
    fi
}

# fail MESSAGE: counts a failure.
fail() {
    echo "FAIL: $*"
    failures=$((failures + 1))
}

# finish NAME: the script's verdict.
finish() {
    if [ -e "$TT_DIR/hung" ]; then
        echo "FAIL: a run hung, $(cat "$TT_DIR/hung"); the runs after it were not started"
        failures=$((failures + 1))
    fi
    if [ "$failures" != 0 ]; then
        echo "$1: $failures failure(s)"
        exit 1
    fi
    echo "$1: all passed"
    exit 0
}

# is_sig SIGNATURE: true for the signature of a completed run.
is_sig() {
    case $1 in digest\ [0-9a-f]*) return 0 ;; esac
    return 1
}
