#!/bin/sh
# test_convert_kinds.sh — `warpnet convert codes` on what CODES keeps beside
# its network configs, on a network Warpnet has no model for and on
# dragonflies without the keys CODES needs: each stops with exit 2 and one
# line naming what the file is, the CODES network or the missing key (never
# the config grammar's "unexpected character").
. "${top_srcdir:-.}/tests/net/lib.sh"
C="${top_srcdir:-.}/tests/convert/codes"

refused "allocation file" "allocation.conf: this is a CODES allocation file .*not a network config" \
    "$WARPNET" convert codes "$C/allocation.conf"
refused "workload list" "workloads.conf: this is a CODES workload list .*not a network config" \
    "$WARPNET" convert codes "$C/workloads.conf"
refused "simplep2p matrix" "latency-matrix.conf: this is a CODES simplep2p latency or bandwidth matrix" \
    "$WARPNET" convert codes "$C/latency-matrix.conf"
refused "LogGP table" "loggp-table.dat: this is a Netgauge LogGP table" \
    "$WARPNET" convert codes "$C/loggp-table.dat"
printf 'LINK\0\1\2' > "$TMP/intra-theta"
refused "binary link file" "intra-theta: a binary file, not a CODES network config" \
    "$WARPNET" convert codes "$TMP/intra-theta"
refused "no network" "storage.conf: no network in LPGROUPS (its LPs are nw-lp, lsm; no modelnet_\* LP)" \
    "$WARPNET" convert codes "$C/storage.conf"
# a config whose values are not quoted is still a config: the grammar's message
sed 's/net_bw_mbps="1000"/net_bw_mbps=1000/' "$C/simplenet-8.conf" > "$TMP/unquoted.conf"
refused "unquoted value" "unquoted.conf:[0-9]*: unexpected character '1'; CODES values are quoted" \
    "$WARPNET" convert codes "$TMP/unquoted.conf"

# A CODES network Warpnet does not know is named; the dragonflies it does
# know, without the keys CODES itself aborts without, name the key.
network() { # LP-NAME: a one-group config of that CODES network
    printf 'LPGROUPS\n{\n MODELNET_GRP\n {\n  repetitions="4";\n  nw-lp="2";\n  %s="2";\n  %s_router="1";\n }\n}\nPARAMS\n{\n  packet_size="512";\n}\n' \
        "$1" "$1" > "$TMP/$1.conf"
}
for case in "modelnet_dragonfly_custom:PARAMS num_groups is missing (CODES's dragonfly_custom needs it)" \
    "modelnet_dragonfly_plus:PARAMS num_router_leaf is missing (CODES's dragonfly_plus needs it)" \
    "modelnet_dragonfly_dally:PARAMS num_routers is missing (CODES's dragonfly_dally needs it)" \
    "modelnet_dragonfly_torus:line 7: modelnet_dragonfly_torus is a CODES network that warpnet convert does not know"; do
    lp=${case%%:*}
    network "$lp"
    refused "$lp" "$lp.conf: ${case#*:}" "$WARPNET" convert codes "$TMP/$lp.conf"
done

# --help still answers on stdout with exit 0 and names the analytic networks.
"$WARPNET" convert codes --help > "$TMP/help" 2>&1 && grep -q "simplep2p" "$TMP/help" \
    && echo "ok   convert codes --help" || bad "convert codes --help: $(cat "$TMP/help")"
exit $fail
