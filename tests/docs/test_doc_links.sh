#!/bin/sh
# test_doc_links.sh — every relative link of README.md, docs/*.md and the
# models' and examples' READMEs names a file or folder of the source tree
# (issue 50: the README's sections moved into docs/, and a moved page's links
# are relative to its new folder), and README.md stays a front page of at
# most 250 lines.
set -u
S=$(cd "${top_srcdir:-.}" && pwd)
fail=0 n=0
for f in "$S"/README.md "$S"/docs/*.md "$S"/models/*/README.md "$S"/models/*/*.md "$S"/examples/*/README.md "$S"/bench/RESULTS.md; do
    [ -f "$f" ] || continue
    dir=$(dirname "$f")
    # ](target) outside code spans; anchors and URLs are not files.
    for t in $(sed 's/`[^`]*`//g' "$f" | grep -o '](\([^)]*\))' | sed 's/^](\(.*\))$/\1/' | sed 's/#.*//'); do
        case $t in http*|mailto:*|'') continue ;; esac
        n=$((n + 1))
        [ -e "$dir/$t" ] || { echo "FAIL ${f#"$S"/}: link to $t: no such file"; fail=1; }
    done
done
[ $n -ge 50 ] || { echo "FAIL only $n links found"; fail=1; }
lines=$(wc -l < "$S/README.md")
[ "$lines" -le 250 ] || { echo "FAIL README.md has $lines lines: the front page stays under 250 (move detail to docs/)"; fail=1; }
echo "$n links checked, README.md $lines lines"
exit $fail
