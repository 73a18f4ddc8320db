#!/usr/bin/env bash
# Builds the libFuzzer targets in the sanitizer build (build-asan/: clang, ASan+UBSan, the core
# with libFuzzer's coverage; the same build scripts/sanitize.sh tests, so after it this builds
# nothing) and runs each for SECONDS (default 30) on its seed corpus in
# tests/fuzz/corpus/<target minus "fuzz_"> (the SQLite readers' seeds are databases made here from
# tests/fuzz/seeds/<target>/*.sql, with python3's sqlite3). New crashes are written to
# build-asan/crashes/ and make the script fail; add them to the corpus and a regression test.
#   scripts/fuzz.sh [SECONDS]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-30}"
build_dir="${CONTEND_FUZZ_BUILD_DIR:-${CONTEND_ASAN_BUILD_DIR:-$here/build-asan}}"
CONTEND_SANITIZE=1 CONTEND_BUILD_TARGETS=fuzz_all "$here/scripts/build.sh" "$build_dir"
mkdir -p "$build_dir/crashes"
# Seeds for the SQLite readers, made here (no binary is committed): a database per
# tests/fuzz/seeds/<target>/*.sql, plus the shared samples under 128 KiB when ../shared/traces is there.
make_seeds() {
  local target="$1" pattern="$2" out="$build_dir/seeds/$1"
  rm -rf "$out" && mkdir -p "$out"
  for sql in "$here"/tests/fuzz/seeds/"$target"/*.sql; do
    [ -f "$sql" ] || continue
    python3 - "$sql" "$out/$(basename "$sql" .sql).db" <<'PY'
import sqlite3, sys
sql, out = sys.argv[1], sys.argv[2]
con = sqlite3.connect(out)
con.execute("PRAGMA page_size = 1024")
con.executescript(open(sql).read())
con.commit()
con.execute("VACUUM")
con.close()
PY
  done
  local shared="${CONTEND_SHARED_TRACES:-$here/../shared/traces}"
  if [ -d "$shared" ]; then
    find "$shared" -name "$pattern" -size -128k -type f | while read -r f; do
      seed="$out/shared-$(echo "$f" | md5sum | cut -c1-8)-$(basename "$f")"
      cp "$f" "$seed" && chmod u+w "$seed"
      # An in-memory image cannot be in WAL mode: mark the copy as a rollback-journal database.
      printf '\001\001' | dd of="$seed" bs=1 seek=18 conv=notrunc status=none
    done
  fi
}
make_seeds ascend_db '*.db'
make_seeds nsys_sqlite '*.sqlite'
status=0
for bin in "$build_dir"/tests/fuzz/fuzz_*; do
  [ -x "$bin" ] || continue
  name="$(basename "$bin")"
  corpus="$here/tests/fuzz/corpus/${name#fuzz_}"
  work="$build_dir/work/$name"
  seeds="$build_dir/seeds/${name#fuzz_}"
  mkdir -p "$work" "$corpus"
  extra=()
  [ -d "$seeds" ] && extra=("$seeds")
  echo "== $name for ${seconds}s (corpus $corpus)"
  if ! "$bin" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 -print_final_stats=1 \
       -artifact_prefix="$build_dir/crashes/$name-" "$work" "$corpus" "${extra[@]}" 2>"$build_dir/$name.log"; then
    echo "FAILED: $name found a crash; see $build_dir/$name.log and $build_dir/crashes/"
    tail -40 "$build_dir/$name.log"
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::peak_rss_mb" "$build_dir/$name.log" || true
done
exit $status
