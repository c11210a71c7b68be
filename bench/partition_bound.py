#!/usr/bin/python3
"""bench/partition_bound.py — a lower bound on the router links that ANY
partition of a network into N balanced parts must cut (issue 15: is "half of
block's remote share at 64 ranks" reachable at all?). For every part S,
cut(S) >= mu2 |S| (n - |S|) / n, mu2 the router graph's algebraic
connectivity (the Laplacian's second-smallest eigenvalue); the total cut is
half the sum over parts, smallest when parts are as unequal as the balance
allows. Prints the bound in links and as --describe's remote share (cut /
(router links + nodes)).
Usage: warpnet --dump-topology=G.dot RUN.ini
       bench/partition_bound.py G.dot N NODES [IMBALANCE, default 1.03]
Needs python3-numpy (dense eigensolver: a few thousand routers at most)."""
import re
import sys

import numpy as np

if len(sys.argv) < 4:
    sys.exit(__doc__)
path, parts, nodes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
imbalance = float(sys.argv[4]) if len(sys.argv) > 4 else 1.03
edges = [(int(a), int(b)) for a, b in re.findall(r'r(\d+)\s*--\s*r(\d+)', open(path).read())]
n = 1 + max(max(e) for e in edges)
lap = np.zeros((n, n))
for a, b in edges:
    lap[a, b] -= 1
    lap[b, a] -= 1
    lap[a, a] += 1
    lap[b, b] += 1
mu2 = np.linalg.eigvalsh(lap)[1]
largest = int(np.ceil(n / parts * imbalance))
sizes = [largest] * (n // largest) + ([n % largest] if n % largest else [])
cut = sum(mu2 * s * (n - s) / n for s in sizes) / 2
print(f"routers {n}, router links {len(edges)}, nodes {nodes}, mu2 {mu2:.3f}")
print(f"{parts} parts of at most {largest} routers: cut >= {cut:.0f} links "
      f"({100 * cut / len(edges):.1f} %), remote share >= {100 * cut / (len(edges) + nodes):.2f} %")
