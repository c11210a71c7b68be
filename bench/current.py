#!/usr/bin/env python3
"""bench/current.py -- the "Current figures" tables of bench/RESULTS.md, made
from the CSVs the bench scripts wrote into bench/results/ and the date,
commit and machine each CSV was measured on (bench/results/provenance.csv).

  bench/current.py            print the tables (Markdown)
  bench/current.py --write    replace the generated block of bench/RESULTS.md
  bench/current.py --check    exit 1 when that block differs from the CSVs

The generated block lies between the lines '<!-- current:begin -->' and
'<!-- current:end -->'. A new measurement is a new CSV row (or file) and a
provenance line; the tables then follow with --write, and
tests/docs/test_current_figures.sh fails until they do.
"""
import csv
import os
import re
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
RESULTS = os.path.join(HERE, 'results')
DOC = os.path.join(HERE, 'RESULTS.md')
BEGIN, END = '<!-- current:begin -->', '<!-- current:end -->'

# ROSS 8.1's PHOLD figures as the engine issues quote them (not measured here).
ROSS = {'small-seq': '3.24 M/s, 18 MB', 'large-seq': '0.156 M/s, 1.23 GB',
        'small-opt-2': '3.65 M/s', 'large-opt-2': '0.54 M/s, 0.96 GB a rank'}


def rows(name):
    path = os.path.join(RESULTS, name)
    if not os.path.exists(path):
        sys.exit(f'bench/current.py: {path} is missing: rerun the script that writes it')
    with open(path, newline='') as f:
        return list(csv.DictReader(f))


def provenance():
    out = {}
    for r in rows('provenance.csv'):
        out[r['file']] = r
    return out


def short(cmd):
    """A command as a reader types it in the source folder."""
    cmd = re.sub(r'\S*/(?:\.libs/)?(warpnet|phold)\b', r'\1', cmd)
    cmd = re.sub(r'\S*/examples/configs/', 'examples/configs/', cmd)
    cmd = re.sub(r'/usr/bin/time\s+', '', cmd)
    cmd = re.sub(r'/tmp/tmp\.\w+/', '$TMP/', cmd)  # a run file the script generated
    cmd = re.sub(r'^\([^)]*\)\s*', '', cmd)
    return cmd.strip()


def mega(x):
    return f'{float(x) / 1e6:.2f} M/s'


def prov_cells(p):
    return f"{p['date']} | {p['commit']} | {p['machine']}"


def phold(prov):
    out = ['### Engine: PHOLD against ROSS', '',
           'Remote 0.1, mean 1.0, lookahead 0.1; small = 1,024 LPs to end 30,000, '
           'large = 1,048,576 LPs (end 10 sequential, 2 optimistic). Median of the '
           'repetitions. Reproduce: `bench/phold.sh seq 3`, `bench/phold.sh opt 1`.', '',
           '| case | committed events/s | peak RSS a rank | ROSS 8.1 (quoted) | date | commit | machine | command |',
           '| --- | --- | --- | --- | --- | --- | --- | --- |']
    for name in ('phold-seq.csv', 'phold-opt.csv'):
        groups = {}
        for r in rows(name):
            groups.setdefault((r['config'], r['ranks']), []).append(r)
        for (config, ranks), rs in groups.items():
            rate = statistics.median(float(r['events_per_s']) for r in rs)
            rss = statistics.median(float(r['peak_rss_mb']) for r in rs)
            key = config if config.endswith('seq') else f'{config}-{ranks}'
            label = f'{config}, {ranks} rank' + ('s' if ranks != '1' else '')
            out.append(f"| {label} | {mega(rate)} | {rss:.0f} MB | {ROSS.get(key, '')} | "
                       f"{prov_cells(prov[name])} | `{short(rs[-1]['command'])}` |")
    return out


def scaling16(prov):
    p = prov['scaling.csv']
    out = ['### Strong scaling on 16 cores', '',
           f"`bench/scaling.sh` on {p['machine']} ({p['date']}, {p['commit']}): speed-up of "
           'the optimistic run on 16 ranks over the sequential one (wall, setup included), '
           'and the committed events/s per rank against one rank\'s.', '',
           '| scenario | ranks | speed-up | events/s per rank | of sequential\'s rate | remote share | command |',
           '| --- | --- | --- | --- | --- | --- | --- |']
    rs = rows('scaling.csv')
    seq = {r['scenario']: float(r['rate_per_rank']) for r in rs if r['synch'] == 'seq'}
    for r in rs:
        if r['synch'] != 'opt' or r['ranks'] != '16':
            continue
        rate = float(r['rate_per_rank'])
        out.append(f"| {r['scenario']} | 16 | {float(r['speedup']):.2f}x | {mega(rate)} | "
                   f"{rate / seq[r['scenario']]:.2f} | {float(r['remote_share']):.2f} | "
                   f"`{short(r['command'])}` |")
    return out


