#!/usr/bin/env python3
"""Where the bytes of a JSON document go: every byte of the file (whitespace included) is
charged to the field whose value or key it belongs to, named by its path of keys with the array
levels left out ("anomalies.breakdown.measured", "patterns.runs.slice"), down to DEPTH keys.

    scripts/report-bytes.py [--depth N] [--top N] REPORT.json

Prints one line per path, largest first: bytes, the share of the file, and the bytes per item of
the section the path is in (the section's top-level array length, or a columnar table's `rows`). It
reads any JSON (a contend.report/2 or /3, a cluster report, a trace), streaming the text with one
regular expression, so a 1 GB report takes a few minutes and little memory beyond the file."""
import mmap
import re
import sys
from collections import defaultdict

TOKEN = re.compile(rb'\s*("(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+)')


def attribute(data, depth):
    sizes = defaultdict(int)
    lengths = {}  # top-level key -> items when its value is an array
    # Frames: [is_object, path, expecting_key, key]
    stack = []
    pending = None  # the path a value about to come is charged to
    pos, end = 0, len(data)
    match = TOKEN.match
    while pos < end:
        m = match(data, pos)
        if m is None:
            if data[pos:].strip():
                raise SystemExit(f"report-bytes.py: cannot tokenize at byte {pos}")
            sizes["(trailing whitespace)"] += end - pos
            break
        tok = m.group(1)
        n = m.end() - pos
        pos = m.end()
        top = stack[-1] if stack else None
        c = tok[:1]
        if top is not None and top[0] and top[2] and c == b'"':
            key = tok[1:-1].decode("utf-8", "replace")
            top[3] = key
            top[2] = False
            pending = top[1] + [key] if len(top[1]) < depth else top[1]
            sizes[".".join(pending)] += n
            if len(stack) == 1 and key not in lengths:
                lengths[key] = None
            continue
        if c == b":":
            sizes[".".join(pending)] += n
            continue
        if c == b",":
            if top[0]:
                top[2] = True
            sizes[".".join(top[1]) or "(document)"] += n
            continue
        if c in (b"}", b"]"):
            frame = stack.pop()
            sizes[".".join(frame[1]) or "(document)"] += n
            continue
        path = pending if (top is not None and top[0]) else (top[1] if top is not None else [])
        if top is not None and not top[0] and len(stack) == 2 and stack[0][0]:
            # An item of a top-level array.
            k = stack[0][3]
            lengths[k] = (lengths.get(k) or 0) + 1
        elif top is not None and top[0] and len(stack) == 2 and top[3] == "rows" and tok.isdigit():
            # A columnar table's length (contend.report/3).
            lengths[stack[0][3]] = int(tok)
        sizes[".".join(path) or "(document)"] += n
        if c == b"{":
            stack.append([True, path, True, None])
        elif c == b"[":
            stack.append([False, path, False, None])
    return sizes, lengths


def main():
    args = sys.argv[1:]
    depth, top = 3, 60
    while args and args[0].startswith("--"):
        if args[0] == "--depth":
            depth = int(args[1])
        elif args[0] == "--top":
            top = int(args[1])
        else:
            sys.exit(__doc__)
        args = args[2:]
    if len(args) != 1:
        sys.exit(__doc__)
    with open(args[0], "rb") as f:
        data = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        sizes, lengths = attribute(data, depth)
        total = len(data)
    by_section = defaultdict(int)
    for path, n in sizes.items():
        by_section[path.split(".")[0]] += n
    print(f"{total:>14,d} bytes  {args[0]}")
    print("by section:")
    for sec, n in sorted(by_section.items(), key=lambda x: -x[1]):
        items = lengths.get(sec)
        per = f"{n / items:10.1f} B/item ({items:,d} items)" if items else ""
        print(f"  {n:>14,d} {100.0 * n / total:6.2f}%  {sec:<40s} {per}")
    print(f"by field (depth {depth}):")
    for path, n in sorted(sizes.items(), key=lambda x: -x[1])[:top]:
        items = lengths.get(path.split(".")[0])
        per = f"{n / items:10.1f} B/item" if items else ""
        print(f"  {n:>14,d} {100.0 * n / total:6.2f}%  {path:<40s} {per}")


if __name__ == "__main__":
    main()
