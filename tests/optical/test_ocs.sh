#!/bin/sh
# test_ocs.sh — circuits of the OCS against the closed forms of
# models/optical/README.md, with short control-plane times (set-up S = 100us
# of which reconfiguration C = 20us, so signalling s = (S - C)/2 = 40us each
# way; retry_delay Y = 30us; ocs_idle I = 50us) and one link per ToR. Let
# E = E(P), T_c = D(P) + P/B_C, F = T_c + 2L + TAU (circuit up -> ToR).
# Refusal: servers 0 (rack 0) and 2 (rack 1) send to rack 2 at t = 0; both
# requests reach the control plane at E + s, ToR 0's first: granted; ToR 1
# is refused (rack 2's one receiving link is taken), retries every 2s + Y
# and is granted by the first request after ToR 0's release (ToR 0 releases
# at E + S + T_c + I, the control plane frees the link s later): the k-th
# retry reaches it at E + s + k (2s + Y), so with k = ceil((S + T_c + I) /
# (2s + Y)) = 2, server 5 receives at 2E + s + k (2s + Y) + C + s + F, and
# its packet waited, queued, all along (nothing lost).
# Capacity: server 0 sends to racks 1 and 2 at t = 0; rack 2 waits for the
# ToR's one link, which the circuit to rack 1 gives up as soon as its packet
# has left: rack 1 receives at 2E + S + F, rack 2 at 2E + 2S + T_c + F.
. "${top_srcdir:-.}/tests/optical/lib.sh"

scenario() { # name messages [args]
    name=$1 msgs=$2; shift 2
    base 3 2 > "$TMP/$name.ini"
    cat >> "$TMP/$name.ini" <<INI
path = ocs
ocs_links = 1
ocs_setup = 100us
ocs_reconfig = 20us
retry_delay = 30us
ocs_idle = 50us
INI
    replay "$name" "$msgs" "$@"
}

SYMS="$SYMS -v S=100000 -v C=20000 -v s=40000 -v Y=30000 -v I=50000 -v P=$P"
E="(2*lat + rd + P/be)"
Tc="(su + pb*P + P/bc)"
F="($Tc + 2*L + tau)"

scenario refuse "0:4:$P 2:5:$P" && {
    j="$TMP/refuse/summary.json"
    k=$(calc "int((S + $Tc + I) / (2*s + Y)) + 1")
    close "refusal: k = 2 retries" "$k" 2
    close "the granted one: 2E + S + F" "$(finish refuse 4)" "$(calc "2*$E + S + $F")"
    close "the refused one retries: 2E + s + k (2s + Y) + C + s + F" "$(finish refuse 5)" \
        "$(calc "2*$E + s + $k*(2*s + Y) + C + s + $F")"
    close "  refusals" "$(sub "$j" optical ocs refusals)" "$k"
    close "  set-ups" "$(sub "$j" optical ocs setups)" 2
    close "  requests" "$(sub "$j" optical ocs requests)" "$((k + 2))"
    close "  idle releases" "$(sub "$j" optical ocs releases_idle)" 2
    close "  circuit time 2 (T_c + I)" "$(sub "$j" optical ocs circuit_seconds)" "$(calc "2*($Tc + I)/1e9")"
    close "  nothing lost: sent = delivered" "$(json "$j" delivered_packets)" "$(json "$j" injected_packets)"
    close "  ... two packets" "$(json "$j" delivered_packets)" 2
}

scenario capacity "0:2:$P 0:4:$P" --optical.ocs_idle=1s && {
    j="$TMP/capacity/summary.json"
    close "capacity: rack 1 at 2E + S + F" "$(finish capacity 2)" "$(calc "2*$E + S + $F")"
    close "rack 2 waits for the link: 2E + 2S + T_c + F" "$(finish capacity 4)" \
        "$(calc "2*$E + 2*S + $Tc + $F")"
    close "  one release for capacity" "$(sub "$j" optical ocs releases_capacity)" 1
    close "  no refusal" "$(sub "$j" optical ocs refusals)" 0
    close "  circuit time T_c + (T_c + 1s)" "$(sub "$j" optical ocs circuit_seconds)" \
        "$(calc "(2*$Tc + 1e9)/1e9")"
}
exit $fail
