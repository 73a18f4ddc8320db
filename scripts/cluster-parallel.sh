#!/usr/bin/env bash
# Fans a cluster's per-rank analyses out with GNU parallel (this machine, or other hosts with
# --sshlogin), one report and one log per rank, then merges exactly this job's ranks. See
# docs/cluster.md and `--help`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() {
  cat <<'USAGE'
usage: scripts/cluster-parallel.sh [-j N] [--sshlogin LOGINS] [--cli PATH] [--max-memory SIZE]
                                   TRACES_DIR REPORTS_DIR CLUSTER_JSON

Analyses each rank trace under TRACES_DIR (scripts/cluster-list.sh --ranks) with GNU parallel,
then merges the reports into CLUSTER_JSON (and its name with .md). After the first rank that
fails no new rank starts (parallel --halt soon,fail=1), and the merge is not run: each rank
without a report is named with its trace and its log, and the exit status is 1.

REPORTS_DIR must be new or empty (a folder holding an earlier run is refused, so two runs'
reports are never merged together). The run writes there ranks.tsv (the job's ranks,
"RANK<TAB>TRACE": the merge takes exactly these), analyze-rank.sh (one rank: bash
analyze-rank.sh R), rank-R.log and rank-R.report.json.

options:
  -j, --jobs N          analyses at once (parallel's default: one per CPU core)
  -S, --sshlogin LOGINS GNU parallel's syntax, e.g. "4/node1,4/node2" or ":,node2": TRACES_DIR,
                        REPORTS_DIR, contend-cli and this checkout must then be at the same paths
                        on every host (shared storage)
  --cli PATH            contend-cli to run (default: this checkout's build/app/cli/contend-cli)
  --max-memory SIZE     each rank's memory budget for contend-cli ("6G", "512M"): a trace that
                        needs more stops with a message instead of taking the host's memory
  -h, --help            this text

Exit status: 0 merged, 1 a rank failed (named), 2 usage or a refused REPORTS_DIR, 3 no rank
traces or a trace without a rank (or two of one rank), else the merge's.
USAGE
}
cluster_name=cluster-parallel
# shellcheck source=scripts/cluster-lib.sh
. "$here/scripts/cluster-lib.sh"
die() { cluster_die "$@"; }

cli="$here/build/app/cli/contend-cli"
jobs=""
sshlogin=""
memory=""
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    -j | --jobs) jobs="${2:?$1 needs a number}"; shift 2 ;;
    -S | --sshlogin) sshlogin="${2:?$1 needs logins}"; shift 2 ;;
    --cli) cli="${2:?--cli needs a path}"; shift 2 ;;
    --max-memory) memory="${2:?--max-memory needs a size}"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    -*) echo "cluster-parallel: unknown option $1 (--help for the options)" >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -eq 3 ] || { usage | sed -n '1,2p' >&2; exit 2; }
traces="${positional[0]}"; reports="${positional[1]}"; out="${positional[2]}"
command -v parallel >/dev/null || die 2 "GNU parallel is not installed (apt-get install parallel)"
[ -x "$cli" ] || die 2 "no $cli: build it (scripts/build.sh) or pass --cli"
cluster_fresh_and_ranks "$traces" "$reports"
mkdir -p "$reports"
reports="$(cd "$reports" && pwd)"
cli="$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")"
printf '%s\n' "$cluster_ranks" >"$reports/ranks.tsv"
n=$(wc -l <"$reports/ranks.tsv")

cluster_write_task "$reports" "$cli" "$memory"

echo "cluster-parallel: $n ranks -> $reports (rank-R.log, rank-R.report.json)" >&2
# -q: parallel quotes every word, so no path is split or read by a shell.
args=(--will-cite --halt 'soon,fail=1' -q --colsep '\t' --arg-file "$reports/ranks.tsv")
[ -n "$jobs" ] && args+=(-j "$jobs")
[ -n "$sshlogin" ] && args+=(--sshlogin "$sshlogin")
rc=0
parallel "${args[@]}" bash "$reports/analyze-rank.sh" '{1}' || rc=$?
# The merge checks every rank: it names those that failed or never ran, and merges only when
# all of them left a report.
mrc=0
bash "$here/scripts/cluster-merge.sh" --name cluster-parallel --cli "$cli" "$reports" "$out" || mrc=$?
if [ "$mrc" -eq 0 ] && [ "$rc" -ne 0 ]; then
  die 1 "GNU parallel exited $rc although every rank left a report"
fi
exit "$mrc"
