#!/usr/bin/env python3
"""bench/scaling_model.py -- a calibrated model of the optimistic engine's
strong scaling: it fits per-event costs to what bench/scaling.sh measured
(bench/results/scaling.csv), takes each run's remote share and imbalance on
N ranks from `warpnet --describe --ranks=N` (bench/results/describe_measured.csv
for the runs it was fitted to, bench/results/describe_ranks.csv for its predictions),
checks itself against the measured 16-rank runs (fitted on 1 to 8 ranks) and
predicts 64, 256 and 1,024 ranks for the headline cases (fitted on 1 to 16).

  bench/scaling_model.py                   validation table and predictions (Markdown)
  bench/scaling_model.py --describe WARPNET [SCENARIO ...]
                                           rerun --describe --ranks=N into describe_ranks.csv
                                           (every scenario, or the ones named)

describe_measured.csv holds the same estimates for the partitions the runs
of scaling.csv were measured with (frozen: the fat-tree's topology
partition changed after them), describe_ranks.csv today's, which
--describe rewrites and the predictions use.

The model: the run lasts as long as its busiest rank, which commits
ev(N) = C / N * imb(N) events (C committed in all, imb(N) from --describe),
and each of them costs

  t(N) = t1 * (1 + gamma * (min(N, p) - 1))   local work, slower as the node fills
         + c * rs(N) * phi(N)                 remote events
         + g * log2(N / p) * phi_inter        GVT tree levels past one node (N > p)

t1 is the sequential run's time per event (the 1-rank run: forward, queue
and the rest). gamma, one figure for the machine (fitted over every
scenario at once), is what each further busy core of a p-core node adds to
every event's cost: cores share the last-level cache and the memory bus.
c, one figure per scenario and never negative, is what one remote event
adds (its send, its receive, and the waiting and GVT work that come with
crossing ranks). rs(N) is the measured share of remote events per
processed event on the calibration runs and k * (--describe's share of
links cut) elsewhere, k fitted on the calibration runs (a hop of a packet
is several events, one of them crosses). Past one node: the node-fill term
stays at gamma * (p - 1) (every node full); phi(N) = 1 + (phi_inter - 1) *
(share of a rank's remote events that leave its node, uniform destinations)
prices a remote event that leaves the node at phi_inter times one that stays,
and the GVT round grows from log2 p to log2 N levels, each further level
costing phi_inter times g, the measured GVT time per event and tree level
on one node (the largest calibration run's). No machine here measured phi_inter: predictions give 1, 2 and 4.

Cases measured only on 2 ranks (the 524K fat-tree, the 512K stencil replay,
the full q = 163 Slim Fly) borrow the fitted costs of the scenario of the
same model and are anchored to their own 2-rank run:
predicted(N) = measured(2) * model(N) / model(2).
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
    """Least squares of y = X b (normal equations, Gauss-Jordan with pivoting)."""
    n = len(xs[0])
    m = [[sum(x[i] * x[j] for x in xs) for j in range(n)] + [sum(x[i] * y for x, y in zip(xs, ys))]
         for i in range(n)]
    for i in range(n):
        piv = max(range(i, n), key=lambda r: abs(m[r][i]))
        m[i], m[piv] = m[piv], m[i]
        for r in range(n):
            if r != i:
                f = m[r][i] / m[i][i]
                m[r] = [a - f * b for a, b in zip(m[r], m[i])]
    return [m[i][n] / m[i][i] for i in range(n)]


def fill(n):
    """Busy cores beside a rank on its node."""
    return min(n, CORES_PER_NODE) - 1


class Scenario:
    """One scenario of scaling.csv: its sequential cost, its remote share
    and, once fitted, what a remote event costs it."""
    def __init__(self, name, runs, desc):
        self.name = name
        self.runs = {int(r['ranks']): r for r in runs if r['synch'] in ('seq', 'opt')}
        self.desc = desc
        seq = self.runs[1]
        self.C = float(seq['committed'])
        self.t1 = float(seq['run_s']) / self.C
        self.c = 0.0

    def share_imb(self, n):
        if self.name == 'phold-large':  # uniform remote 0.1 over N ranks
            return 0.1 * (1 - 1 / n), 1.0
        return self.desc[(self.name, n)]

    def calibrate(self, cal):
        """k and the remote share on the calibration runs; the rest is fit()'s."""
        self.cal = cal
        self.k = sum(self.measured(n, 'remote_share') / self.share_imb(n)[0] for n in cal) / len(cal)
        # The time per event on n ranks beyond t1 and the share of remote
        # events behind it, for the fit: run = ev * (t1 + gamma t1 fill + c rs).
        self.pts = [(self.t1 * fill(n), self.rs(n), self.measured(n, 'run_s') / self.ev(n) - self.t1)
                    for n in cal]
        top = max(cal)  # the GVT time per event and tree level at the largest calibration run
        self.g_level = self.measured(top, 'gvt_s') / self.ev(top) / math.log2(top)
        return self

    def measured(self, n, col):
        return float(self.runs[n][col])

    def rs(self, n, target=None):
        if target is None and n in self.cal:
            return self.measured(n, 'remote_share')
        return self.k * (target or self).share_imb(n)[0]

    def ev(self, n, target=None):
        t = target or self
        return t.C / n * t.share_imb(n)[1]

    def run(self, gamma, n, phi_inter=1.0, target=None):
        """Predicted run seconds on n ranks; target: another case's size, shares and imbalance."""
        off = max(0.0, 1 - (CORES_PER_NODE - 1) / (n - 1)) if n > 1 else 0.0
        phi = 1 + (phi_inter - 1) * off
        levels = max(0.0, math.log2(n / CORES_PER_NODE))
        return self.ev(n, target) * (self.t1 * (1 + gamma * fill(n)) + self.c * self.rs(n, target) * phi
                                     + self.g_level * levels * phi_inter)


