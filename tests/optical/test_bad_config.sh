#!/bin/sh
# test_bad_config.sh — mistakes in [optical] stop with exit code 2 and one
# line naming the file, the key and what would fix it.
. "${top_srcdir:-.}/tests/optical/lib.sh"
base 2 2 > "$TMP/g.ini"
printf '[workload]\nload = 0.1\n' >> "$TMP/g.ini"
run good "$TMP/g.ini" --end=20us && echo "ok   the good file runs"
expect() { # name pattern override...
    name=$1 pat=$2; shift 2
    "$WARPNET" --quiet "$TMP/g.ini" "$@" > "$TMP/log" 2>&1
    rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l < "$TMP/log")" -eq 1 ] && grep -q -- "$pat" "$TMP/log"; then
        echo "ok   $name: $(cat "$TMP/log")"
    else
        echo "FAIL $name: exit $rc, output:"; cat "$TMP/log"; fail=1
    fi
}
expect "racks missing" "racks = 0: missing or zero" --optical.racks=0
expect "servers missing" "servers_per_rack = 0: missing or zero" --optical.servers_per_rack=0
expect "OPS too small" "fibers x wavelengths = 4 ports for 5 racks" --optical.racks=5
expect "OCS too small" "need 4 switch ports" --optical.ocs_ports=3 --optical.ocs_links=2
expect "reconfiguration above set-up" "cannot exceed it" --optical.ocs_reconfig=1s
expect "photonic packet not whole packets" "multiple of \[network\] packet_size" --optical.photonic_packet=2000B
expect "photonic packet nonsense" "photonic_packet" --optical.photonic_packet=jumbo
expect "cable without unit" "missing unit (write 10m or 10km)" --optical.cable_length=10
expect "cable in feet" "unknown unit (use mm, cm, m or km)" --optical.cable_length=10ft
expect "ToR delay without unit" "tor_startup" --optical.tor_startup=1678
expect "unknown path" "path" --optical.path=both
expect "zero retry" "retry_delay" --optical.retry_delay=0ns
expect "buffer of nothing" "tor_buffer" --optical.tor_buffer=0
expect "unknown key" "bogus" --optical.bogus=1
expect "time series need --out" "sample" --network.sample=1us
exit $fail
