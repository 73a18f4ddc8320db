#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, and runs every test with CTest.
# Exits non-zero on any failure. Tests that need ../shared/traces report "skipped" when it is
# absent. Widget tests run on the offscreen Qt platform.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/install-deps.sh"
build_dir="${CONTEND_BUILD_DIR:-$here/build}"
"$here/scripts/build.sh" "$build_dir"
if [ ! -d "$here/../shared/traces" ]; then
  echo "note: ../shared/traces not found: the real-trace tests will be reported as skipped"
fi
export QT_QPA_PLATFORM=offscreen
cd "$build_dir"
ctest --output-on-failure -j "${CONTEND_TEST_JOBS:-2}" --timeout 900
