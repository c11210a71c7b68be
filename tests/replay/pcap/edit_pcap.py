#!/usr/bin/env python3
"""edit_pcap.py -- hand-built edge cases from a good classic pcap file, for
the pcap reader's tests (make_captures.sh runs it):
  edit_pcap.py pcapng IN OUT      the same packets as a pcapng file
  edit_pcap.py truncate IN OUT    the file cut in the middle of its 5th packet
  edit_pcap.py snaplen IN OUT     the first 8 packets, the 3rd cut to 30 captured bytes
  edit_pcap.py linktype IN OUT    the first 8 packets, link type 147 (USER0) in the header
  edit_pcap.py reorder IN OUT     the 4th and 5th packets' timestamps swapped
  edit_pcap.py retransmit IN OUT  the first TCP data segment and the pure ACK
                                  that follows it sent again 50 us later"""
import struct
import sys


def tcp_payload(frame):
    """TCP payload bytes of an Ethernet/IPv4 frame; -1 when it is not TCP."""
    if len(frame) < 34 or frame[12:14] != b"\x08\x00" or frame[23] != 6:
        return -1
    ihl = (frame[14] & 15) * 4
    total = struct.unpack("!H", frame[16:18])[0]
    doff = (frame[14 + ihl + 12] >> 4) * 4
    return total - ihl - doff


def read(path):
    data = open(path, "rb").read()
    magic = struct.unpack("<I", data[:4])[0]
    assert magic in (0xA1B2C3D4, 0xA1B23C4D), "little-endian classic pcap expected"
    nano = magic == 0xA1B23C4D
    head = data[:24]
    pkts, off = [], 24
    while off < len(data):
        sec, frac, incl, orig = struct.unpack("<IIII", data[off:off + 16])
        pkts.append([sec, frac, incl, orig, data[off + 16:off + 16 + incl]])
        off += 16 + incl
    return head, nano, pkts


def write(path, head, pkts, cut=None):
    out = bytearray(head)
    for sec, frac, incl, orig, body in pkts:
        out += struct.pack("<IIII", sec, frac, incl, orig) + body
    open(path, "wb").write(bytes(out[:cut] if cut else out))


def pcapng(path, head, nano, pkts):
    linktype, snaplen = struct.unpack("<I", head[20:24])[0], struct.unpack("<I", head[16:20])[0]

    def block(btype, body):
        body += b"\0" * (-len(body) % 4)
        n = 12 + len(body)
        return struct.pack("<II", btype, n) + body + struct.pack("<I", n)

    out = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1))
    # if_tsresol = 9 (ns) or 6 (us), then opt_endofopt
    opts = struct.pack("<HHB", 9, 1, 9 if nano else 6) + b"\0\0\0" + struct.pack("<HH", 0, 0)
    out += block(1, struct.pack("<HHI", linktype, 0, snaplen) + opts)
    for sec, frac, incl, orig, body in pkts:
        ts = sec * (10**9 if nano else 10**6) + frac
        out += block(6, struct.pack("<IIIII", 0, ts >> 32, ts & 0xFFFFFFFF, incl, orig) + body)
    open(path, "wb").write(out)


def main():
    what, src, dst = sys.argv[1:4]
    head, nano, pkts = read(src)
    if what == "pcapng":
        pcapng(dst, head, nano, pkts)
    elif what == "truncate":
        cut = 24 + sum(16 + p[2] for p in pkts[:4]) + 16 + 10
        write(dst, head, pkts, cut)
    elif what == "snaplen":
        p = pkts[2]
        p[2], p[4] = 30, p[4][:30]
        write(dst, head, pkts[:8])
    elif what == "linktype":
        write(dst, head[:20] + struct.pack("<I", 147), pkts[:8])
    elif what == "reorder":
        a, b = pkts[3], pkts[4]
        a[0], a[1], b[0], b[1] = b[0], b[1], a[0], a[1]
        write(dst, head, pkts)
    elif what == "retransmit":
        data = next(i for i, p in enumerate(pkts) if tcp_payload(p[4]) > 0)
        ack = next(i for i, p in enumerate(pkts) if i > data and tcp_payload(p[4]) == 0)
        step = 50000 if nano else 50
        copies = []
        for i in (data, ack):
            c = list(pkts[i])
            c[1] += step
            copies.append(c)
        pkts = pkts[:ack + 1] + copies + pkts[ack + 1:]
        write(dst, head, pkts)
    else:
        sys.exit("edit_pcap.py: unknown edit " + what)


if __name__ == "__main__":
    main()
