#!/bin/sh
# tests/net/test_placement_locality.sh — [job.N] placement = locality: a
# replay job placed by its communication graph commits the same digest and
# summary on 1, 2 and 4 processes under block, topology and (when built
# in) metis partitions: every process computes the same placement.
. "$(dirname "$0")/lib.sh"

# 64 stencil ranks on the 128 terminals of an 8-port 3-tree: every other
# terminal, with the METIS order (64 >= 16 ranks) where built in.
cat >"$TMP/loc.ini" <<'INI'
[engine]
end = 1s
[network]
topology = fattree
[fattree]
ports = 8
levels = 3
[workload]
type = replay
[job.0]
trace = gen:stencil3d:px=4,py=4,pz=4,iters=1,bytes=2048,compute=1000
placement = locality
INI

same_everywhere "locality topology" "seq opt2 opt4" "$TMP/loc.ini" --partition=topology
cp "$TMP/same.res" "$TMP/topology.res"
same_everywhere "locality block" "opt2" "$TMP/loc.ini" --partition=block
cmp -s "$TMP/topology.res" "$TMP/same.res" && echo "ok   locality: block and topology agree" ||
    bad "locality: block differs from topology"
if timeout 60 "$WARPNET" --describe --ranks=2 --partition=metis "$TMP/loc.ini" >/dev/null 2>&1; then
    same_everywhere "locality metis" "opt2 opt4" "$TMP/loc.ini" --partition=metis
    cmp -s "$TMP/topology.res" "$TMP/same.res" && echo "ok   locality: metis agrees" ||
        bad "locality: metis differs from topology"
fi
exit $fail
