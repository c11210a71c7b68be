# tests/arch/lib.sh — sourced by the arch tests, which plant breaches in a
# copy of the tree and check that their checker names each one.
# expect_found OUT COUNT PATTERN...: each PATTERN matches a line of OUT and
# OUT has COUNT lines (nothing else was reported); else sets fail=1.
expect_found() {
    _out=$1 _count=$2
    shift 2
    for _want in "$@"; do
        if printf '%s\n' "$_out" | grep -q -- "$_want"; then
            echo "ok   found: $_want"
        else
            echo "FAIL not found: $_want"; fail=1
        fi
    done
    _n=$(printf '%s\n' "$_out" | grep -c .)
    [ "$_n" = "$_count" ] || { echo "FAIL $_n findings for $_count planted:"; printf '%s\n' "$_out"; fail=1; }
}
