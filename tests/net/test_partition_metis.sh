#!/bin/sh
# tests/net/test_partition_metis.sh — [engine] partition = metis: commits
# the digest and network summary of block on 1, 2 and 4 processes for every
# topology, and cuts no more router links than block on small cases.
# Skips (77) in a build without METIS.
. "$(dirname "$0")/lib.sh"
. "${top_srcdir:-.}/tests/net/partition_cases.sh"

if ! timeout 60 "$WARPNET" --describe --ranks=2 --partition=metis "$TMP/t33.ini" >"$TMP/m" 2>&1; then
    grep -q "no METIS partitioner" "$TMP/m" && { echo "SKIP: built without METIS"; exit 77; }
    bad "--partition=metis --describe fails:"; cat "$TMP/m"; exit 1
fi

same_as_block metis "seq" "opt2 opt4"

# at_most NAME ARGS...: metis cuts no more links than block
# (--describe prints both).
at_most() {
    name=$1; shift
    line=$(timeout 60 "$WARPNET" --describe --partition=metis "$@" | grep '^links_cut:')
    got=$(echo "$line" | sed -n 's/^links_cut: \([0-9]*\) .*/\1/p')
    blk=$(echo "$line" | sed -n 's/.*; block: \([0-9]*\)$/\1/p')
    if [ -n "$got" ] && [ -n "$blk" ] && [ "$got" -le "$blk" ]; then
        echo "ok   $name: metis cuts $got links, block $blk"
    else
        bad "$name: $line"
    fi
}
at_most "torus 3x3 on 3" --ranks=3 "$TMP/t33.ini"
at_most "torus 4x3x2 on 4" --ranks=4 "$TMP/torus.ini"
at_most "fat-tree 4p3l on 2" --ranks=2 "$TMP/ft4.ini"
at_most "slimfly q5 on 2" --ranks=2 "$C/slimfly-q5.ini"
at_most "dragonfly a4 on 4" --ranks=4 "$C/dragonfly-a4.ini"
# The hand counts of test_partition.sh are optimal there: METIS finds them.
cut "fat-tree 4p3l on 2, metis" 8 --ranks=2 --partition=metis "$TMP/ft4.ini"
cut "slimfly q5 on 2, metis" 65 --ranks=2 --partition=metis "$C/slimfly-q5.ini"
exit $fail
