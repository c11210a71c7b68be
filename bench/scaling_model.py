#!/usr/bin/env python3
"""bench/scaling_model.py -- a calibrated model of the optimistic engine's
strong scaling: it fits per-event costs to what bench/scaling.sh measured
(bench/results/scaling.csv), takes each run's remote share and imbalance on
N ranks from `warpnet --describe --ranks=N` (bench/results/describe_ranks.csv),
checks itself against the measured 16-rank runs, and predicts 64, 256 and
1,024 ranks for the headline cases.

  bench/scaling_model.py                   validation table and predictions (Markdown)
  bench/scaling_model.py --describe WARPNET [SCENARIO ...]
                                           rerun --describe --ranks=N into describe_ranks.csv
                                           (every scenario, or the ones named)

The model, per rank count N (C committed events, imb(N) and share(N) from
--describe, p cores a node):

  ev(N)  = C / N * imb(N)                    events the busiest rank commits
  run(N) = ev(N) * [ f1 * (1 + mu * log2(min(N, p)))       forward work, slower
                                                            as a node fills up
                     + k * share(N) * c_net * phi(N)        remote events
                     + (g0 + g1 * log2 N) / 512             GVT rounds (one per
                                                            16 batches of 32)
                     + other ]                              queue, fossil, ...

f1 is the sequential run's forward time per event; mu, c_net, g0, g1 and
other are fitted to the scenario's own time split (forward, network, GVT, the
rest) on 2, 4 and 8 ranks (validation) or 2 to 16 ranks (predictions); k
turns --describe's share of links cut into the measured share of remote
events (a packet's hop is several events, one of them crosses). phi(N) is 1
on one node and 1 + (phi_inter - 1) * (share of remote events that leave the
node) beyond it: the cost of an event sent to another node against one sent
on the node, which no machine here measured -- the predictions give it as
a band, phi_inter = 1, 2 and 4.

Cases measured only on 2 ranks (the 524K fat-tree, the 512K stencil replay)
borrow the fitted costs of the scenario of the same model (fattree-codes,
replay-ft64) and are anchored to their own 2-rank run: predicted(N) =
measured(2) * model(N) / model(2).
"""
import csv
import math
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, 'results')
TOP = os.path.dirname(HERE)
CORES_PER_NODE = 16
RANKS = (2, 4, 8, 16, 64, 256, 1024)

# The run file of each scenario, for --describe (replay-ft64's is the one
# bench/scenarios.sh writes).
SCENARIO_FILES = {
    'torus-32k': 'examples/configs/torus-32k-codes.ini',
    'fattree-codes': 'examples/configs/fattree-8p3l-codes.ini',
    'replay-ft64': None,
    'slimfly-q13': 'examples/configs/slimfly-q13.ini',
    'slimfly-q163-window': 'examples/configs/slimfly-q163.ini',
    'fattree-524k': 'examples/configs/fattree-128p3l-fts.ini',
    'stencil-512k-torus': 'examples/configs/replay-stencil-512k-torus.ini',
}
REPLAY_FT64 = """[engine]
end = 1s
[network]
topology = fattree
link_bandwidth = 12.5GB/s
link_latency = 50ns
router_delay = 90ns
packet_size = 512B
vc_buffer = 8KiB
[fattree]
ports = 64
levels = 3
[workload]
type = replay
[job.0]
trace = gen:stencil3d:px=32,py=32,pz=32,iters=1,bytes=1024,compute=5000
"""


def read(name):
    with open(os.path.join(RESULTS, name), newline='') as f:
        return list(csv.DictReader(f))