def parallel2(prov):
    p = prov['parallel.csv']
    last = {}
    for r in rows('parallel.csv'):
        if r['synch'] == 'opt' and r['ranks'] == '2' and r['partition'] in ('topology', 'block') \
                and (r['partition'] == 'topology' or r['scenario'].startswith('phold')):
            last.setdefault(r['scenario'], []).append(r)
    reps = max((len(v) for v in last.values()), default=1)
    out = ['### Two ranks on two cores', '',
           f"`REPS={reps} bench/parallel.sh` on {p['machine']} ({p['date']}, {p['commit']}): "
           'speed-up of `--synch=opt` on 2 ranks (topology partition) over the '
           'sequential run, wall time' + (', the median of the repetitions, each against its own '
                                          'repetition\'s sequential run and ceiling' if reps > 1 else '') +
           '. This VM\'s two cores give 1.6-1.9x on two independent runs, not 2x.', '',
           '| scenario | speed-up | of the ceiling (two sequential runs at once) | remote share | efficiency | command |',
           '| --- | --- | --- | --- | --- | --- |']

    def median(xs):
        xs = sorted(xs)
        n = len(xs)
        return xs[n // 2] if n % 2 else (xs[n // 2 - 1] + xs[n // 2]) / 2

    for s, rs in last.items():
        ceils = [float(r['of_ceiling']) for r in rs if r.get('of_ceiling')]
        ceil = f'{median(ceils):.3f}' if ceils else 'not measured'
        if len(ceils) > 1:
            ceil += f' ({min(ceils):.3f}-{max(ceils):.3f})'
        r = rs[-1]
        out.append(f"| {s} | {median([float(x['speedup']) for x in rs]):.2f}x | {ceil} | "
                   f"{float(r['remote_share']):.3f} | "
                   f"{float(r['efficiency']) * 100:.1f} % | `{short(r['command'])}` |")
    return out


def scale(prov):
    p = prov['replay_scale.csv']
    out = ['### Scale cases, scaled down, to the end', '',
           f"`bench/replay_scale.sh` on {p['machine']} ({p['date']}, {p['commit']}; the load "
           'average at the run is in the table: above 2 the wall time is inflated). '
           'The newest row of each case and rank count.', '',
           '| case | ranks | wall | events/s per rank | peak RSS a rank | load | command |',
           '| --- | --- | --- | --- | --- | --- | --- |']
    last = {}
    for r in rows('replay_scale.csv'):
        if r['status'].startswith('ok') and r['wall_s']:
            last[(r['case'], r['ranks'])] = r
    for (case, ranks), r in last.items():
        out.append(f"| {case} | {ranks} | {float(r['wall_s']):.1f} s | "
                   f"{mega(r['events_per_s_per_rank'])} | {float(r['peak_rss_mb_max_rank']):.0f} MB | "
                   f"{r['load1']} | `{short(r['command'])}` |")
    return out


def checkpoint(prov):
    p = prov['checkpoint.csv']
    out = ['### Checkpoint cost', '',
           f"`bench/checkpoint.sh 1 1 2` on {p['machine']} ({p['date']}, {p['commit']}).", '',
           '| case | ranks | size | write | read | digest after restart | load |',
           '| --- | --- | --- | --- | --- | --- | --- |']
    for r in rows('checkpoint.csv'):
        out.append(f"| {r['case']} | {r['ranks']} | {float(r['size_mb']):.1f} MB | "
                   f"{float(r['write_s']):.3f} s ({float(r['write_mb_per_s']):.0f} MB/s) | "
                   f"{float(r['read_s']):.3f} s ({float(r['read_mb_per_s']):.0f} MB/s) | "
                   f"{'same' if r['digest_same'] == 'yes' else 'DIFFERENT'} | {r['loadavg']} |")
    return out


def tables():
    prov = provenance()
    out = [BEGIN,
           '<!-- generated by bench/current.py from bench/results/*.csv: edit the CSVs '
           'or provenance.csv, then run bench/current.py --write -->', '']
    for part in (phold, scaling16, parallel2, scale, checkpoint):
        out += part(prov) + ['']
    out.append(END)
    return '\n'.join(out) + '\n'


def main():
    new = tables()
    if len(sys.argv) == 1:
        sys.stdout.write(new)
        return 0
    doc = open(DOC).read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f'bench/current.py: {DOC} has no {BEGIN} ... {END} block')
    a = doc.index(BEGIN)
    b = doc.index(END) + len(END) + 1
    if sys.argv[1] == '--check':
        if doc[a:b] != new:
            print('bench/RESULTS.md: the "Current figures" tables differ from bench/results/*.csv; '
                  'run bench/current.py --write', file=sys.stderr)
            return 1
        return 0
    if sys.argv[1] == '--write':
        open(DOC, 'w').write(doc[:a] + new + doc[b:])
        return 0
    sys.exit('usage: bench/current.py [--write | --check]')


if __name__ == '__main__':
    sys.exit(main())
