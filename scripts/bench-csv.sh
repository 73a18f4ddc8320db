#!/usr/bin/env bash
# CSV benchmark: how long an Ascend folder's side CSV takes to read and join. Writes, under a temp
# folder, an Ascend text export whose ASCEND_PROFILER_OUTPUT holds a small trace_view.json and a
# kernel_details.csv of ROWS rows x 46 columns (quoted shapes, CRLF: what the profiler writes; the
# shape tests/test_csv.cpp parses), then runs `contend-cli bench-load` on the folder (CSV joined)
# and on the same trace_view.json alone (no CSV), and prints both medians and their difference:
#   csv_rows=N csv_mb=M with_csv_ms=A without_csv_ms=B csv_ms=A-B
# (tests/test_csv.cpp checks the parse, not its speed.) Not run by CI.
#
#   scripts/bench-csv.sh [--rows N] [--repeat N] [--build DIR] [--tmp DIR]
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build"
tmp="${TMPDIR:-/tmp}"
rows=100000
repeat=5
while [ $# -gt 0 ]; do
    case "$1" in
        --rows) rows="$2"; shift ;;
        --repeat) repeat="$2"; shift ;;
        --build) build="$2"; shift ;;
        --tmp) tmp="$2"; shift ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-csv.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
cli="$build/app/cli/contend-cli"
[ -x "$cli" ] || { echo "bench-csv.sh: no $cli (scripts/build.sh first)" >&2; exit 2; }

work="$(mktemp -d "$tmp/contend-bench-csv.XXXXXX")"
trap 'rm -rf "$work"' EXIT
out="$work/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT"
mkdir -p "$out" "$work/alone"
python3 - "$out" "$rows" <<'PY'
import sys
out, rows = sys.argv[1], int(sys.argv[2])
events = ['{"ph":"M","name":"process_name","pid":1,"args":{"name":"Ascend Hardware"}}']
for i in range(200):
    events.append('{"ph":"X","name":"op_%d","pid":1,"tid":2,"ts":%d,"dur":5,"args":{"Task Id":%d,"Stream Id":2}}'
                  % (i % 97, i * 10, i))
with open(out + "/trace_view.json", "w") as f:
    f.write("[" + ",\n".join(events) + "]\n")
cols = ["Step Id", "Model ID", "Task ID", "Stream ID", "Name", "Input Shapes"] + ["aic_m%d" % c for c in range(6, 46)]
with open(out + "/kernel_details.csv", "w", newline="") as f:
    f.write(",".join(cols) + "\r\n")
    tail = ",0.123" * 40
    for r in range(rows):
        f.write('50,4294967295,%d,2,op_%d,"""32,3,224,224"""%s\r\n' % (r, r % 97, tail))
PY
cp "$out/trace_view.json" "$work/alone/trace_view.json"

median_ms() {  # the median of bench-load's per-run wall times ("run N: S s, ...") of TRACE, in ms
    "$cli" bench-load "$1" --repeat "$repeat" | sed -n 's/^run [0-9]*: \([0-9.]*\) s,.*/\1/p' | sort -g |
        awk '{ v[NR] = $1 } END { if (NR) printf "%.3f\n", v[int((NR + 1) / 2)] * 1000 }'
}
with=$(median_ms "$work/rank0_ascend_pt")
without=$(median_ms "$work/alone/trace_view.json")
mb=$(awk -v b="$(stat -c %s "$out/kernel_details.csv")" 'BEGIN { printf "%.1f", b / 1e6 }')
awk -v r="$rows" -v mb="$mb" -v a="$with" -v b="$without" \
    'BEGIN { printf "csv_rows=%d csv_mb=%s with_csv_ms=%.1f without_csv_ms=%.1f csv_ms=%.1f\n", r, mb, a, b, a - b }'