def describe(warpnet, only):
    """Reruns warpnet --describe --ranks=N into describe_ranks.csv for the
    scenarios named in only (all when empty); the other rows stay."""
    import tempfile
    tmp = tempfile.mkdtemp(prefix='warpnet-scaling-model.')
    ft64 = os.path.join(tmp, 'replay-ft64.ini')
    with open(ft64, 'w') as f:
        f.write(REPLAY_FT64)
    path_csv = os.path.join(RESULTS, 'describe_ranks.csv')
    unknown = [s for s in only if s not in SCENARIO_FILES]
    if unknown:
        sys.exit(f"bench/scaling_model.py: unknown scenario {unknown[0]}: one of {', '.join(SCENARIO_FILES)}")
    keep = [r for r in read('describe_ranks.csv') if only and r['scenario'] not in only] \
        if os.path.exists(path_csv) else []
    out = {}
    for r in keep:
        out.setdefault(r['scenario'], []).append((r['scenario'], r['ranks'], r['expected_remote_share'],
                                                  r['event_imbalance']))
    for s, path in SCENARIO_FILES.items():
        if only and s not in only:
            continue
        out[s] = []
        path = ft64 if path is None else os.path.join(TOP, path)
        for n in RANKS:
            p = subprocess.run([warpnet, '--describe', f'--ranks={n}', path],
                               capture_output=True, text=True)
            share = re.search(r'^expected_remote_share: ([0-9.]+) %', p.stdout, re.M)
            imb = re.search(r'^event_imbalance: ([0-9.]+)', p.stdout, re.M)
            # More ranks than routers is refused: no row, no prediction there.
            if p.returncode == 0 and share and imb:
                out[s].append((s, n, share.group(1), imb.group(1)))
    with open(path_csv, 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(('scenario', 'ranks', 'expected_remote_share', 'event_imbalance'))
        for s in SCENARIO_FILES:  # one order, whichever rows were rerun
            w.writerows(out.get(s, []))


def lstsq(xs, ys):
    """Least squares of y = X b for a design of one or two columns."""
    if len(xs[0]) == 1:
        return [sum(x[0] * y for x, y in zip(xs, ys)) / sum(x[0] ** 2 for x in xs)]
    a11 = sum(x[0] * x[0] for x in xs)
    a12 = sum(x[0] * x[1] for x in xs)
    a22 = sum(x[1] * x[1] for x in xs)
    b1 = sum(x[0] * y for x, y in zip(xs, ys))
    b2 = sum(x[1] * y for x, y in zip(xs, ys))
    det = a11 * a22 - a12 * a12
    return [(a22 * b1 - a12 * b2) / det, (a11 * b2 - a12 * b1) / det]


class Scenario:
    def __init__(self, name, runs, desc):
        self.name = name
        self.runs = {int(r['ranks']): r for r in runs if r['synch'] in ('seq', 'opt')}
        self.desc = desc
        seq = self.runs[1]
        self.C = float(seq['committed'])
        self.f1 = float(seq['fwd_s']) / self.C

    def share_imb(self, n):
        if self.name == 'phold-large':  # uniform remote 0.1 over N ranks
            return 0.1 * (1 - 1 / n), 1.0
        return self.desc[(self.name, n)]

    def ev(self, n, C=None):
        return (C or self.C) / n * self.share_imb(n)[1]

    def fit(self, cal):
        m = lambda n, col: float(self.runs[n][col])
        ev = {n: self.ev(n) for n in cal}
        self.k = sum(m(n, 'remote_share') / self.share_imb(n)[0] for n in cal) / len(cal)
        self.mu = lstsq([[ev[n] * self.f1 * math.log2(min(n, CORES_PER_NODE))] for n in cal],
                        [m(n, 'fwd_s') - ev[n] * self.f1 for n in cal])[0]
        self.c_net = lstsq([[ev[n] * m(n, 'remote_share')] for n in cal], [m(n, 'net_s') for n in cal])[0]
        self.g0, self.g1 = lstsq([[ev[n] / 512, ev[n] / 512 * math.log2(n)] for n in cal],
                                 [m(n, 'gvt_s') for n in cal])
        self.other = lstsq([[ev[n]] for n in cal],
                           [m(n, 'run_s') - m(n, 'fwd_s') - m(n, 'net_s') - m(n, 'gvt_s') for n in cal])[0]
        return self

    def run(self, n, phi_inter=1.0, target=None):
        """Predicted run seconds on n ranks; target: another scenario's shape and size."""
        t = target or self
        share, imb = t.share_imb(n)
        ev = t.C / n * imb
        off = max(0.0, 1 - (CORES_PER_NODE - 1) / (n - 1)) if n > 1 else 0.0
        phi = 1 + (phi_inter - 1) * off
        return ev * (self.f1 * (1 + self.mu * math.log2(min(n, CORES_PER_NODE)))
                     + self.k * share * self.c_net * phi
                     + (self.g0 + self.g1 * math.log2(n)) / 512
                     + self.other)


def measured(anchor, n, pred):
    """The anchor file's check run at n ranks, if any, and the prediction's error against it."""
    if anchor.get('check_ranks') != str(n):
        return ''
    m = float(anchor['check_run_s'])
    return f"{m:.1f} s ({anchor['check_commit']}; model {(pred / m - 1) * 100:+.0f} %)"


class Target:
    """A case known by its size, its --describe on N ranks and one measured run."""
    def __init__(self, name, C, desc):
        self.name, self.C, self.desc = name, C, desc

    def share_imb(self, n):
        return self.desc[(self.name, n)]


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == '--describe':
        describe(sys.argv[2], sys.argv[3:])
        return 0
    if len(sys.argv) != 1:
        sys.exit('usage: bench/scaling_model.py [--describe WARPNET [SCENARIO ...]]')
    rows = read('scaling.csv')
    desc = {(r['scenario'], int(r['ranks'])): (float(r['expected_remote_share']) / 100,
                                                float(r['event_imbalance']))
            for r in read('describe_ranks.csv')}
    names = list(dict.fromkeys(r['scenario'] for r in rows))
    print('## Validation: fitted on 2, 4 and 8 ranks, predicting 16 (bench/results/scaling.csv)\n')
    print('| scenario | mu | k | c_net (ns per remote event) | predicted run at 16 (s) | measured | error | '
          'predicted speed-up | measured |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    errs = []
    for s in names:
        sc = Scenario(s, [r for r in rows if r['scenario'] == s], desc).fit((2, 4, 8))
        pred, meas = sc.run(16), float(sc.runs[16]['run_s'])
        seq = float(sc.runs[1]['run_s'])
        errs.append(abs(pred / meas - 1))
        print(f'| {s} | {sc.mu:.3f} | {sc.k:.2f} | {sc.c_net * 1e9:.0f} | {pred:.3f} | {meas:.3f} | '
              f'{(pred / meas - 1) * 100:+.0f} % | {seq / pred:.2f}x | {seq / meas:.2f}x |')
    print(f'\nWithin 20 %: {sum(e <= 0.20 for e in errs)} of {len(errs)} scenarios; '
          f'largest error {max(errs) * 100:.0f} %.\n')

    print('## Predictions past the box (fitted on 2 to 16 ranks, 16 ranks a node)\n')
    print('Run time of the whole case, anchored to its measured 2-rank run; phi_inter '
          '= 1 / 2 / 4 is the cost of a remote event that leaves the node against one on the node.\n')
    print('| case | anchor: measured run on 2 ranks | calibrated on | ranks | predicted run (s), '
          'phi_inter 1 / 2 / 4 | speed-up over 2 ranks | busiest rank\'s events | measured |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- |')
    for a in read('scaling_anchors.csv'):
        cal = Scenario(a['calibrated_on'], [r for r in rows if r['scenario'] == a['calibrated_on']],
                       desc).fit((2, 4, 8, 16))
        tgt = Target(a['case'], float(a['committed']), desc)
        base = float(a['run_s'])
        for n in (16, 64, 256, 1024):
            if (a['case'], n) not in desc:
                continue
            preds = [base * cal.run(n, phi, tgt) / cal.run(2, 1.0, tgt) for phi in (1, 2, 4)]
            print(f"| {a['case']} | {base:.0f} s ({a['date']}, {a['commit']}) | {a['calibrated_on']} | {n} | "
                  f"{' / '.join(f'{p:.1f}' for p in preds)} | {base / preds[1]:.1f}x | "
                  f'{tgt.C / n * tgt.share_imb(n)[1] / 1e6:.1f} M | {measured(a, n, preds[0])} |')
    return 0


if __name__ == '__main__':
    sys.exit(main())
