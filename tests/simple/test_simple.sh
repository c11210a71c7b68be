#!/bin/sh
# simplenet and loggp against hand-computed times. One sender sends two
# 1000-byte messages 1 ns apart to one receiver; the second waits for the
# sender's NIC.
#  simplenet (latency 500 ns, 1 GB/s): m0 sent 0, complete 500 + 1000 = 1500;
#    m1 sent 1, leaves at 1000, complete 2500: latencies 1500 and 2499.
#  loggp (L 2500, o 1500, g 1000, G 6, O 0): m0 ts 0, at receiver o+L = 4000;
#    the NIC's next send at g + 999 G = 6994; m1 reaches the receiver at
#    10994, its receive gap frees at 4000 + 6994 = 10994: latencies 4000, 10993.
. "${top_srcdir:-.}/tests/net/lib.sh"
run() { # name extra-section mean max
    cat > "$TMP/s.ini" <<INI
[engine]
end = 1ms
[network]
$2
[workload]
pattern = pair
src = 1
dst = 2
count = 2
arrivals = fixed
interval = 1ns
message_size = 1000B
INI
    "$WARPNET" --quiet "$TMP/s.ini" --out="$TMP/o" > "$TMP/log" 2>&1 || { cat "$TMP/log"; fail=1; return; }
    close "$1 mean latency" "$(json "$TMP/o/summary.json" message_latency_ns mean)" "$3"
    close "$1 max latency" "$(json "$TMP/o/summary.json" message_latency_ns max)" "$4"
    close "$1 messages" "$(json "$TMP/o/summary.json" delivered_messages)" 2
}
run simplenet "topology = simplenet
[simplenet]
nodes = 4
latency = 500ns
bandwidth = 1GB/s" 1999.5 2499
run loggp "topology = loggp
[loggp]
nodes = 4
L = 2500ns
o = 1500ns
g = 1000ns
G = 6ns
O = 0ns" 7496.5 10993
# The same runs pass --synch=check (NIC and traffic LP types).
"$WARPNET" --quiet --synch=check "$TMP/s.ini" > "$TMP/log" 2>&1 || { echo "FAIL loggp --synch=check"; cat "$TMP/log"; fail=1; }
exit $fail
