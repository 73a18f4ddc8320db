#!/usr/bin/env bash
# Scale benchmark (issue 12): makes 1M and 10M traces, Kineto-shaped (scripts/gen-kineto-bench.py),
# Kineto-shaped with most kernels slowed by a partner (gen-kineto-bench.py --contended 0.8: more
# than half flagged at coefficient 0.5) and simulated mixed (contend-cli simulate mixed --events N
# --device-only), under a temp folder, and prints per trace: load MB/s, analysis seconds, peak RSS /
# file size, JSON report bytes, anomalies at coefficient 0.5, re-threshold ms at coefficients
# 0.5 / 3 / 20 (overlap 0.7) and 0.5 / 3 at overlap 0.3 (bench-analyze medians), and render median /
# max frame ms with overlays at coefficients 0.5 and 3 (contend --bench-render, offscreen). Not run
# by CI: the 10M traces are 4-5 GB each and take minutes; only one trace is on disk at a time.
#
#   scripts/bench-scale.sh [--no-10m] [--no-render] [--no-mixed] [--sizes "N ..."] [--build DIR] [--tmp DIR]
# (--sizes replaces 1M and 10M, e.g. --sizes 20000 to check the script itself in seconds.)
set -euo pipefail

here="$(cd "$(dirname "$0")/.." && pwd)"
build="$here/build"
tmp="${TMPDIR:-/tmp}"
sizes=(1000000 10000000)
shapes=(kineto contended mixed)
render=1
while [ $# -gt 0 ]; do
    case "$1" in
        --no-10m) sizes=(1000000) ;;
        --sizes) read -r -a sizes <<<"$2"; shift ;;
        --no-render) render=0 ;;
        --no-mixed) shapes=(kineto contended) ;;
        --build) build="$2"; shift ;;
        --tmp) tmp="$2"; shift ;;
        -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench-scale.sh: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
cli="$build/app/cli/contend-cli"
app="$build/app/gui/contend"
[ -x "$cli" ] || { echo "bench-scale.sh: $cli not built (cmake --build $build --target contend-cli)" >&2; exit 2; }
if [ "$render" = 1 ] && [ ! -x "$app" ]; then
    echo "bench-scale.sh: $app not built; rendering skipped (--no-render to silence)" >&2
    render=0
fi
work="$(mktemp -d "$tmp/contend-bench-scale.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Peak RSS (kB) of a command, from GNU time.
peak_kb() { grep 'Maximum resident' "$1" | awk '{print $NF}'; }

printf '%-9s %5s %7s %9s %9s %8s %9s %8s %7s %7s %7s %9s %9s %12s %12s\n' shape ops file_MB load_MB/s analyze_s \
    rss/file report_MB flagged rt0.5 rt3 rt20 rt0.5/.3 rt3/.3 render0.5_ms render3_ms
for n in "${sizes[@]}"; do
    for shape in "${shapes[@]}"; do
        trace="$work/$shape-$n.json"
        if [ "$shape" = kineto ]; then
            python3 "$here/scripts/gen-kineto-bench.py" "$n" "$trace"
        elif [ "$shape" = contended ]; then
            python3 "$here/scripts/gen-kineto-bench.py" --contended 0.8 "$n" "$trace"
        else
            "$cli" simulate mixed --events "$n" --device-only --quiet --out "$trace"
        fi
        file_b=$(stat -c %s "$trace")
        load=$("$cli" bench-load "$trace" --repeat 1 | sed -n 's/.*median_mb_per_s=\([0-9.]*\).*/\1/p')
        /usr/bin/time -v "$cli" analyze "$trace" --json "$work/report.json" >/dev/null 2>"$work/time.txt" || {
            echo "bench-scale.sh: analyze failed on $trace:" >&2; grep -v '^\s' "$work/time.txt" >&2 || true; }
        wall=$(grep 'Elapsed (wall clock)' "$work/time.txt" | awk '{print $NF}')
        rss_kb=$(peak_kb "$work/time.txt")
        report_b=$(stat -c %s "$work/report.json" 2>/dev/null || echo 0)
        # Re-threshold medians (of 5) at 0.5 / 3 / 20 (overlap 0.7) and 0.5 / 3 (overlap 0.3) from
        # bench-analyze, and the anomalies at 0.5.
        "$cli" bench-analyze "$trace" --repeat 1 >"$work/ba.txt"
        rt() { sed -n "s/^rethreshold: coefficient $1 overlap $2: \([0-9.]*\) ms.*/\1/p" "$work/ba.txt"; }
        flagged=$(sed -n 's/^rethreshold: coefficient 0.5 overlap 0.70: .* -> \([0-9]*\) anomalies.*/\1/p' "$work/ba.txt")
        frames=("-" "-")
        if [ "$render" = 1 ]; then
            i=0
            for k in 0.5 3; do
                out=$(QT_QPA_PLATFORM=offscreen "$app" --bench-render "$trace" --coefficient "$k" 2>/dev/null | tail -1)
                frames[$i]=$(echo "$out" | sed -n 's/median_frame_ms=\([0-9.]*\) max_frame_ms=\([0-9.]*\)/\1\/\2/p')
                i=$((i + 1))
            done
        fi
        awk -v s="$shape" -v n="$n" -v f="$file_b" -v l="$load" -v w="$wall" -v r="$rss_kb" -v rb="$report_b" \
            -v a="$(rt 0.5 0.70)" -v b="$(rt 3.0 0.70)" -v c="$(rt 20.0 0.70)" -v d="$(rt 0.5 0.30)" \
            -v e="$(rt 3.0 0.30)" -v fl="$flagged" -v f1="${frames[0]}" -v f2="${frames[1]}" 'BEGIN {
            split(w, t, ":"); secs = (length(t) == 3) ? t[1] * 3600 + t[2] * 60 + t[3] : t[1] * 60 + t[2];
            ops = (n >= 1e6) ? sprintf("%dM", n / 1e6) : sprintf("%dk", n / 1e3);
            printf "%-9s %5s %7.0f %9s %9.1f %8.2f %9.1f %8s %7s %7s %7s %9s %9s %12s %12s\n", s, ops, f / 1e6, l,
                   secs, r * 1024 / f, rb / 1e6, fl, a, b, c, d, e, f1, f2 }'
        rm -f "$trace" "$work/report.json"
    done
done
echo "(analyze_s and rss/file: contend-cli analyze --json at the defaults, load included; flagged: anomalies at coefficient 0.5;"
echo " rtK[/R]: re-threshold ms at coefficient K, overlap R (0.7 unless given); render: median/max frame ms at 1600x900)"
