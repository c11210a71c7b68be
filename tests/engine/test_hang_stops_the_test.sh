#!/bin/sh
# A hang fails an engine test in one per-run limit, not one per run: the
# engine tests' shared runner (test_torture_lib.sh) starts no run after one
# ran out of time (a hanging engine mutant once took 20 minutes to report,
# 120 s for each of 10 seeds), and the test fails naming the run. Planted
# here: test_rollback_debug_check_match_seq.sh on three seeds against a
# build tree whose torture and PHOLD never end, with a 2 s limit; the
# programs count their starts.
set -u
T="${top_srcdir:-.}/tests/engine/test_rollback_debug_check_match_seq.sh"
TMP=$(mktemp -d "${TMPDIR:-/tmp}/warp-hang.XXXXXX") || exit 99
trap 'rm -rf "$TMP"' EXIT
mkdir -p "$TMP/tests/engine" "$TMP/examples/phold"
for p in tests/engine/torture examples/phold/phold; do
    printf '#!/bin/sh\necho started >> "%s/starts"\nexec sleep 600\n' "$TMP" > "$TMP/$p"
    chmod +x "$TMP/$p"
done
top_builddir=$TMP RUN_LIMIT=2 SEEDS="1 2 3" sh "$T" > "$TMP/out" 2>&1
rc=$?
starts=$(wc -l < "$TMP/starts")
fail=0
[ "$rc" != 0 ] || { echo "FAIL: the test exits 0 although its runs hang"; fail=1; }
[ "$starts" = 1 ] || { echo "FAIL: $starts runs started; after the first hang none should"; fail=1; }
grep -q '^FAIL: a run hung, no end after 2s on 0 rank(s): .*torture.*; the runs after it were not started' "$TMP/out" ||
    { echo "FAIL: no line naming the hung run"; fail=1; }
[ $fail = 0 ] && echo "ok   a hang fails the test (exit $rc) after 1 run, naming it"
[ $fail = 0 ] || cat "$TMP/out"
exit $fail
