#!/usr/bin/env bash
# Fans a cluster's per-rank analyses out with GNU parallel (this machine, or other hosts with
# --sshlogin), writing one report per rank to REPORTS_DIR, then merges them into CLUSTER_JSON
# (and CLUSTER_JSON's name with .md for the Markdown). See docs/cluster.md.
#
#   scripts/cluster-parallel.sh [-j N] [--sshlogin LOGINS] [--cli PATH] [--max-memory SIZE]
#                               TRACES_DIR REPORTS_DIR CLUSTER_JSON
#
# Rank traces are what `contend-cli cluster` opens: *.json / *.json.gz files (not reports or
# truth files) and *_ascend_pt folders, up to three levels under TRACES_DIR. With --sshlogin
# (GNU parallel's syntax, e.g. "4/node1,4/node2" or ":,node2"), TRACES_DIR, REPORTS_DIR and the
# contend-cli path must be the same on every host (shared storage). Exits non-zero when any
# rank fails (parallel --halt) or the merge does.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$here/build/app/cli/contend-cli"
jobs=""
sshlogin=""
memory=()
while [ $# -gt 0 ]; do
  case "$1" in
    -j|--jobs) jobs="$2"; shift 2 ;;
    --sshlogin|-S) sshlogin="$2"; shift 2 ;;
    --cli) cli="$2"; shift 2 ;;
    --max-memory) memory=(--max-memory "$2"); shift 2 ;;
    -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "cluster-parallel: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 3 ] || { echo "usage: scripts/cluster-parallel.sh [-j N] [--sshlogin LOGINS] [--cli PATH] TRACES_DIR REPORTS_DIR CLUSTER_JSON" >&2; exit 2; }
traces="$1"; reports="$2"; out="$3"
command -v parallel >/dev/null || { echo "cluster-parallel: GNU parallel is not installed (apt-get install parallel)" >&2; exit 2; }
[ -x "$cli" ] || { echo "cluster-parallel: no $cli: build it (scripts/build.sh) or pass --cli" >&2; exit 2; }
[ -d "$traces" ] || { echo "cluster-parallel: $traces: not a folder" >&2; exit 2; }
mkdir -p "$reports"
list="$reports/traces.list"
"$here/scripts/cluster-list.sh" "$traces" > "$list"
n=$(wc -l < "$list")
[ "$n" -gt 0 ] || { echo "cluster-parallel: no rank traces under $traces" >&2; exit 3; }
echo "cluster-parallel: $n ranks -> $reports" >&2
args=(--will-cite --halt now,fail=1 --arg-file "$list")
[ -n "$jobs" ] && args+=(-j "$jobs")
[ -n "$sshlogin" ] && args+=(--sshlogin "$sshlogin")
# {#}: the job's sequence number, so names never collide; merge reads each report's rank.
parallel "${args[@]}" "$cli" "${memory[@]}" analyze {} --json "$reports/part-{#}.report.json" ">/dev/null"
"$cli" merge "$reports"/part-*.report.json --out "$out" --markdown "${out%.json}.md"
