#!/usr/bin/env bash
# Loads TRACE inside a memory cgroup limited to LIMIT (default 200M), twice: with the default
# memory budget (expect a clean "not enough memory" message, exit 3) and with --max-memory 0
# (no budget: expect the kernel's OOM killer, exit 137). Shows that the budget is what stands
# between a too-big trace and a killed process. Needs root and cgroup v1 or v2.
#   scripts/check-memory-limit.sh TRACE [LIMIT] [BUILD_DIR]
set -euo pipefail
trace="${1:?usage: scripts/check-memory-limit.sh TRACE [LIMIT] [BUILD_DIR]}"
limit="${2:-200M}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="${3:-$here/build}/app/cli/contend-cli"
[ -x "$cli" ] || { echo "no $cli: run scripts/build.sh first" >&2; exit 2; }
if [ -f /sys/fs/cgroup/cgroup.controllers ]; then
  cg="/sys/fs/cgroup$(sed -n 's/^0:://p' /proc/self/cgroup)/contend-memcheck-$$"
  mkdir "$cg"; echo "$limit" > "$cg/memory.max"; echo 0 > "$cg/memory.swap.max" 2>/dev/null || true
else
  cg="/sys/fs/cgroup/memory$(grep -E '^[0-9]+:memory:' /proc/self/cgroup | cut -d: -f3)/contend-memcheck-$$"
  mkdir "$cg"; echo "$limit" > "$cg/memory.limit_in_bytes"
fi
trap 'rmdir "$cg" 2>/dev/null || true' EXIT
run() {
  set +e
  sh -c 'echo $$ > "$1/cgroup.procs"; shift; exec "$@"' sh "$cg" "$cli" "$@" >/dev/null 2>/tmp/contend-memcheck.err
  local rc=$?
  set -e
  echo "exit $rc: $(head -c 400 /tmp/contend-memcheck.err)"
}
echo "== $trace in a $limit cgroup, default budget"
run info "$trace"
echo "== the same with --max-memory 0 (no budget)"
run --max-memory 0 info "$trace"