def fit(scenarios, fixed_gamma=None):
    """Fits gamma (one for all of them, unless fixed) and each scenario's c >= 0
    by least squares on the calibration runs; a scenario whose c comes out
    negative gets c = 0 and the rest is refitted without it."""
    zero = set()
    while True:
        free = [s for s in scenarios if s.name not in zero]
        xs, ys = [], []
        for s in scenarios:
            for tf, rs, y in s.pts:
                row = [] if fixed_gamma is not None else [tf]
                xs.append(row + [rs if f is s else 0.0 for f in free])
                ys.append(y - (fixed_gamma or 0.0) * tf)
        b = lstsq(xs, ys) if xs[0] else []
        gamma = fixed_gamma if fixed_gamma is not None else b.pop(0)
        neg = [(c, s) for c, s in zip(b, free) if c < 0]
        if not neg:
            break
        zero.add(min(neg, key=lambda p: p[0])[1].name)
    for s in scenarios:
        s.c = 0.0 if s.name in zero else b[free.index(s)]
    return gamma


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


def scenarios(rows, desc, cal):
    names = list(dict.fromkeys(r['scenario'] for r in rows))
    return [Scenario(s, [r for r in rows if r['scenario'] == s], desc).calibrate(cal) for s in names]


def validate(rows, desc):
    """Prints the 16-rank check: fitted on 1 to 8 ranks, and again with gamma
    fitted without the scenario itself (its c refitted under that gamma)."""
    cal = (2, 4, 8)
    scs = scenarios(rows, desc, cal)
    gamma = fit(scs)
    print('## Validation: fitted on 1, 2, 4 and 8 ranks, predicting 16 (bench/results/scaling.csv)\n')
    print(f'gamma = {gamma:.4f} (each further busy core of the node adds {gamma * 100:.1f} % to every event).\n')
    print('| scenario | t1 (ns per event) | k | c (ns per remote event) | predicted run at 16 (s) | measured | '
          'error | error, gamma fitted without it | predicted: local / node fill / remote (s) | '
          'measured, busiest rank: fwd / net / gvt (s) |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |')
    errs, loso = [], []
    for s in scs:
        rest = scenarios([r for r in rows if r['scenario'] != s.name], desc, cal)
        alone = scenarios([r for r in rows if r['scenario'] == s.name], desc, cal)
        g_rest = fit(rest)
        fit(alone, fixed_gamma=g_rest)
        pred, meas = s.run(gamma, 16), s.measured(16, 'run_s')
        ev = s.ev(16)
        split = (ev * s.t1, ev * s.t1 * gamma * fill(16), ev * s.c * s.rs(16))
        mt = [s.measured(16, c) for c in ('fwd_s', 'net_s', 'gvt_s')]
        errs.append(pred / meas - 1)
        loso.append(alone[0].run(g_rest, 16) / meas - 1)
        print(f'| {s.name} | {s.t1 * 1e9:.0f} | {s.k:.2f} | {s.c * 1e9:.0f} | {pred:.3f} | {meas:.3f} | '
              f'{errs[-1] * 100:+.0f} % | {loso[-1] * 100:+.0f} % (gamma {g_rest:.4f}) | '
              f"{' / '.join(f'{x:.3f}' for x in split)} | {' / '.join(f'{x:.3f}' for x in mt)} |")
    within = sum(abs(e) <= 0.20 for e in errs)
    print(f'\nWithin 20 %: {within} of {len(errs)} scenarios; largest error {max(map(abs, errs)) * 100:.0f} %. '
          f'With gamma fitted without the scenario: {sum(abs(e) <= 0.20 for e in loso)} of {len(loso)}, '
          f'largest {max(map(abs, loso)) * 100:.0f} %.\n')
    # One doubling with fewer runs: what 1, 2 and 4 ranks alone say about 8.
    few = scenarios([r for r in rows if int(r['ranks']) <= 8], desc, (2, 4))
    g_few = fit(few)
    e8 = [s.run(g_few, 8) / s.measured(8, 'run_s') - 1 for s in few]
    print(f'Fitted on 1, 2 and 4 ranks only (gamma {g_few:.4f}), predicting 8: '
          f"{', '.join(f'{s.name} {e * 100:+.0f} %' for s, e in zip(few, e8))}; "
          f'within 20 %: {sum(abs(e) <= 0.20 for e in e8)} of {len(e8)}.\n')


