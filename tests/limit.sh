# tests/limit.sh — sourced by the test scripts (directly or through their
# lib.sh): every program a test runs gets a time limit per run, so that a
# broken engine (a deadlock, ranks ignoring SIGTERM) fails the suite instead
# of hanging it. Scripts wrap each program once, after checking it exists:
#     W=$(limited "$W")
# and every later "$W ..." (also under mpiexec, once per rank) runs under
# `timeout`: SIGTERM after WARP_TEST_TIMEOUT seconds (default 300), SIGKILL
# 10 s later; the run then exits 124 or 137 and the test fails.

# limited PROGRAM: the path of a wrapper script that runs PROGRAM (given by
# any path) under the limit; kept in the build tree's tests/.limited/.
limited() {
    _lim_dir="${top_builddir:-.}/tests/.limited"
    mkdir -p "$_lim_dir" || { echo "$1"; return; }
    _lim_abs=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
    _lim_dir=$(cd "$_lim_dir" && pwd)
    _lim_sum=$(printf '%s' "$_lim_abs" | cksum | cut -d' ' -f1)
    _lim_w="$_lim_dir/$(basename "$1")-$_lim_sum"
    # Written whole, then renamed: tests run in parallel.
    printf '#!/bin/sh\nexec timeout -k 10 "${WARP_TEST_TIMEOUT:-300}" "%s" "$@"\n' "$_lim_abs" \
        > "$_lim_w.$$" && chmod +x "$_lim_w.$$" && mv -f "$_lim_w.$$" "$_lim_w"
    echo "$_lim_w"
}
