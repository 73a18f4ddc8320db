#!/usr/bin/env python3
"""The shape of the code, checked in CI (.ci/run, stage "structure"):

1. no include cycle among the project's own files (core/, widgets/, app/, lab/, tests/);
2. no folder of core/ with more than 12 units directly in it (a folder that grows past that
   gets subfolders by job, each with its README);
3. no source file over 600 lines.

The layers themselves (which part of core may include which) are the build's: core/CMakeLists.txt
stops the configure step on a wrong include.

A unit is a header with its source (x.h + x.cpp, and x_impl.h or x_detail.h: its private parts); unit A depends on unit B when either of A's
files includes B's header. Any strongly connected set of two or more units is a cycle: printed
with one include that closes it. Any finding makes the exit status 1.

    scripts/check-structure.py [--graph]     (--graph prints every unit's dependencies)
"""
import collections
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FOLDERS = ['core', 'widgets', 'app', 'lab', 'tests']
MAX_UNITS_PER_FOLDER = 12     # in core/
MAX_LINES = 600
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


def project_files():
    out = subprocess.run(['git', 'ls-files', '--cached', '--others', '--exclude-standard', *FOLDERS],
                         cwd=ROOT, text=True, capture_output=True, check=True).stdout
    return sorted(f for f in out.split() if f.endswith(('.h', '.cpp')) and os.path.exists(os.path.join(ROOT, f)))


def unit_of(path):
    # x_impl.h and x_detail.h are x's private parts: the same unit as x.h and x.cpp.
    stem = os.path.splitext(path)[0]
    for suffix in ('_impl', '_detail'):
        if path.endswith('.h') and stem.endswith(suffix):
            return stem[:-len(suffix)]
    return stem


def main():
    files = project_files()
    known = set(files)
    deps = collections.defaultdict(set)    # unit -> units
    where = {}                             # (unit, unit) -> "file:line"
    for f in files:
        u = unit_of(f)
        deps[u]
        with open(os.path.join(ROOT, f), errors='replace') as text:
            for n, line in enumerate(text, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = next((c for c in (m.group(1), os.path.normpath(os.path.join(os.path.dirname(f), m.group(1))))
                               if c in known), None)
                if target is None:
                    continue
                v = unit_of(target)
                if v != u:
                    deps[u].add(v)
                    where.setdefault((u, v), f'{f}:{n}')
    if '--graph' in sys.argv:
        for u in sorted(deps):
            print(u, '->', ' '.join(sorted(deps[u])))
    # Tarjan's strongly connected components, iteratively.
    index, low, on, stack, sccs, counter = {}, {}, set(), [], [], [0]
    for start in sorted(deps):
        if start in index:
            continue
        work = [(start, iter(sorted(deps[start])))]
        index[start] = low[start] = counter[0]; counter[0] += 1; stack.append(start); on.add(start)
        while work:
            u, it = work[-1]
            v = next(it, None)
            if v is not None:
                if v not in index:
                    index[v] = low[v] = counter[0]; counter[0] += 1; stack.append(v); on.add(v)
                    work.append((v, iter(sorted(deps[v]))))
                elif v in on:
                    low[u] = min(low[u], index[v])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[u])
            if low[u] == index[u]:
                comp = []
                while True:
                    w = stack.pop(); on.discard(w); comp.append(w)
                    if w == u:
                        break
                if len(comp) > 1:
                    sccs.append(sorted(comp))
    for comp in sccs:
        members = set(comp)
        print(f'include cycle among {len(comp)} units: ' + ', '.join(comp))
        for u in comp:
            for v in sorted(deps[u] & members):
                print(f'  {where[(u, v)]}: {u} -> {v}')
    print(f'{len(deps)} units, {sum(len(d) for d in deps.values())} dependencies, {len(sccs)} include cycles')

    crowded = 0
    by_folder = collections.defaultdict(set)
    for u in deps:
        if u.startswith('core/'):
            by_folder[os.path.dirname(u)].add(u)
    for folder in sorted(by_folder):
        if len(by_folder[folder]) > MAX_UNITS_PER_FOLDER:
            crowded += 1
            print(f'{folder}: {len(by_folder[folder])} units (at most {MAX_UNITS_PER_FOLDER}): give it subfolders by job')
    print(f'{len(by_folder)} folders in core, the largest with {max(len(v) for v in by_folder.values())} units')

    long_files = 0
    for f in files:
        with open(os.path.join(ROOT, f), errors='replace') as text:
            lines = sum(1 for _ in text)
        if lines > MAX_LINES:
            long_files += 1
            print(f'{f}: {lines} lines (at most {MAX_LINES}): split it by job')
    print(f'{len(files)} source files, {long_files} over {MAX_LINES} lines')
    return 1 if sccs or crowded or long_files else 0


if __name__ == '__main__':
    sys.exit(main())
