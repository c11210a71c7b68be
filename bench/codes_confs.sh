#!/bin/sh
# bench/codes_confs.sh CODES_DIR [WARPNET] — `warpnet convert codes` on every
# network conf a CODES checkout ships (src/network-workloads/conf/ and
# tests/conf/ with their sub-folders: *.conf and *.conf.in; run from the
# checkout, where CODES's relative wiring-file paths point), and each run
# file that converts run for 1 us of model time. Prints a Markdown table,
# file -> converted and runs / refused: the one line that says why, then a
# count. Skipped (exit 77) without a CODES checkout. docs/convert-codes.md
# holds its output for codes-org/codes.
codes=${1:-}
warpnet=${2:-${WARPNET:-tools/warpnet/warpnet}}
if [ -z "$codes" ] || [ ! -d "$codes/src/network-workloads/conf" ]; then
    echo "SKIP: give a CODES checkout (codes-org/codes) as the first argument"; exit 77
fi
[ -x "$warpnet" ] || { echo "usage: codes_confs.sh CODES_DIR [WARPNET]: $warpnet is not a program" >&2; exit 2; }
case $warpnet in /*) ;; *) warpnet=$PWD/$warpnet ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/codes_confs.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
conv=0 ran=0 ref=0
echo "| CODES file | result |"
echo "|---|---|"
# CODES opens the files a config names relative to the config's folder: run from the checkout
cd "$codes" || exit 2
here=$PWD # the converter writes wiring files' absolute paths: the table shows them from the checkout
for f in $(find src/network-workloads/conf tests/conf -type f \( -name '*.conf' -o -name '*.conf.in' \) | LC_ALL=C sort); do
    if timeout 60 "$warpnet" convert codes "$f" > "$tmp/run.ini" 2> "$tmp/err"; then
        conv=$((conv + 1))
        if timeout 300 "$warpnet" "$tmp/run.ini" --end=1us --quiet --out="$tmp/out" > "$tmp/log" 2>&1 \
            && grep -q "^conservation .*: ok" "$tmp/log"; then
            ran=$((ran + 1))
            echo "| \`$f\` | converted; runs ($(sed -n 's/^topology = \([a-z]*\).*/\1/p' "$tmp/run.ini")) |"
        else
            echo "| \`$f\` | converted; does not run: $(tail -1 "$tmp/log" | sed 's/|/\\|/g') |"
        fi
    else
        ref=$((ref + 1))
        why=$(tail -1 "$tmp/err" | sed -e "s|^warpnet: ||" -e "s|^$f: ||" -e "s|$here/||g" -e 's/|/\\|/g')
        echo "| \`$f\` | refused: $why |"
    fi
done
echo
echo "$((conv + ref)) confs: $conv converted ($ran of them run), $ref refused."
