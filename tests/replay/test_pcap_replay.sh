#!/bin/sh
# test_pcap_replay.sh — packet-capture replay end to end (docs/pcap-replay.md)
# on captures made here (tests/replay/pcap/make_captures.sh): warpnet-trace
# info reads pcap and pcapng alike; damaged captures stop with one line and
# exit 2; retransmissions, duplicate ACKs and out-of-order timestamps do not
# change the replayed messages; on a zero-latency, practically infinite-
# bandwidth network the causal replay reproduces every captured think time
# (reply start - request end) within 1 % and the open-loop replay every
# captured send time; seq and opt on 2 processes commit the same digest and
# the same message times; an endpoint map by port; convert to native.
set -u
W="${top_builddir:-.}/tools/warpnet/warpnet"
T="${top_builddir:-.}/tools/trace/warpnet-trace"
[ -x "$W" ] || { echo "SKIP: $W not built"; exit 77; }
"$T" info --format=pcap /dev/null 2>&1 | grep -q "support was not built" && { echo "SKIP: no libpcap"; exit 77; }
. "${top_srcdir:-${srcdir:-.}}/tests/limit.sh"
W=$(limited "$W"); T=$(limited "$T")
P="${top_srcdir:-${srcdir:-.}}/tests/replay/pcap"
tmp=$(mktemp -d /tmp/warpnet-pcap.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
die() { echo "FAIL: $*"; fail=1; }
field() { sed -n "s/^$2: //p" "$1"; }

# ---- info: pcap and pcapng -------------------------------------------------
"$T" info "$P/lo-exchange.pcap" > "$tmp/i1" 2>&1 || die "info lo-exchange.pcap: $(tail -1 "$tmp/i1")"
"$T" info "$P/lo-exchange.pcapng" > "$tmp/i2" 2>&1 || die "info lo-exchange.pcapng: $(tail -1 "$tmp/i2")"
[ "$(field "$tmp/i1" format)" = pcap ] || die "format guessed as $(field "$tmp/i1" format), not pcap"
[ "$(field "$tmp/i1" ranks)" = 3 ] || die "ranks $(field "$tmp/i1" ranks), want 3 (one per address)"
[ "$(field "$tmp/i1" messages)" = 14 ] || die "messages $(field "$tmp/i1" messages), want 14 (2 UDP + 2 x 3 rounds x 2)"
[ "$(field "$tmp/i1" capture_payload_bytes)" = 34728 ] || die "payload $(field "$tmp/i1" capture_payload_bytes), want 34728"
[ "$(field "$tmp/i1" capture_flows_with_data)" = 3 ] || die "flows $(field "$tmp/i1" capture_flows_with_data), want 3"
grep -v '^trace:' "$tmp/i1" > "$tmp/i1b"; grep -v '^trace:' "$tmp/i2" > "$tmp/i2b"
cmp -s "$tmp/i1b" "$tmp/i2b" && echo "ok   info: pcap and pcapng agree" || die "pcap and pcapng info differ: $(diff "$tmp/i1b" "$tmp/i2b" | head -4)"

# ---- damaged captures: one line, exit 2 ------------------------------------
bad() { # file expected-words
    "$T" info "$P/$1" > "$tmp/b" 2>&1; rc=$?
    [ $rc = 2 ] || die "$1: exit $rc, want 2: $(tail -2 "$tmp/b")"
    grep -q "$2" "$tmp/b" && echo "ok   $1: $(tail -1 "$tmp/b")" || die "$1: message lacks '$2': $(cat "$tmp/b")"
}
bad bad-truncated.pcap "after packet 4: truncated dump file"
bad bad-snaplen.pcap "packet 3 (30 of 74 bytes captured): its IPv4 header is cut short"
bad bad-linktype.pcap "link type 147 .* is not one the pcap reader decodes"

# ---- set aside: retransmissions, duplicate ACKs, reordering ----------------
"$T" info "$P/retransmit.pcap" > "$tmp/r" 2>&1 || die "retransmit.pcap: $(tail -1 "$tmp/r")"
[ "$(field "$tmp/r" capture_retransmitted_segments)" = 1 ] || die "retransmit.pcap: $(field "$tmp/r" capture_retransmitted_segments) retransmissions, want 1"
[ "$(field "$tmp/r" capture_duplicate_acks)" = 1 ] || die "retransmit.pcap: $(field "$tmp/r" capture_duplicate_acks) duplicate ACKs, want 1"
"$T" info "$P/reordered.pcap" > "$tmp/o" 2>&1 || die "reordered.pcap: $(tail -1 "$tmp/o")"
[ "$(field "$tmp/o" capture_out_of_order_packets)" = 1 ] || die "reordered.pcap: out of order $(field "$tmp/o" capture_out_of_order_packets), want 1"
for f in r o; do
    for k in messages message_bytes ideal_replay_ns; do
        [ "$(field "$tmp/$f" $k)" = "$(field "$tmp/i1" $k)" ] || die "$f: $k $(field "$tmp/$f" $k) differs from the clean capture's $(field "$tmp/i1" $k)"
    done
done
echo "ok   retransmission, duplicate ACK and reordering leave the messages as they were"

# ---- replay on an ideal network --------------------------------------------
run_ini() { # trace mode [extra key lines]
    printf '[engine]\nend = 10s\n[network]\ntopology = simplenet\n[simplenet]\nnodes = 4\n'
    printf 'latency = 0ns\nbandwidth = 1e9TB/s\n[workload]\ntype = replay\n[job.0]\ntrace = %s\n' "$1"
    printf '[replay]\npcap_mode = %s\nmessages_csv = %s\nflows_csv = %s\n' "$2" "$tmp/m.csv" "$tmp/f.csv"
    [ $# -lt 3 ] || printf '%s\n' "$3"
}
run_ini "$P/lo-exchange.pcap" causal > "$tmp/c.ini"
"$W" --synch=seq "$tmp/c.ini" > "$tmp/seq" 2>&1 || die "causal seq run failed: $(tail -3 "$tmp/seq")"
grep -q "tasks *42 of 42" "$tmp/seq" || die "causal: not every task ran: $(grep 'tasks ' "$tmp/seq")"
grep -q "flow_fct_ratio simulated/captured over 3 flows" "$tmp/seq" || die "no flow completion ratio in the report"
[ "$(wc -l < "$tmp/f.csv")" = 4 ] || die "flows.csv: $(wc -l < "$tmp/f.csv") lines, want a header and 3 flows"
cp "$tmp/m.csv" "$tmp/m-seq.csv"
# Think times: a reply starts (captured first byte - request's last byte)
# after the request arrived; first messages of a flow start at their captured time.
awk -F, 'NR == 1 { next }
    { first[$2] = $9; last[$2] = $10; send[$2] = $11; arr[$2] = $12
      if ($8 == 1) { n++; p = $4
          cg = $9 - last[p]; sg = $11 - arr[p]; d = cg - sg; if (d < 0) d = -d
          if (cg > 0 && d > 0.01 * cg) { printf "message %s: captured gap %s ns, simulated %s ns\n", $2, cg, sg; bad = 1 } }
      else if ($4 == -1 && $11 != $9) { printf "message %s: sent at %s, captured at %s\n", $2, $11, $9; bad = 1 } }
    END { if (n < 10) { print "only " n " replies"; bad = 1 }; exit bad }' "$tmp/m.csv" > "$tmp/gaps" \
    && echo "ok   causal: every reply's think time within 1 % of the captured one" \
    || die "causal gaps: $(head -3 "$tmp/gaps")"
ref=$(sed -n 's/.*committed digest: //p' "$tmp/seq")
for mode in "--synch=opt" "np2 --synch=opt"; do
    case $mode in
    np2*) [ -n "${MPIEXEC:-}" ] || continue
          $MPIEXEC -n 2 "$W" ${mode#np2 } "$tmp/c.ini" > "$tmp/out" 2>&1 ;;
    *) "$W" $mode "$tmp/c.ini" > "$tmp/out" 2>&1 ;;
    esac || { die "$mode: failed: $(tail -3 "$tmp/out")"; continue; }
    d=$(sed -n 's/.*committed digest: //p' "$tmp/out")
    [ -n "$d" ] && [ "$d" = "$ref" ] || die "$mode: digest '$d', seq gave '$ref'"
    cmp -s "$tmp/m.csv" "$tmp/m-seq.csv" || die "$mode: message times differ from seq: $(diff "$tmp/m.csv" "$tmp/m-seq.csv" | head -3)"
    echo "ok   causal $mode: digest and message times as in seq"
done

run_ini "$P/lo-exchange.pcapng" open-loop > "$tmp/l.ini"
"$W" "$tmp/l.ini" > "$tmp/ol" 2>&1 || die "open-loop run failed: $(tail -3 "$tmp/ol")"
awk -F, 'NR > 1 && $11 != $9 { printf "message %s sent at %s, captured at %s\n", $2, $11, $9; bad = 1 }
    END { exit bad }' "$tmp/m.csv" > "$tmp/ols" && echo "ok   open-loop: every message leaves at its captured time" \
    || die "open-loop: $(head -3 "$tmp/ols")"

# ---- an endpoint map by port: the server alone, both clients on one rank ----
printf '# server\n127.0.0.2 0\n127.0.0.1 1\n127.0.0.3 1\n' > "$tmp/ep.map"
"$T" info --pcap-map="$tmp/ep.map" "$P/lo-exchange.pcap" > "$tmp/mi" 2>&1 || die "map: $(tail -1 "$tmp/mi")"
[ "$(field "$tmp/mi" ranks)" = 2 ] || die "map: ranks $(field "$tmp/mi" ranks), want 2"
printf '127.0.0.2:5000 0\n127.0.0.1 1\n' > "$tmp/short.map"
"$T" info --pcap-map="$tmp/short.map" "$P/lo-exchange.pcap" > "$tmp/ms" 2>&1
[ $? = 2 ] && grep -q "endpoint 127.0.0.2 port 5001 is in no line of the endpoint map" "$tmp/ms" \
    && echo "ok   map: an endpoint it lacks is named" || die "short map: $(cat "$tmp/ms")"

# ---- convert to the native format: the same graph ---------------------------
"$T" convert "$P/lo-exchange.pcap" "$tmp/n.txt" > "$tmp/cv" 2>&1 || die "convert: $(tail -1 "$tmp/cv")"
"$T" info "$tmp/n.txt" > "$tmp/ni" 2>&1 || die "native info: $(tail -1 "$tmp/ni")"
for k in ranks tasks messages message_bytes wait_ns ideal_replay_ns; do
    [ "$(field "$tmp/ni" $k)" = "$(field "$tmp/i1" $k)" ] || die "converted $k $(field "$tmp/ni" $k), capture $(field "$tmp/i1" $k)"
done
echo "ok   convert: the native trace has the capture's graph"
exit $fail
