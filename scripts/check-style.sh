#!/usr/bin/env bash
# The house style, checked: clang-format (.clang-format) on every C++ file in git, then
# clang-tidy (.clang-tidy) on core/, app/cli and lab/ (the Qt-free code; the checks are bug and
# performance checks, not taste). Exits non-zero on any violation, naming the file and line.
#   scripts/check-style.sh            both checks
#   scripts/check-style.sh --format   clang-format only (seconds; .ci/run's first check)
#   scripts/check-style.sh --tidy     clang-tidy only (.ci/run runs it after the test build)
#   scripts/check-style.sh --fix      rewrite the files with clang-format (tidy is not auto-fixed)
# clang-tidy reads compile_commands.json from CONTEND_TIDY_BUILD_DIR, else from build/ when the
# test build made one, else from a configure-only build-tidy/. A file found clean before with the
# same preprocessed input, config and clang-tidy is not checked again (scripts/tidy-cached.py;
# CONTEND_TIDY_CACHE=off checks every file).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
mode="${1:-check}"
for tool in clang-format clang-tidy python3; do
  command -v "$tool" >/dev/null || { echo "check-style: $tool not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
done

mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -v '^tests/fuzz/corpus/')
if [ "$mode" = "--fix" ]; then
  clang-format -i "${files[@]}"
  echo "check-style: formatted ${#files[@]} files"
  exit 0
fi
if [ "$mode" != "--tidy" ]; then
  echo "check-style: clang-format on ${#files[@]} files"
  if ! clang-format --dry-run --Werror "${files[@]}"; then
    echo "check-style: formatting differs from .clang-format; run scripts/check-style.sh --fix" >&2
    exit 1
  fi
  [ "$mode" = "--format" ] && exit 0
fi

build_dir="${CONTEND_TIDY_BUILD_DIR:-}"
if [ -z "$build_dir" ]; then
  if [ -f "$here/build/compile_commands.json" ]; then
    build_dir="$here/build"
  else
    # A configure is enough for compile_commands.json: the checked code needs no generated sources.
    build_dir="$here/build-tidy"
    cmake -S "$here" -B "$build_dir" -G Ninja -DCONTEND_BUILD_GUI=OFF -DCONTEND_BUILD_TESTS=OFF >/dev/null
  fi
fi
mapfile -t tidy_files < <(git ls-files 'core/*.cpp' 'app/cli/*.cpp' 'lab/*.cpp')
echo "check-style: clang-tidy on ${#tidy_files[@]} files (compile commands from $build_dir)"
if ! python3 "$here/scripts/tidy-cached.py" -p "$build_dir" --root "$here" -j "$(nproc)" "${tidy_files[@]/#/$here/}"; then
  echo "check-style: clang-tidy found the problems above (.clang-tidy lists the checks)" >&2
  exit 1
fi
echo "check-style: clean"
