#!/usr/bin/env bash
# The sanitizer build (build-asan/: clang, ASan+UBSan at -O1, see scripts/build.sh) and every test
# in it: the core tests and the GUI tests (offscreen). Any sanitizer report fails the run. The
# same build holds the fuzz targets (scripts/fuzz.sh).
#   scripts/sanitize.sh           build, then test
#   scripts/sanitize.sh --build   build only
#   scripts/sanitize.sh --test    test only (the build must be there)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${CONTEND_ASAN_BUILD_DIR:-$here/build-asan}"
mode="${1:-all}"
if [ "$mode" != "--test" ]; then
  CONTEND_SANITIZE=1 "$here/scripts/build.sh" "$build_dir"
fi
[ "$mode" = "--build" ] && exit 0
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
# Leaks inside the system's Qt, fontconfig and GL stacks (not ours to fix) are suppressed by name.
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$here/tests/sanitizer/lsan.supp:print_suppressions=0}"
export QT_QPA_PLATFORM=offscreen
cd "$build_dir"
ctest --output-on-failure -j "${CONTEND_TEST_JOBS:-2}" --timeout 1800
