#!/usr/bin/env bash
# The house style, checked: clang-format (.clang-format) on every C++ file in git, then
# clang-tidy (.clang-tidy) on core/ and app/cli (the Qt-free code; the checks are bug and
# performance checks, not taste). Exits non-zero on any violation, naming the file and line.
#   scripts/check-style.sh            check (what .ci/run does, before the tests)
#   scripts/check-style.sh --fix      rewrite the files with clang-format (tidy is not auto-fixed)
#   scripts/check-style.sh --format   clang-format only (seconds)
# CONTEND_TIDY_BUILD_DIR: where to configure for compile_commands.json (default build-tidy/).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$here"
mode="${1:-check}"
for tool in clang-format clang-tidy run-clang-tidy; do
  command -v "$tool" >/dev/null || { echo "check-style: $tool not found (scripts/install-deps.sh installs it)" >&2; exit 2; }
done

mapfile -t files < <(git ls-files '*.cpp' '*.h' | grep -v '^tests/fuzz/corpus/')
if [ "$mode" = "--fix" ]; then
  clang-format -i "${files[@]}"
  echo "check-style: formatted ${#files[@]} files"
  exit 0
fi
echo "check-style: clang-format on ${#files[@]} files"
if ! clang-format --dry-run --Werror "${files[@]}"; then
  echo "check-style: formatting differs from .clang-format; run scripts/check-style.sh --fix" >&2
  exit 1
fi
[ "$mode" = "--format" ] && exit 0

build_dir="${CONTEND_TIDY_BUILD_DIR:-$here/build-tidy}"
# A configure is enough for compile_commands.json: the checked code needs no generated sources.
cmake -S "$here" -B "$build_dir" -G Ninja -DCONTEND_BUILD_GUI=OFF -DCONTEND_BUILD_TESTS=OFF >/dev/null
mapfile -t tidy_files < <(git ls-files 'core/*.cpp' 'app/cli/*.cpp')
echo "check-style: clang-tidy on ${#tidy_files[@]} files"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
if ! run-clang-tidy -quiet -p "$build_dir" -j "$(nproc)" "${tidy_files[@]/#/$here/}" >"$log" 2>&1; then
  grep -E 'warning:|error:' "$log" | grep -v '^Suppressed' >&2 || cat "$log" >&2
  echo "check-style: clang-tidy found the problems above (.clang-tidy lists the checks)" >&2
  exit 1
fi
echo "check-style: clean"