def predict(rows, desc, desc_now):
    """Prints the anchored predictions for the cases of scaling_anchors.csv:
    costs fitted on the measured runs (desc: their partitions), shares and
    imbalance of the predicted cases from today's partitions (desc_now)."""
    scs = {s.name: s for s in scenarios(rows, desc, (2, 4, 8, 16))}
    gamma = fit(list(scs.values()))
    print('## Predictions past the box (fitted on 1 to 16 ranks, 16 ranks a node)\n')
    print(f'gamma = {gamma:.4f}. Run time of the whole case, anchored to its measured 2-rank run; phi_inter '
          '= 1 / 2 / 4 is the cost of a remote event (and of a GVT tree level) that leaves the node '
          'against one on the node.\n')
    print('| case | anchor: measured run on 2 ranks | calibrated on | ranks | predicted run (s), '
          'phi_inter 1 / 2 / 4 | speed-up over 2 ranks | busiest rank\'s events | measured |')
    print('| --- | --- | --- | --- | --- | --- | --- | --- |')
    for a in read('scaling_anchors.csv'):
        cal = scs[a['calibrated_on']]
        tgt = Target(a['case'], float(a['committed']), desc_now)
        base = float(a['run_s'])
        for n in (16, 64, 256, 1024):
            if (a['case'], n) not in desc:
                continue
            preds = [base * cal.run(gamma, n, phi, tgt) / cal.run(gamma, 2, 1.0, tgt) for phi in (1, 2, 4)]
            print(f"| {a['case']} | {base:.0f} s ({a['date']}, {a['commit']}) | {a['calibrated_on']} | {n} | "
                  f"{' / '.join(f'{p:.1f}' for p in preds)} | {base / preds[1]:.1f}x | "
                  f'{cal.ev(n, tgt) / 1e6:.1f} M | {measured(a, n, preds[0])} |')


def main():
    if len(sys.argv) >= 3 and sys.argv[1] == '--describe':
        describe(sys.argv[2], sys.argv[3:])
        return 0
    if len(sys.argv) != 1:
        sys.exit('usage: bench/scaling_model.py [--describe WARPNET [SCENARIO ...]]')
    rows = read('scaling.csv')
    desc, desc_now = ({(r['scenario'], int(r['ranks'])): (float(r['expected_remote_share']) / 100,
                                                           float(r['event_imbalance']))
                       for r in read(name)} for name in ('describe_measured.csv', 'describe_ranks.csv'))
    validate(rows, desc)
    predict(rows, desc, desc_now)
    return 0


if __name__ == '__main__':
    sys.exit(main())
