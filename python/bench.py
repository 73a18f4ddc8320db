#!/usr/bin/env python3
"""The Python module against contend-cli on one trace: time and memory.

    python3 python/bench.py [--runs N] [--cli PATH] [--coefficient K] TRACE
    python3 python/bench.py --make 1000000 /tmp/kineto-1m.json   (writes it first with
                                                                 scripts/gen-kineto-bench.py)

Prints, each as the median of N runs (default 3) with min and max:
  - contend.analyze(TRACE) in this process (the call alone: load, analysis, what-if);
  - the DataFrames of that result built (every table);
  - `contend-cli analyze TRACE` as a process, and `python3 -c "contend.analyze(TRACE)"` as a
    process (its interpreter start and imports included), run in turns A B A B so a drift of the
    machine's speed hits both;
  - the DataFrames' memory (DataFrame.memory_usage(deep=True), all tables) against the size of
    the report's JSON (result.to_json(), the bytes `contend-cli analyze --json` writes).
Run it with the module importable (PYTHONPATH=build/python, or an installed one) on an idle
machine; nothing is asserted: it prints the numbers.
"""
import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def spread(xs):
    return f"median {statistics.median(xs):.3f} s (min {min(xs):.3f}, max {max(xs):.3f}, {len(xs)} runs)"


def timed(cmd):
    t0 = time.perf_counter()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--coefficient", type=float, default=3.0, help="anomaly threshold, for both (default 3)")
    ap.add_argument("--cli", default=os.path.join(ROOT, "build", "app", "cli", "contend-cli"))
    ap.add_argument("--make", type=int, metavar="N", help="write TRACE first: N kernels (gen-kineto-bench.py)")
    args = ap.parse_args()
    if args.make:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "gen-kineto-bench.py"), str(args.make),
                        args.trace], check=True)

    # python/ itself (this script's folder, first on sys.path) holds the package's sources
    # without the built module: import the built or installed one.
    if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
        sys.path.pop(0)
    import contend

    print(f"trace: {args.trace} ({os.path.getsize(args.trace) / 1e6:.0f} MB)")
    calls, frames = [], []
    result = None
    for _ in range(args.runs):
        result = None  # the previous result freed before the next analysis
        t0 = time.perf_counter()
        result = contend.analyze(args.trace, coefficient=args.coefficient)
        calls.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        tables = {name: result.table(name) for name in result._TABLES}
        frames.append(time.perf_counter() - t0)
    print(f"operators: {result.trace_info['operators']}, anomalies: {result.summary['anomalies']}, "
          f"windows: {result.summary['windows']}, clusters: {result.summary['clusters']}")
    print(f"contend.analyze (in process):        {spread(calls)}")
    print(f"  its stages (last run, ms):         {result.times}")
    print(f"DataFrames built (all tables):       {spread(frames)}")

    json_bytes = len(result.to_json().encode())
    frame_bytes = {name: int(df.memory_usage(deep=True).sum()) for name, df in tables.items()}
    total = sum(frame_bytes.values())
    print(f"report JSON:                         {json_bytes:,} bytes")
    print(f"DataFrames (memory_usage deep=True): {total:,} bytes = {total / json_bytes:.2f}x the JSON")
    for name, size in sorted(frame_bytes.items(), key=lambda kv: -kv[1]):
        print(f"  {name:16} {len(tables[name]):>9,} rows {size:>14,} bytes")
    del tables, result

    py_cmd = [sys.executable, "-c", "import sys, contend; contend.analyze(sys.argv[1], float(sys.argv[2]))",
              args.trace, str(args.coefficient)]
    cli_cmd = [args.cli, "analyze", args.trace, "--coefficient", str(args.coefficient)]
    cli, py = [], []
    for _ in range(args.runs):
        cli.append(timed(cli_cmd))
        py.append(timed(py_cmd))
    print(f"contend-cli analyze (process):       {spread(cli)}")
    print(f"python3 -c contend.analyze (process): {spread(py)}")
    ratio = statistics.median(calls) / statistics.median(cli)
    print(f"contend.analyze / contend-cli analyze: {ratio:.3f} (in-process call), "
          f"{statistics.median(py) / statistics.median(cli):.3f} (whole processes)")


if __name__ == "__main__":
    main()
