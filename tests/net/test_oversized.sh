#!/bin/sh
# Networks too large for the memory a rank has (issue 13, item 1): --describe
# sizes them from formulas without building them and exits 0 at once; a run
# refuses them before allocating anything per node (exit 3, one line naming
# what would fit), leaving no --out directory. Before: the out-of-memory
# killer after ~53 s, or the memory error after 116 s.
. "${srcdir:-.}/tests/net/lib.sh"
C="${srcdir:-.}/examples/configs"

# big NAME NODES RUN-FILE OVERRIDES...: describe says NODES nodes; a run is refused.
big() {
    name=$1 nodes=$2 ini=$3; shift 3
    timeout 10 "$WARPNET" --describe "$C/$ini" "$@" > "$TMP/desc" 2>&1
    rc=$?
    got=$(sed -n 's/^nodes: //p' "$TMP/desc")
    if [ $rc -eq 0 ] && [ "$got" = "$nodes" ] && grep -q '^memory_per_rank_bytes: ' "$TMP/desc"; then
        echo "ok   $name --describe: $got nodes"
    else
        echo "FAIL $name --describe: exit $rc, nodes '$got' (want $nodes):"; cat "$TMP/desc"; fail=1
    fi
    # 1 GiB per rank, so the verdict does not depend on this machine.
    timeout 10 "$WARPNET" "$C/$ini" "$@" --mem-per-rank=1GiB --out="$TMP/out-$name" > "$TMP/log" 2>&1
    rc=$?
    if [ $rc -eq 3 ] && [ "$(wc -l < "$TMP/log")" -eq 1 ] &&
        grep -q "with $nodes nodes and [0-9]* routers needs about [0-9.]* [KMGTPE]iB per rank on 1 rank(s), but a rank has 1.0 GiB (--mem-per-rank)" "$TMP/log" &&
        [ ! -e "$TMP/out-$name" ]; then
        echo "ok   $name run: $(cat "$TMP/log")"
    else
        echo "FAIL $name run: exit $rc (want 3, one line, no --out):"; cat "$TMP/log"; fail=1
    fi
}

# Node counts from the formulas: an m-port n-tree has 2 (m/2)^n nodes; a
# torus the product of its dimensions.
big fattree-64p6l 2147483648 fattree-8p3l.ini --fattree.ports=64 --fattree.levels=6
big torus-1000x3 1000000000 torus-8x8x8.ini --torus.dims=1000,1000,1000
big torus-8x9 134217728 torus-8x8x8.ini --torus.dims=8,8,8,8,8,8,8,8,8
big simplenet-1e9 1000000000 simplenet-64.ini --simplenet.nodes=1000000000

# One that more ranks would hold: the line says how many.
timeout 10 "$WARPNET" "$C/torus-8x8x8.ini" --torus.dims=128,128,64 --mem-per-rank=1GiB > "$TMP/log" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -q "run on at least [0-9]* ranks with that memory each" "$TMP/log"; then
    echo "ok   ranks that fit: $(cat "$TMP/log")"
else
    echo "FAIL ranks that fit: exit $rc:"; cat "$TMP/log"; fail=1
fi

# Figures in the unit they fill (issue 53: a 1 KiB rank read "0.0 GiB" five
# times): the rank's 1 KiB and the run's MiB, and never a 0.0.
timeout 10 "$WARPNET" "$C/torus-8x8x8.ini" --mem-per-rank=1KiB > "$TMP/log" 2>&1
rc=$?
if [ $rc -eq 3 ] && grep -q "needs about [0-9.]* MiB per rank on 1 rank(s), but a rank has 1.0 KiB (--mem-per-rank)" "$TMP/log" &&
    ! grep -q ' 0\.0 ' "$TMP/log"; then
    echo "ok   --mem-per-rank=1KiB: $(cat "$TMP/log")"
else
    echo "FAIL --mem-per-rank=1KiB: exit $rc:"; cat "$TMP/log"; fail=1
fi

# Counts past 64 bits are refused as configuration errors, not wrapped.
refused torus-2^40 "more than 2^40 routers" \
    timeout 10 "$WARPNET" "$C/torus-8x8x8.ini" --torus.dims=1048576,1048576,1024
refused fattree-2^50 "more than 2^50 nodes" \
    timeout 10 "$WARPNET" "$C/fattree-8p3l.ini" --fattree.ports=1024 --fattree.levels=16

# A network that fits still runs, and describes with exact links.
timeout 60 "$WARPNET" --describe "$C/torus-8x8x8.ini" > "$TMP/desc" 2>&1 &&
    grep -q '^links: 1536$' "$TMP/desc" || { echo "FAIL torus 8x8x8 --describe:"; cat "$TMP/desc"; fail=1; }
exit $fail
