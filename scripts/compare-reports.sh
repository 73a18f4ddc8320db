#!/usr/bin/env bash
# Writes what `contend-cli` says about a fixed set of inputs, one file per output, so that two
# builds can be compared output for output (a refactor or a speed-up must leave every report
# unchanged):
#
#   scripts/compare-reports.sh CONTEND_CLI OUTDIR [TRACES_DIR] [--sim] [--big TRACE]...
#   scripts/compare-reports.sh --diff OUTDIR_A OUTDIR_B
#
# The inputs: the bundled samples and every real trace under TRACES_DIR (default
# /work/shared/traces: files and Ascend profiler folders; one a reader refuses keeps its
# refusal: stderr and the exit status are written too). For each: `analyze --json --markdown
# --csv` at the defaults and its text summary, and `info --json`.
# --sim adds simulated traces, made by CONTEND_CLI (the simulator is deterministic per seed) in
# $TMPDIR/contend-compare-reports-sim (so two runs name the same paths) and removed after:
# every scenario at seeds 1 and 2, its --fixed twin, mixed as an Nsight SQLite export, mixed
# without counters and with 1 ms counters, each analysed at the defaults and at coefficient 0.5.
# --big TRACE (repeatable) adds a large trace, analysed at the defaults and at coefficient 0.5
# (JSON, Markdown and the summary; no CSV).
# What is left out, as it names the build or the clock rather than the analysis: the JSON
# report's "producer" member and info's load_seconds.
#
# --diff lists the outputs that differ between two such folders (and those in only one), and
# exits 1 when any does; a Markdown's pointer to its own JSON report is compared with the
# folder's path left out.
set -u
if [ "${1:-}" = "--diff" ]; then
    [ $# -eq 3 ] || { echo "usage: $0 --diff OUTDIR_A OUTDIR_B" >&2; exit 2; }
    a=${2%/} b=${3%/}
    n=$(find "$a" -type f | wc -l)
    # Outputs that name their own folder (the Markdown's pointer to its JSON report) are
    # compared with that folder's path written as OUTDIR in both.
    only=$(diff -rq "$a" "$b" | grep -v '^Files ' || true)
    real=()
    while read -r x y; do
        [ -n "$x" ] || continue
        cmp -s <(sed "s#$a#OUTDIR#g" "$x") <(sed "s#$b#OUTDIR#g" "$y") || real+=("$x $y")
    done < <(diff -rq "$a" "$b" | sed -n 's/^Files \(.*\) and \(.*\) differ$/\1 \2/p')
    if [ -z "$only" ] && [ ${#real[@]} -eq 0 ]; then
        echo "compare-reports: all $n outputs identical (folder paths aside)"
        exit 0
    fi
    [ -z "$only" ] || echo "$only"
    echo "compare-reports: ${#real[@]} outputs differ; first lines of each difference:"
    for pair in "${real[@]}"; do
        x=${pair%% *} y=${pair#* }
        echo "== $x"
        diff <(sed "s#$a#OUTDIR#g" "$x") <(sed "s#$b#OUTDIR#g" "$y") | head -8
    done
    exit 1
fi
[ $# -ge 2 ] || { sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
cli=$(realpath "$1")
out=$2
shift 2
traces=/work/shared/traces
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then
    traces=$1
    shift
fi
sim=0
big=()
while [ $# -gt 0 ]; do
    case "$1" in
        --sim) sim=1 ;;
        --big) big+=("$(realpath "$2")"); shift ;;
        *) echo "compare-reports: unknown option $1" >&2; exit 2 ;;
    esac
    shift
done
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"

# analyze NAME INPUT [options...]: the JSON report, the Markdown, the summary, stderr and the
# exit status, written under NAME.
analyze() {
    local name=$1 input=$2
    shift 2
    "$cli" analyze "$input" --json "$out/$name.json" --markdown "$out/$name.md" "$@" \
        >"$out/$name.stdout" 2>"$out/$name.stderr"
    echo "rc=$?" >>"$out/$name.stderr"
    # The report's "producer" names the build (version and git commit).
    [ -f "$out/$name.json" ] && sed -i '/^  "producer": {$/,/^  },\{0,1\}$/d' "$out/$name.json"
}

info() {
    local name=$1 input=$2
    # info's load_seconds is a wall-clock time.
    "$cli" info "$input" --json 2>"$out/$name.info.stderr" | grep -v '"load_seconds"' >"$out/$name.info.json"
    echo "rc=${PIPESTATUS[0]}" >>"$out/$name.info.stderr"
}

{
    ls "$root"/resources/samples/*.json.gz
    find "$traces" -type f \( -name '*.json' -o -name '*.json.gz' -o -name '*.db' -o -name '*.sqlite' \) | sort
    find "$traces" -type d -name '*_ascend_pt' | sort
} | while read -r input; do
    name=$(echo "${input#"$root"/}" | sed "s|^$traces/||; s|/|__|g")
    mkdir -p "$out/$name.csv"
    analyze "$name.analyze" "$input" --csv "$out/$name.csv"
    info "$name" "$input"
done

if [ "$sim" = 1 ]; then
    # One folder whatever OUTDIR is: the reports name their trace's path.
    gen="${TMPDIR:-/tmp}/contend-compare-reports-sim"
    rm -rf "$gen"
    mkdir -p "$gen"
    sims=()
    for scenario in bandwidth sync-cluster cache lock mixed null; do
        for seed in 1 2; do
            sims+=("$scenario-s$seed.json:$scenario --seed $seed")
        done
        sims+=("$scenario-fixed.json:$scenario --fixed")
    done
    sims+=("mixed-nsys.sqlite:mixed --format nsys-sqlite" "mixed-nocounters.json:mixed --counters none"
        "mixed-1ms.json:mixed --counters 1000" "lock-bad.json:lock --bad-rate 0.3 --seed 3")
    for s in "${sims[@]}"; do
        file=${s%%:*}
        # shellcheck disable=SC2086 # the scenario's options, word-split on purpose
        "$cli" simulate ${s#*:} --out "$gen/$file" --quiet >/dev/null 2>&1 || echo "simulate ${s#*:} failed" >&2
        analyze "sim__$file.analyze" "$gen/$file"
        analyze "sim__$file.analyze-k0.5" "$gen/$file" --coefficient 0.5
    done
    rm -rf "$gen"
fi

for input in "${big[@]}"; do
    name=big__$(basename "$input")
    analyze "$name.analyze" "$input"
    analyze "$name.analyze-k0.5" "$input" --coefficient 0.5
done
echo "$(find "$out" -name '*.stderr' | grep -vc info.stderr) analyses written to $out"
