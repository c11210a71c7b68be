#!/bin/sh
# test_man.sh — warpnet(1) and warpnet-trace(1) are built from the programs'
# --help: each has a NAME and SYNOPSIS, every option --help lists appears as
# an option paragraph whose tag holds the option alone, warpnet(1) names
# every exit code of docs/errors.md, and groff formats them without warnings.
set -u
B="${top_builddir:-.}"
fail=0
check() { # PROGRAM PAGE
    [ -s "$2" ] || { echo "FAIL $2 not built"; fail=1; return; }
    for s in '^\.TH ' '^\.SH NAME' '^\.SH SYNOPSIS' '^\.SH EXIT STATUS'; do
        grep -q "$s" "$2" || { echo "FAIL $2: no $s"; fail=1; }
    done
    n=0
    for opt in $(timeout -k 10 300 "$1" --help 2>&1 | sed -n 's/^  *\(--[a-z][a-z-]*\).*/\1/p'); do
        roff=$(printf '%s' "$opt" | sed 's/-/\\\\-/g')
        grep -q "^\\\\fB$roff" "$2" || { echo "FAIL $2: option $opt missing"; fail=1; }
        n=$((n + 1))
    done
    # A tag (the line after .TP) is the option and its argument alone (issue
    # 53: four long options took their text into the tag).
    tags=$(awk 'prev == ".TP" && / / { print } { prev = $0 }' "$2")
    [ -n "$tags" ] && { echo "FAIL $2: options run into their text:"; printf '%s\n' "$tags"; fail=1; }
    [ $n -gt 3 ] && echo "ok   $(basename "$2"): $n options of --help" || { echo "FAIL $1 --help: $n options"; fail=1; }
    if command -v groff > /dev/null; then
        w=$(groff -man -Tutf8 -ww "$2" 2>&1 > /dev/null)
        [ -z "$w" ] && echo "ok   groff formats $(basename "$2")" || { echo "FAIL groff: $w"; fail=1; }
    fi
}
check "$B/tools/warpnet/warpnet" "$B/tools/man/warpnet.1"
# warpnet(1) names every exit code of docs/errors.md's table (6 was missing).
status=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH SEE/p' "$B/tools/man/warpnet.1" | tr '\n' ' ')
codes=$(sed -n '/^## Exit codes/,/^## /s/^| \([0-9]\) | .*/\1/p' "${top_srcdir:-.}/docs/errors.md")
[ "$(echo $codes | wc -w)" -ge 7 ] || { echo "FAIL docs/errors.md: the exit-code table not found (codes: $codes)"; fail=1; }
for code in $codes; do
    case " $status" in *[\ \;]"$code "*) ;; *) echo "FAIL warpnet.1: exit code $code missing from EXIT STATUS"; fail=1 ;; esac
done
check "$B/tools/trace/warpnet-trace" "$B/tools/man/warpnet-trace.1"
exit $fail
