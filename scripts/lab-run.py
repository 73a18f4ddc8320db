#!/usr/bin/env python3
"""Contend against the contention lab's measured truth (lab/README.md).

    scripts/lab-run.py CONTEND_CLI [--seeds 1,2,3,4,5] [--names pytorch,neutral] [--counters]
                       [--quick] [--steps N] [--out DIR] [--summary FILE] [--lab PATH]
                       [--max-wait 120] [--busy 0.15] [--coefficient K] [--reanalyze]

For each seed and name variant: waits (bounded) for a quiet machine, runs contend-lab (trace,
truth, physics), runs `CONTEND_CLI analyze TRACE --json-schema 2 --json REPORT`, and matches the report's
anomalies to the truth's ops by (stream, start_ns). Prints, pooled over seeds and per seed, per
truth cause: runs, truly slowed (excess > 20%), Contend's precision/recall beside a duration-only
detector's (robust z per kernel name, |z| > 3.5 with the MAD), innocent runs flagged, cause
accuracy, cost per resource (the truth's systematic cost, dur - the kind's mean alone, and its
clipped per-run excess, against the report's per-resource extra wait), pattern recall when the
report has `patterns` (and the non-competing pairs reported: quiet ones, measured under 3%, apart
from those measured 3-10% slower), and the pooled physics table. Runs the host took
off their CPU (the truth's offcpu_ns >= 5% of the duration: preempted, or the vCPU stolen) are
counted per cause, per run (with the run's steal time) and per pair, and the innocent runs' flag
rate is also given without them. --summary writes it as JSON.
--reanalyze scores CONTEND_CLI on the traces and truths already in --out (the measurements of an
earlier run, no lab run and no waiting); --coefficient K analyses at that anomaly coefficient
(reports then named *.kK.report.json), for the per-run operating point.
"""
import argparse
import collections
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

SLOWED = 0.20          # a run is truly slowed when dur / solo median - 1 > this
Z_LIMIT = 3.5          # duration-only detector: |robust z| above this
PATTERN_MIN_RUNS = 20  # a measured pair is scored for pattern recall with this many runs beside
PATTERN_MIN_SLOW = 0.10  # and at least this median slowdown
QUIET_MAX_SLOW = 0.03  # a non-competing pair is quiet (does not slow its victim) below this measured median
OFFCPU_SHARE = 0.05    # a run off its CPU (preempted, vCPU stolen) this share of its duration: the host's
CAUSES = ['bandwidth', 'cache', 'lock', 'none']


def cpu_busy_share(seconds=1.0):
    """Share of all CPUs' time that was busy over `seconds` (from /proc/stat)."""
    def snap():
        with open('/proc/stat') as f:
            v = [int(x) for x in f.readline().split()[1:]]
        idle = v[3] + (v[4] if len(v) > 4 else 0)
        return sum(v), idle
    t0, i0 = snap()
    time.sleep(seconds)
    t1, i1 = snap()
    return 1.0 - (i1 - i0) / max(1, t1 - t0)


def loadavg():
    with open('/proc/loadavg') as f:
        return f.read().split()[:3]


def wait_quiet(max_wait, busy_limit):
    """Waits until the CPUs are idle enough (busy share over 1 s below busy_limit), at most
    max_wait seconds. Returns (quiet, busy share, waited seconds, loadavg)."""
    start = time.time()
    while True:
        busy = cpu_busy_share(1.0)
        waited = time.time() - start
        if busy < busy_limit:
            return True, busy, waited, loadavg()
        if waited >= max_wait:
            return False, busy, waited, loadavg()
        time.sleep(2.0)


def median(v):
    return statistics.median(v) if v else float('nan')


