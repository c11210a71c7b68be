#!/bin/sh
# test_convert_codes.sh — `warpnet convert codes`: each CODES reference
# config (examples/configs/codes/*.conf) converts to a run file whose
# --describe gives the CODES network: nodes, routers and link bandwidths
# computed here from the CODES parameters by CODES's own formulas and units
# (GiB/s for torus, Slim Fly and dragonfly, GB/s for the fat-tree) and the
# output-queued router CODES's models have; every
# PARAMS key is either named in a comment of the run file or listed on
# stderr; the shipped *-codes.ini run files describe the same networks; and
# what cannot be converted stops with exit 2 and nothing on stdout.
. "${top_srcdir:-.}/tests/net/lib.sh"
D="${top_srcdir:-.}/examples/configs"

val() { sed -n "s/^[ 	]*$2[ 	]*=[ 	]*\"\([^\"]*\)\".*/\1/p" "$1" | head -1; }
# describe line KEY of a run file
desc() { sed -n "s/^$2: //p" "$1"; }
gib() { awk -v x="$1" 'BEGIN { printf "%g", x * 1073741824 / 1e9 }'; }
check() { # NAME GOT WANT
    if [ "$2" = "$3" ]; then echo "ok   $1: $2"; else echo "FAIL $1: got '$2', want '$3'"; fail=1; fi
}

for conf in "$D"/codes/*.conf; do
    name=$(basename "$conf" .conf)
    timeout 30 "$WARPNET" convert codes "$conf" > "$TMP/$name.ini" 2> "$TMP/$name.err" \
        || { echo "FAIL $name: convert exits $?: $(cat "$TMP/$name.err")"; fail=1; continue; }
    # never silently dropped: each PARAMS key is in a comment or on stderr
    for key in $(sed -n '/^PARAMS/,$ s/^[ 	]*\([A-Za-z_][A-Za-z0-9_-]*\)[ 	]*=.*/\1/p' "$conf"); do
        if ! grep -q "PARAMS $key\b" "$TMP/$name.ini" "$TMP/$name.err"; then
            echo "FAIL $name: PARAMS $key neither converted nor listed"; fail=1
        fi
    done
    timeout 30 "$WARPNET" --describe "$TMP/$name.ini" > "$TMP/$name.desc" 2>&1
    rc=$?
    reps=$(val "$conf" repetitions)
    case $name in
    torus*)
        dims=$(val "$conf" dim_length); n=$(val "$conf" n_dims)
        nodes=$(echo "$dims" | tr ',' '\n' | awk '{ p = (NR == 1 ? $1 : p * $1) } END { print p }')
        want_r="$(gib "$(val "$conf" link_bandwidth)") x $((n * nodes))"
        want_t="$(gib "$(val "$conf" link_bandwidth)") x $nodes"
        routers=$nodes ;;
    fattree*)
        k=$(val "$conf" switch_radix); sc=$(val "$conf" switch_count); lv=$(val "$conf" num_levels)
        nodes=$((sc * k / 2))
        if [ "$lv" = 3 ]; then routers=$((2 * sc + k * k / 4)); else routers=$((sc + sc / 2)); fi
        want_r="$(val "$conf" link_bandwidth) x $((nodes * (lv - 1)))"
        want_t="$(val "$conf" cn_bandwidth) x $nodes" ;;
    slimfly*)
        q=$(val "$conf" num_routers); p=$(val "$conf" num_terminals)
        d=$(( q % 4 == 1 ? 1 : (q % 4 == 3 ? -1 : 0) ))
        nodes=$((reps * p)); routers=$reps
        want_r="$(gib "$(val "$conf" local_bandwidth)") x $((reps * (3 * q - d) / 4))"
        want_t="$(gib "$(val "$conf" cn_bandwidth)") x $nodes" ;;
    dragonfly*)
        a=$(val "$conf" num_routers); h=$((a / 2)); g=$((a * h + 1))
        nodes=$((reps * h)); routers=$reps
        want_r="$(gib "$(val "$conf" local_bandwidth)") x $((g * a * (a - 1) / 2)), $(gib "$(val "$conf" global_bandwidth)") x $((g * (g - 1) / 2))"
        want_t="$(gib "$(val "$conf" cn_bandwidth)") x $nodes" ;;
    esac
    # CODES's routers queue at the output port: the converted run says so
    grep -q "^router = output-queued  *# CODES's .* queues each packet at its output port" "$TMP/$name.ini" \
        || { echo "FAIL $name: router is not output-queued"; fail=1; }
    [ $rc -eq 0 ] || { echo "FAIL $name: --describe exits $rc: $(tail -2 "$TMP/$name.desc")"; fail=1; continue; }
    check "$name nodes" "$(desc "$TMP/$name.desc" nodes)" "$nodes"
    check "$name routers" "$(desc "$TMP/$name.desc" routers)" "$routers"
    check "$name router links" "$(desc "$TMP/$name.desc" router_links_GBps)" "$want_r"
    check "$name terminal links" "$(desc "$TMP/$name.desc" terminal_links_GBps)" "$want_t"
done

