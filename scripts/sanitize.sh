#!/usr/bin/env bash
# Builds the core, the CLI and the core tests with AddressSanitizer + UndefinedBehaviorSanitizer
# (build-asan/) and runs those tests. Any sanitizer report fails the run.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${CONTEND_ASAN_BUILD_DIR:-$here/build-asan}"
CONTEND_SANITIZE=1 "$here/scripts/build.sh" "$build_dir" -DCONTEND_BUILD_GUI=OFF
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cd "$build_dir"
ctest --output-on-failure -j "${CONTEND_TEST_JOBS:-2}" --timeout 1800
