#!/usr/bin/env bash
# Lists the rank traces under a folder, one path a line, sorted: what `contend-cli cluster`
# opens (*.json / *.json.gz that are not reports, truth or profiler side files; *_ascend_pt
# folders, not looked into), up to three levels deep. Used by the fan-out scripts.
#
#   scripts/cluster-list.sh [--ranks] TRACES_DIR
#
# --ranks prints "RANK<TAB>TRACE" lines sorted by rank instead: the rank of a Kineto trace is
# distributedInfo.rank in its first 4 MiB (where Kineto writes it, before the events), of an
# Ascend folder the N of its profiler_info_N.json. A trace whose rank is not found there, or two
# traces of one rank, stop the listing with a message naming them (exit 3): the fan-out recipes
# name reports and logs by rank and merge exactly the listed ranks.
set -euo pipefail
usage() {
  cat <<'USAGE'
usage: scripts/cluster-list.sh [--ranks] TRACES_DIR
  Lists the rank traces under TRACES_DIR (what contend-cli cluster opens), one a line.
  --ranks  "RANK<TAB>TRACE" lines sorted by rank; exit 3 when a trace has no rank or two
           traces share one
USAGE
}
ranks=0
case "${1:-}" in
  -h | --help) usage; exit 0 ;;
  --ranks) ranks=1; shift ;;
esac
[ $# -eq 1 ] || { usage >&2; exit 2; }
dir="$1"
[ -d "$dir" ] || { echo "cluster-list: $dir: not a folder" >&2; exit 2; }

list() {
  find "$dir" -maxdepth 3 \( -type d -name '*_ascend_pt' -print -prune \) -o \
    \( -type f \( -name '*.json' -o -name '*.json.gz' \) \
       ! -name '*.report.json' ! -name '*.truth.json' ! -name 'cluster-truth.json' \
       ! -name 'profiler_info*' ! -name 'profiler_metadata.json' \
       ! -name 'communication.json' ! -name 'communication_matrix.json' -print \) | LC_ALL=C sort
}

# The first `bytes` bytes of a trace, decompressed, on one line.
head_of() { # head_of TRACE BYTES
  case "$1" in
    *.gz) { gzip -dc -- "$1" 2>/dev/null || true; } | head -c "$2" | tr -d '\n\r\000' ;;
    *) head -c "$2" -- "$1" | tr -d '\n\r\000' ;;
  esac
}
# The rank of one trace, or nothing. Reads its first 64 KiB, then at most 4 MiB.
rank_of() {
  local t="$1" bytes r
  if [ -d "$t" ]; then
    find "$t" -maxdepth 2 -name 'profiler_info_*.json' | sed -n 's/.*profiler_info_\([0-9][0-9]*\)\.json$/\1/p' |
      head -n 1
    return
  fi
  for bytes in 65536 4194304; do
    r="$(head_of "$t" "$bytes" | grep -o -m 1 '"distributedInfo"[[:space:]]*:[[:space:]]*{[^}]*' | head -n 1 |
      grep -o '"rank"[[:space:]]*:[[:space:]]*[0-9][0-9]*' | head -n 1 | grep -o '[0-9][0-9]*$' || true)"
    [ -z "$r" ] || { echo "$r"; return; }
  done
}

if [ "$ranks" -eq 0 ]; then
  list
  exit 0
fi
out="$(
  list | while IFS= read -r t; do
    r="$(rank_of "$t")"
    printf '%s\t%s\n' "${r:-?}" "$t"
  done
)"
[ -n "$out" ] || exit 0
bad=0
while IFS=$'\t' read -r r t; do
  if [ "$r" = "?" ]; then
    echo "cluster-list: $t: no rank found (Kineto: distributedInfo.rank in the first 4 MiB;" \
      "Ascend: profiler_info_N.json in the folder): is it a rank of a distributed job?" >&2
    bad=1
  fi
done <<<"$out"
dups="$(printf '%s\n' "$out" | grep -v '^?' | cut -f1 | sort -n | uniq -d)"
for r in $dups; do
  echo "cluster-list: rank $r is in more than one trace:" \
    "$(printf '%s\n' "$out" | awk -F'\t' -v r="$r" '$1 == r { printf "%s%s", s, $2; s = ", " }')" >&2
  bad=1
done
[ "$bad" -eq 0 ] || exit 3
# Leading zeros go ("007" is rank 7) before the numeric sort.
printf '%s\n' "$out" | awk -F'\t' '{ printf "%d\t%s\n", $1, $2 }' | sort -n -k1,1
