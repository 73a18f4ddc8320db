#!/usr/bin/env bash
# Scale benchmark (issue 12): makes 1M and 10M traces, Kineto-shaped (scripts/gen-kineto-bench.py),
# Kineto-shaped with most kernels slowed by a partner (gen-kineto-bench.py --contended 0.8: more
# than half flagged at coefficient 0.5) and simulated mixed (contend-cli simulate mixed --events N
# --device-only), under a temp folder, and prints per trace: load MB/s, the load's seconds
# (`contend-cli info`), `analyze --json` seconds at the defaults and at coefficient 0.5 with
# their ratios to the load taken in the same run (issue 27: <= 2x and <= 4x on 1M kernels),
# peak RSS / file size, the JSON reports' size over the trace's at both, anomalies at coefficient
# 0.5, re-threshold ms at coefficients 0.5 / 3 / 20 (overlap 0.7) and 0.5 / 3 at overlap 0.3
# (bench-analyze medians), and render median / max frame ms with overlays at coefficients 0.5 and
# 3 (contend --bench-render, offscreen), and when the app's timeline came over the load
# (contend --bench-open: the preview while the analysis runs; issue 27: <= 1.5x), and for traces
# under 1 GB: python3's json.load over the load (issue 27: >= 25x) and the app's slider (contend
# --bench-rethreshold, 28 steps: the findings' median / max ms without the what-if cache and with
# it, issue 27: <= 50 / 200 ms without it, and the gains' median ms without it; --no-render skips
# the app's benches). Not run by CI: the 10M traces are 4-5 GB each and take minutes; only one
# trace is on disk at a time.
#
#   scripts/bench-scale.sh [--no-10m] [--no-render] [--no-mixed] [--sizes "N ..."] [--build DIR] [--tmp DIR]
# (--sizes replaces 1M and 10M, e.g. --sizes 20000 to check the script itself in seconds.)
# First it prints what touching newly mapped memory costs the machine, cold and warm (contend-cli
# bench-memory), to read the ratios against.
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
        -h|--help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

# Wall seconds of a command, from GNU time's "Elapsed" (m:ss.cc or h:mm:ss).
wall_s() { grep 'Elapsed (wall clock)' "$1" | awk '{ n = split($NF, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s }'; }
# analyze TRACE OUT [options]: `contend-cli analyze --json OUT`, timed into $work/time.txt.
analyze() {
    local trace=$1 report=$2
    shift 2
    /usr/bin/time -v "$cli" analyze "$trace" --json "$report" "$@" >/dev/null 2>"$work/time.txt" || {
        echo "bench-scale.sh: analyze $* failed on $trace:" >&2; grep -v '^\s' "$work/time.txt" >&2 || true; }
}

