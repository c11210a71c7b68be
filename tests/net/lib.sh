# tests/net/lib.sh — shared helpers of the network integration tests:
# run warpnet on a generated run file and read numbers from summary.json.
WARPNET="${top_builddir:-.}/tools/warpnet/warpnet"
# Sanitizer builds: MPICH's MPI_Init leaks about 1 KB from frames LeakSanitizer
# cannot name (so no suppression matches), which would turn every run's exit
# status into 23. Leak-check warpnet by hand instead (ASAN_OPTIONS=detect_leaks=1).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
if [ ! -x "$WARPNET" ]; then
    echo "SKIP: $WARPNET not built"; exit 77
fi
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpnet-test.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
fail=0

# json FILE KEY [SUBKEY]: the number at "KEY": (or "KEY": {... "SUBKEY": ...}).
json() {
    if [ -n "$3" ]; then
        sed -n "s/.*\"$2\": {[^}]*\"$3\": \([-0-9.eE+]*\).*/\1/p" "$1"
    else
        sed -n "s/.*\"$2\": \"\{0,1\}\([-0-9a-fA-F.eE+]*\)\"\{0,1\}[,}]\{0,1\}\$/\1/p" "$1" | head -1
    fi
}

# close NAME GOT WANT [TOL]: |got - want| <= tol (default 1e-9 relative).
close() {
    if awk -v g="$2" -v w="$3" -v t="${4:-1e-9}" 'BEGIN { d = g - w; if (d < 0) d = -d;
            s = w < 0 ? -w : w; exit !(d <= t * (s > 1 ? s : 1)) }'; then
        echo "ok   $1: $2"
    else
        echo "FAIL $1: got $2, want $3"; fail=1
    fi
}
