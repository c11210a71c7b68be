#!/bin/sh
# test_convert_dfly.sh — CODES's dragonfly-custom (Theta), dragonfly-dally
# and dragonfly-plus confs convert: --describe gives the routers and nodes
# CODES computes (groups x routers per group, nodes on every router or on
# the leaves), the wiring files are found where CODES's relative paths
# point (next to the conf, or below a folder above it) and read as they
# are, the run file names CODES's router, delay and routing, and runs; a
# wiring file that does not fit the shape and a test-script placeholder
# are refused, naming the file and entry or the key.
. "${top_srcdir:-.}/tests/net/lib.sh"
C="${top_srcdir:-.}/tests/convert/codes"
val() { sed -n "s/^[ 	]*$2[ 	]*=[ 	]*\"\([^\"]*\)\".*/\1/p" "$1" | head -1; }
desc() { sed -n "s/^$2: //p" "$1"; }

# name: routers nodes (CODES's formulas from the conf's own keys)
for name in dfcustom-theta dfdally-72 dfp-test; do
    conf="$C/$name.conf"
    g=$(val "$conf" num_groups); p=$(val "$conf" num_cns_per_router)
    case $name in
    dfcustom*) a=$(( $(val "$conf" num_router_rows) * $(val "$conf" num_router_cols) ))
        routers=$((g * a)); nodes=$((routers * p)); topo=dragonfly ;;
    dfdally*) a=$(val "$conf" num_routers); routers=$((g * a)); nodes=$((routers * p)); topo=dragonfly ;;
    dfp*) l=$(val "$conf" num_router_leaf); s=$(val "$conf" num_router_spine)
        routers=$((g * (l + s))); nodes=$((g * l * p)); topo=dragonflyplus ;;
    esac
    timeout 30 "$WARPNET" convert codes "$conf" > "$TMP/$name.ini" 2> "$TMP/$name.err" \
        || { bad "$name: convert exits $?: $(cat "$TMP/$name.err")"; continue; }
    for key in $(sed -n '/^PARAMS/,$ s/^[ 	]*\([A-Za-z_][A-Za-z0-9_-]*\)[ 	]*=.*/\1/p' "$conf"); do
        grep -q "PARAMS $key\b" "$TMP/$name.ini" "$TMP/$name.err" || bad "$name: PARAMS $key neither converted nor listed"
    done
    grep -q "^topology = $topo " "$TMP/$name.ini" && grep -q "^router = output-queued " "$TMP/$name.ini" \
        || bad "$name: topology/router: $(grep -E '^(topology|router) ' "$TMP/$name.ini")"
    timeout 60 "$WARPNET" --describe "$TMP/$name.ini" > "$TMP/$name.desc" 2>&1 \
        || { bad "$name: --describe: $(tail -2 "$TMP/$name.desc")"; continue; }
    got="$(desc "$TMP/$name.desc" routers) $(desc "$TMP/$name.desc" nodes)"
    [ "$got" = "$routers $nodes" ] && echo "ok   $name: $routers routers, $nodes nodes as CODES's" \
        || bad "$name: routers, nodes $got; CODES: $routers $nodes"
    timeout 120 "$WARPNET" "$TMP/$name.ini" --end=1us --quiet --out="$TMP/o" > "$TMP/log" 2>&1 \
        && grep -q "^conservation .*: ok" "$TMP/log" && echo "ok   $name runs" || bad "$name does not run: $(tail -2 "$TMP/log")"
done
# CODES's defaults and names: dragonfly-custom's router_delay 100 ns,
# adaptive = UGAL-L on occupancy alone, the wiring files as given.
grep -q "^router_delay = 100ns .*CODES's default" "$TMP/dfcustom-theta.ini" && grep -q "^routing = ugal-l " "$TMP/dfcustom-theta.ini" \
    && grep -q "^intra_file = /.*dragonfly-theta-intra .*found as .*: 1 link per pair of a row, 3 per pair of a column" "$TMP/dfcustom-theta.ini" \
    && echo "ok   Theta: 100 ns, ugal-l, CODES's files" || bad "Theta: $(grep -E '^(router_delay|routing|intra_file) ' "$TMP/dfcustom-theta.ini")"
grep -q "^rows = 1 " "$TMP/dfdally-72.ini" && grep -q "^columns = 4 " "$TMP/dfdally-72.ini" \
    && echo "ok   dally: 1 x 4 groups" || bad "dally: $(grep -E '^(rows|columns) ' "$TMP/dfdally-72.ini")"
