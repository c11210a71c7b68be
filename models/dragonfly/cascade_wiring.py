#!/usr/bin/env python3
"""cascade_wiring.py — writes a Cascade dragonfly's wiring in the binary
formats of CODES's dragonfly-custom model (the files its
intra-group-connections and inter-group-connections keys name, and warpnet's
[dragonfly] intra_file and inter_file read; models/dragonfly/dragonfly_files.h).

  intra file: native 32-bit (src, dest, type) per link end, router indices
    inside a group (row * columns + column), type 0 row, 1 column; every pair
    of a row gets ROW_LINKS links, every pair of a column COLUMN_LINKS;
  inter file: native 32-bit (src, dest) per link end, router ids of the
    whole network (group * a + index); the k-th entry of a router is its
    global port k. Group i's global port j = r * h + k is slot j mod (g - 1)
    of round j div (g - 1) and leads to group slot (if slot < i) or slot + 1
    (warpnet's absolute arrangement), so every pair of groups gets
    a * h / (g - 1) links (a * h must be a multiple of g - 1).

Usage: cascade_wiring.py ROWS COLUMNS ROW_LINKS COLUMN_LINKS GROUPS H INTRA INTER
CODES's Theta (modelnet-test-dragonfly-theta.conf): 6 16 1 3 9 4.
"""
import struct
import sys


def main(argv):
    if len(argv) != 9:
        sys.exit(__doc__.strip().split("\n\n")[-1])
    rows, cols, rl, cl, g, h = (int(x) for x in argv[1:7])
    a, ports = rows * cols, rows * cols * h
    if g < 2 or ports % (g - 1):
        sys.exit("cascade_wiring.py: a*h = %d global ports per group is not a multiple of "
                 "g - 1 = %d; change g or h" % (ports, g - 1))
    with open(argv[7], "wb") as f:
        for r in range(a):
            for o in range(a):
                if o != r and o // cols == r // cols:
                    f.write(struct.pack("=3i", r, o, 0) * rl)
            for o in range(a):
                if o != r and o % cols == r % cols:
                    f.write(struct.pack("=3i", r, o, 1) * cl)
    n = g - 1
    with open(argv[8], "wb") as f:
        for i in range(g):
            for j in range(ports):
                slot = j % n
                d = slot if slot < i else slot + 1
                fj = (j // n) * n + (i if i < d else i - 1)
                f.write(struct.pack("=2i", i * a + j // h, d * a + fj // h))


if __name__ == "__main__":
    main(sys.argv)