def quantile(v, q):
    if not v:
        return float('nan')
    s = sorted(v)
    pos = q * (len(s) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def duration_flags(ops):
    """Robust z-score per kernel name on duration: 0.6745 (d - median) / MAD, flagged when
    |z| > Z_LIMIT. Returns the set of (stream, start_ns) flagged."""
    by_name = collections.defaultdict(list)
    for o in ops:
        by_name[o['name']].append(o)
    flagged = set()
    for runs in by_name.values():
        d = [o['dur_ns'] for o in runs]
        m = median(d)
        mad = median([abs(x - m) for x in d])
        if mad <= 0:
            continue
        for o in runs:
            if abs(0.6745 * (o['dur_ns'] - m) / mad) > Z_LIMIT:
                flagged.add((o['stream'], o['start_ns']))
    return flagged


def solo_durations(ops):
    """Per kind, the durations of its runs alone (beside no partner): the reference of the
    truth's systematic cost. A kind's cost is the sum of (dur - the mean of these) over its
    runs: what its runs took beyond what they take alone on average. Unlike the per-run excess
    clipped at 0 it does not count the slow half of the noise (which gives the runs with no
    contention 230-290 ms over 5 seeds); its 'none' row is about 0."""
    solo = collections.defaultdict(list)
    for o in ops:
        if o['schedule'] == 'alone':
            solo[o['kind']].append(o['dur_ns'])
    return solo


def tid_stream(tid):
    return int(str(tid).split()[-1])


def ratio(a, b):
    return a / b if b else float('nan')


def fmt(x, digits=2):
    return '  -  ' if x != x else f'{x:.{digits}f}'


class Score:
    """Counts for one set of runs (a seed, or all seeds pooled)."""

    def __init__(self):
        self.c = collections.Counter()
        self.truth_cost = collections.Counter()   # by truth cause: sum of max(0, dur - solo)
        self.truth_shift = collections.Counter()  # by truth cause: sum of dur - mean solo (SYSTEMATIC)
        self.report_cost = collections.Counter()  # by resource: summary.extra_wait_by_resource
        self.anomaly_cost = collections.Counter()  # by resource: sum of anomalies' excess_ns
        self.patterns = collections.Counter()
        self.pattern_cost = collections.Counter()
        self.pattern_rows = []
        self.has_patterns = False

    def add(self, other):
        self.c += other.c
        self.truth_cost += other.truth_cost
        self.truth_shift.update(other.truth_shift)  # update, not +=: a Counter's += drops the negative sums
        self.report_cost += other.report_cost
        self.anomaly_cost += other.anomaly_cost
        self.patterns += other.patterns
        self.pattern_cost += other.pattern_cost
        self.pattern_rows += other.pattern_rows
        self.has_patterns = self.has_patterns or other.has_patterns


def score_run(truth, report):
    s = Score()
    ops = [o for o in truth['ops'] if o['solo_ns'] > 0]
    by_key = {(o['stream'], o['start_ns']): o for o in ops}
    flagged = {}
    for a in report.get('anomalies', []):
        k = (tid_stream(a['tid']), a['start_ns'])
        if k in by_key:
            flagged[k] = a
        else:
            s.c['unmatched'] += 1
        res = a.get('cause', 'unknown')
        s.anomaly_cost[res] += a.get('excess_ns', 0)
    zflag = duration_flags(ops)
    solo_mean = {kind: statistics.fmean(d) for kind, d in solo_durations(ops).items()}
    for o in ops:
        k = (o['stream'], o['start_ns'])
        cause = o['cause']
        slowed = o['slowdown'] > SLOWED
        innocent = o['schedule'] in ('alone', 'non-competing')
        # Truths from before the lab measured it have no offcpu_ns: no run counts as the host's.
        off = o.get('offcpu_ns', 0) >= OFFCPU_SHARE * o['dur_ns']
        c = s.c
        c[f'{cause}:runs'] += 1
        c[f'{cause}:offcpu'] += off
        c['all:offcpu'] += off
        c[f'{cause}:slowed'] += slowed
        s.truth_cost[cause] += max(0, o['dur_ns'] - o['solo_ns'])
        if o['kind'] in solo_mean:
            s.truth_shift[cause] += o['dur_ns'] - solo_mean[o['kind']]
        for det, hit in (('contend', k in flagged), ('duration', k in zflag)):
            c[f'{cause}:{det}:flagged'] += hit
            c[f'{cause}:{det}:tp'] += hit and slowed
            c[f'all:{det}:flagged'] += hit
            c[f'all:{det}:tp'] += hit and slowed
            if innocent:
                c[f'innocent:{det}:flagged'] += hit
        c['all:runs'] += 1
        c['all:slowed'] += slowed
        if innocent:
            c['innocent:runs'] += 1
            c['innocent:offcpu'] += off
            c['innocent:contend:flagged:offcpu'] += off and k in flagged
            c['innocent-overlapped:runs'] += o['schedule'] == 'non-competing'
            c['innocent-overlapped:contend:flagged'] += o['schedule'] == 'non-competing' and k in flagged
            if k in flagged:
                # What a flag on a run the schedule calls innocent says: the run may still be
                # measurably slower (host noise, or partners that compete on this machine though
                # the design says they should not), and the flag may blame no cause ("unknown").
                blamed = flagged[k].get('cause', 'unknown') not in ('unknown', 'none')
                c['innocent:contend:flagged:slowed'] += slowed
                c['innocent:contend:flagged:blamed'] += blamed
                c['innocent:contend:flagged:blamed-not-slowed'] += blamed and not slowed
        if slowed and k in flagged and cause != 'none':
            c[f'{cause}:cause:judged'] += 1
            got = flagged[k].get('cause', 'unknown')
            c[f'{cause}:cause:right'] += got == cause
            c[f'{cause}:cause:as:{got}'] += 1
            if off:
                c[f'{cause}:cause:judged-offcpu'] += 1
                c[f'{cause}:cause:right-offcpu'] += got == cause
    for res, ns in report.get('summary', {}).get('extra_wait_by_resource', {}).items():
        s.report_cost[res] += ns
    score_patterns(s, truth, report)
    return s


def score_patterns(s, truth, report):
    if 'patterns' not in report:
        return
    s.has_patterns = True
    names = {}
    for o in truth['ops']:
        names[o['kind']] = o['name']
    kernel_names = set(names.values())
    found = [(p.get('victim'), p.get('partner'), p.get('cause', {}).get('resource', 'unknown'))
             for p in report['patterns']]
    for p in report['patterns']:
        s.pattern_cost[p.get('cause', {}).get('resource', 'unknown')] += p.get('counted_cost_ns', 0)
    for row in truth['physics']['pairs']:
        v, p = names.get(row['victim']), names.get(row['partner'])
        # Found: a pattern on this victim beside this partner, or beside a kind ("memory-bound").
        # The pattern naming the partner first: its cause is the pair's (a kind's is its members').
        matches = [fc for fv, fp, fc in found if fv == v and fp == p]
        matches += [fc for fv, fp, fc in found if fv == v and fp != p and fp not in kernel_names]
        hit = bool(matches)
        if row['runs'] >= PATTERN_MIN_RUNS and row['median_excess'] >= PATTERN_MIN_SLOW:
            s.patterns['scored'] += 1
            s.patterns['found'] += hit
            s.pattern_rows.append((row['victim'], row['partner'], row['median_excess'], hit))
            if hit:
                # The pattern's cause against the pair's design cause (the victim's side).
                s.patterns[f"cause:{row['cause']}:judged"] += 1
                s.patterns[f"cause:{row['cause']}:right"] += matches[0] == row['cause']
        elif row['schedule'] == 'non-competing':
            # A pair reported only by a pattern naming that partner (a victim's pattern beside a
            # kind says nothing about this partner). Quiet: measured (the truth's median) under
            # QUIET_MAX_SLOW, so it does not slow its victim. The rest is non-competing by design
            # but measured 3-10% slower in this run (a shared clock or power budget, the VM's L2):
            # a pattern there is a small real effect, counted apart.
            named = any(fv == v and fp == p for fv, fp, _ in found)
            key = 'quiet_pairs' if row['median_excess'] < QUIET_MAX_SLOW else 'small_pairs'
            s.patterns[key] += 1
            s.patterns[key + '_reported'] += named


def print_table(title, s, out):
    c = s.c
    out.append(f'\n== {title}')
    out.append(f"{'truth cause':12s} {'runs':>5s} {'slowed':>6s} {'offcpu':>6s} | {'Contend P':>9s} {'R':>5s} "
               f"{'flags':>5s} | {'duration P':>10s} {'R':>5s} {'flags':>5s} | {'cause acc':>9s}")
    for cause in CAUSES + ['all']:
        runs = c[f'{cause}:runs']
        if not runs:
            continue
        slowed = c[f'{cause}:slowed']
        row = f"{cause:12s} {runs:5d} {slowed:6d} {c[f'{cause}:offcpu']:6d} |"
        for det in ('contend', 'duration'):
            fl, tp = c[f'{cause}:{det}:flagged'], c[f'{cause}:{det}:tp']
            w = 9 if det == 'contend' else 10
            row += f' {fmt(ratio(tp, fl)):>{w}s} {fmt(ratio(tp, slowed)):>5s} {fl:5d} |'
        if cause in ('bandwidth', 'cache', 'lock'):
            judged = c[f'{cause}:cause:judged']
            got = {k.split(':')[-1]: v for k, v in c.items() if k.startswith(f'{cause}:cause:as:')}
            row += f' {fmt(ratio(c[f"{cause}:cause:right"], judged)):>9s} ({judged}: {dict(sorted(got.items()))})'
            if c[f'{cause}:cause:judged-offcpu']:
                row += (f"; off their CPU {c[f'{cause}:cause:judged-offcpu']}, right "
                        f"{c[f'{cause}:cause:right-offcpu']}")
        out.append(row)
    out.append(f"innocent runs (alone + non-competing): {c['innocent:runs']}, flagged by Contend "
               f"{c['innocent:contend:flagged']}, by duration {c['innocent:duration:flagged']}; overlapped "
               f"(non-competing) {c['innocent-overlapped:runs']}, flagged by Contend "
               f"{c['innocent-overlapped:contend:flagged']}")
    out.append(f"  of Contend's flags on them: measured > {SLOWED:.0%} slower {c['innocent:contend:flagged:slowed']}, "
               f"blaming a resource {c['innocent:contend:flagged:blamed']}, blaming one on a run not measurably "
               f"slower {c['innocent:contend:flagged:blamed-not-slowed']} "
               f"({fmt(100 * ratio(c['innocent:contend:flagged:blamed-not-slowed'], c['innocent:runs']))}% of them)")
    inn, inn_off = c['innocent:runs'], c['innocent:offcpu']
    inn_flagged = c['innocent:contend:flagged'] - c['innocent:contend:flagged:offcpu']
    out.append(f"  the host took {inn_off} of them off their CPU for >= {OFFCPU_SHARE:.0%} of their duration "
               f"(flagged {c['innocent:contend:flagged:offcpu']}); of the rest {inn_flagged}/{inn - inn_off} flagged "
               f"({fmt(100 * ratio(inn_flagged, inn - inn_off))}%)")
    if c['unmatched']:
        out.append(f"anomalies not matched to a truth op: {c['unmatched']}")
    out.append('cost (ms):  truth cost by cause (dur - mean solo) | truth excess by cause (max(0, dur - solo '
               'median)) | report extra_wait_by_resource (vs truth cost) | report anomalies excess by cause | report '
               'patterns counted cost by cause (vs truth cost)')
    keys = sorted(set(s.truth_cost) | set(s.report_cost) | set(s.anomaly_cost) | set(s.pattern_cost),
                  key=lambda k: (k not in CAUSES, CAUSES.index(k) if k in CAUSES else 0, k))
    for k in keys:
        def vs(got):
            d = ratio(got - s.truth_shift[k], s.truth_shift[k]) if s.truth_shift[k] > 0 else float('nan')
            return f'{got / 1e6:10.2f} ({fmt(100 * d, 0):>4s}%)'
        out.append(f'  {k:10s} {s.truth_shift[k] / 1e6:10.2f} | {s.truth_cost[k] / 1e6:10.2f} | '
                   f'{vs(s.report_cost[k])} | {s.anomaly_cost[k] / 1e6:10.2f} | {vs(s.pattern_cost[k])}')
    if s.has_patterns:
        p = s.patterns
        out.append(f"patterns: {p['found']}/{p['scored']} measured pairs (>= {PATTERN_MIN_RUNS} runs beside, median "
                   f">= {PATTERN_MIN_SLOW:.0%}) found; quiet pairs (non-competing, measured median < "
                   f"{QUIET_MAX_SLOW:.0%}) reported {p['quiet_pairs_reported']}/{p['quiet_pairs']}; non-competing "
                   f"pairs measured {QUIET_MAX_SLOW:.0%}-{PATTERN_MIN_SLOW:.0%} slower reported "
                   f"{p['small_pairs_reported']}/{p['small_pairs']}")
        missed = sorted((row for row in s.pattern_rows if not row[3]), key=lambda row: -row[2])
        if missed:
            out.append('  missed (victim beside partner, measured median): ' +
                       ', '.join(f'{v} beside {q} {100 * m:+.0f}%' for v, q, m, _ in missed))
        for cause in ('bandwidth', 'cache', 'lock'):
            judged = p[f'cause:{cause}:judged']
            if judged:
                out.append(f"  pattern cause right for {cause} pairs: {p[f'cause:{cause}:right']}/{judged}")
    else:
        out.append('patterns: none in report')


def physics_table(truths):
    pairs = collections.defaultdict(list)
    overlap = collections.defaultdict(list)
    offcpu = collections.defaultdict(list)
    solo = collections.defaultdict(list)
    sched = {}
    for t in truths:
        for o in t['ops']:
            if o['solo_ns'] <= 0:
                continue
            off = o.get('offcpu_ns', 0) >= OFFCPU_SHARE * o['dur_ns']
            if o['partner_kind'] is None:
                solo[o['kind']].append(o['slowdown'])
                offcpu[o['kind']].append(off)
            else:
                k = (o['kind'], o['partner_kind'])
                offcpu[k].append(off)
                pairs[k].append(o['slowdown'])
                overlap[k].append(o['overlap_ns'] / max(1, o['dur_ns']))
                sched[k] = (o['schedule'], o['cause'])
    rows = []
    for k, v in pairs.items():
        rows.append({'victim': k[0], 'partner': k[1], 'schedule': sched[k][0], 'cause': sched[k][1],
                     'runs': len(v), 'median': median(v), 'p10': quantile(v, 0.1), 'p90': quantile(v, 0.9),
                     'over20': sum(x > SLOWED for x in v) / len(v), 'overlap': median(overlap[k]),
                     'offcpu': sum(offcpu[k]) / len(v)})
    rows.sort(key=lambda r: (r['schedule'] != 'competing', -r['median']))
    solo_rows = [{'kind': k, 'runs': len(v), 'p10': quantile(v, 0.1), 'p90': quantile(v, 0.9),
                  'over20': sum(x > SLOWED for x in v) / len(v), 'offcpu': sum(offcpu[k]) / len(v)}
                 for k, v in sorted(solo.items())]
    return rows, solo_rows


def print_physics(rows, solo_rows, out):
    out.append('\n== physics (pooled over seeds and variants): excess = dur / solo median of the same run - 1')
    out.append(f"{'victim':8s} {'beside':8s} {'schedule':14s} {'cause':10s} {'runs':>5s} {'median':>8s} "
               f"{'p10':>8s} {'p90':>8s} {'>20%':>6s} {'overlap':>8s} {'offcpu':>7s}")
    for r in rows:
        out.append(f"{r['victim']:8s} {r['partner']:8s} {r['schedule']:14s} {r['cause']:10s} {r['runs']:5d} "
                   f"{r['median']:+8.1%} {r['p10']:+8.1%} {r['p90']:+8.1%} {r['over20']:6.0%} {r['overlap']:8.0%} "
                   f"{r['offcpu']:7.1%}")
    out.append(f"{'solo':8s} {'runs':>5s} {'p10':>8s} {'p90':>8s} {'>20%':>6s} {'offcpu':>7s}")
    for r in solo_rows:
        out.append(f"{r['kind']:8s} {r['runs']:5d} {r['p10']:+8.1%} {r['p90']:+8.1%} {r['over20']:6.0%} "
                   f"{r['offcpu']:7.1%}")
    out.append(f"offcpu: share of runs the host took off their CPU (preempted, or the vCPU stolen) for >= "
               f"{OFFCPU_SHARE:.0%} of their duration (the truth's offcpu_ns; 0 in truths that predate it)")


def host_note(truth):
    """The hypervisor's steal over the run and the runs the host took off their CPU, when the
    truth measured them."""
    steal = truth['machine'].get('steal_ms')
    ops = truth['ops']
    if not ops or 'offcpu_ns' not in ops[0]:
        return ''
    off = sum(o['offcpu_ns'] >= OFFCPU_SHARE * o['dur_ns'] for o in ops)
    return (f"; steal {'?' if steal is None else f'{steal:.0f} ms'}, {off}/{len(ops)} runs off their CPU "
            f">= {OFFCPU_SHARE:.0%} of it")


def find_lab(explicit):
    if explicit:
        return explicit
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for p in ('build-lab/contend-lab', 'build/lab/contend-lab'):
        if os.access(os.path.join(here, p), os.X_OK):
            return os.path.join(here, p)
    sys.exit('lab-run.py: no contend-lab found (build-lab/ or build/lab/); pass --lab PATH')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('cli')
    ap.add_argument('--seeds', default='1,2,3,4,5')
    ap.add_argument('--names', default='pytorch')
    ap.add_argument('--counters', action='store_true', help='runs with the software counter track')
    ap.add_argument('--quick', action='store_true')
    ap.add_argument('--steps', type=int)
    ap.add_argument('--out', help='folder for traces, truths and reports (default: a temporary one)')
    ap.add_argument('--summary', help='write the results as JSON here')
    ap.add_argument('--lab', help='the contend-lab binary')
    ap.add_argument('--max-wait', type=float, default=120, help='seconds to wait for a quiet machine per run')
    ap.add_argument('--busy', type=float, default=0.15, help='quiet = CPUs busy less than this share over 1 s')
    ap.add_argument('--coefficient', type=float,
                    help="Contend's anomaly coefficient for the per-run flags (default: Contend's own)")
    ap.add_argument('--reanalyze', action='store_true',
                    help='reuse the traces and truths already in --out (no lab run, no waiting): score another '
                         'Contend on the same measurements')
    a = ap.parse_args()
    lab = find_lab(a.lab)
    out_dir = a.out or tempfile.mkdtemp(prefix='lab-run-')
    os.makedirs(out_dir, exist_ok=True)
    seeds = [int(x) for x in a.seeds.split(',')]
    variants = a.names.split(',')
    lines = []
    runs = []
    pooled = collections.defaultdict(Score)
    for variant in variants:
        for seed in seeds:
            base = os.path.join(out_dir, f'{variant}{"-counters" if a.counters else ""}-seed{seed}')
            if a.reanalyze:
                if not os.path.exists(base + '.json') or not os.path.exists(base + '.truth.json'):
                    sys.exit(f'lab-run.py: --reanalyze: no {base}.json and .truth.json to reuse')
                prior = os.path.join(out_dir, 'summary.json')
                quiet, busy, waited, load = True, 0.0, 0.0, ['?', '?', '?']
                if os.path.exists(prior):
                    for r in json.load(open(prior)).get('runs', []):
                        if r.get('variant') == variant and r.get('seed') == seed:
                            quiet, busy, waited, load = r['quiet'], r['busy_before'], r['waited_s'], r['loadavg']
            else:
                quiet, busy, waited, load = wait_quiet(a.max_wait, a.busy)
            cmd = None if a.reanalyze else [lab, '--seed', str(seed), '--names', variant, '--out', base + '.json', '--truth',
                   base + '.truth.json', '--physics', base + '.physics.json', '--quiet']
            if cmd is not None:
                if a.counters:
                    cmd.append('--counters')
                if a.quick:
                    cmd.append('--quick')
                if a.steps:
                    cmd += ['--steps', str(a.steps)]
                subprocess.run(cmd, check=True)
            report_path = base + ('' if a.coefficient is None else f'.k{a.coefficient:g}') + '.report.json'
            extra = [] if a.coefficient is None else ['--coefficient', f'{a.coefficient:g}']
            # report/2: an object per finding, as score_run matches them.
            rep = subprocess.run([a.cli, 'analyze', base + '.json', '--json-schema', '2', '--json', report_path] + extra,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if rep.returncode != 0:
                sys.exit(f'lab-run.py: {a.cli} analyze failed ({rep.returncode}): {rep.stderr.strip()}')
            truth = json.load(open(base + '.truth.json'))
            report = json.load(open(report_path))
            s = score_run(truth, report)
            pooled[variant].add(s)
            state = 'quiet' if quiet else 'BUSY'
            note = (f'{variant} seed {seed}: {state} machine (CPUs {busy:.0%} busy before the run, waited '
                    f'{waited:.0f} s, load {" ".join(load)}; lab load {truth["machine"]["loadavg_start"]} -> '
                    f'{truth["machine"]["loadavg_end"]}{host_note(truth)})')
            print(note, file=sys.stderr, flush=True)
            runs.append({'variant': variant, 'seed': seed, 'quiet': quiet, 'busy_before': busy, 'waited_s': waited,
                         'loadavg': load, 'truth': base + '.truth.json', 'report': report_path,
                         'counts': dict(s.c), 'truth_cost_ns': dict(s.truth_cost),
                         'truth_shift_ns': dict(s.truth_shift),
                         'report_cost_ns': dict(s.report_cost), 'anomaly_cost_ns': dict(s.anomaly_cost),
                         'patterns': dict(s.patterns) if s.has_patterns else None})
            lines.append(note)
            runs[-1]['_score'] = s
            runs[-1]['_truth'] = truth
    busy_runs = [r for r in runs if not r['quiet']]
    lines.append(f"\nlab: {lab}; Contend: {a.cli}; {len(runs)} runs, "
                 f"{'all on a quiet machine' if not busy_runs else f'{len(busy_runs)} measured on a BUSY machine'}")
    for variant in variants:
        print_table(f'{variant}: pooled over seeds {a.seeds}', pooled[variant], lines)
    lines.append('\n== per seed (Contend P/R | duration P/R | innocent flagged | cause acc)')
    for r in runs:
        c = r['_score'].c
        judged = sum(c[f'{k}:cause:judged'] for k in ('bandwidth', 'cache', 'lock'))
        right = sum(c[f'{k}:cause:right'] for k in ('bandwidth', 'cache', 'lock'))
        lines.append(f"{r['variant']:8s} seed {r['seed']}: slowed {c['all:slowed']:4d}/{c['all:runs']:4d} | "
                     f"Contend P {fmt(ratio(c['all:contend:tp'], c['all:contend:flagged']))} R "
                     f"{fmt(ratio(c['all:contend:tp'], c['all:slowed']))} | duration P "
                     f"{fmt(ratio(c['all:duration:tp'], c['all:duration:flagged']))} R "
                     f"{fmt(ratio(c['all:duration:tp'], c['all:slowed']))} | innocent {c['innocent:contend:flagged']}/"
                     f"{c['innocent:runs']} | cause {fmt(ratio(right, judged))} ({judged})"
                     f"{'' if r['quiet'] else '  [busy machine]'}")
    rows, solo_rows = physics_table([r['_truth'] for r in runs])
    print_physics(rows, solo_rows, lines)
    print('\n'.join(lines))
    if a.summary:
        for r in runs:
            del r['_score'], r['_truth']
        summary = {'schema': 'contend.lab-eval/1', 'cli': a.cli, 'lab': lab, 'seeds': seeds, 'variants': variants,
                   'counters': a.counters, 'quick': a.quick, 'slowed_threshold': SLOWED, 'z_limit': Z_LIMIT,
                   'runs': runs,
                   'pooled': {v: {'counts': dict(pooled[v].c), 'truth_cost_ns': dict(pooled[v].truth_cost),
                                  'truth_shift_ns': dict(pooled[v].truth_shift),
                                  'report_cost_ns': dict(pooled[v].report_cost),
                                  'anomaly_cost_ns': dict(pooled[v].anomaly_cost),
                                  'patterns': dict(pooled[v].patterns) if pooled[v].has_patterns else None}
                              for v in variants},
                   'physics': {'pairs': rows, 'solo': solo_rows}}
        with open(a.summary, 'w') as f:
            json.dump(summary, f, indent=1)


if __name__ == '__main__':
    main()
