#!/usr/bin/env bash
# Configures and builds Contend (Release, Ninja) into BUILD_DIR (default: build/).
#   scripts/build.sh [BUILD_DIR] [extra cmake args...]
# CONTEND_SANITIZE=1 makes the one sanitizer build (default dir build-asan/): clang, ASan+UBSan
# at -O1 with line tables, the core with libFuzzer's coverage (-fsanitize=fuzzer-no-link), the
# app, the GUI, the tests and the fuzz targets. scripts/sanitize.sh runs its tests and
# scripts/fuzz.sh its fuzz targets, so CI compiles the code under the sanitizers once.
# CONTEND_BUILD_TARGETS="a b" builds only those targets.
# Every compile goes through ccache when it is installed (CONTEND_CCACHE=0 turns it off): its
# cache is ~/.cache/ccache (CCACHE_DIR moves it), outside the checkout, and paths are taken
# relative to the checkout, so another clone of the same commit hits it.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
default_dir="$here/build"
extra=()
if [ "${CONTEND_SANITIZE:-0}" = "1" ]; then
  default_dir="$here/build-asan"
  export CC=clang CXX=clang++
  extra+=(-DCONTEND_SANITIZE=ON -DCONTEND_FUZZ=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
    "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG"
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -gline-tables-only -DNDEBUG")
fi
if [ "${CONTEND_CCACHE:-1}" != "0" ] && command -v ccache >/dev/null; then
  extra+=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$here}"
  export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
  export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-8G}"
else
  extra+=(-DCMAKE_CXX_COMPILER_LAUNCHER= -DCMAKE_C_COMPILER_LAUNCHER=)
fi
build_dir="${1:-$default_dir}"
shift || true
jobs="${CONTEND_JOBS:-$(nproc)}"
cmake -S "$here" -B "$build_dir" -G Ninja "${extra[@]}" "$@" >/dev/null
targets=()
for t in ${CONTEND_BUILD_TARGETS:-}; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j "$jobs" "${targets[@]}"
