#!/bin/sh
# test_keys_declared.sh — every run-file key read anywhere is declared, and
# every declared key is read (issue 50):
#  - each getter call of models/ and tools/ (warp_ini_get, _string, _int,
#    ... with a literal key) names a key `warpnet keys --json` lists, in its
#    section when the call names the section (a literal or the file's
#    `#define SEC`), else in some section; reads through a variable key are
#    checked at run time instead (config/keys.c stops on an undeclared key
#    of a declared section: tests/engine/test_keys);
#  - each declared key (but [engine]'s, which the engine's option table
#    reads) appears as "KEY" somewhere in models/ or tools/ outside the
#    declaration tables.
. "${top_srcdir:-.}/tests/net/lib.sh"
SRC="${top_srcdir:-.}"

"$WARPNET" keys --json >"$TMP/keys.json" || { bad "warpnet keys --json exits $?"; exit 1; }
# "SECTION KEY" per declared key.
awk '/^ *\{"section": "/ { s = $0; sub(/^ *\{"section": "/, "", s); sub(/".*/, "", s) }
     /^ *\{"name": "/ { k = $0; sub(/.*"name": "/, "", k); sub(/".*/, "", k); print s, k }' \
    "$TMP/keys.json" | sort -u >"$TMP/declared"
[ "$(wc -l <"$TMP/declared")" -gt 100 ] || bad "warpnet keys --json lists only $(wc -l <"$TMP/declared") keys"

# "SECTION KEY" per getter call with a literal key; SECTION * when the call
# passes the section in a variable. Lines are joined so that calls split
# over lines are seen whole.
find "$SRC/models" "$SRC/tools" -name '*.c' | sort >"$TMP/files"
: >"$TMP/reads"
while read -r f; do
    sec_macro=$(sed -n 's/^#define SEC "\([^"]*\)".*/\1/p' "$f" | head -1)
    tr '\n' ' ' <"$f" |
        grep -oE 'warp_ini_(get|string|int|double|bool|choice|time_ns|bytes|bandwidth|length_m|int_list|where)\( *[a-z_>-]+ *, *[^,()]+ *, *"[A-Za-z_0-9]+"' |
        sed -E 's/^[a-z_]+\( *[a-z_>-]+ *, *([^,]+[^ ,]) *, *"([A-Za-z_0-9]+)"$/\1 \2/' |
        while read -r sec key; do
            case $sec in
            \"*\") sec=${sec#\"}; sec=${sec%\"} ;;
            SEC) sec=${sec_macro:-*} ;;
            *) sec='*' ;;
            esac
            echo "$sec $key ${f#"$SRC"/}"
        done >>"$TMP/reads"
done <"$TMP/files"
[ "$(wc -l <"$TMP/reads")" -gt 150 ] || bad "found only $(wc -l <"$TMP/reads") getter calls"

undeclared=0
while read -r sec key file; do
    if [ "$sec" = '*' ]; then
        grep -q " $key\$" "$TMP/declared" && continue
    else
        grep -qx "$sec $key" "$TMP/declared" && continue
        # a section read under a pattern's name (job.N)
        case $sec in job.*) grep -qx "job.N $key" "$TMP/declared" && continue ;; esac
    fi
    bad "$file reads [$sec] $key, which no table declares"
    undeclared=$((undeclared + 1))
done <"$TMP/reads"
[ $undeclared -eq 0 ] && echo "ok   every one of $(wc -l <"$TMP/reads") getter calls reads a declared key"

# Declared keys no source reads: the literal outside the declaration tables.
while read -r f; do grep -v 'WARP_KEY_' "$f"; done <"$TMP/files" >"$TMP/code"
unread=0
while read -r sec key; do
    [ "$sec" = engine ] && continue
    grep -qF "\"$key\"" "$TMP/code" && continue
    bad "[$sec] $key is declared but nothing reads it"
    unread=$((unread + 1))
done <"$TMP/declared"
[ $unread -eq 0 ] && echo "ok   every one of $(grep -vc '^engine ' "$TMP/declared") declared keys is read"
exit $fail
