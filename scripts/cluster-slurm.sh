#!/usr/bin/env bash
# Fans a cluster's per-rank analyses out as a Slurm job array (task id = rank), then a merge
# job that runs when every task has ended (afterany) and fails, naming the rank, its trace and
# its log, when one left no report. See docs/cluster.md and `--help`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() {
  cat <<'USAGE'
usage: scripts/cluster-slurm.sh [--cli PATH] [--max-running N] [--max-memory SIZE]
                                [--sbatch-arg ARG]... [--wait] [--dry-run]
                                TRACES_DIR REPORTS_DIR CLUSTER_JSON [-- SBATCH_ARG...]

Analyses each rank trace under TRACES_DIR (scripts/cluster-list.sh --ranks) as one task of a
Slurm job array whose task id is the rank, at most N at once (--max-running, default 64), then
merges the reports into CLUSTER_JSON (and its name with .md) in a job that depends on the array
with afterany: it runs however the tasks end, and fails when a rank left no report, naming the
rank, its trace and its log. REPORTS_DIR, TRACES_DIR, contend-cli and this checkout must be on
storage every node sees.

REPORTS_DIR must be new or empty (a folder holding an earlier run is refused, so two jobs'
reports are never merged together). The run writes there:
  ranks.tsv             the job's ranks ("RANK<TAB>TRACE"): the merge takes exactly these
  analyze-rank.sh       the array task (by hand: SLURM_ARRAY_TASK_ID=R bash analyze-rank.sh)
  merge.sh              the merge job (scripts/cluster-merge.sh on this job's folder)
  rank-R.log            rank R's log; rank-R.report.json its report; merge.log the merge's

options:
  --cli PATH          contend-cli to run (default: this checkout's build/app/cli/contend-cli)
  --max-running N     array tasks running at once (default 64)
  --max-memory SIZE   each rank's memory budget ("6G", "512M"): passed to contend-cli, which
                      stops with a message when a trace needs more, and requested from Slurm
                      as --mem of SIZE x 1.25 + 256M (the analysis and the process beside the
                      load); without it the tasks get the site's default memory
  --sbatch-arg ARG    one more argument for both sbatch calls (repeat it: --sbatch-arg
                      --partition=gpu --sbatch-arg --time=1:00:00); everything after `--`
                      is taken the same way. Given after ours, they override ours
  --wait              wait for the merge job and exit with its status (its message on stderr)
  --dry-run           write the files and print the sbatch commands instead of running them
  -h, --help          this text

Exit status: 0 submitted (with --wait: merged), 1 a rank failed (with --wait), 2 usage or a
refused REPORTS_DIR, 3 no rank traces or a trace without a rank (or two of one rank).
USAGE
}
short_usage() {
  usage | sed -n '1,3p'
  echo "(scripts/cluster-slurm.sh --help for the options)"
}
cluster_name=cluster-slurm
# shellcheck source=scripts/cluster-lib.sh
. "$here/scripts/cluster-lib.sh"
die() { cluster_die "$@"; }

cli="$here/build/app/cli/contend-cli"
max_running=64
memory=""
sbatch_args=()
wait=0
dry=0
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --cli) cli="${2:?--cli needs a path}"; shift 2 ;;
    --max-running) max_running="${2:?--max-running needs a number}"; shift 2 ;;
    --max-memory) memory="${2:?--max-memory needs a size}"; shift 2 ;;
    --sbatch-arg) sbatch_args+=("${2:?--sbatch-arg needs an argument}"); shift 2 ;;
    --sbatch-args)
      # The old spelling took several arguments in one string; one without a space is one.
      case "${2:?--sbatch-args needs an argument}" in
        *[[:space:]]*) die 2 "--sbatch-args '$2': arguments are not split on spaces; give each one" \
          "with --sbatch-arg ARG (repeat it), or all of them after --" ;;
      esac
      sbatch_args+=("$2"); shift 2 ;;
    --wait) wait=1; shift ;;
    --dry-run) dry=1; shift ;;
    -h | --help) usage; exit 0 ;;
    --) shift; sbatch_args+=("$@"); break ;;
    -*) echo "cluster-slurm: unknown option $1" >&2; short_usage >&2; exit 2 ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -eq 3 ] || { short_usage >&2; exit 2; }
traces="${positional[0]}"; reports="${positional[1]}"; out="${positional[2]}"
[[ "$max_running" =~ ^[1-9][0-9]*$ ]] || die 2 "--max-running $max_running: not a positive number"
mem_request=""
if [ -n "$memory" ]; then
  mib="$(cluster_request_mib "$memory")"
  [ -n "$mib" ] || die 2 "--max-memory $memory: not a size (e.g. 6G, 512M)"
  mem_request="--mem=${mib}M"
