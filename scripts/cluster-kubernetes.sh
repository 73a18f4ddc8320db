#!/usr/bin/env bash
# Writes the Kubernetes manifest of one cluster analysis: a ConfigMap holding this job's ranks
# and the two commands, an Indexed Job (one pod per rank) and a merge Job that fails, naming
# the rank, its trace and its log, when a rank failed. See docs/cluster.md and `--help`.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage() {
  cat <<'USAGE'
usage: scripts/cluster-kubernetes.sh [--name NAME] [--image IMAGE] [--max-memory SIZE]
                                     [--parallelism N] [--claim PVC] [--mount PATH]
                                     [--traces-at PATH] [--deadline SECONDS]
                                     TRACES_DIR REPORTS_DIR > job.yaml

Writes on stdout the manifest of one run: kubectl apply -f job.yaml, then
kubectl wait --for=condition=complete job/NAME-merge (or read kubectl logs job/NAME-merge).
  ConfigMap NAME      ranks.tsv (this job's ranks: "RANK<TAB>TRACE", from
                      scripts/cluster-list.sh --ranks TRACES_DIR), analyze-rank.sh, merge.sh
  Job NAME-analyze    Indexed: pod i analyses line i + 1 of ranks.tsv into
                      REPORTS_DIR/NAME/rank-R.report.json, its log in rank-R.log (and in
                      kubectl logs); a failed rank leaves rank-R.failed (no retry)
  Job NAME-merge      waits until every rank has a report or a failure, then merges exactly
                      the listed ranks into REPORTS_DIR/NAME/cluster.json and cluster.md, or
                      fails naming each failed rank with its trace and log
Each run writes into its own folder REPORTS_DIR/NAME (NAME is new for every manifest unless
given); a pod refuses to overwrite its rank's report or failure there.

options:
  --name NAME         the run's name: Jobs, ConfigMap and folder (default contend-UTCTIME-RANDOM)
  --image IMAGE       an image with contend-cli on its PATH and /bin/sh (default contend:latest)
  --max-memory SIZE   each rank's budget ("6G", "512M"), passed to contend-cli; the pod
                      requests and is limited to SIZE x 1.25 + 256Mi (default 6G)
  --parallelism N     pods analysing at once (default 8)
  --claim PVC         the ReadWriteMany volume holding traces and reports (default contend-traces)
  --mount PATH        where the pods mount it (default /data)
  --traces-at PATH    the path at which the pods see TRACES_DIR (default TRACES_DIR itself: run
                      this where the volume is mounted at the pods' path)
  --deadline SECONDS  how long the merge waits for the ranks before it fails naming those still
                      missing (activeDeadlineSeconds; default 86400)
  -h, --help          this text
REPORTS_DIR is a path as the pods see it, under --mount.
USAGE
}
cluster_name=cluster-kubernetes
# shellcheck source=scripts/cluster-lib.sh
. "$here/scripts/cluster-lib.sh"
die() { cluster_die "$@"; }

name="contend-$(date -u +%Y%m%d-%H%M%S)-$(od -An -N2 -tx1 /dev/urandom | tr -d ' \n')"
image="contend:latest"
memory="6G"
parallelism=8
claim="contend-traces"
mount="/data"
traces_at=""
deadline=86400
positional=()
while [ $# -gt 0 ]; do
  case "$1" in
    --name) name="${2:?--name needs a name}"; shift 2 ;;
    --image) image="${2:?--image needs an image}"; shift 2 ;;
    --max-memory) memory="${2:?--max-memory needs a size}"; shift 2 ;;
    --parallelism) parallelism="${2:?--parallelism needs a number}"; shift 2 ;;
    --claim) claim="${2:?--claim needs a name}"; shift 2 ;;
    --mount) mount="${2:?--mount needs a path}"; shift 2 ;;
    --traces-at) traces_at="${2:?--traces-at needs a path}"; shift 2 ;;
    --deadline) deadline="${2:?--deadline needs seconds}"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    -*) die 2 "unknown option $1 (--help for the options)" ;;
    *) positional+=("$1"); shift ;;
  esac
done
[ ${#positional[@]} -eq 2 ] || { usage | sed -n '1,4p' >&2; exit 2; }
traces="${positional[0]}"; reports="${positional[1]%/}"
[[ "$name" =~ ^[a-z0-9]([-a-z0-9]{0,40}[a-z0-9])?$ ]] ||
  die 2 "--name $name: a Kubernetes name (lower case letters, digits and '-', at most 42 characters)"
[[ "$parallelism" =~ ^[1-9][0-9]*$ ]] || die 2 "--parallelism $parallelism: not a positive number"
[[ "$deadline" =~ ^[1-9][0-9]*$ ]] || die 2 "--deadline $deadline: not a positive number of seconds"
case "$reports/" in "${mount%/}/"*) ;; *) die 2 "$reports: REPORTS_DIR must be under the volume's mount ${mount}" ;; esac
mib="$(cluster_request_mib "$memory")"
[ -n "$mib" ] || die 2 "--max-memory $memory: not a size (e.g. 6G, 512M)"
[ -d "$traces" ] || die 2 "$traces: not a folder"
ranks="$("$here/scripts/cluster-list.sh" --ranks "$traces")" || exit 3
[ -n "$ranks" ] || die 3 "no rank traces under $traces"
if [ -n "$traces_at" ]; then
  ranks="$(printf '%s\n' "$ranks" | awk -F'\t' -v from="${traces%/}" -v to="${traces_at%/}" \
    'BEGIN { OFS = "\t" } index($2, from) == 1 { $2 = to substr($2, length(from) + 1) } { print }')"
