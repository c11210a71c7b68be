#!/bin/sh
# test_readme_replay.sh — every command of docs/replay.md's "A first
# replay" block (once the README's) works in a plain clone (issue 13: they needed
# ../shared/traces): each runs from the source tree with _build/ replaced by
# the build tree and exits 0; the traces they read ship in examples/traces.
# The shipped stencil's replay completes every task.
set -u
S="${top_srcdir:-.}"
B=$(cd "${top_builddir:-.}" && pwd)
[ -x "$B/tools/warpnet/warpnet" ] || { echo "SKIP: warpnet not built"; exit 77; }
tmp=$(mktemp -d /tmp/warpnet-readme-replay.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
awk '/^## A first replay/ { f = 1; next } f && /^```/ { if (b) exit; b = 1; next } b' \
    "$S/docs/replay.md" > "$tmp/cmds"
[ "$(grep -c . "$tmp/cmds")" -ge 4 ] || { echo "FAIL: docs/replay.md: the first replay block not found"; exit 1; }
while IFS= read -r line; do
    cmd=$(printf '%s\n' "$line" | sed -e 's/ *#.*//' -e "s|_build/|$B/|g" -e "s| -o \([^ ]*\)| -o $tmp/\1|")
    [ -n "$cmd" ] || continue
    # shellcheck disable=SC2086
    if (cd "$S" && timeout 300 $cmd) > "$tmp/log" 2>&1; then
        echo "ok   $line"
    else
        echo "FAIL ($?): $line"; tail -3 "$tmp/log"; fail=1
    fi
    case $cmd in *replay-jacobi-torus.ini*)
        grep -q '^  tasks *2240 of 2240$' "$tmp/log" || { echo "FAIL: shipped stencil: $(grep 'tasks ' "$tmp/log")"; fail=1; } ;;
    esac
done < "$tmp/cmds"
exit $fail
