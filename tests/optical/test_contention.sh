#!/bin/sh
# test_contention.sh — OPS contention against the closed forms of
# models/optical/README.md. Three racks of two servers; ToRs 0 and 1 share
# input fiber 0 (wavelengths = 2), ToR 2 is on fiber 1. Servers 0 (rack 0)
# and 2 (rack 1) send to servers 4 and 5 (rack 2) at t = 0: both photonic
# packets reach OPS output 2 at the same instant; ToR 0's passes (first in
# event order), ToR 1's is dropped and NACKed. With T(s) the zero-load OPS
# time E(s) + D(s) + 2L + R + s/B_O + E(s), the NACK is taken at
# t_a + D(s) + 2L + R + A and the link frees at t_a + D(s) + s/B_O, so
#   server 5 receives at T(s) + D(s) + max(2L + R + A, s/B_O).
# Ten 1500-byte packets (one message) behind a dropped first one: the ToR's
# link is the bottleneck (T_tx = D(P) + P/B_O per packet) and the NACKed
# first packet is resent before the second is sent: 11 transmissions,
#   server 5 receives at E(P) + 11 T_tx + 2L + R + E(P),
# and every packet arrives (sent = delivered).
. "${top_srcdir:-.}/tests/optical/lib.sh"

scenario() { # name bytes0 bytes2 [args]
    name=$1 b0=$2 b2=$3; shift 3
    { base 3 2; echo "path = ops"; } > "$TMP/$name.ini"
    replay "$name" "0:4:$b0 2:5:$b2" "$@"
}

T="(2*(2*lat + rd + S/be) + su + pb*S + 2*L + R + S/bo)"
for S in 64 1500; do
    SYMS="$SYMS -v S=$S"
    scenario c$S $S $S && {
        j="$TMP/c$S/summary.json"
        close "$S B: the first passes" "$(finish c$S 4)" "$(calc "$T")"
        extra="su + pb*S + (2*L + R + A > S/bo ? 2*L + R + A : S/bo)"
        close "$S B: the second pays D + max(2L + R + A, s/B_O)" "$(finish c$S 5)" "$(calc "$T + $extra")"
        close "  one drop" "$(sub "$j" optical ops dropped)" 1
        close "  one NACK" "$(sub "$j" optical ops nacks)" 1
        close "  one resend" "$(sub "$j" optical ops resent)" 1
        close "  two ACKs" "$(sub "$j" optical ops acks)" 2
    }
done

# Different input fibers reach one output on different wavelengths: no
# drop; both reach ToR 2 at once, and the second waits for the first on the
# ToR's link into the rack switch.
scenario fibers 1500 1500 --optical.wavelengths=1 --optical.fibers=3 && {
    close "other fibers: no drop, the first at T" "$(finish fibers 4)" "$(calc "$T")"
    close "  the second at T + s/B_E" "$(finish fibers 5)" "$(calc "$T + S/be")"
    close "  no drop" "$(sub "$TMP/fibers/summary.json" optical ops dropped)" 0
}

# ops_contention = port: the output is one channel, busy for any fiber: the
# same drop and resend as on one fiber.
scenario port 1500 1500 --optical.wavelengths=1 --optical.fibers=3 --optical.ops_contention=port && {
    close "one channel per port: the second pays D + s/B_O" "$(finish port 5)" \
        "$(calc "$T + su + pb*S + S/bo")"
    close "  one drop" "$(sub "$TMP/port/summary.json" optical ops dropped)" 1
}

S=1500
scenario ten $S $((10 * S)) && {
    j="$TMP/ten/summary.json"
    E="(2*lat + rd + S/be)"
    close "ten packets, the first dropped" "$(finish ten 5)" \
        "$(calc "$E + 11*(su + pb*S + S/bo) + 2*L + R + $E")"
    close "  one drop, one resend" "$(sub "$j" optical ops dropped)$(sub "$j" optical ops resent)" 11
    close "  eleven first sends" "$(sub "$j" optical ops sent)" 11
    close "  nothing lost: sent = delivered" "$(json "$j" delivered_packets)" "$(json "$j" injected_packets)"
    close "  ... eleven packets" "$(json "$j" delivered_packets)" 11
    close "  none left in the ToRs" "$(sub "$j" optical waiting_in_tors)" 0
    grep -q '"conservation_ok": true' "$j" && echo "ok     conservation" || { echo "FAIL   conservation"; fail=1; }
}
# A NACKed packet goes before newer ones: server 2's first packet (to
# server 5) is dropped as above, and ten more of its packets (to server 4)
# wait behind it in ToR 1. The resend leaves as soon as the NACK is in and
# the link is free, so server 5 receives when it did alone; sending the new
# packets first delayed it by ten transmissions. With tor_buffer = 1 the
# ToR never holds more than one packet unacknowledged, a resend included.
{ base 3 2; echo "path = ops"; echo "tor_buffer = 1"; } > "$TMP/resend.ini"
replay resend "0:4:$S 2:5:$S 2:4:$((10 * S))" && {
    j="$TMP/resend/summary.json"
    close "NACKed first: the resend arrives at T + D + max(2L + R + A, s/B_O)" "$(finish resend 5)" \
        "$(calc "$T + su + pb*S + (2*L + R + A > S/bo ? 2*L + R + A : S/bo)")"
    close "  one drop, one resend" "$(sub "$j" optical ops dropped)$(sub "$j" optical ops resent)" 11
    b=$(sub "$j" optical ops buffer_max)
    if [ "$b" = 1 ]; then echo "ok     buffer_max $b = tor_buffer 1"
    else echo "FAIL   buffer_max '$b' is not tor_buffer = 1"; fail=1; fi
    close "  nothing lost" "$(json "$j" delivered_packets)" 12
}

# Zero ToR delay: a ToR's back-to-back packets reach the OPS port exactly
# when the one before has passed (now == busy): each passes, none drops.
{ base 3 2; echo "path = ops"; echo "tor_startup = 0ns"; echo "tor_per_byte = 0ns"; } |
    grep -v '^tor_startup = [1-9]\|^tor_per_byte = [1-9]' > "$TMP/zero.ini"
replay zero "2:5:$((30 * S))" && {
    j="$TMP/zero/summary.json"
    close "zero ToR delay, 30 back-to-back packets: none dropped" "$(sub "$j" optical ops dropped)" 0
    close "  thirty passed" "$(sub "$j" optical ops passed)" 30
    close "  thirty delivered" "$(json "$j" delivered_packets)" 30
}
exit $fail