# dragonfly-dally adds a propagation delay of one chunk's time (4,096 B at
# 2 GiB/s = 1,907.35 ns) to every hop; the Theta conf (dragonfly-custom) has none
for k in local_latency global_latency terminal_latency; do
    grep -q "^$k = 1907.348633ns .*propagation delay" "$TMP/dfdally-72.ini" && echo "ok   dally: $k one chunk's time" \
        || bad "dally $k: $(grep "^$k " "$TMP/dfdally-72.ini")"
done
for name in dfcustom-theta dfp-test; do
    grep -Eq "^(local|global|terminal)_latency = " "$TMP/$name.ini" && bad "$name: a propagation delay only dragonfly-dally has" \
        || echo "ok   $name: no propagation delay"
done
grep -q "^routing = par " "$TMP/dfp-test.ini" && grep -q "^level_links = 1 " "$TMP/dfp-test.ini" \
    && grep -q "^arrangement = absolute .*every spine reaches the groups" "$TMP/dfp-test.ini" \
    && echo "ok   Dragonfly+: par, the file's wiring is the absolute arrangement's" \
    || bad "Dragonfly+: $(grep -E '^(routing|level_links|arrangement) ' "$TMP/dfp-test.ini")"

# The shipped run files written from these confs describe the same networks.
D="${top_srcdir:-.}/examples/configs"
for pair in dragonfly-theta.ini:dfcustom-theta dragonfly-dally-codes-72.ini:dfdally-72; do
    ini=${pair%%:*}; conv=${pair#*:}
    "$WARPNET" --describe "$D/$ini" > "$TMP/shipped.desc" 2>&1 || { bad "$ini: --describe"; continue; }
    for k in nodes routers links radix local_links global_links router_links_GBps terminal_links_GBps; do
        [ "$(desc "$TMP/shipped.desc" $k)" = "$(desc "$TMP/$conv.desc" $k)" ] && echo "ok   $ini $k as converted" \
            || bad "$ini $k: $(desc "$TMP/shipped.desc" $k), converted $(desc "$TMP/$conv.desc" $k)"
    done
done

# What does not fit is refused, naming it.
cp "$C/dfp-test.conf" "$C/dfp-test-intra" "$TMP/"
# entry 1 of the inter file joins spine 4 to leaf 0 of group 1 (router 8)
awk 'BEGIN { printf "%c%c%c%c%c%c%c%c", 4, 0, 0, 0, 8, 0, 0, 0 }' > "$TMP/dfp-test-inter"
dd if="$C/dfp-test-inter" bs=8 skip=1 2> /dev/null >> "$TMP/dfp-test-inter"
refused "Dragonfly+ global link to a leaf" "dfp-test-inter: entry 0 (bytes 0-7): routers 4 and 8 are not spines" \
    "$WARPNET" convert codes "$TMP/dfp-test.conf"
E="$(cd "${top_srcdir:-.}/examples/configs/codes" && pwd)"
sed "s/num_router_rows=\"6\"/num_router_rows=\"16\"/; s/num_router_cols=\"16\"/num_router_cols=\"6\"/
    s|\"../../../examples/configs/codes/|\"$E/|" "$C/dfcustom-theta.conf" > "$TMP/swapped.conf"
refused "rows and columns swapped against the intra file" "PARAMS intra-group-connections: .*dragonfly-theta-intra: entry" \
    "$WARPNET" convert codes "$TMP/swapped.conf"
sed 's/chunk_size="4096"/chunk_size="${CHUNK_SIZE}"/' "$C/dfdally-72.conf" > "$TMP/tmpl.conf"
refused "test-script placeholder" 'PARAMS chunk_size = ${CHUNK_SIZE}: a placeholder' "$WARPNET" convert codes "$TMP/tmpl.conf"
cp "$C/dfdally-72-intra" "$TMP/"
sed 's/dfdally-72-inter"/dfdally-72-missing"/' "$C/dfdally-72.conf" > "$TMP/missing.conf"
refused "missing wiring file" "inter-group-connections = .*dfdally-72-missing: no such file" "$WARPNET" convert codes "$TMP/missing.conf"
# a delay the conf gives is taken as it is
cp "$C/dfdally-72-inter" "$TMP/"
sed '/routing="minimal";/a\
   local_delay="10";' "$C/dfdally-72.conf" > "$TMP/delay.conf"
"$WARPNET" convert codes "$TMP/delay.conf" > "$TMP/delay.ini" 2> /dev/null \
    && grep -q "^local_latency = 10ns .*PARAMS local_delay" "$TMP/delay.ini" && grep -q "^global_latency = 1907.348633ns" "$TMP/delay.ini" \
    && echo "ok   dally: local_delay given is the local latency" || bad "dally local_delay: $(grep latency "$TMP/delay.ini")"
exit $fail
