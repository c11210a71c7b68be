#!/bin/sh
# test_convert_analytic.sh — CODES's analytic networks converted: each small
# config of tests/convert/codes converts to a run file that runs as written
# (a short uniform load), and its timing is CODES's, computed here by
# CODES's rules and units: simplenet's startup + bytes / (net_bw_mbps MiB/s);
# loggp's L, g, G (us in the Netgauge table) from the row loggp.c's
# find_params picks for the run file's 1024-byte messages; simplep2p's
# per-pair latency and "out,in" bandwidths. What cannot be
# converted stops with exit 2 and one line naming it.
. "${top_srcdir:-.}/tests/net/lib.sh"
C="${top_srcdir:-.}/tests/convert/codes"

convert() { # NAME: converts $C/NAME.conf to $TMP/NAME.ini, runs it as written
    timeout 30 "$WARPNET" convert codes "$C/$1.conf" > "$TMP/$1.ini" 2> "$TMP/$1.err" \
        || { bad "$1: convert exits $?: $(cat "$TMP/$1.err")"; return 1; }
    timeout 120 "$WARPNET" "$TMP/$1.ini" --end=20us --quiet --out="$TMP/$1.asis" > "$TMP/$1.log" 2>&1 \
        && grep -q "^conservation .*: ok" "$TMP/$1.log" \
        && echo "ok   $1: the run file runs as converted" || bad "$1: the run file does not run: $(tail -3 "$TMP/$1.log")"
}
# two 1000-byte messages from node 0 to node 1, 1 ns apart
pair() { # NAME
    sed '/^load = /d' "$TMP/$1.ini" > "$TMP/$1.pair.ini"
    timeout 60 "$WARPNET" "$TMP/$1.pair.ini" --quiet --out="$TMP/$1.o" --workload.pattern=pair \
        --workload.src=0 --workload.dst=1 --workload.count=2 --workload.arrivals=fixed \
        --workload.interval=1ns --workload.message_size=1000B > "$TMP/$1.pair.log" 2>&1 \
        || bad "$1: pair run fails: $(tail -3 "$TMP/$1.pair.log")"
}

# simplenet: a = 500 ns, B = 1000 MiB/s = 1.048576 bytes/ns, s/B = 953.674 ns:
# complete at a + s/B and, the receiver busy, s/B later (sent at 0 and 1 ns).
if convert simplenet-8; then
    grep -q "^bandwidth = 1000MiB/s " "$TMP/simplenet-8.ini" || bad "simplenet: bandwidth not in MiB/s"
    pair simplenet-8
    sb=$(awk 'BEGIN { printf "%.9f", 1000 / (1000 * 1048576 / 1e9) }')
    close "simplenet nodes" "$(json "$TMP/simplenet-8.o/summary.json" nodes)" 8
    close "simplenet last delivery" "$(json "$TMP/simplenet-8.o/summary.json" last_delivery_ns)" \
        "$(awk -v sb="$sb" 'BEGIN { printf "%.9f", 500 + 2 * sb }')" 1e-6
    close "simplenet mean latency" "$(json "$TMP/simplenet-8.o/summary.json" message_latency_ns mean)" \
        "$(awk -v sb="$sb" 'BEGIN { printf "%.9f", (500 + sb + 500 + 2 * sb - 1) / 2 }')" 1e-6
fi

# loggp: fcfs-full sends whole messages; 1024 bytes take loggp-table.dat's
# row of size 2048 (the first above 1024): L = 3 us, g = 2 us, G = 0.006
# us/B, o = O = 0. The second message starts g + (s-1)G = 7994 ns after the
# first and arrives L later: 10994; the first is complete at L = 3000.
if convert loggp-4; then
    for kv in "L = 3000ns" "g = 2000ns" "G = 6ns" "o = 0ns"; do
        grep -q "^$kv " "$TMP/loggp-4.ini" || bad "loggp: no '$kv' in the run file"
    done
    pair loggp-4
    close "loggp last delivery" "$(json "$TMP/loggp-4.o/summary.json" last_delivery_ns)" 10994 1e-9
    close "loggp mean latency" "$(json "$TMP/loggp-4.o/summary.json" message_latency_ns mean)" \
        "$(awk 'BEGIN { print (3000 + 10993) / 2 }')" 1e-9