# What newly mapped memory costs this machine, cold (after 2 s idle: a VM's host may have taken
# freed pages back) and warm: the analysis touches most of its arrays cold, so on a machine where
# cold is far below warm its ratios to the load carry that.
"$cli" bench-memory --mib 512 --repeat 3 | tail -1 | sed 's/^/memory (contend-cli bench-memory): /'
printf '%-9s %5s %7s %9s %7s %7s %6s %8s %6s %8s %8s %8s %8s %7s %7s %7s %9s %9s %12s %12s %8s %6s %12s %12s %8s\n' \
    shape ops file_MB load_MB/s load_s an_s an/ld an0.5_s an.5/ld rss/file rep/file rep.5/fl flagged rt0.5 rt3 rt20 \
    rt0.5/.3 rt3/.3 render0.5_ms render3_ms prev/ld py/ld slider_ms slider_c_ms gains_ms
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
        # The load as `info` does it, the analysis at the defaults and at coefficient 0.5, one
        # after the other (the file in the page cache for all three), so their ratios are of one
        # sitting on a shared machine.
        /usr/bin/time -v "$cli" info "$trace" >/dev/null 2>"$work/time.txt"
        load_s=$(wall_s "$work/time.txt")
        analyze "$trace" "$work/report.json"
        wall=$(wall_s "$work/time.txt")
        rss_kb=$(peak_kb "$work/time.txt")
        report_b=$(stat -c %s "$work/report.json" 2>/dev/null || echo 0)
        rm -f "$work/report.json"
        analyze "$trace" "$work/report.json" --coefficient 0.5
        wall5=$(wall_s "$work/time.txt")
        report5_b=$(stat -c %s "$work/report.json" 2>/dev/null || echo 0)
        rm -f "$work/report.json"
        # Re-threshold medians (of 5) at 0.5 / 3 / 20 (overlap 0.7) and 0.5 / 3 (overlap 0.3) from
        # bench-analyze, and the anomalies at 0.5.
        "$cli" bench-analyze "$trace" --repeat 1 >"$work/ba.txt"
        rt() { sed -n "s/^rethreshold: coefficient $1 overlap $2: \([0-9.]*\) ms.*/\1/p" "$work/ba.txt"; }
        flagged=$(sed -n 's/^rethreshold: coefficient 0.5 overlap 0.70: .* -> \([0-9]*\) anomalies.*/\1/p' "$work/ba.txt")
        frames=("-" "-")
        preview="-"
        if [ "$render" = 1 ]; then
            preview=$(QT_QPA_PLATFORM=offscreen "$app" --bench-open "$trace" 2>/dev/null | tail -1 |
                sed -n 's/.*preview_over_load=\([0-9.]*\).*/\1/p')
            i=0
            for k in 0.5 3; do
                out=$(QT_QPA_PLATFORM=offscreen "$app" --bench-render "$trace" --coefficient "$k" 2>/dev/null | tail -1)
                frames[$i]=$(echo "$out" | sed -n 's/median_frame_ms=\([0-9.]*\) max_frame_ms=\([0-9.]*\)/\1\/\2/p')
                i=$((i + 1))
            done
        fi
        # Under 1 GB (json.load needs about four times the file): Python's load, and the app's
        # slider without the what-if cache and with it.
        py="-"
        slider=("-" "-" "-")
        if [ "$file_b" -lt 1000000000 ]; then
            /usr/bin/time -v python3 -c 'import json, sys; json.load(open(sys.argv[1]))' "$trace" 2>"$work/py.txt" ||
                echo "bench-scale.sh: python3's json.load failed on $trace" >&2
            py=$(awk -v p="$(wall_s "$work/py.txt")" -v l="$load_s" 'BEGIN { printf "%.1f", (l > 0 ? p / l : 0) }')
            if [ "$render" = 1 ]; then
                i=0
                for cache in --no-cache ""; do
                    # shellcheck disable=SC2086  # $cache is one option or none
                    out=$(QT_QPA_PLATFORM=offscreen "$app" --bench-rethreshold "$trace" $cache 2>/dev/null | tail -1)
                    slider[i]=$(echo "$out" | sed -n 's/.*findings_median_ms=\([0-9.]*\) findings_max_ms=\([0-9.]*\).*/\1\/\2/p')
                    [ $i = 0 ] && slider[2]=$(echo "$out" | sed -n 's/.*rethreshold_median_ms=\([0-9.]*\).*/\1/p')
                    i=$((i + 1))
                done
            fi
        fi
        awk -v s="$shape" -v n="$n" -v f="$file_b" -v l="$load" -v ls="$load_s" -v w="$wall" -v w5="$wall5" \
            -v r="$rss_kb" -v rb="$report_b" -v rb5="$report5_b" \
            -v a="$(rt 0.5 0.70)" -v b="$(rt 3.0 0.70)" -v c="$(rt 20.0 0.70)" -v d="$(rt 0.5 0.30)" \
            -v e="$(rt 3.0 0.30)" -v fl="$flagged" -v f1="${frames[0]}" -v f2="${frames[1]}" -v pv="${preview:--}" \
            -v py="$py" -v s1="${slider[0]:--}" -v s2="${slider[1]:--}" -v g="${slider[2]:--}" 'BEGIN {
            ops = (n >= 1e6) ? sprintf("%dM", n / 1e6) : sprintf("%dk", n / 1e3);
            printf "%-9s %5s %7.0f %9s %7.2f %7.2f %6.2f %8.2f %6.2f %8.2f %8.3f %8.3f %8s %7s %7s %7s %9s %9s %12s %12s %8s %6s %12s %12s %8s\n",
                   s, ops, f / 1e6, l, ls, w, (ls > 0 ? w / ls : 0), w5, (ls > 0 ? w5 / ls : 0), r * 1024 / f,
                   rb / f, rb5 / f, fl, a, b, c, d, e, f1, f2, pv, py, s1, s2, g }'
        rm -f "$trace" "$work/report.json"
    done
done
echo "(load_s: contend-cli info; an_s, an0.5_s: contend-cli analyze --json at the defaults and at coefficient 0.5, load"
echo " included, an/ld and an.5/ld their ratios to load_s; rss/file: analyze at the defaults; rep/file, rep.5/fl: the JSON"
echo " reports' bytes over the trace's; flagged: anomalies at coefficient 0.5;"
echo " rtK[/R]: re-threshold ms at coefficient K, overlap R (0.7 unless given); render: median/max frame ms at 1600x900;"
echo " prev/ld: the app's timeline (contend --bench-open, before the analysis ends) over the loader's read time;"
echo " py/ld: python3's json.load over load_s; slider_ms, slider_c_ms: the app's re-threshold (contend --bench-rethreshold,"
echo " 28 steps), the findings' median/max ms without and with the what-if cache; gains_ms: the gains' median without it;"
echo " '-': not measured (files of 1 GB or more, or no app))"
