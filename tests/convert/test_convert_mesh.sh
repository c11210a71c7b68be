#!/bin/sh
# test_convert_mesh.sh — CODES's express mesh with gap = 1 converts to a
# HyperX: --describe gives the routers, nodes and links CODES's
# express-mesh.cxx computes (each router has 2 + (length-3)/gap links per
# dimension; links = routers * that sum / 2), bandwidths in GiB/s, and the
# run file runs; gap > 1 (express links beside a mesh) stops, naming it.
. "${top_srcdir:-.}/tests/net/lib.sh"
C="${top_srcdir:-.}/tests/convert/codes"
desc() { sed -n "s/^$2: //p" "$1"; }

timeout 30 "$WARPNET" convert codes "$C/express-mesh-4x4.conf" > "$TMP/em.ini" 2> "$TMP/em.err" \
    || { bad "convert exits $?: $(cat "$TMP/em.err")"; exit 1; }
grep -q "^routing = dal " "$TMP/em.ini" || bad "routing = adaptive is not dal"
timeout 60 "$WARPNET" --describe "$TMP/em.ini" > "$TMP/em.desc" 2>&1 || bad "--describe: $(tail -2 "$TMP/em.desc")"
links=$(awk 'BEGIN { n = split("4,4", L, ","); r = 1; s = 0
    for (i = 1; i <= n; i++) { r *= L[i]; s += 2 + int((L[i] - 3) / 1) } print r * s / 2 }')
[ "$(desc "$TMP/em.desc" routers)" = 16 ] && [ "$(desc "$TMP/em.desc" nodes)" = 32 ] \
    && [ "$(desc "$TMP/em.desc" router_links)" = "$links" ] \
    && echo "ok   express mesh: 16 routers, 32 nodes, $links links as CODES's" \
    || bad "express mesh: $(grep -E '^(routers|nodes|router_links):' "$TMP/em.desc" | tr '\n' ' ') (CODES: 16, 32, $links)"
gib=$(awk 'BEGIN { printf "%g", 12.5 * 1073741824 / 1e9 }')
[ "$(desc "$TMP/em.desc" terminal_links_GBps)" = "$gib x 32" ] && echo "ok   express mesh: GiB/s" \
    || bad "express mesh terminal links: $(desc "$TMP/em.desc" terminal_links_GBps), want $gib x 32"
timeout 120 "$WARPNET" "$TMP/em.ini" --end=2us --quiet --out="$TMP/o" > "$TMP/log" 2>&1 \
    && grep -q "^conservation .*: ok" "$TMP/log" && echo "ok   express mesh runs" || bad "does not run: $(tail -2 "$TMP/log")"
sed 's/gap="1"/gap="2"/' "$C/express-mesh-4x4.conf" > "$TMP/gap2.conf"
refused "express mesh gap 2" "gap = 2: an express mesh with gap > 1.*no Warpnet equivalent" \
    "$WARPNET" convert codes "$TMP/gap2.conf"
exit $fail