# The shipped CODES reference run files describe the same networks.
for pair in torus-32k-codes.ini:torus-32k fattree-8p3l-codes.ini:fattree-8p3l \
    dragonfly-codes-1056.ini:dragonfly-a8; do
    ini=${pair%%:*}; conv=${pair#*:}
    "$WARPNET" --describe "$D/$ini" > "$TMP/shipped.desc" 2>&1 || { echo "FAIL $ini: --describe"; fail=1; continue; }
    for k in nodes routers links radix router_links_GBps terminal_links_GBps; do
        check "$ini $k as converted" "$(desc "$TMP/shipped.desc" $k)" "$(desc "$TMP/$conv.desc" $k)"
    done
done

# A router_delay left out is CODES's default: 50 ns in dragonfly.c and
# fattree.c (issue 48: the dragonfly's was written as 0).
for m in dragonfly-a8 fattree-8p3l; do
    sed '/router_delay/d' "$D/codes/$m.conf" > "$TMP/nodelay.conf"
    timeout 30 "$WARPNET" convert codes "$TMP/nodelay.conf" > "$TMP/nodelay.ini" 2> /dev/null
    check "$m router_delay default" "$(sed -n 's/^router_delay = \([^ ]*\) .*CODES.s default.*/\1/p' "$TMP/nodelay.ini")" 50ns
done

# What has no equivalent stops the conversion: exit 2, nothing on stdout.
refuse() { # NAME WANT-IN-MESSAGE FILE
    timeout 30 "$WARPNET" convert codes "$3" > "$TMP/out" 2> "$TMP/err"
    rc=$?
    if [ $rc -eq 2 ] && [ ! -s "$TMP/out" ] && grep -q "$2" "$TMP/err"; then echo "ok   refused: $1"
    else echo "FAIL $1: exit $rc, stdout $(wc -c < "$TMP/out") bytes, $(cat "$TMP/err")"; fail=1; fi
}
sed 's/switch_count="32"/switch_count="16"/; s/repetitions="32"/repetitions="16"/' \
    "$D/codes/fattree-8p3l.conf" > "$TMP/pruned.conf"
# a pruned tree (4 of 8 pods) is CODES's: 16 + 16 + 8 switches (each top takes 2 links from every pod)
timeout 30 "$WARPNET" convert codes "$TMP/pruned.conf" > "$TMP/pruned.ini" 2> /dev/null \
    && timeout 30 "$WARPNET" --describe "$TMP/pruned.ini" > "$TMP/pruned.desc" 2>&1
check "pruned fat-tree nodes, switches" "$(desc "$TMP/pruned.desc" nodes) $(desc "$TMP/pruned.desc" routers)" "64 40"
sed 's/n_dims="3"/n_dims=3/' "$D/codes/torus-32k.conf" > "$TMP/unquoted.conf"
refuse "unquoted value" "unquoted.conf:[0-9]*: .*quoted" "$TMP/unquoted.conf"
sed "s/modelnet_torus/modelnet_simplewan/" "$D/codes/torus-32k.conf" > "$TMP/other.conf"
refuse "unknown CODES network" "modelnet_simplewan is a CODES network that warpnet convert does not know" "$TMP/other.conf"
sed 's/dim_length="32,32,32"/dim_length="32,32,16"/' "$D/codes/torus-32k.conf" > "$TMP/dims.conf"
refuse "torus size against repetitions" "repetitions" "$TMP/dims.conf"
# Several rails (a Fit Fly: CODES's sf_type = 1 with num_rails = 2) stop
# the conversion, naming the feature; a plain Slim Fly (sf_type = 0) is
# converted, its sf_type named in the run file rather than listed as lost.
awk '/^PARAMS/ { print; getline; print; print "   sf_type=\"1\";"; print "   num_rails=\"2\";";
     print "   rail_select=\"congestion\";"; next } { print }' "$D/codes/slimfly-q5.conf" > "$TMP/fitfly.conf"
refuse "two-rail Fit Fly" "fitfly.conf: line [0-9]*: PARAMS num_rails = 2: several rails" "$TMP/fitfly.conf"
sed '/num_rails/d; /rail_select/d' "$TMP/fitfly.conf" > "$TMP/fitfly1.conf"
refuse "one-rail Fit Fly" "PARAMS sf_type = 1: a Fit Fly" "$TMP/fitfly1.conf"
sed 's/sf_type="1"/sf_type="0"/; s/num_rails="2"/num_rails="1"/' "$TMP/fitfly.conf" > "$TMP/plain.conf"
if timeout 30 "$WARPNET" convert codes "$TMP/plain.conf" > "$TMP/plain.ini" 2> "$TMP/plain.err" \
    && grep -q "^# PARAMS sf_type = 0: the plain Slim Fly" "$TMP/plain.ini" \
    && grep -q "^# PARAMS num_rails = 1: one rail" "$TMP/plain.ini" \
    && ! grep -q "sf_type\|num_rails" "$TMP/plain.err"; then
    echo "ok   sf_type = 0 with one rail: converted"
else
    echo "FAIL sf_type = 0 with one rail: $(cat "$TMP/plain.err")"; fail=1
fi
exit $fail
