#!/usr/bin/env bash
# Proves that the .deb installs and runs on a fresh Debian 12 with nothing but its declared
# dependencies:
#   1. builds contend and contend-cli in BUILD_DIR (default build/) and packs the .deb there
#      (cpack -G DEB);
#   2. makes a fresh Debian 12 root: `debootstrap --variant=minbase bookworm` once into
#      $CONTEND_DEB_ROOT/base (default /work/deb-root; kept so reruns are fast), then a copy of
#      it for this run, so every run starts from a root where nothing was ever installed;
#   3. in that root: `apt-get install ./contend_*.deb` (apt resolves the Depends), then
#      `contend-cli --version`, `contend-cli analyze` on the installed sample, and
#      `QT_QPA_PLATFORM=offscreen contend --version` and `--screenshot` (the app opens the
#      installed sample, analyses it and writes a PNG, so Qt's plugins and fonts are there).
# Needs root (debootstrap, chroot) and the Debian archive (DEBIAN_MIRROR, default
# http://deb.debian.org/debian). Slow (a few minutes): not part of .ci/run.
#   scripts/test-deb.sh [BUILD_DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="$(realpath -m "${1:-$here/build}")"
cache="${CONTEND_DEB_ROOT:-/work/deb-root}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

say() { printf '\n== test-deb: %s\n' "$*"; }
fail() {
  printf 'test-deb: FAILED: %s\n' "$*" >&2
  exit 1
}

[ "$(id -u)" = 0 ] || fail "needs root (debootstrap and chroot)"
command -v debootstrap >/dev/null || apt-get install -y debootstrap >/dev/null

say "building the .deb in $build_dir"
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$here" -B "$build_dir" -G Ninja "${launcher[@]}" >/dev/null
cmake --build "$build_dir" -j "${CONTEND_JOBS:-$(nproc)}" --target contend contend-cli
rm -f "$build_dir"/contend_*.deb
(cd "$build_dir" && cpack -G DEB >/dev/null)
deb="$(ls "$build_dir"/contend_*.deb | head -n 1)"
[ -f "$deb" ] || fail "cpack wrote no contend_*.deb in $build_dir"
echo "package: $deb"
dpkg-deb --field "$deb" Depends | tr ',' '\n' | sed 's/^ */  depends: /'

base="$cache/base"
if [ ! -f "$base/.contend-debootstrap-done" ]; then
  say "debootstrap --variant=minbase bookworm into $base (once)"
  rm -rf "$base"
  mkdir -p "$cache"
  debootstrap --variant=minbase bookworm "$base" "$mirror"
  touch "$base/.contend-debootstrap-done"
fi

root="$cache/run"
say "a fresh copy of the base root in $root"
for m in proc sys; do mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"; done
rm -rf "$root"
cp -a "$base" "$root"
cleanup() {
  for m in proc sys; do mountpoint -q "$root/$m" 2>/dev/null && umount -l "$root/$m"; done
}
trap cleanup EXIT
# The root's own device nodes (debootstrap made them), not a bind of the host's /dev: nothing
# that runs in the root can then remove or replace one of the host's.
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

say "apt-get install ./$(basename "$deb") (dependencies from its Depends)"
in_root apt-get update -q >/dev/null
log="$cache/apt-install.log"
if ! in_root sh -c "cd /tmp && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ./$(basename "$deb")" \
  >"$log" 2>&1; then
  tail -n 30 "$log"
  fail "apt-get install of the .deb (log: $log)"
fi
echo "  packages set up: $(grep -c '^Setting up' "$log") (log: $log)"
in_root dpkg -s contend | grep -E '^(Status|Version)'

say "contend-cli --version"
in_root contend-cli --version
say "contend-cli analyze /usr/share/contend/samples/projectx-before.json.gz"
in_root contend-cli analyze /usr/share/contend/samples/projectx-before.json.gz >"$cache/analyze.txt"
head -n 6 "$cache/analyze.txt"
grep -q '^summary: .*anomalies' "$cache/analyze.txt" || fail "contend-cli analyze printed no summary"
say "QT_QPA_PLATFORM=offscreen contend --version"
in_root env QT_QPA_PLATFORM=offscreen contend --version
say "QT_QPA_PLATFORM=offscreen contend --screenshot /tmp/main.png (the installed sample)"
mkdir -p -m 700 "$root/tmp/xdg"
in_root env QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/xdg contend --screenshot /tmp/main.png
[ -s "$root/tmp/main.png" ] || fail "the installed app wrote no screenshot"
file "$root/tmp/main.png" 2>/dev/null || ls -l "$root/tmp/main.png"
cp "$root/tmp/main.png" "$cache/installed-main.png"
say "passed: the .deb installs on a fresh Debian 12 with its declared dependencies and runs (screenshot: $cache/installed-main.png)"
