#!/usr/bin/env bash
# Fans a cluster's per-rank analyses out as a Slurm job array (one task per rank, at most
# --max-running at once), then a merge job that runs when every task succeeded
# (--dependency=afterok). Reports go to REPORTS_DIR, which must be on storage every node sees,
# as must TRACES_DIR and contend-cli. See docs/cluster.md.
#
#   scripts/cluster-slurm.sh [--cli PATH] [--max-running N] [--max-memory SIZE]
#                            [--sbatch-args "ARGS"] [--dry-run] TRACES_DIR REPORTS_DIR CLUSTER_JSON
#
# Writes REPORTS_DIR/traces.list, REPORTS_DIR/analyze-rank.sbatch (the array task: line
# SLURM_ARRAY_TASK_ID + 1 of the list) and REPORTS_DIR/merge.sbatch, then submits them.
# --dry-run writes the files and prints the sbatch commands instead of running them (the
# task script also runs by hand: SLURM_ARRAY_TASK_ID=3 bash REPORTS_DIR/analyze-rank.sbatch).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$here/build/app/cli/contend-cli"
max_running=64
memory=""
sbatch_args=""
dry=0
while [ $# -gt 0 ]; do
  case "$1" in
    --cli) cli="$2"; shift 2 ;;
    --max-running) max_running="$2"; shift 2 ;;
    --max-memory) memory="--max-memory $2"; shift 2 ;;
    --sbatch-args) sbatch_args="$2"; shift 2 ;;
    --dry-run) dry=1; shift ;;
    -h|--help) sed -n '2,14p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "cluster-slurm: unknown option $1" >&2; exit 2 ;;
    *) break ;;
  esac
done
[ $# -eq 3 ] || { echo "usage: scripts/cluster-slurm.sh [--dry-run] TRACES_DIR REPORTS_DIR CLUSTER_JSON" >&2; exit 2; }
traces="$1"; reports="$(mkdir -p "$2" && cd "$2" && pwd)"; out="$3"
[ -d "$traces" ] || { echo "cluster-slurm: $traces: not a folder" >&2; exit 2; }
list="$reports/traces.list"
"$here/scripts/cluster-list.sh" "$traces" > "$list"
n=$(wc -l < "$list")
[ "$n" -gt 0 ] || { echo "cluster-slurm: no rank traces under $traces" >&2; exit 3; }

cat > "$reports/analyze-rank.sbatch" <<JOB
#!/usr/bin/env bash
#SBATCH --job-name=contend-rank
#SBATCH --output=$reports/analyze-rank-%a.log
set -euo pipefail
trace="\$(sed -n "\$((SLURM_ARRAY_TASK_ID + 1))p" '$list')"
[ -n "\$trace" ] || { echo "no trace for task \$SLURM_ARRAY_TASK_ID" >&2; exit 2; }
exec '$cli' $memory analyze "\$trace" --json '$reports/part-'"\$SLURM_ARRAY_TASK_ID"'.report.json' >/dev/null
JOB
cat > "$reports/merge.sbatch" <<JOB
#!/usr/bin/env bash
#SBATCH --job-name=contend-merge
#SBATCH --output=$reports/merge.log
set -euo pipefail
exec '$cli' merge '$reports'/part-*.report.json --out '$out' --markdown '${out%.json}.md'
JOB

array=(sbatch --parsable --array="0-$((n - 1))%$max_running" $sbatch_args "$reports/analyze-rank.sbatch")
if [ "$dry" -eq 1 ]; then
  echo "${array[*]}"
  echo "sbatch --dependency=afterok:JOBID $sbatch_args $reports/merge.sbatch"
  exit 0
fi
command -v sbatch >/dev/null || { echo "cluster-slurm: sbatch not found (use --dry-run to see the jobs)" >&2; exit 2; }
job="$("${array[@]}")"
job="${job%%;*}"
merge="$(sbatch --parsable --dependency="afterok:$job" $sbatch_args "$reports/merge.sbatch")"
echo "cluster-slurm: $n ranks in array job $job, merge job ${merge%%;*} -> $out" >&2
