#!/usr/bin/env python3
"""Causes against the simulator's truth, per scenario and counter mode (seeds 1-5), scored as
tests/test_sim_nsys.cpp scores them: recall, precision, cause accuracy, and how many true
positives got a measured cause and whether it agrees (a wrong measured one is printed); then the
contention patterns: how many, how many on runs the truth did not slow (median slowdown of the
runs a pattern counts under 3%), and their counted cost against what those runs lost (duration
less the truth's solo time).

    scripts/sim-cause-table.py build/app/cli/contend-cli SCENARIOS MODES [SEEDS [DEVICE]]
    e.g. scripts/sim-cause-table.py build/app/cli/contend-cli bandwidth,cache,lock,mixed,null,sync-cluster \
             full-json,none-json,full-sqlite,10k,20k,1ms 1,2,3,4,5

DEVICE (default simdevice) is `simulate --device`: simdevice, the device the rules were written
against, or proportional, small-cache, narrow (physics they were not written against).
MODES: full-json / none-json (Kineto JSON with every counter change / none), full-sqlite,
none-sqlite, 10k / 20k / 1ms (Nsight SQLite with GPU metrics every 100 us / 50 us / 1 ms).
Scenarios other than mixed and null run at bad rate 0.5 over 24 steps. Files go to $RUNS
(default a temporary folder)."""
import collections
import json
import os
import subprocess
import sys
import tempfile
CLI = sys.argv[1]
scen = sys.argv[2].split(',')
modes = sys.argv[3].split(',')   # full-json, none-json, 10k, 20k, 1ms, full-sqlite
seeds = [int(s) for s in (sys.argv[4] if len(sys.argv) > 4 else '1,2,3,4,5').split(',')]
device = sys.argv[5] if len(sys.argv) > 5 else 'simdevice'
tmp = os.environ.get('RUNS') or tempfile.mkdtemp(prefix='sim-cause-table-'); os.makedirs(tmp, exist_ok=True)
def run(sc, mode, seed):
    fmt = 'json' if mode.endswith('json') else 'nsys-sqlite'
    ext = 'json' if fmt == 'json' else 'sqlite'
    ctr = {'full-json': 'full', 'none-json': 'none', '10k': '100', '20k': '50', '1ms': '1000', 'full-sqlite': 'full', 'none-sqlite': 'none'}[mode]
    base = f'{tmp}/{sc}-{mode}-{seed}-{device}'
    args = [CLI, 'simulate', sc, '--seed', str(seed), '--format', fmt, '--counters', ctr, '--device', device, '--out', base + '.' + ext, '--truth', base + '.truth.json', '--quiet']
    if sc not in ('mixed', 'null'): args += ['--bad-rate', '0.5', '--iterations', '24']
    subprocess.run(args, check=True)
    # report/2: an object per anomaly, matched one by one below.
    subprocess.run([CLI, 'analyze', base + '.' + ext, '--json-schema', '2', '--json', base + '.report.json'], check=True,
                   stdout=subprocess.DEVNULL)
    t = json.load(open(base + '.truth.json')); r = json.load(open(base + '.report.json'))
    ops = {(o['stream'], o['start_ns']): o for o in t['ops']}
    by_start = {o['start_ns']: o for o in t['ops']}
    s = collections.Counter(); mo = collections.Counter(); tp = collections.Counter()
    flagged = set()
    for a in r['anomalies']:
        k = (int(str(a['tid']).split()[-1]), a['start_ns']); flagged.add(k)
        o = ops[k]; s['flagged'] += 1
        if o['slowdown'] <= 0.05: continue
        s['real'] += 1; right = o['cause'] == a['cause']; tp[o['cause']] += 1
        if right: s['right'] += 1
        if a['provenance'] == 'measured':
            s['measured'] += 1; mo[o['cause']] += 1
            if right: s['mright'] += 1
            else: print('  WRONG measured', sc, mode, seed, a['name'], a['cause'], 'truth', o['cause'], a['evidence'][:200])
    for k, o in ops.items():
        if o['slowdown'] > 0.2:
            s['slowed'] += 1
            if k in flagged: s['found'] += 1
    s['windows'] = len(r['windows']); s['ops'] = r['trace']['operators'] if 'operators' in r['trace'] else 0
    # Patterns against the truth: each one's counted cost against what the same runs lost
    # (duration - solo), and the patterns whose counted runs the truth did not slow (median
    # slowdown under 3%). Costs in ns, summed (update, not +=: a Counter's += drops negatives).
    pc = collections.Counter()
    for p in r.get('patterns', []):
        # report/2's pattern runs carry their start (no track): starts are unique enough here.
        runs = [by_start[x['start_ns']] for x in p['runs'] if x.get('counted') and x['start_ns'] in by_start]
        s['patterns'] += 1
        slow = sorted(o['slowdown'] for o in runs)
        if slow and slow[len(slow) // 2] < 0.03: s['patterns_unslowed'] += 1
        pc.update({'cost': p.get('counted_cost_ns', 0), 'truth': sum(o['dur_ns'] - o['solo_ns'] for o in runs)})
    return s, mo, tp, pc
for sc in scen:
    for mode in modes:
        S = collections.Counter(); MO = collections.Counter(); TP = collections.Counter(); PC = collections.Counter()
        for seed in seeds:
            s, mo, tp, pc = run(sc, mode, seed); S += s; MO += mo; TP += tp; PC.update(pc)
        sh = lambda a, b: a / b if b else 1.0
        print(f"{sc:12s} {mode:11s} recall {sh(S['found'],S['slowed']):.3f} ({S['found']}/{S['slowed']}) precision {sh(S['real'],S['flagged']):.3f} ({S['real']}/{S['flagged']}) cause {sh(S['right'],S['real']):.3f} measured {S['measured']}/{S['real']} [{dict(MO)}] agree {S['mright']}/{S['measured']} windows {S['windows']} truth {dict(TP)}"
              f" | patterns {S['patterns']} (on runs not slowed: {S['patterns_unslowed']}), counted cost "
              f"{PC['cost'] / 1e3:.0f} us for {PC['truth'] / 1e3:.0f} us their runs lost", flush=True)
