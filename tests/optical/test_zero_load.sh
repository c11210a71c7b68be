#!/bin/sh
# test_zero_load.sh — one message at zero load over each path of the optical
# network equals the closed form of models/optical/README.md. With
# E(s) = 2 LAT + RD + s/B_E (server -> rack switch -> ToR, or ToR -> rack
# switch -> server, cut-through) and D(s) = SU + PB s (the ToR's delay):
#   electrical, same rack:   E(P)
#   OPS:                     E(P) + D(P) + 2L + R + P/B_O + E(P)
#   OCS, circuit up:         E(P) + D(P) + P/B_C + 2L + TAU + E(P)
#   OCS, no circuit:         the same + ocs_setup (request at the ToR -> grant)
#   OPS, whole message of n packets as one photonic packet:
#                            E(P) + (n-1)P/B_E + D(nP) + 2L + R + nP/B_O + E(P) + (n-1)P/B_E
#   OPS, n = 4 packets in photonic packets of 2: the second waits for the
#   first to leave the ToR:  E(P) + P/B_E + 2 (D(2P) + 2P/B_O) + 2L + R + E(P) + P/B_E
. "${top_srcdir:-.}/tests/optical/lib.sh"
E="(2*lat + rd + $P/be)"

pair() { # src dst bytes count interval
    base 3 2
    printf '[workload]\npattern = pair\nsrc = %s\ndst = %s\nmessage_size = %sB\ncount = %s\n' "$1" "$2" "$3" "$4"
    printf 'arrivals = fixed\nstart = 1us\ninterval = %s\n' "$5"
}

pair 0 1 $P 1 1us > "$TMP/e.ini"
run e "$TMP/e.ini" && close "electrical, same rack" \
    "$(sub "$TMP/e/summary.json" paths electrical message_latency_mean_ns)" "$(calc "$E")"

pair 0 2 $P 1 1us > "$TMP/ops.ini"
run ops "$TMP/ops.ini" --optical.path=ops && {
    close "OPS, one packet" "$(sub "$TMP/ops/summary.json" paths ops message_latency_mean_ns)" \
        "$(calc "$E + su + pb*$P + 2*L + R + $P/bo + $E")"
    close "  ToR to ToR" "$(sub "$TMP/ops/summary.json" optical ops tor_to_tor_mean_ns)" \
        "$(calc "su + pb*$P + 2*L + R + $P/bo")"
    close "  no drop" "$(sub "$TMP/ops/summary.json" optical ops dropped)" 0
}

# Two messages 900 ms apart: the first asks for the circuit and waits for
# it, the second finds it up (ocs_idle 1 s keeps it).
pair 0 2 $P 2 900ms > "$TMP/ocs.ini"
run ocs "$TMP/ocs.ini" --optical.path=ocs --optical.ocs_idle=1s && {
    j="$TMP/ocs/summary.json"
    up=$(calc "$E + su + pb*$P + $P/bc + 2*L + tau + $E")
    close "OCS, no circuit: pays the set-up" "$(sub "$j" paths ocs message_latency_max_ns)" \
        "$(calc "$up + 753e6")"
    close "OCS, circuit up: no set-up" \
        "$(awk -v m="$(sub "$j" paths ocs message_latency_mean_ns)" -v x="$(sub "$j" paths ocs message_latency_max_ns)" \
            'BEGIN { printf "%.10g", 2 * m - x }')" "$up" 1e-6
    close "  one set-up" "$(sub "$j" optical ocs setups)" 1
    # Granted at 1us + E + 753ms; released ocs_idle after the second
    # message left the ToR (900ms + 1us + E + D(P) + P/B_C).
    close "  circuit time: grant -> idle release" "$(sub "$j" optical ocs circuit_seconds)" \
        "$(calc "(900e6 - 753e6 + su + pb*$P + $P/bc + 1e9) / 1e9")"
    close "  released for idleness" "$(sub "$j" optical ocs releases_idle)" 1
}

# A 4-packet message as one photonic packet, then in photonic packets of 2.
pair 0 2 $((4 * P)) 1 1us > "$TMP/msg.ini"
run msg "$TMP/msg.ini" --optical.path=ops --optical.photonic_packet=message && {
    close "OPS, 4 packets in one photonic packet" "$(sub "$TMP/msg/summary.json" paths ops message_latency_mean_ns)" \
        "$(calc "$E + 3*$P/be + su + pb*4*$P + 2*L + R + 4*$P/bo + $E + 3*$P/be")"
    close "  one photonic packet formed" "$(sub "$TMP/msg/summary.json" optical ops formed)" 1
}
run msg2 "$TMP/msg.ini" --optical.path=ops --optical.photonic_packet=$((2 * P))B && {
    close "OPS, 4 packets in photonic packets of 2" "$(sub "$TMP/msg2/summary.json" paths ops message_latency_mean_ns)" \
        "$(calc "$E + $P/be + 2*(su + pb*2*$P + 2*$P/bo) + 2*L + R + $E + $P/be")"
    close "  two photonic packets formed" "$(sub "$TMP/msg2/summary.json" optical ops formed)" 2
}
exit $fail
