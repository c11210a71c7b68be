#!/bin/sh
# test_convert_fattree.sh — CODES's pruned (Summit), dual-plane and tapered
# dual-plane fat-trees convert: --describe gives the nodes, switches and
# switch links that CODES's fattree_read_config computes (redone here in
# awk from switch_radix, switch_count, tapering and num_rails), the rails
# become planes with CODES's rail selection, each run file runs, and the
# shipped CODES run files describe the same trees. A tree CODES itself
# rejects (tapering + 1 not dividing the radix) stays refused.
. "${top_srcdir:-.}/tests/net/lib.sh"
C="${top_srcdir:-.}/tests/convert/codes"
D="${top_srcdir:-.}/examples/configs"
val() { sed -n "s/^[ 	]*$2[ 	]*=[ 	]*\"\([^\"]*\)\".*/\1/p" "$1" | head -1; }
desc() { sed -n "s/^$2: //p" "$1"; }

# CODES's counts: t = tapering + 1; a leaf has (t-1)k/t nodes and k/t
# parents; pods = leaves / (k/2); rep = k / pods, lowered until it divides
# k/t; top switches (k/t / rep) * k/2; all of it once per rail.
codes_counts() { # CONF -> "nodes routers switch_links"
    awk -v k="$(val "$1" switch_radix)" -v l0="$(val "$1" switch_count)" \
        -v tp="$(val "$1" tapering)" -v rails="$(val "$1" num_rails)" 'BEGIN {
        t = (tp == "" ? 1 : tp) + 1; r = (rails == "" ? 1 : rails)
        per = (t - 1) * (k / t); up = k / t; pods = l0 / (k / 2)
        rep = int(k / pods); while (up % rep) rep--
        l1 = pods * up; l2 = (up / rep) * (k / 2)
        printf "%d %d %d\n", l0 * per, r * (l0 + l1 + l2), r * (l0 * up + l1 * k / 2) }'
}

for name in fattree-summit fattree-dual-plane fattree-dual-plane-tapered; do
    conf="$C/$name.conf"
    timeout 30 "$WARPNET" convert codes "$conf" > "$TMP/$name.ini" 2> "$TMP/$name.err" \
        || { bad "$name: convert exits $?: $(cat "$TMP/$name.err")"; continue; }
    timeout 60 "$WARPNET" --describe "$TMP/$name.ini" > "$TMP/$name.desc" 2>&1 \
        || { bad "$name: --describe: $(tail -2 "$TMP/$name.desc")"; continue; }
    set -- $(codes_counts "$conf")
    got="$(desc "$TMP/$name.desc" nodes) $(desc "$TMP/$name.desc" routers) $(desc "$TMP/$name.desc" router_links_GBps | sed 's/.* x //')"
    [ "$got" = "$1 $2 $3" ] && echo "ok   $name: $1 nodes, $2 switches, $3 switch links as CODES's" \
        || bad "$name: nodes, switches, switch links $got; CODES: $1 $2 $3"
    for key in $(sed -n '/^PARAMS/,$ s/^[ 	]*\([A-Za-z_][A-Za-z0-9_-]*\)[ 	]*=.*/\1/p' "$conf"); do
        grep -q "PARAMS $key\b" "$TMP/$name.ini" "$TMP/$name.err" || bad "$name: PARAMS $key neither converted nor listed"
    done
    timeout 120 "$WARPNET" "$TMP/$name.ini" --end=1us --quiet --out="$TMP/o" > "$TMP/log" 2>&1 \
        && grep -q "^conservation .*: ok" "$TMP/log" && echo "ok   $name runs" || bad "$name does not run: $(tail -2 "$TMP/log")"
done
# Rails: num_rails planes, CODES's adaptive rail selection kept, the
# difference said on stderr; dedicated (CODES's default) becomes static.
grep -q "^planes = 2 " "$TMP/fattree-dual-plane.ini" && grep -q "^rail_select = adaptive " "$TMP/fattree-dual-plane.ini" \
    && grep -q "rail_select = adaptive: CODES picks" "$TMP/fattree-dual-plane.err" \
    && echo "ok   two rails: planes = 2, adaptive selection" || bad "two rails: $(grep -E '^(planes|rail_select)' "$TMP/fattree-dual-plane.ini")"
sed '/rail_select/d' "$C/fattree-dual-plane.conf" > "$TMP/dedicated.conf"
timeout 30 "$WARPNET" convert codes "$TMP/dedicated.conf" > "$TMP/dedicated.ini" 2> "$TMP/dedicated.err"
grep -q "^rail_select = static .*dedicated (CODES's default)" "$TMP/dedicated.ini" \
    && echo "ok   dedicated rails: static" || bad "dedicated rails: $(grep rail_select "$TMP/dedicated.ini")"
# Tapered: the XGFT keys, CODES's link_repetitions as top_fold.
grep -q "^down = 24,18,11 " "$TMP/fattree-dual-plane-tapered.ini" && grep -q "^up = 1,12,18 " "$TMP/fattree-dual-plane-tapered.ini" \
    && grep -q "^top_fold = 3 " "$TMP/fattree-dual-plane-tapered.ini" && echo "ok   tapered: down, up, top_fold" \
    || bad "tapered: $(grep -E '^(down|up|top_fold)' "$TMP/fattree-dual-plane-tapered.ini")"
# CODES rejects tapering + 1 that does not divide the radix, and so does the converter.
sed 's/tapering="2"/tapering="4"/' "$C/fattree-dual-plane-tapered.conf" > "$TMP/taper4.conf"
refused "tapering 4 of radix 36" "tapering = 4: CODES needs tapering + 1 to divide switch_radix = 36" \
    "$WARPNET" convert codes "$TMP/taper4.conf"

# keys FILE: the [network] and [fattree] keys of a run file, without comments.
keys() {
    awk '/^\[/ { s = $0 } s == "[network]" || s == "[fattree]" { sub(/#.*/, ""); gsub(/ +$/, "") }
         (s == "[network]" || s == "[fattree]") && /=/ { print s, $0 }' "$1"
}
# The shipped run files are these trees, and their network the converter's
# (the dual-plane file kept 50 ns wires and the input-queued router before).
for pair in fattree-summit-codes.ini:fattree-summit fattree-dual-plane.ini:fattree-dual-plane; do
    ini=${pair%%:*}; conv=${pair#*:}
    if [ "$(keys "$D/$ini")" = "$(keys "$TMP/$conv.ini")" ]; then
        echo "ok   $ini: [network] and [fattree] as converted"
    else
        bad "$ini: [network]/[fattree] differ from the converter's:"; diff "$TMP/$conv.ini" "$D/$ini" | grep '^[<>] [a-z]' | head
    fi
    "$WARPNET" --describe "$D/$ini" > "$TMP/shipped.desc" 2>&1 || { bad "$ini: --describe"; continue; }
    for k in nodes routers links radix router_links_GBps terminal_links_GBps; do
        [ "$(desc "$TMP/shipped.desc" $k)" = "$(desc "$TMP/$conv.desc" $k)" ] && echo "ok   $ini $k as converted" \
            || bad "$ini $k: $(desc "$TMP/shipped.desc" $k), converted $(desc "$TMP/$conv.desc" $k)"
    done
done
exit $fail
