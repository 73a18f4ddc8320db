#!/usr/bin/env python3
"""Predicted vs realised on the simulator's fixed twins: for each scenario and seed, the gain the
base run's what-if predicts for the resource its fix removes (mixed: everything at once) against
the change of the sum of iteration times the fix made (what_if.total_ns, base - fixed).

    scripts/whatif-vs-fixed.py build/app/cli/contend-cli [SEEDS] [--lock-bad-rate P]

Lock runs bad in every step by default, where the two kernels always run together and the
analysis cannot name the lock ("always-beside"); --lock-bad-rate 0.5 gives it good steps."""
import json
import os
import subprocess
import sys
import tempfile

RESOURCE = {'bandwidth': 'bandwidth', 'cache': 'cache', 'lock': 'lock', 'sync-cluster': 'sync', 'mixed': None, 'null': None}


def report(cli, tmp, scenario, fixed, seed, bad):
    trace = os.path.join(tmp, f"{scenario}-{int(fixed)}-{seed}.json")
    args = [cli, 'simulate', scenario, '--seed', str(seed), '--out', trace]
    if fixed:
        args.append('--fixed')
    elif bad and scenario == 'lock':
        args += ['--bad-rate', bad]
    subprocess.run(args, check=True, capture_output=True)
    out = subprocess.run([cli, 'analyze', trace, '--json', '-'], check=True, capture_output=True).stdout
    os.remove(trace)
    return json.loads(out)


def main():
    argv = sys.argv[1:]
    bad = None
    if '--lock-bad-rate' in argv:
        i = argv.index('--lock-bad-rate')
        bad = argv[i + 1]
        del argv[i:i + 2]
    if not argv:
        sys.exit(__doc__)
    cli, seeds = argv[0], int(argv[1]) if len(argv) > 1 else 5
    print(f"{'scenario':13} seed  predicted     realised   ratio")
    with tempfile.TemporaryDirectory() as tmp:
        for scenario, res in RESOURCE.items():
            for seed in range(1, seeds + 1):
                b = report(cli, tmp, scenario, False, seed, bad)['what_if']
                f = report(cli, tmp, scenario, True, seed, bad)['what_if']
                realised = b['total_ns'] - f['total_ns']
                gains = {g['resource']: g['gain_ns'] for g in b['resources']}
                predicted = gains.get(res, 0) if res else (b['all_gain_ns'] if scenario == 'mixed' else 0)
                ratio = f"{predicted / realised:6.2f}" if realised else "   n/a"
                print(f"{scenario:13} {seed:4} {predicted / 1e3:9.1f} us {realised / 1e3:9.1f} us {ratio}")


if __name__ == '__main__':
    main()
