# tests/optical/lib.sh — shared by the optical network's tests: the network
# layer's helpers (json, close), a base run file with every time visible
# in the closed forms, and its symbols for awk.
. "${top_srcdir:-.}/tests/net/lib.sh"
TRACE_LIB="${top_srcdir:-.}/tests/optical"

# Electrical links: B_E bytes/ns (10 Gbit/s), LAT, router delay RD; packets
# of P bytes. Optics: ToR delay SU + PB per byte, OPS/ToR links B_O bytes/ns,
# circuits B_C, cable CABLE m at FD ns/m (L = CABLE * FD one way), OPS
# routing delay R, ACK/NACK processing A, OCS transfer TAU.
B_E=1.25 LAT=50 RD=100 P=1500
SU=1678 PB=1.35 B_O=1.25 B_C=5 CABLE=3 FD=4.5 R=30 A=20 TAU=7
SYMS="-v be=$B_E -v lat=$LAT -v rd=$RD -v su=$SU -v pb=$PB -v bo=$B_O -v bc=$B_C -v L=$(awk "BEGIN{print $CABLE*$FD}") -v R=$R -v A=$A -v tau=$TAU"

# base RACKS SERVERS: the run file's [engine], [network] and [optical]
# sections (more [optical] keys may follow).
base() {
    cat <<INI
[engine]
end = 3s
[network]
topology = optical
link_bandwidth = ${B_E}GB/s
link_latency = ${LAT}ns
router_delay = ${RD}ns
packet_size = ${P}B
[optical]
racks = $1
servers_per_rack = $2
fibers = 2
wavelengths = 2
tor_startup = ${SU}ns
tor_per_byte = ${PB}ns
optical_bandwidth = 10Gbps
ocs_bandwidth = ${B_C}GB/s
cable_length = ${CABLE}m
fiber_delay = ${FD}ns
ops_delay = ${R}ns
ack_delay = ${A}ns
ocs_transfer = ${TAU}ns
INI
}

# calc EXPR: an awk expression over the symbols above.
calc() {
    # shellcheck disable=SC2086
    awk $SYMS "BEGIN { printf \"%.10g\", $1 }"
}

# run NAME INI [ARGS...]: warpnet --out=$TMP/NAME; stops the test on failure.
run() {
    name=$1 ini=$2; shift 2
    timeout 60 "$WARPNET" --quiet "$ini" --out="$TMP/$name" "$@" > "$TMP/$name.log" 2>&1 ||
        { echo "FAIL $name: warpnet exits $?"; tail -5 "$TMP/$name.log"; fail=1; return 1; }
}

# sub FILE PATH...: the number at a nested key of summary.json, e.g.
# sub S.json paths ops message_latency_max_ns ("paths" -> "ops" -> key).
sub() {
    f=$1; shift
    awk -v keys="$*" 'BEGIN { n = split(keys, k, " ") }
        { text = text $0 "\n" }
        END { p = 1
              for (i = 1; i <= n; i++) { j = index(substr(text, p), "\"" k[i] "\":"); if (!j) exit 1; p += j }
              s = substr(text, p + length(k[n]) + 2); sub(/^ */, "", s); match(s, /^[-0-9.eE+]+/)
              print substr(s, 1, RLENGTH) }' "$f"
}

# goal N "SRC:DST:BYTES ...": a GOAL schedule of N ranks in which every
# listed message is sent at t = 0 (a rank's sends in the order listed) and
# received by its destination.
goal() {
    awk -v n="$1" -v list="$2" 'BEGIN {
        m = split(list, msg, " ")
        print "num_ranks " n
        for (r = 0; r < n; r++) {
            print "rank " r " {"
            k = 0
            for (i = 1; i <= m; i++) {
                split(msg[i], f, ":")
                if (f[1] == r) print " t" k++ ": send " f[3] "b to " f[2] " tag " i
                if (f[2] == r) print " t" k++ ": recv " f[3] "b from " f[1] " tag " i
            }
            print "}"
        }
    }'
}

# replay NAME "MESSAGES" [ARGS...]: replays goal 6 MESSAGES on the run file
# $TMP/NAME.ini (which ends in its [optical] section) with a ranks.csv; the
# rank finish times are read with `finish NAME RANK`.
replay() {
    name=$1; goal 6 "$2" > "$TMP/$name.goal"; shift 2
    printf '[workload]\ntype = replay\n[job.0]\ntrace = %s\n[replay]\nranks_csv = %s\n' \
        "$TMP/$name.goal" "$TMP/$name.csv" >> "$TMP/$name.ini"
    run "$name" "$TMP/$name.ini" "$@"
}

# finish NAME RANK: when that rank's last task ended (its last message arrived).
finish() { awk -F, -v r="$2" '$2 == r { print $3 }' "$TMP/$1.csv"; }

# digest FILE: the committed digest in a summary.json.
digest() { sed -n 's/.*"committed_digest": "\([0-9a-f]*\)".*/\1/p' "$1"; }

# same NAME GOT WANT: GOT equals WANT, and neither is empty.
same() {
    if [ -n "$2" ] && [ "$2" = "$3" ]; then echo "ok   $1: $2"; else echo "FAIL $1: got '$2', want '$3'"; fail=1; fi
}
