# shellcheck shell=bash
# Shared by the fan-out recipes (cluster-slurm.sh, cluster-parallel.sh, cluster-kubernetes.sh):
# sourced, not run. Each function's messages start with $cluster_name (set it first).
: "${cluster_name:?set cluster_name before sourcing cluster-lib.sh}"

cluster_die() { # cluster_die CODE MESSAGE...: the message on stderr, then exit CODE
  local code="$1"
  shift
  echo "$cluster_name: $*" >&2
  exit "$code"
}

# The memory to ask the scheduler for, in MiB, for a contend-cli budget SIZE (contend-cli's
# sizes: a number and K, M (the default), G or T, with an optional i and B): SIZE x 1.25 +
# 256 MiB, for the analysis and the process beside the load. Prints nothing for a bad size.
cluster_request_mib() {
  printf '%s\n' "$1" | tr 'A-Z' 'a-z' | awk '
    match($0, /^[0-9]+(\.[0-9]+)?/) {
      v = substr($0, 1, RLENGTH); u = substr($0, RLENGTH + 1); sub(/b$/, "", u); sub(/i$/, "", u)
      m = (u == "" || u == "m") ? 1 : u == "k" ? 1 / 1024 : u == "g" ? 1024 : u == "t" ? 1048576 : -1
      if (m > 0 && v > 0) { x = v * m * 1.25 + 256; printf "%d\n", (x == int(x)) ? x : int(x) + 1 }
    }'
}

# Refuses a REPORTS_DIR that holds anything (an earlier run's reports would be merged with this
# run's), then lists the job's ranks into $cluster_ranks ("RANK<TAB>TRACE" lines).
cluster_fresh_and_ranks() { # cluster_fresh_and_ranks TRACES_DIR REPORTS_DIR
  local traces="$1" reports="$2" held
  [ -d "$traces" ] || cluster_die 2 "$traces: not a folder"
  if [ -e "$reports" ]; then
    [ -d "$reports" ] || cluster_die 2 "$reports: not a folder"
    held="$(find "$reports" -mindepth 1 -maxdepth 1 | LC_ALL=C sort | head -n 3 | tr '\n' ' ')"
    [ -z "$held" ] || cluster_die 2 "$reports already holds an earlier run's files (${held% }):" \
      "its reports would be merged with this run's; give a new or empty REPORTS_DIR"
  fi
  cluster_ranks="$("$(dirname "${BASH_SOURCE[0]}")/cluster-list.sh" --ranks "$traces")" || exit 3
  [ -n "$cluster_ranks" ] || cluster_die 3 "no rank traces under $traces"
}

# Writes REPORTS_DIR/analyze-rank.sh, one rank of the job: `bash analyze-rank.sh RANK`, or as a
# Slurm array task with the rank as its task id. Its log is REPORTS_DIR/rank-RANK.log (Slurm
# writes it there itself, from --output) and its report REPORTS_DIR/rank-RANK.report.json.
cluster_write_task() { # cluster_write_task REPORTS_DIR CLI [MAX_MEMORY]
  local reports="$1" cli="$2" memory="${3:-}" mem_words=""
  [ -z "$memory" ] || mem_words="--max-memory $(printf '%q' "$memory") "
  cat >"$reports/analyze-rank.sh" <<JOB
#!/usr/bin/env bash
# One rank of the job written by scripts/$cluster_name.sh: bash analyze-rank.sh RANK, or a Slurm
# array task whose task id is the rank.
set -euo pipefail
rank="\${1:-\${SLURM_ARRAY_TASK_ID:?the rank: bash analyze-rank.sh RANK}}"
reports=$(printf '%q' "$reports")
# Not under Slurm (whose --output is this file already), the task writes its log itself.
[ -n "\${SLURM_JOB_ID:-}" ] || exec >"\$reports/rank-\$rank.log" 2>&1
trace="\$(awk -F'\\t' -v r="\$rank" '\$1 == r { print \$2; exit }' "\$reports/ranks.tsv")"
[ -n "\$trace" ] || { echo "contend-rank: rank \$rank is not in \$reports/ranks.tsv" >&2; exit 2; }
echo "contend-rank: rank \$rank: \$trace on \$(hostname)"
exec $(printf '%q' "$cli") ${mem_words}analyze "\$trace" --json "\$reports/rank-\$rank.report.json"
JOB
}
