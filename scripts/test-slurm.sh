#!/usr/bin/env bash
# The fan-out recipes run for real (CI stage `slurm`, docs/project-ci.md):
#   - a single-node Slurm on this machine (Debian 12's slurm-wlm and munge, installed with
#     apt-get when missing): munged as the munge user, slurmctld and slurmd from a minimal
#     slurm.conf in a temporary folder (SLURM_CONF and -f: no system file is read or written);
#   - scripts/cluster-slurm.sh on a simulated 8-rank job with a slow rank (the cluster verdict
#     must name it; the tasks must request the memory from --max-memory; an sbatch argument
#     with a space must arrive whole), on the same job with one corrupt rank (the merge must
#     fail naming the rank, its trace and its log, and no job may stay in the queue), and
#     into a reports folder that holds the first run (refused, nothing submitted);
#   - scripts/cluster-parallel.sh on the same three cases;
#   - scripts/cluster-kubernetes.sh: the manifest it writes parses (python3-yaml), carries the
#     memory and exactly the ranks of this job, and its pods' and merge's commands, run here
#     (no Kubernetes), give the same verdict, failure message and refusal.
# Everything it started is stopped on exit (trap), and the temporary folder removed.
#
#   scripts/test-slurm.sh [--cli PATH] [--keep]
#
# --keep leaves the temporary folder (logs, configuration) for a look after a failure.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$here/build/app/cli/contend-cli"
keep=0
while [ $# -gt 0 ]; do
  case "$1" in
    --cli) cli="$2"; shift 2 ;;
    --keep) keep=1; shift ;;
    -h | --help) sed -n '/^# The fan-out/,/^# --keep/p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test-slurm: unknown argument $1 (--help)" >&2; exit 2 ;;
  esac
done
[ -x "$cli" ] || { echo "test-slurm: no $cli: build it (scripts/build.sh) or pass --cli" >&2; exit 2; }
cli="$(cd "$(dirname "$cli")" && pwd)/$(basename "$cli")"
start=$(date +%s)
failures=0
step() { echo "== test-slurm (at $(($(date +%s) - start)) s): $*"; }
ok() { echo "   ok: $*"; }
bad() {
  echo "   FAILED: $*" >&2
  failures=$((failures + 1))
}
check() { # check DESCRIPTION COMMAND...: the command must succeed
  local what="$1"
  shift
  if "$@"; then ok "$what"; else bad "$what"; fi
}

