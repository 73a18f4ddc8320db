#!/usr/bin/env bash
# Runs `contend-cli analyze --json` (and `info --json`) on the bundled samples and every real
# trace in /work/shared/traces (files and Ascend profiler folders), writing one file per input
# under OUTDIR. Run it with two builds and `diff -r` the two folders to check that a refactor
# left every report byte for byte unchanged (but for its "producer", which is left out).
# usage: scripts/compare-reports.sh CONTEND_CLI OUTDIR [TRACES_DIR]
set -u
cli=$1
out=$2
traces=${3:-/work/shared/traces}
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
{
    ls "$root"/resources/samples/*.json.gz
    find "$traces" -type f \( -name '*.json' -o -name '*.json.gz' -o -name '*.db' -o -name '*.sqlite' \) | sort
    find "$traces" -type d -name '*_ascend_pt' | sort
} | while read -r input; do
    name=$(echo "${input#"$root"/}" | sed 's|^/work/shared/traces/||; s|/|__|g')
    "$cli" analyze "$input" --json "$out/$name.analyze.json" >"$out/$name.analyze.stdout" 2>"$out/$name.analyze.stderr"
    echo "rc=$?" >>"$out/$name.analyze.stderr"
    # The report's "producer" names the build (version and git commit): left out so that two
    # builds compare equal on everything else.
    [ -f "$out/$name.analyze.json" ] && sed -i '/^  "producer": {$/,/^  },\{0,1\}$/d' "$out/$name.analyze.json"
    # info's load_seconds is a wall-clock time: left out so that two runs compare equal.
    "$cli" info "$input" --json 2>"$out/$name.info.stderr" | grep -v '"load_seconds"' >"$out/$name.info.json"
    echo "rc=${PIPESTATUS[0]}" >>"$out/$name.info.stderr"
done
echo "$(ls "$out" | grep -c analyze.stderr) inputs written to $out"
