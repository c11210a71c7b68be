#!/usr/bin/env python3
"""mkseed_pcap.py IN.pcap OUT [HEAD] -- a seed for fuzz_pcap.c from a classic
little-endian pcap file: the head byte (default 0x10: Ethernet, causal),
then each packet as caplen (2 bytes), timestamp step in us (2 bytes, capped)
and its bytes, up to 48 packets of at most 1600 bytes."""
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
head = int(sys.argv[3], 0) if len(sys.argv) > 3 else 0x10
data = open(src, "rb").read()
nano = struct.unpack("<I", data[:4])[0] == 0xA1B23C4D
out, off, prev = bytearray([head]), 24, None
for _ in range(48):
    if off + 16 > len(data):
        break
    sec, frac, incl, orig = struct.unpack("<IIII", data[off:off + 16])
    body = data[off + 16:off + 16 + incl][:1600]
    us = sec * 10**6 + (frac // 1000 if nano else frac)
    step = 0 if prev is None else min(us - prev, 32767)
    prev = us
    out += struct.pack("<Hh", len(body), step) + body
    off += 16 + incl
open(dst, "wb").write(bytes(out))
