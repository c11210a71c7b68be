#!/usr/bin/env python3
"""mkseed_bigsim.py OUTDIR — writes small BigSim fuzz seeds as bundles for
fuzz_bigsim (tests/fuzz/fuzz_trace.c): bgTrace, then bgTrace0, bgTrace1, ...
joined by the separator "\\n-file-\\n". The trace is the 4-PE synthetic trace
of tests/replay/test_bigsim.c (2 nodes x 2 threads in 2 files, a start
broadcast, a ring of messages) in several header and log versions. The
sample traces are too large (900 KB) to mutate quickly, so seeds are made."""
import os
import struct
import sys

SEP = b"\n-file-\n"


def header(version, big):
    h = bytearray([0x10, 0xEA, 0xBD, 0xF9, version, 1, 2, 4, 8, 0, 0, 0, 0, 0, 0, 0])
    k = 1 if version == 1 else 0
    if k:
        h[9] = 16
    h[9 + k] = 0 if big else 1
    h[10 + k] = 4
    h[11 + k] = 8
    h[12 + k] = 0 if big else 1
    h[13 + k] = 1
    h[14 + k] = 8
    return bytes(h)


def task(e, logv, seq, mpe, mid, exe, flag, name, msgs, back, events):
    b = e("iiii", 7, seq, mpe, mid)
    if logv >= 6:
        b += e("HI", 0, 0xDEADBEEF)
    if logv >= 4:
        b += e("h", -1)
    b += e("ddddd", 0.0, 0.0, 1e-3 * seq, exe, 1e-3 * seq + exe)
    b += bytes([flag]) + name.encode().ljust(20, b"\0")[:20]
    if logv >= 2:
        b += e("i", -1) * (3 if logv == 2 else 4)
    b += e("i", len(msgs))
    for (mid_, dst, tid, size) in msgs:
        b += e("iiddhi", mid_, dst, 0.5, 0.6, tid, size)
        if logv > 0:
            b += e("i", 0)
    if events:
        b += e("i", 2) + bytes([2]) + e("di", 1e-9, 6) + b"hello\0" + bytes([1]) + e("di", 2e-9, 3)
    else:
        b += e("i", 0)
    b += e("i", len(back)) + b"".join(e("i", x) for x in back) + e("i", 0)
    return b


def trace(version, big, logv):
    order = ">" if big else "<"
    e = lambda fmt, *v: struct.pack(order + fmt, *v)
    files = [header(version, big) + e("i" * 10, 4, 2, 1, 1, 1, 2, 0, 0, 2, logv)]
    for f in range(2):
        body = b""
        offs = []
        base = 16 + 4 + 8
        for th in range(2):
            pe = f * 2 + th
            nxt, prev = (pe + 1) % 4, (pe + 3) % 4
            offs.append(base + len(body))
            body += e("i", 4)
            if pe == 0:
                body += task(e, logv, 0, -1, -1, 2e-6, 1, "start", [(100, -1, -1, 16)], [], False)
            else:
                body += task(e, logv, 0, -1, -1, 2e-6, 0, "init", [], [], False)
            body += task(e, logv, 1, 0, 100, 3e-6, 0, "AMPI_Send", [(200 + pe, nxt // 2, nxt % 2, 64)], [0], False)
            body += task(e, logv, 2, prev, 200 + prev, 1e-6, 0, "work", [], [1], True)
            body += task(e, logv, 3, -1, -1, 5e-6, 0, "msgep", [], [2], False)
        files.append(header(version, big) + e("iii", 2, *offs) + body)
    return SEP.join(files)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    for version, big, logv in [(0, 0, 0), (1, 0, 2), (0, 1, 4), (1, 0, 6)]:
        name = "synthetic-h%d-%s-log%d" % (version, "be" if big else "le", logv)
        with open(os.path.join(out, name), "wb") as f:
            f.write(trace(version, big, logv))


main()
