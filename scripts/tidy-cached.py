#!/usr/bin/env python3
"""clang-tidy over a list of files, skipping the ones already found clean with the same input.

A file's key is the SHA-256 of: clang-tidy's --version, the .clang-tidy config, the file's
compile command (paths made relative to the source root, so another clone of the same commit
hits), and the file's preprocessed text (every header it includes, so a change to a header the
file sees reruns it). A file that clang-tidy passes writes an empty stamp named by its key under
the cache folder; a file with a warning writes nothing, so it is checked again next time. A cold
cache costs one preprocessing pass per file on top of clang-tidy (about 5%); a warm one costs the
preprocessing alone.

    scripts/tidy-cached.py -p BUILD_DIR [--cache DIR] [-j N] FILE...

Cache: $CONTEND_TIDY_CACHE, else $XDG_CACHE_HOME/contend/tidy, else ~/.cache/contend/tidy.
CONTEND_TIDY_CACHE=off checks every file. Exit status 1 when any file has a warning (printed
with its file and line), 2 on a usage or setup error.
"""
import argparse
import concurrent.futures
import hashlib
import json
import os
import shlex
import subprocess
import sys


def cache_dir(arg):
    if arg:
        return arg
    env = os.environ.get("CONTEND_TIDY_CACHE")
    if env:
        return env
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "contend", "tidy")


def compile_args(entry):
    if "arguments" in entry:
        return list(entry["arguments"])
    return shlex.split(entry["command"])


def preprocess_args(args):
    """The compile command turned into 'preprocess to stdout': drop -c, the output and the
    dependency-file options (with their arguments), add -E -P -o -."""
    out = []
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a in ("-o", "-MF", "-MT", "-MQ"):
            skip = True
        elif a not in ("-c", "-MD", "-MMD") and not a.startswith("-o"):
            out.append(a)
    return out + ["-E", "-P", "-o", "-"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-p", dest="build", required=True, help="build folder with compile_commands.json")
    ap.add_argument("--cache", help="cache folder (default: see --help)")
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--root", default=os.getcwd(), help="source root (paths in keys are relative to it)")
    ap.add_argument("files", nargs="+")
    opts = ap.parse_args()

    db_path = os.path.join(opts.build, "compile_commands.json")
    try:
        with open(db_path) as f:
            db = {os.path.realpath(os.path.join(e["directory"], e["file"])): e for e in json.load(f)}
    except (OSError, ValueError) as e:
        print(f"tidy-cached: {db_path}: {e}", file=sys.stderr)
        return 2
    root = os.path.realpath(opts.root)
    with open(os.path.join(root, ".clang-tidy"), "rb") as f:
        config = f.read()
    version = subprocess.run(["clang-tidy", "--version"], capture_output=True, check=True).stdout
    cache = cache_dir(opts.cache)
    use_cache = cache != "off"
    if use_cache:
        os.makedirs(cache, exist_ok=True)

    def key_of(path, entry):
        args = compile_args(entry)
        pre = subprocess.run(preprocess_args(args), cwd=entry["directory"], capture_output=True)
        if pre.returncode != 0:
            return None  # let clang-tidy say what is wrong
        h = hashlib.sha256()
        for part in (version, config, " ".join(args).replace(root, "<root>").encode(),
                     os.path.relpath(path, root).encode(), pre.stdout):
            h.update(len(part).to_bytes(8, "little"))
            h.update(part)
        return h.hexdigest()

    def check(path):
        entry = db.get(path)
        if entry is None:
            return path, False, f"{path}: not in {db_path}\n", False
        key = key_of(path, entry) if use_cache else None
        stamp = os.path.join(cache, key) if key else None
        if stamp and os.path.exists(stamp):
            return path, True, "", True
        r = subprocess.run(["clang-tidy", "-quiet", "-p", opts.build, path], capture_output=True, text=True)
        text = r.stdout + r.stderr
        bad = r.returncode != 0 or "warning:" in r.stdout or "error:" in r.stdout
        if not bad and stamp:
            open(stamp, "w").close()
        return path, not bad, text, False

    files = [os.path.realpath(p) for p in opts.files]
    hits = 0
    failed = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, opts.j)) as pool:
        for path, ok, text, hit in pool.map(check, files):
            hits += hit
            if not ok:
                failed.append(path)
                lines = [l for l in text.splitlines() if ("warning:" in l or "error:" in l or l.startswith(" "))]
                print("\n".join(lines) if lines else text, file=sys.stderr)
    print(f"tidy-cached: {len(files)} files, {hits} unchanged since a clean check (cache {cache if use_cache else 'off'}), "
          f"{len(files) - hits} checked, {len(failed)} with warnings")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
