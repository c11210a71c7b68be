#!/bin/sh
# simplenet and loggp against hand-computed times (s = 1000 B unless said).
# simplenet: latency a = 500 ns, 1 GB/s (s/B = 1000 ns).
# loggp: L 2500, o 1500, g 1000, G 6, O 0 (ns): a NIC's sends are
#   g + (s-1)G = 6994 ns apart; a message is at the receiver o + L = 4000 ns
#   after it starts; receive gaps are 6994 ns too.
. "${top_srcdir:-.}/tests/net/lib.sh"
SIMPLE="topology = simplenet
[simplenet]
nodes = 4
latency = 500ns
bandwidth = 1GB/s"
LOGGP="topology = loggp
[loggp]
nodes = 4
L = 2500ns
o = 1500ns
g = 1000ns
G = 6ns
O = 0ns"
run() { # name network workload-lines
    printf '[engine]\nend = 1ms\n[network]\n%s\n[workload]\n%s\n' "$2" "$3" > "$TMP/s.ini"
    "$WARPNET" --quiet "$TMP/s.ini" --out="$TMP/o" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; return; }
}
check() { # name mean last msgs
    close "$1 mean message latency" "$(json "$TMP/o/summary.json" message_latency_ns mean)" "$2"
    close "$1 last delivery" "$(json "$TMP/o/summary.json" last_delivery_ns)" "$3"
    close "$1 messages" "$(json "$TMP/o/summary.json" delivered_messages)" "$4"
}
# Two messages 1 ns apart from rank 1 to rank 2; the second waits for the NIC.
#  simplenet: complete at 1500 and 2500 (sent 0 and 1): latencies 1500, 2499.
#  loggp: starts 0 and 6994, at the receiver 4000 and 10994: latencies 4000, 10993.
TWO="pattern = pair
src = 1
dst = 2
count = 2
arrivals = fixed
interval = 1ns
message_size = 1000B"
run simplenet "$SIMPLE" "$TWO"; check "simplenet two messages" 1999.5 2500 2
run loggp "$LOGGP" "$TWO"; check "loggp two messages" 7496.5 10994 2
# Ping-pong, 3 round trips of 1000 B starting at 1 us.
#  simplenet: round trip 2 (a + s/B) = 3000: last answer at 1000 + 3 * 3000.
#  loggp: round trip 2 (o + L + o + (s-1)G) = 2 * 11494 = 22988 (each side's CPU
#  takes o + (s-1)G before answering); the last answer reaches the NIC at
#  1000 + 2 * 22988 + (o + L) + (o + (s-1)G) + (o + L) = 1000 + 45976 + 15494.
PP="pattern = pingpong
src = 0
dst = 3
count = 3
start = 1us
message_size = 1000B"
run simplenet "$SIMPLE" "$PP"; check "simplenet ping-pong" 1500 10000 6
run loggp "$LOGGP" "$PP"; check "loggp ping-pong" 4000 62470 6
# All-to-all of 4 ranks: each sends to r+1, r+2, r+3 at 0, 1, 2 ns.
#  simplenet: the NIC sends them at 0, 1000, 2000; complete at 1500, 2500, 3500.
#  loggp: starts 0, 6994, 13988; taken at 4000, 10994, 17988.
A2A="pattern = alltoall
count = 3
arrivals = fixed
interval = 1ns
message_size = 1000B"
run simplenet "$SIMPLE" "$A2A"; check "simplenet all-to-all" 2499 3500 12
run loggp "$LOGGP" "$A2A"; check "loggp all-to-all" 10993 17988 12
# --synch=check for both NIC types and the traffic LP, and opt gives the same digest.
for net in "$SIMPLE" "$LOGGP"; do
    printf '[engine]\nend = 1ms\n[network]\n%s\n[workload]\n%s\n' "$net" "$PP" > "$TMP/c.ini"
    "$WARPNET" --quiet --synch=check "$TMP/c.ini" --out="$TMP/c1" > "$TMP/log" 2>&1 \
        || { echo "FAIL --synch=check"; cat "$TMP/log"; fail=1; }
    "$WARPNET" --quiet --synch=opt "$TMP/c.ini" --out="$TMP/c2" > "$TMP/log" 2>&1 \
        || { echo "FAIL --synch=opt"; cat "$TMP/log"; fail=1; }
    if cmp -s "$TMP/c1/terminals.csv" "$TMP/c2/terminals.csv" &&
       [ "$(grep -o '"committed_digest": "[0-9a-f]*"' "$TMP/c1/summary.json")" = \
         "$(grep -o '"committed_digest": "[0-9a-f]*"' "$TMP/c2/summary.json")" ]; then
        echo "ok   check and opt agree on $(sed -n 's/^topology = //p' "$TMP/c.ini")"
    else
        echo "FAIL check and opt differ"; fail=1
    fi
done
exit $fail