fi
[ "$dry" -eq 1 ] || command -v sbatch >/dev/null ||
  die 2 "sbatch not found (--dry-run writes the jobs and prints the commands)"
case "$reports" in *%*) die 2 "$reports: a '%' in REPORTS_DIR would be read as a Slurm file pattern" ;; esac
cluster_fresh_and_ranks "$traces" "$reports"
mkdir -p "$reports"
reports="$(cd "$reports" && pwd)"
case "$out" in /*) ;; *) out="$(pwd)/$out" ;; esac
# contend-cli may exist only on the compute nodes: made absolute, not looked for here.
case "$cli" in /*) ;; */*) cli="$(pwd)/$cli" ;; esac
printf '%s\n' "$cluster_ranks" >"$reports/ranks.tsv"
n=$(wc -l <"$reports/ranks.tsv")

# The array's indices are the ranks, compressed into ranges: "0-7", "0-3,5,8-9".
spec="$(cut -f1 "$reports/ranks.tsv" | awk '
  NR == 1 { a = b = $1; next }
  $1 == b + 1 { b = $1; next }
  { s = s (a == b ? a : a "-" b) ","; a = b = $1 }
  END { print s (a == b ? a : a "-" b) }')"

q() { printf '%q' "$1"; }
cluster_write_task "$reports" "$cli" "$memory"
cat >"$reports/merge.sh" <<JOB
#!/usr/bin/env bash
# The merge of the job written by scripts/cluster-slurm.sh: every rank's report, or a failure
# naming the ranks without one.
exec bash $(q "$here/scripts/cluster-merge.sh") --name cluster-slurm --cli $(q "$cli") $(q "$reports") $(q "$out")
JOB

array=(sbatch --parsable --job-name=contend-rank --output="$reports/rank-%a.log"
  --array="$spec%$max_running" ${mem_request:+"$mem_request"} "${sbatch_args[@]}" "$reports/analyze-rank.sh")
merge=(sbatch --parsable --job-name=contend-merge --output="$reports/merge.log"
  --dependency=afterany:JOBID --kill-on-invalid-dep=yes ${mem_request:+--mem=1024M}
  "${sbatch_args[@]}" "$reports/merge.sh")
if [ "$dry" -eq 1 ]; then
  printf '%q ' "${array[@]}"; echo
  printf '%q ' "${merge[@]}"; echo
  exit 0
fi
job="$("${array[@]}")" || {
  # Nothing ran: the folder goes back to what it was (new or empty), so a retry is not refused.
  rm -f "$reports/ranks.tsv" "$reports/analyze-rank.sh" "$reports/merge.sh"
  rmdir "$reports" 2>/dev/null || true
  die 2 "sbatch refused the array job (its message above); nothing was submitted"
}
job="${job%%;*}"
merge=("${merge[@]/afterany:JOBID/afterany:$job}")
echo "cluster-slurm: $n ranks in array job $job ($reports/rank-R.log); merge -> $out" >&2
mjob="$("${merge[@]}")" || {
  scancel "$job" 2>/dev/null || true
  die 2 "the merge job could not be submitted (array job $job cancelled)"
}
mjob="${mjob%%;*}"
echo "cluster-slurm: merge job $mjob (log $reports/merge.log)" >&2
[ "$wait" -eq 1 ] || exit 0
# Polled every second (sbatch --wait backs off to 32 s between looks); the job's record stays
# in slurmctld for MinJobAge (300 s by default) after it ends.
state=""
while :; do
  line="$(scontrol -o show job "$mjob" 2>/dev/null || true)"
  state="$(sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' <<<"$line")"
  case "$state" in
    PENDING | RUNNING | CONFIGURING | COMPLETING | SUSPENDED | REQUEUED | RESIZING | "") ;;
    *) break ;;
  esac
  [ -n "$line" ] || break
  sleep 1
done
if [ "$state" = COMPLETED ]; then
  grep -v '^cluster-slurm: merging' "$reports/merge.log" >&2 2>/dev/null || true
  exit 0
fi
cat "$reports/merge.log" >&2 2>/dev/null || true
code="$(sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p' <<<"$line")"
[ "$state" = FAILED ] && [ -n "$code" ] && [ "$code" -ne 0 ] && exit "$code"
state="${state:-no longer known to slurmctld}"
die 1 "merge job $mjob ended $state (log $reports/merge.log)"
