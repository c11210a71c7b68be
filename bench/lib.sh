# bench/lib.sh — sourced by the benchmark scripts (not one itself): where the
# sources and the build are, and the warpnet binary, stopping with the fix
# when it is not built. Sets here, top, build (WARPNET_BUILD, default
# _build) and warpnet (WARPNET=path runs another binary, a bundle's say).
here=$(cd "$(dirname "$0")" && pwd)
top=$(dirname "$here")
build=${WARPNET_BUILD:-$top/_build}
warpnet=${WARPNET:-$build/tools/warpnet/warpnet}
[ -x "$warpnet" ] || { echo "bench: build first (./quickstart build); no $warpnet" >&2; exit 1; }
