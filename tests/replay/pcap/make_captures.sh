#!/bin/sh
# make_captures.sh -- regenerates the pcap reader's test captures in this
# directory: lo-exchange.pcap, real traffic on the loopback interface
# (tcpdump -i lo around exchange.py, so it needs root and tcpdump), and the
# hand-built edge cases edit_pcap.py derives from it. The files it wrote
# are committed; the tests never run it.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
out=lo-exchange.pcap
tcpdump -i lo -w "$out.tmp" -U -s 65535 '(host 127.0.0.2) and (port 5000 or port 5001)' 2>/dev/null &
dump=$!
sleep 1
python3 exchange.py
sleep 1
kill "$dump"
wait "$dump" || true
mv "$out.tmp" "$out"
python3 edit_pcap.py pcapng "$out" lo-exchange.pcapng
python3 edit_pcap.py truncate "$out" bad-truncated.pcap
python3 edit_pcap.py snaplen "$out" bad-snaplen.pcap
python3 edit_pcap.py linktype "$out" bad-linktype.pcap
python3 edit_pcap.py reorder "$out" reordered.pcap
python3 edit_pcap.py retransmit "$out" retransmit.pcap
ls -l "$here"/*.pcap "$here"/*.pcapng
