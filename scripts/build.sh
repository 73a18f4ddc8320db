#!/usr/bin/env bash
# Configures and builds Contend (Release, Ninja) into BUILD_DIR (default: build/).
#   scripts/build.sh [BUILD_DIR] [extra cmake args...]
# CONTEND_SANITIZE=1 builds with ASan+UBSan (default dir build-asan/).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
default_dir="$here/build"
extra=()
if [ "${CONTEND_SANITIZE:-0}" = "1" ]; then
  default_dir="$here/build-asan"
  extra+=(-DCONTEND_SANITIZE=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo)
fi
build_dir="${1:-$default_dir}"
shift || true
jobs="${CONTEND_JOBS:-$(nproc)}"
cmake -S "$here" -B "$build_dir" -G Ninja "${extra[@]}" "$@" >/dev/null
cmake --build "$build_dir" -j "$jobs"
