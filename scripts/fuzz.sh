#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (ASan+UBSan) and runs each for SECONDS (default 30)
# on its seed corpus in tests/fuzz/corpus/<target minus "fuzz_">. New crashes are written to
# build-fuzz/crashes/ and make the script fail; add them to the corpus and a regression test.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-30}"
build_dir="${CONTEND_FUZZ_BUILD_DIR:-$here/build-fuzz}"
CC=clang CXX=clang++ cmake -S "$here" -B "$build_dir" -G Ninja -DCONTEND_FUZZ=ON -DCONTEND_BUILD_GUI=OFF \
  -DCONTEND_BUILD_TESTS=OFF -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build "$build_dir" -j "$(nproc)"
mkdir -p "$build_dir/crashes"
status=0
for bin in "$build_dir"/tests/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name="$(basename "$bin")"
  corpus="$here/tests/fuzz/corpus/${name#fuzz_}"
  work="$build_dir/work/$name"
  mkdir -p "$work" "$corpus"
  echo "== $name for ${seconds}s (corpus $corpus)"
  if ! "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
       -artifact_prefix="$build_dir/crashes/$name-" "$work" "$corpus" 2>"$build_dir/$name.log"; then
    echo "FAILED: $name found a crash; see $build_dir/$name.log and $build_dir/crashes/"
    tail -40 "$build_dir/$name.log"
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build_dir/$name.log" || true
done
exit $status
