#!/usr/bin/env bash
# Lists the rank traces under a folder, one path a line, sorted: what `contend-cli cluster`
# opens (*.json / *.json.gz that are not reports, truth or profiler side files; *_ascend_pt
# folders, not looked into), up to three levels deep. Used by the fan-out scripts.
#   scripts/cluster-list.sh TRACES_DIR
set -euo pipefail
dir="${1:?usage: scripts/cluster-list.sh TRACES_DIR}"
find "$dir" -maxdepth 3 \( -type d -name '*_ascend_pt' -print -prune \) -o \
  \( -type f \( -name '*.json' -o -name '*.json.gz' \) \
     ! -name '*.report.json' ! -name '*.truth.json' ! -name 'cluster-truth.json' \
     ! -name 'profiler_info*' ! -name 'profiler_metadata.json' \
     ! -name 'communication.json' ! -name 'communication_matrix.json' -print \) | LC_ALL=C sort
