# tests/net/lib.sh — shared helpers of the network integration tests:
# run warpnet on a generated run file and read numbers from summary.json.
WARPNET="${top_builddir:-.}/tools/warpnet/warpnet"
if [ ! -x "$WARPNET" ]; then
    echo "SKIP: $WARPNET not built"; exit 77
fi
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
WARPNET=$(limited "$WARPNET")
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

# bad MESSAGE: reports a failure.
bad() { echo "FAIL: $*"; fail=1; }

# accepted NAME ARGS...: the accepted load of warpnet ARGS (a run file and
# its options) at 100 % offered load, measured from 10 us to 30 us.
accepted() {
    name=$1; shift
    "$WARPNET" --quiet --workload.load=1.0 --end=30us --workload.warmup=10us "$@" \
        > "$TMP/$name" 2>&1 || { echo "$name exits $?:" >&2; cat "$TMP/$name" >&2; return; }
    sed -n 's/^accepted load *\([0-9.]*\).*/\1/p' "$TMP/$name"
}

# within NAME GOT LOW HIGH: LOW <= GOT <= HIGH (an accepted load).
within() {
    if awk -v g="$2" -v l="$3" -v h="$4" 'BEGIN { exit !(g != "" && g >= l && g <= h) }'; then
        echo "ok   $1: accepted $2 in [$3, $4]"
    else
        echo "FAIL $1: accepted '$2', not in [$3, $4]"; fail=1
    fi
}

# result FILE: the committed digest and the network summary of a run's
# output, what must not depend on the mode or the number of ranks.
result() { sed -n -e '/committed digest/p' -e '/^== warpnet:/,$p' "$1"; }

# refused NAME PATTERN COMMAND...: COMMAND must stop with exit code 2 and one
# line that contains PATTERN (a configuration error naming what is wrong).
refused() {
    name=$1 pat=$2; shift 2
    "$@" > "$TMP/log" 2>&1
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l < "$TMP/log")" -eq 1 ] && grep -q -- "$pat" "$TMP/log"; then
        echo "ok   $name: $(cat "$TMP/log")"
    else
        echo "FAIL $name: exit $rc, output:"; cat "$TMP/log"; fail=1
    fi
}

# same_everywhere LABEL "RUNS" ARGS...: runs warpnet ARGS once per word of
# RUNS (seq, check or debug: --synch=that on one process; optN or consN:
# --synch=opt or cons on N processes under ${MPIEXEC:-mpiexec}); each must exit 0 and print an
# ok conservation line and a digest, and all must print the first one's
# digest and network summary, which stays in $TMP/same.res.
same_everywhere() {
    label=$1 runs=$2; shift 2
    first=""
    for run in $runs; do
        case $run in
        opt*) timeout 300 ${MPIEXEC:-mpiexec} -n "${run#opt}" "$WARPNET" "$@" --synch=opt ;;
        cons*) timeout 300 ${MPIEXEC:-mpiexec} -n "${run#cons}" "$WARPNET" "$@" --synch=cons ;;
        *) timeout 300 "$WARPNET" "$@" --synch="$run" ;;
        esac >"$TMP/$run.out" 2>&1 || { bad "$label $run exits $?"; tail -5 "$TMP/$run.out"; continue; }
        result "$TMP/$run.out" >"$TMP/$run.res"
        grep -q "^conservation .*: ok" "$TMP/$run.res" || bad "$label $run: conservation fails"
        grep -q "committed digest" "$TMP/$run.res" || bad "$label $run: no digest printed"
        if [ -z "$first" ]; then
            first=$run
            cp "$TMP/$run.res" "$TMP/same.res"
        elif ! cmp -s "$TMP/same.res" "$TMP/$run.res"; then
            bad "$label: $run differs from $first"
            diff "$TMP/same.res" "$TMP/$run.res" | head -10
        fi
    done
}

# small_torus FILE: a short run of a 4x3x2 torus under uniform traffic at
# 0.6 load, every router and link busy (a few hundred ms of run time).
small_torus() {
    cat >"$1" <<'INI'
[engine]
end = 3us
[network]
topology = torus
[torus]
dims = 4,3,2
[workload]
type = traffic
load = 0.6
INI
}

# small_fattree FILE [END [WORKLOAD]]: the same short run on a 4-port
# 3-tree (16 nodes, 20 switches); END (default 3us) and the lines of the
# [workload] section onwards (default: uniform traffic at 0.6 load) may be
# given.
small_fattree() {
    cat >"$1" <<INI
[engine]
end = ${2:-3us}
[network]
topology = fattree
[fattree]
ports = 4
levels = 3
[workload]
${3:-type = traffic
load = 0.6}
INI
}