fi
# simplep2p: the matrices as CODES reads them (relative to the config's
# folder); nodes 0 and 1 have no link, so the run file sends from 0 to 2:
# L = 3000 ns, out 500 MiB/s at the sender, in 250 MiB/s at the receiver.
if convert p2p-3; then
    grep -q "^latency_matrix = .*tests/convert/codes/p2p-latency.txt " "$TMP/p2p-3.ini" \
        && grep -q "^src = 0 " "$TMP/p2p-3.ini" && grep -q "^dst = 2 " "$TMP/p2p-3.ini" \
        && grep -q "leaves 2 pairs without a link (0-1, 1-0)" "$TMP/p2p-3.err" \
        && echo "ok   simplep2p: matrices and a workload on linked nodes" || bad "simplep2p run file: $(cat "$TMP/p2p-3.ini")"
    sed -e '/^load = /d' -e '/^src = /d' -e '/^dst = /d' -e '/^pattern = /d' "$TMP/p2p-3.ini" > "$TMP/p2p-3.pair.ini"
    timeout 60 "$WARPNET" "$TMP/p2p-3.pair.ini" --quiet --out="$TMP/p2p.o" --workload.pattern=pair \
        --workload.src=0 --workload.dst=2 --workload.count=2 --workload.arrivals=fixed \
        --workload.interval=1ns --workload.message_size=1000B > "$TMP/p2p.log" 2>&1 || bad "simplep2p pair run"
    close "simplep2p last delivery" "$(json "$TMP/p2p.o/summary.json" last_delivery_ns)" \
        "$(awk 'BEGIN { printf "%.9f", 3000 + 2 * 1000 / (250 * 1048576 / 1e9) }')" 1e-6
fi
sed 's/repetitions="3"/repetitions="4"/' "$C/p2p-3.conf" > "$TMP/p2p4.conf"
cp "$C/p2p-latency.txt" "$C/p2p-bandwidth.txt" "$TMP/"
refused "simplep2p matrix size" "the matrices are 3 x 3 .* for 4 simplep2p nodes" "$WARPNET" convert codes "$TMP/p2p4.conf"

# a packet size of 100 bytes makes CODES use the row of size 512
sed 's/modelnet_scheduler="fcfs-full";/modelnet_scheduler="fcfs"; packet_size="100";/' "$C/loggp-4.conf" \
    > "$TMP/p100.conf"
cp "$C/loggp-table.dat" "$TMP/"
"$WARPNET" convert codes "$TMP/p100.conf" > "$TMP/p100.ini" 2>/dev/null && grep -q "^L = 2500ns " "$TMP/p100.ini" \
    && grep -q "^g = 1000ns " "$TMP/p100.ini" && echo "ok   loggp: the row for 100-byte packets" \
    || bad "loggp: 100-byte packets: $(grep '^[Lg] =' "$TMP/p100.ini")"
# the row CODES would use has a negative gap (Netgauge fits do): refused
sed 's/^2048 10 19.0 33.6 203.7 3.0 1.4 1.6 2.0/2048 10 19.0 33.6 203.7 3.0 1.4 1.6 -2.0/' "$C/loggp-table.dat" \
    > "$TMP/loggp-table.dat"
cp "$C/loggp-4.conf" "$TMP/neg.conf"
refused "loggp negative g" "loggp-table.dat:5: the row CODES uses for 1024-byte packets has L = 3, g = -2" \
    "$WARPNET" convert codes "$TMP/neg.conf"
rm "$TMP/loggp-table.dat"
refused "loggp table missing" "net_config_file: cannot open .*loggp-table.dat" "$WARPNET" convert codes "$TMP/neg.conf"
sed '/net_startup_ns/d' "$C/simplenet-8.conf" > "$TMP/nostart.conf"
refused "simplenet without startup" "net_startup_ns and net_bw_mbps are required" \
    "$WARPNET" convert codes "$TMP/nostart.conf"
exit $fail
