#!/bin/sh
# test_golden_fails_broken.sh — the golden test must fail when a program it
# runs fails: it once marked a failed run inside a $(...) subshell and, with
# a warpnet that aborted on every run, printed its 16 --describe and PHOLD
# "ok" lines and exited 0. Here test_golden.sh runs against a build tree
# whose warpnet aborts (SIGABRT, as a crash does) on every simulation run
# but answers --describe, and whose phold is the real one: it must exit
# non-zero, name the aborted runs, and call none of them ok.
set -u
B=$(cd "${top_builddir:-.}" && pwd)
G="${top_srcdir:-.}/tests/golden/test_golden.sh"
[ -x "$B/tools/warpnet/warpnet" ] && [ -x "$B/examples/phold/phold" ] ||
    { echo "SKIP: warpnet or phold not built"; exit 77; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warpnet-golden-broken.XXXXXX")
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/tools/warpnet" "$TMP/examples/phold"
cat > "$TMP/tools/warpnet/warpnet" <<WRAP
#!/bin/sh
for a; do [ "\$a" = --describe ] && exec "$B/tools/warpnet/warpnet" "\$@"; done
kill -ABRT \$\$
WRAP
chmod +x "$TMP/tools/warpnet/warpnet"
ln -s "$B/examples/phold/phold" "$TMP/examples/phold/phold"
top_builddir=$TMP sh "$G" > "$TMP/out" 2>&1
rc=$?
fail=0
[ "$rc" != 0 ] && [ "$rc" != 77 ] || { echo "FAIL: the golden test exits $rc with a warpnet that aborts"; fail=1; }
n=$(grep -c '^FAIL .* on [12]: warpnet exits' "$TMP/out")
[ "$n" -gt 0 ] || { echo "FAIL: no aborted warpnet run is reported"; fail=1; }
ok=$(grep '^ok ' "$TMP/out" | grep -v -e '--describe$' -e '^ok   phold ' | wc -l)
[ "$ok" = 0 ] || { echo "FAIL: $ok aborted run(s) reported ok"; grep '^ok ' "$TMP/out"; fail=1; }
[ $fail = 0 ] && echo "ok   the golden test exits $rc and reports $n aborted warpnet runs"
[ $fail = 0 ] || tail -n 20 "$TMP/out"
exit $fail