fi
n=$(printf '%s\n' "$ranks" | wc -l)
run="$reports/$name"
case "$run$memory" in *\'*) die 2 "$run: a quote in REPORTS_DIR or --max-memory is not supported" ;; esac

# The pods' commands are POSIX sh (the image needs no bash). CONTEND_JOB_DIR is where the
# ConfigMap is mounted (/contend); the test runs them outside Kubernetes by setting it.
analyze_sh="$(cat <<SH
set -u
job="\${CONTEND_JOB_DIR:-/contend}"
run='$run'
line="\$(sed -n "\$((JOB_COMPLETION_INDEX + 1))p" "\$job/ranks.tsv")"
rank="\$(printf '%s' "\$line" | cut -f1)"
trace="\$(printf '%s' "\$line" | cut -f2-)"
[ -n "\$rank" ] || { echo "contend-rank: no line \$((JOB_COMPLETION_INDEX + 1)) in ranks.tsv" >&2; exit 2; }
mkdir -p "\$run"
log="\$run/rank-\$rank.log"
if [ -e "\$run/rank-\$rank.report.json" ] || [ -e "\$run/rank-\$rank.failed" ]; then
  echo "contend-rank: \$run already holds rank \$rank's result: a run writes into a new folder" >&2
  exit 2
fi
echo "contend-rank: rank \$rank: \$trace on \$(hostname)" >"\$log"
rc=0
contend-cli --max-memory '$memory' analyze "\$trace" --json "\$run/rank-\$rank.report.json" >>"\$log" 2>&1 || rc=\$?
cat "\$log"
[ "\$rc" -eq 0 ] || echo "exit \$rc" >"\$run/rank-\$rank.failed"
exit "\$rc"
SH
)"
merge_sh="$(cat <<SH
set -u
job="\${CONTEND_JOB_DIR:-/contend}"
run='$run'
total=\$(grep -c . "\$job/ranks.tsv")
while :; do
  missing=""
  while IFS='	' read -r rank trace; do
    [ -n "\$rank" ] || continue
    [ -e "\$run/rank-\$rank.report.json" ] || [ -e "\$run/rank-\$rank.failed" ] || missing="\$missing \$rank"
  done <"\$job/ranks.tsv"
  [ -z "\$missing" ] && break
  echo "contend-merge: waiting for ranks\$missing (no report or failure yet in \$run)"
  sleep "\${CONTEND_POLL_SECONDS:-15}"
done
failed=0
set --
while IFS='	' read -r rank trace; do
  [ -n "\$rank" ] || continue
  if [ -e "\$run/rank-\$rank.failed" ]; then
    failed=\$((failed + 1))
    echo "contend-merge: rank \$rank failed: trace \$trace, log \$run/rank-\$rank.log:" \\
      "\$(grep -v '^[[:space:]]*\$' "\$run/rank-\$rank.log" 2>/dev/null | tail -n 1 | cut -c1-400)" >&2
  else
    set -- "\$@" "\$run/rank-\$rank.report.json"
  fi
done <"\$job/ranks.tsv"
if [ "\$failed" -gt 0 ]; then
  echo "contend-merge: \$failed of \$total ranks failed: no cluster report written" >&2
  exit 1
fi
echo "contend-merge: merging the \$total ranks of this job -> \$run/cluster.json"
exec contend-cli merge "\$@" --out "\$run/cluster.json" --markdown "\$run/cluster.md"
SH
)"
indent() { sed 's/^/    /'; }

cat <<YAML
# Contend on a cluster's traces: run $name, $n ranks (written by scripts/cluster-kubernetes.sh).
# kubectl apply -f this file; the result (or the failed ranks) in kubectl logs job/$name-merge
# and in $run on the volume $claim.
apiVersion: v1
kind: ConfigMap
metadata:
  name: $name
  labels: {app: contend, contend-run: $name}
data:
  ranks.tsv: |
$(printf '%s\n' "$ranks" | indent)
  analyze-rank.sh: |
$(printf '%s\n' "$analyze_sh" | indent)
  merge.sh: |
$(printf '%s\n' "$merge_sh" | indent)
---
apiVersion: batch/v1
kind: Job
metadata:
  name: $name-analyze
  labels: {app: contend, contend-run: $name}
spec:
  completionMode: Indexed
  completions: $n               # this job's ranks: the lines of ranks.tsv
  parallelism: $parallelism
  backoffLimitPerIndex: 0      # a failed rank is reported by the merge, not retried
  template:
    metadata:
      labels: {app: contend, contend-run: $name}
    spec:
      restartPolicy: Never
      containers:
        - name: analyze
          image: $image
          command: ["/bin/sh", "/contend/analyze-rank.sh"]
          resources:
            requests: {memory: ${mib}Mi, cpu: "1"}
            limits: {memory: ${mib}Mi}
          volumeMounts:
            - {name: data, mountPath: $mount}
            - {name: job, mountPath: /contend, readOnly: true}
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: $claim}
        - name: job
          configMap: {name: $name}
---
apiVersion: batch/v1
kind: Job
metadata:
  name: $name-merge
  labels: {app: contend, contend-run: $name}
spec:
  backoffLimit: 0
  activeDeadlineSeconds: $deadline   # then the Job fails; its log names the ranks still missing
  template:
    metadata:
      labels: {app: contend, contend-run: $name}
    spec:
      restartPolicy: Never
      containers:
        - name: merge
          image: $image
          command: ["/bin/sh", "/contend/merge.sh"]
          resources:
            requests: {memory: 1Gi, cpu: "1"}
            limits: {memory: 1Gi}
          volumeMounts:
            - {name: data, mountPath: $mount}
            - {name: job, mountPath: /contend, readOnly: true}
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: $claim}
        - name: job
          configMap: {name: $name}
YAML
