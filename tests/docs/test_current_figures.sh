#!/bin/sh
# test_current_figures.sh — bench/RESULTS.md's generated "Current figures"
# tables agree with the CSVs in bench/results/ (issue 50, item 5):
# bench/current.py --check passes on the tree, and fails on a copy whose CSV
# was changed behind the tables' back (so the check can fail).
set -u
S=$(cd "${top_srcdir:-.}" && pwd)
command -v python3 > /dev/null || { echo "SKIP: python3 runs bench/current.py"; exit 77; }
tmp=$(mktemp -d /tmp/warpnet-current.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
if python3 "$S/bench/current.py" --check; then
    echo "ok   bench/RESULTS.md's current figures match bench/results/*.csv"
else
    echo "FAIL bench/RESULTS.md's current figures are stale: run bench/current.py --write"; fail=1
fi
mkdir "$tmp/bench"
cp -r "$S/bench/current.py" "$S/bench/RESULTS.md" "$S/bench/results" "$tmp/bench/"
chmod -R u+w "$tmp/bench"
# One figure moves: the 16-rank speed-up of the first scenario.
awk -F, 'BEGIN { OFS = "," } $3 == 16 && $2 == "opt" && !done { $9 = "99.999"; done = 1 } { print }' \
    "$S/bench/results/scaling.csv" > "$tmp/bench/results/scaling.csv"
if python3 "$tmp/bench/current.py" --check 2> /dev/null; then
    echo "FAIL --check passed with a changed scaling.csv"; fail=1
else
    echo "ok   --check fails when a CSV changes"
fi
python3 "$tmp/bench/current.py" --write && python3 "$tmp/bench/current.py" --check &&
    grep -q '99.999\|100.00x' "$tmp/bench/RESULTS.md" && echo "ok   --write brings the tables back in line" ||
    { echo "FAIL --write did not update the tables"; fail=1; }
exit $fail