# --- packages ----------------------------------------------------------------------------
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
need=()
installed slurmctld && installed slurmd && installed slurm-client || need+=(slurm-wlm)
for p in munge parallel python3-yaml; do installed "$p" || need+=("$p"); done
if [ ${#need[@]} -gt 0 ]; then
  step "installing ${need[*]} (apt-get)"
  [ "$(id -u)" -eq 0 ] || { echo "test-slurm: needs root to install ${need[*]} and run slurmd" >&2; exit 2; }
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
[ "$(id -u)" -eq 0 ] || { echo "test-slurm: slurmd must run as root" >&2; exit 2; }

# --- the temporary cluster ---------------------------------------------------------------
tmp="$(mktemp -d /tmp/contend-slurm.XXXXXX)"
chmod 755 "$tmp" # munged (the munge user) must reach its folder below
pids=()
cleanup() {
  local rc=$?
  set +e
  if [ -n "${SLURM_CONF:-}" ] && [ -f "$SLURM_CONF" ] && [ ${#pids[@]} -gt 0 ]; then
    scancel --quiet --user=root 2>/dev/null
    for _ in $(seq 20); do [ -z "$(squeue -h 2>/dev/null)" ] && break; sleep 0.5; done
  fi
  # Newest first: slurmd, slurmctld, then munged (by its own pid: runuser waits for it).
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    if [ "$i" -eq 0 ] && [ -f "$tmp/munge/munged.pid" ]; then
      kill "$(cat "$tmp/munge/munged.pid")" 2>/dev/null
    else
      kill "${pids[i]}" 2>/dev/null
    fi
    for _ in $(seq 20); do kill -0 "${pids[i]}" 2>/dev/null || break; sleep 0.25; done
    kill "${pids[i]}" 2>/dev/null && sleep 1 && kill -9 "${pids[i]}" 2>/dev/null
    wait "${pids[i]}" 2>/dev/null
  done
  if [ "$keep" -eq 1 ] || [ "$rc" -ne 0 ]; then
    echo "test-slurm: logs and configuration kept in $tmp" >&2
  else
    rm -rf "$tmp"
  fi
  echo "test-slurm: $(($(date +%s) - start)) s"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

host="$(hostname -s)"
free_port() { # the first of $1.. that nothing listens on
  local p="$1"
  while ss -Htln "sport = :$p" 2>/dev/null | grep -q .; do p=$((p + 1)); done
  echo "$p"
}
ctld_port=$(free_port 16817)
slurmd_port=$(free_port $((ctld_port + 1)))
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool"
chown munge:munge "$tmp/munge"
chmod 755 "$tmp/munge"
dd if=/dev/urandom of="$tmp/munge/munge.key" bs=1024 count=1 status=none
chown munge:munge "$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
# In the foreground under runuser, so that this shell reaps it (a daemonised munged would be
# left to init).
runuser -u munge -- munged --foreground --key-file="$tmp/munge/munge.key" --socket="$tmp/munge/munge.socket" \
  --pid-file="$tmp/munge/munged.pid" --log-file="$tmp/munge/munged.log" --seed-file="$tmp/munge/munged.seed" >"$tmp/munged.out" 2>&1 &
pids+=($!)
for _ in $(seq 40); do [ -S "$tmp/munge/munge.socket" ] && break; sleep 0.25; done
[ -S "$tmp/munge/munge.socket" ] || { echo "test-slurm: munged did not start:" >&2; cat "$tmp/munge/munged.log" >&2; exit 1; }
# The machine as slurmd sees it: CPUs, sockets, cores, threads and RealMemory.
node="$(slurmd -C 2>/dev/null | head -n 1)"
case "$node" in NodeName=*) ;; *) echo "test-slurm: slurmd -C said: $node" >&2; exit 1 ;; esac
node="${node/NodeName=* CPUs=/NodeName=$host CPUs=}"
export SLURM_CONF="$tmp/slurm.conf"
cat >"$SLURM_CONF" <<CONF
ClusterName=contendtest
SlurmctldHost=$host
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$tmp/munge/munge.socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/slurmctld.log
SlurmdLogFile=$tmp/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
DefMemPerCPU=512
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
SchedulerType=sched/backfill
KillWait=5
$node
PartitionName=contend Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
step "starting munged, slurmctld and slurmd on $host (ports $ctld_port, $slurmd_port; $tmp)"
slurmctld -D -c -f "$SLURM_CONF" >"$tmp/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -f "$SLURM_CONF" >"$tmp/slurmd.out" 2>&1 &
pids+=($!)
state=""
for _ in $(seq 60); do
  state="$(sinfo -h -o %T 2>/dev/null || true)"
  [ "$state" = idle ] && break
  sleep 0.5
done
if [ "$state" != idle ]; then
  echo "test-slurm: the node did not come up (sinfo: '${state:-no answer}'); slurmctld.log:" >&2
  tail -n 20 "$tmp/slurmctld.log" "$tmp/slurmd.log" >&2 2>/dev/null || true
  exit 1
fi
ok "node $host idle ($(sinfo -h -o '%c CPUs, %m MB'))"

# --- the jobs ----------------------------------------------------------------------------
"$cli" simulate bandwidth --ranks 8 --slow-rank 5 --seed 11 --quiet --out "$tmp/job8"
cp -r "$tmp/job8" "$tmp/bad8"
# Rank 3 with garbage written over the middle of its events: its analysis fails (exit 3).
python3 - "$tmp/bad8/rank-03.json" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, "rb").read())
i = len(b) // 2
b[i:i + 16] = b"\x00\x01garbage\xff\xfe{[}]"
open(p, "wb").write(b)
PY
slow_ranks() { python3 -c 'import json,sys; print(" ".join(str(r["rank"]) for r in json.load(open(sys.argv[1]))["slow_ranks"]))' "$1"; }
no_job_left() { [ -z "$(squeue -h -o '%i %T %r')" ]; }

step "Slurm: 8 ranks, rank 5 slow"
rc=0
bash "$here/scripts/cluster-slurm.sh" --wait --cli "$cli" --max-memory 1G --max-running 4 \
  "$tmp/job8" "$tmp/slurm8" "$tmp/slurm8.json" -- "--comment=contend slurm test" 2>"$tmp/slurm8.err" || rc=$?
cat "$tmp/slurm8.err"
check "the job and its merge succeed" [ "$rc" -eq 0 ]
check "the cluster verdict names rank 5 alone" [ "$(slow_ranks "$tmp/slurm8.json" 2>/dev/null)" = 5 ]
check "one log per rank (rank-0.log .. rank-7.log)" \
  [ "$(cd "$tmp/slurm8" && ls rank-?.log | tr '\n' ' ')" = "rank-0.log rank-1.log rank-2.log rank-3.log rank-4.log rank-5.log rank-6.log rank-7.log " ]
array="$(sed -n 's/.*in array job \([0-9]*\).*/\1/p' "$tmp/slurm8.err")"
info="$(scontrol show job "${array:-none}" 2>/dev/null || true)"
printf '%s\n' "$info" >"$tmp/slurm8.job"
check "each task requested --mem from --max-memory 1G (1536M: scontrol says 1.50G)" \
  grep -Eq 'MinMemoryNode=(1536M|1\.50G)' <<<"$info"
check "an sbatch argument with a space arrives whole" grep -q 'Comment=contend slurm test' <<<"$info"
check "nothing left in the queue" no_job_left

step "Slurm: 8 ranks, rank 3 corrupt"
rc=0
bash "$here/scripts/cluster-slurm.sh" --wait --cli "$cli" --max-memory 1G \
  "$tmp/bad8" "$tmp/slurmbad" "$tmp/slurmbad.json" 2>"$tmp/slurmbad.err" || rc=$?
cat "$tmp/slurmbad.err"
check "the merge job fails (exit 1)" [ "$rc" -eq 1 ]
check "the message names rank 3, its trace and its log" \
  grep -qF "rank 3 failed: trace $tmp/bad8/rank-03.json, log $tmp/slurmbad/rank-3.log" "$tmp/slurmbad.err"
check "and says why (the reader's error with the byte)" grep -q 'rank-3.log: contend-cli: .*rank-03.json: byte' "$tmp/slurmbad.err"
check "no cluster report" [ ! -e "$tmp/slurmbad.json" ]
check "nothing left PENDING (or at all) in the queue" no_job_left

rc=0
bash "$here/scripts/cluster-slurm.sh" --sbatch-args "--partition=a --time=5" "$tmp/job8" "$tmp/split" "$tmp/split.json" \
  2>"$tmp/split.err" || rc=$?
check "--sbatch-args with two arguments in one string is refused (exit 2), not split" \
  test "$rc" -eq 2 -a -n "$(grep 'not split on spaces' "$tmp/split.err")" -a ! -e "$tmp/split"
rc=0
bash "$here/scripts/cluster-slurm.sh" --cli "$cli" --sbatch-arg --partition=nosuch "$tmp/job8" "$tmp/nosubmit" \
  "$tmp/nosubmit.json" 2>"$tmp/nosubmit.err" || rc=$?
check "an array job sbatch refuses leaves no folder behind (exit 2), so a retry is not refused" \
  test "$rc" -eq 2 -a ! -e "$tmp/nosubmit" -a -n "$(grep 'nothing was submitted' "$tmp/nosubmit.err")"
for s in cluster-slurm cluster-parallel cluster-kubernetes cluster-list cluster-merge; do
  check "$s.sh --help is a usage text" \
    test "$(bash "$here/scripts/$s.sh" --help | head -n 1 | cut -c1-6)" = "usage:" \
    -a -z "$(bash "$here/scripts/$s.sh" --help | grep 'set -e')"
done

step "Slurm: a reports folder reused"
before="$(ls "$tmp/slurm8" | wc -l)"
rc=0
bash "$here/scripts/cluster-slurm.sh" --wait --cli "$cli" "$tmp/bad8" "$tmp/slurm8" "$tmp/reuse.json" \
  2>"$tmp/reuse.err" || rc=$?
cat "$tmp/reuse.err"
check "refused (exit 2)" [ "$rc" -eq 2 ]
check "the message says the folder holds an earlier run" grep -q 'already holds an earlier run' "$tmp/reuse.err"
check "nothing submitted, nothing written" test -z "$(squeue -h)" -a "$(ls "$tmp/slurm8" | wc -l)" = "$before"

step "GNU parallel: the same three cases"
rc=0
bash "$here/scripts/cluster-parallel.sh" -j 2 --cli "$cli" --max-memory 1G "$tmp/job8" "$tmp/par8" "$tmp/par8.json" \
  2>"$tmp/par8.err" || rc=$?
check "8 ranks merged, rank 5 alone slow" test "$rc" -eq 0 -a "$(slow_ranks "$tmp/par8.json" 2>/dev/null)" = 5
check "one log per rank" [ "$(cd "$tmp/par8" && ls rank-?.log | wc -l)" = 8 ]
rc=0
bash "$here/scripts/cluster-parallel.sh" -j 2 --cli "$cli" "$tmp/bad8" "$tmp/parbad" "$tmp/parbad.json" \
  2>"$tmp/parbad.err" || rc=$?
cat "$tmp/parbad.err"
check "a corrupt rank fails the run (exit 1), no cluster report" test "$rc" -eq 1 -a ! -e "$tmp/parbad.json"
check "the message names rank 3, its trace and its log" \
  grep -qF "rank 3 failed: trace $tmp/bad8/rank-03.json, log $tmp/parbad/rank-3.log" "$tmp/parbad.err"
rc=0
bash "$here/scripts/cluster-parallel.sh" --cli "$cli" "$tmp/bad8" "$tmp/par8" "$tmp/reuse2.json" 2>"$tmp/reuse2.err" || rc=$?
check "a reused reports folder is refused (exit 2)" test "$rc" -eq 2 -a -n "$(grep 'already holds an earlier run' "$tmp/reuse2.err")"

step "Kubernetes: the manifest of scripts/cluster-kubernetes.sh, its pods' commands run here"
# yaml_get FILE EXPR: a Python expression over docs (the manifest's documents, parsed).
yaml_get() { python3 -c 'import sys, yaml; docs = list(yaml.safe_load_all(open(sys.argv[1]))); print(eval(sys.argv[2]))' "$@"; }
# k8s_run NAME TRACES: the manifest for TRACES, its ConfigMap's files in $tmp/NAME.job, then each
# pod's command (JOB_COMPLETION_INDEX 0..N-1) and the merge's, contend-cli on the PATH.
k8s_run() {
  local name="$1" traces="$2" n
  bash "$here/scripts/cluster-kubernetes.sh" --name "$name" --mount "$tmp" --max-memory 1G --parallelism 2 \
    "$traces" "$tmp/k8s" >"$tmp/$name.yaml"
  mkdir -p "$tmp/$name.job"
  # As Kubernetes mounts a ConfigMap: one file per key, holding exactly its value.
  python3 -c 'import sys, yaml
for k, v in next(yaml.safe_load_all(open(sys.argv[1])))["data"].items():
    open(sys.argv[2] + "/" + k, "w").write(v)' "$tmp/$name.yaml" "$tmp/$name.job"
  n=$(yaml_get "$tmp/$name.yaml" "docs[1]['spec']['completions']")
  # Two pods at a time (the manifest's parallelism).
  seq 0 $((n - 1)) | CONTEND_JOB_DIR="$tmp/$name.job" PATH="$(dirname "$cli"):$PATH" \
    xargs -P 2 -I{} env JOB_COMPLETION_INDEX={} sh "$tmp/$name.job/analyze-rank.sh" >/dev/null 2>&1 || true
  CONTEND_JOB_DIR="$tmp/$name.job" PATH="$(dirname "$cli"):$PATH" CONTEND_POLL_SECONDS=1 \
    timeout 60 sh "$tmp/$name.job/merge.sh"
}
rc=0
k8s_run contend-ok "$tmp/job8" >/dev/null 2>"$tmp/k8s-ok.err" || rc=$?
y="$tmp/contend-ok.yaml"
check "three documents: ConfigMap, Job (Indexed), Job" \
  test "$(yaml_get "$y" "' '.join(d['kind'] for d in docs) + ' ' + docs[1]['spec']['completionMode']")" = "ConfigMap Job Job Indexed"
check "the ConfigMap holds exactly this job's ranks" \
  test "$(yaml_get "$y" "docs[0]['data']['ranks.tsv']")" = "$(bash "$here/scripts/cluster-list.sh" --ranks "$tmp/job8")"
check "one pod per rank (completions 8), parallelism 2" \
  test "$(yaml_get "$y" "(docs[1]['spec']['completions'], docs[1]['spec']['parallelism'])")" = "(8, 2)"
check "each pod requests and is limited to the memory of --max-memory 1G (1536Mi)" \
  test "$(yaml_get "$y" "[docs[1]['spec']['template']['spec']['containers'][0]['resources'][k]['memory'] for k in ('requests', 'limits')]")" = "['1536Mi', '1536Mi']"
check "contend-cli gets --max-memory 1G" grep -qF -- "--max-memory '1G'" "$tmp/contend-ok.job/analyze-rank.sh"
check "the merge has a deadline" test "$(yaml_get "$y" "docs[2]['spec']['activeDeadlineSeconds']")" = 86400
check "the pods' commands and the merge run: rank 5 alone slow" \
  test "$rc" -eq 0 -a "$(slow_ranks "$tmp/k8s/contend-ok/cluster.json" 2>/dev/null)" = 5
check "one log per rank (rank-0.log .. rank-7.log)" test "$(ls "$tmp/k8s/contend-ok"/rank-?.log | wc -l)" = 8
rc=0
k8s_run contend-bad "$tmp/bad8" >/dev/null 2>"$tmp/k8s-bad.err" || rc=$?
cat "$tmp/k8s-bad.err"
check "a corrupt rank fails the merge (exit 1), no cluster report" \
  test "$rc" -eq 1 -a ! -e "$tmp/k8s/contend-bad/cluster.json"
check "the message names rank 3, its trace and its log" \
  grep -qF "rank 3 failed: trace $tmp/bad8/rank-03.json, log $tmp/k8s/contend-bad/rank-3.log: contend-cli:" "$tmp/k8s-bad.err"
rc=0
JOB_COMPLETION_INDEX=0 CONTEND_JOB_DIR="$tmp/contend-ok.job" PATH="$(dirname "$cli"):$PATH" \
  sh "$tmp/contend-ok.job/analyze-rank.sh" >/dev/null 2>"$tmp/k8s-reuse.err" || rc=$?
check "a pod refuses a folder that holds its rank's report (exit 2)" \
  test "$rc" -eq 2 -a -n "$(grep 'already holds rank 0' "$tmp/k8s-reuse.err")"
bash "$here/scripts/cluster-kubernetes.sh" --traces-at /data/traces "$tmp/job8" /data/reports >"$tmp/at.yaml"
check "--traces-at gives the pods' paths, and a fresh run name each time" \
  test "$(yaml_get "$tmp/at.yaml" "docs[0]['data']['ranks.tsv'].splitlines()[5] + ' ' + str(docs[0]['metadata']['name'] != '$(yaml_get "$y" "docs[0]['metadata']['name']")')")" = "$(printf '5\t/data/traces/rank-05.json True')"
"$cli" simulate null --ranks 4 --quiet --out "$tmp/null4"
bash "$here/scripts/cluster-kubernetes.sh" --name contend-example --traces-at /data/traces "$tmp/null4" /data/reports \
  >"$tmp/example.yaml"
check "deploy/kubernetes/contend-cluster.yaml is what the script writes (4 ranks, as docs/cluster.md says)" \
  cmp -s "$tmp/example.yaml" "$here/deploy/kubernetes/contend-cluster.yaml"

if [ "$failures" -gt 0 ]; then
  echo "test-slurm: $failures checks FAILED" >&2
  exit 1
fi
echo "test-slurm: all checks passed"
