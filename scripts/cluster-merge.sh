#!/usr/bin/env bash
# The last step of every fan-out recipe (cluster-slurm.sh, cluster-parallel.sh): checks that
# each rank of this job left its report, then merges exactly those reports.
#
#   scripts/cluster-merge.sh [--cli PATH] [--name NAME] REPORTS_DIR CLUSTER_JSON
#
# REPORTS_DIR/ranks.tsv is the job's list ("RANK<TAB>TRACE", scripts/cluster-list.sh --ranks);
# rank R's report is REPORTS_DIR/rank-R.report.json and its log REPORTS_DIR/rank-R.log. When a
# rank has no report, nothing is merged: each such rank is named with its trace, its log and
# the log's last line, and the exit status is 1. Otherwise `contend-cli merge` writes
# CLUSTER_JSON and CLUSTER_JSON's name with .md (its exit status is this script's).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$here/build/app/cli/contend-cli"
name="cluster-merge"
usage() {
  cat <<'USAGE'
usage: scripts/cluster-merge.sh [--cli PATH] [--name NAME] REPORTS_DIR CLUSTER_JSON
  Merges the reports of the ranks in REPORTS_DIR/ranks.tsv (rank-R.report.json) into
  CLUSTER_JSON and its .md; when a rank has no report, names it with its trace and log
  (rank-R.log) and exits 1 without merging. NAME prefixes the messages.
USAGE
}
while [ $# -gt 0 ]; do
  case "$1" in
    --cli) cli="$2"; shift 2 ;;
    --name) name="$2"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "cluster-merge: unknown option $1" >&2; usage >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 2 ] || { usage >&2; exit 2; }
reports="$1"; out="$2"
list="$reports/ranks.tsv"
[ -s "$list" ] || { echo "$name: $list: no rank list (the job's ranks.tsv)" >&2; exit 2; }

parts=()
failed=0
while IFS=$'\t' read -r rank trace; do
  report="$reports/rank-$rank.report.json"
  log="$reports/rank-$rank.log"
  if [ -s "$report" ]; then
    parts+=("$report")
    continue
  fi
  failed=$((failed + 1))
  if [ -s "$log" ]; then
    last="$(grep -v '^[[:space:]]*$' "$log" | tail -n 1 | cut -c1-400)"
    echo "$name: rank $rank failed: trace $trace, log $log: $last" >&2
  else
    echo "$name: rank $rank did not run (cancelled, or stopped after another rank failed):" \
      "trace $trace, log $log (absent)" >&2
  fi
done <"$list"
total=$(wc -l <"$list")
if [ "$failed" -gt 0 ]; then
  echo "$name: $failed of $total ranks have no report: no cluster report written" >&2
  exit 1
fi
echo "$name: merging the $total ranks of $list -> $out" >&2
"$cli" merge "${parts[@]}" --out "$out" --markdown "${out%.json}.md"
