# bench/lib.sh — sourced by the benchmark scripts (not one itself): where the
# sources and the build are, and the warpnet binary, stopping with the fix
# when it is not built. Sets here, top, build (WARPNET_BUILD, default
# _build) and warpnet (WARPNET=path runs another binary, a bundle's say);
# defines logged (a long command's output in a log, its progress on stderr).
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${WARPNET_BUILD:-$top/_build}
warpnet=${WARPNET:-$build/tools/warpnet/warpnet}
[ -x "$warpnet" ] || { echo "bench: build first (./quickstart build); no $warpnet" >&2; exit 1; }

# logged LOG COMMAND...: runs COMMAND with all its output in LOG, passing its
# progress lines ("PROG: sweep: ...", one per point) on to stderr as they
# come, so a sweep of many minutes shows it is alive. Returns its exit code.
logged() {
    _log=$1
    shift
    : >"$_log"
    { "$@" 2>&1; echo $? >"$_log.rc"; } | tee -a "$_log" | grep --line-buffered ': sweep: ' >&2
    _rc=$(cat "$_log.rc")
    rm -f "$_log.rc"
    return "$_rc"
}
