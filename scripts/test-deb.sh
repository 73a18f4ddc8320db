#!/usr/bin/env bash
# Proves that the .deb installs and runs on a fresh Debian 12 with nothing but its declared
# dependencies:
#   1. builds contend and contend-cli in BUILD_DIR (default build/) and packs the .deb there
#      (cpack -G DEB); with --no-build it packs what BUILD_DIR already holds (CI runs it right
#      after its main build) and stops if contend or contend-cli is not built there;
#   2. makes a fresh Debian 12 root: `debootstrap --variant=minbase bookworm` once into
#      $CONTEND_DEB_ROOT/base (default /work/deb-root; kept so reruns are fast), then a copy of
#      it for this run, so every run starts from a root where nothing was ever installed;
#   3. in that root: `apt-get install ./contend_*.deb` (apt resolves the Depends), then
#      `contend-cli --version` (it must print the build's version and commit),
#      `contend-cli analyze` on the installed sample, and `QT_QPA_PLATFORM=offscreen contend
#      --version` and `--screenshot` (the app opens the installed sample, analyses it and writes
#      a PNG, so Qt's plugins and fonts are there).
# Needs root (debootstrap, chroot) and a Debian archive: by default the one this machine's apt
# already uses (the first source of suite bookworm with component main, as apt reads
# /etc/apt/sources.list and /etc/apt/sources.list.d/*.list or *.sources; the updates and
# security suites are not a base system's archive); DEBIAN_MIRROR=URL names another. Prints how
# long each step took, and all of them at the end.
#   scripts/test-deb.sh [--no-build] [BUILD_DIR]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
usage="usage: scripts/test-deb.sh [--no-build] [BUILD_DIR]"

fail() {
  printf 'test-deb: FAILED: %s\n' "$*" >&2
  exit 1
}

# Steps and their times: `step LABEL TEXT` ends the step before and starts LABEL.
times=()
step_label=""
step_start=0
end_step() {
  [ -n "$step_label" ] || return 0
  local took=$((SECONDS - step_start))
  printf -- '-- test-deb: %s took %ds\n' "$step_label" "$took"
  times+=("$(printf '%-10s %5ds' "$step_label" "$took")")
  step_label=""
}
step() {
  end_step
  step_label="$1"
  step_start=$SECONDS
  shift
  printf '\n== test-deb: %s\n' "$*"
}

# The run's root, once it exists; proc and sys are mounted in it while it is in use.
root=""
unmount_root() {
  [ -n "$root" ] || return 0
  local m
  for m in sys proc; do
    if mountpoint -q "$root/$m" 2>/dev/null; then
      umount "$root/$m" 2>/dev/null || umount -l "$root/$m" || true
    fi
  done
}
# True when anything is still mounted at or below $1 (then it must not be removed).
mounted_below() {
  findmnt -rn -o TARGET | awk -v dir="$1" '$0 == dir || index($0, dir "/") == 1 { found = 1 } END { exit !found }'
}
on_exit() {
  local rc=$?
  unmount_root
  end_step
  if [ "${#times[@]}" -gt 0 ]; then
    echo
    echo "== test-deb: step times"
    for t in "${times[@]}"; do echo "  $t"; done
    printf '  %-10s %5ds\n' total "$SECONDS"
  fi
  [ "$rc" = 0 ] || echo "  (stopped by a failure: exit $rc)"
}
trap on_exit EXIT

# The archive this machine's apt gets Debian 12 from: the first deb source of suite bookworm
# (exactly: not bookworm-updates or bookworm-security) with component main, over http or https
# (the root's apt uses it too, and a file: archive of the host is not in the root). apt-get indextargets lists apt's own reading of every sources file, one-line and
# deb822 alike, in the order apt reads them (--no-release-info: also where apt-get update never
# ran, as in a container whose package lists were removed).
host_mirror() {
  command -v apt-get >/dev/null || return 0
  # shellcheck disable=SC2016 # $(...) are apt's format fields, not the shell's
  apt-get indextargets --no-release-info --format '$(TARGET_OF) $(RELEASE) $(COMPONENT) $(SITE)' 'Identifier: Packages' 2>/dev/null |
    awk '$1 == "deb" && $2 == "bookworm" && $3 == "main" && $4 ~ /^https?:\/\// { print $4; exit }'
}

no_build=0
build_arg=""
while [ $# -gt 0 ]; do
  case "$1" in
    --no-build) no_build=1 ;;
    -h|--help) echo "$usage"; exit 0 ;;
    -*) fail "unknown option '$1' ($usage)" ;;
    *) [ -z "$build_arg" ] || fail "one BUILD_DIR only ($usage)"; build_arg="$1" ;;
  esac
  shift
done
build_dir="$(realpath -m "${build_arg:-$here/build}")"
cache="$(realpath -m "${CONTEND_DEB_ROOT:-/work/deb-root}")"
[ "$cache" != / ] || fail "CONTEND_DEB_ROOT may not be /"

[ "$(id -u)" = 0 ] || fail "needs root (debootstrap and chroot)"

if [ -n "${DEBIAN_MIRROR:-}" ]; then
  mirror="$DEBIAN_MIRROR"
  mirror_from="DEBIAN_MIRROR"
else
  mirror="$(host_mirror)"
  mirror_from="this machine's apt sources"
  # Only the first debootstrap needs it; later runs reuse the base, whose own sources name it.
  if [ -z "$mirror" ] && [ ! -f "$cache/base/.contend-debootstrap-done" ]; then
    fail "no Debian 12 archive found: no apt source of suite 'bookworm' with component 'main' (http or https) in /etc/apt/sources.list or /etc/apt/sources.list.d/ (apt-get indextargets lists what apt reads); set DEBIAN_MIRROR=URL of a Debian archive"
  fi
fi
command -v debootstrap >/dev/null || apt-get install -y debootstrap >/dev/null

if [ "$no_build" = 1 ]; then
  step pack "packing the .deb from the existing build in $build_dir (--no-build)"
  [ -f "$build_dir/CMakeCache.txt" ] ||
    fail "--no-build: $build_dir is not a build folder (no CMakeCache.txt); build it first (scripts/build.sh) or drop --no-build"
  if grep -Eq '^CONTEND_(SANITIZE|FUZZ):BOOL=(ON|TRUE|YES|1)$' "$build_dir/CMakeCache.txt"; then
    fail "--no-build: $build_dir is a sanitizer build; pack a Release build (scripts/build.sh)"
  fi
  for exe in app/cli/contend-cli app/gui/contend; do
    [ -x "$build_dir/$exe" ] ||
      fail "--no-build: $build_dir/$exe is not built; build it first (scripts/build.sh) or drop --no-build"
  done
else
  step build "building contend and contend-cli in $build_dir"
  launcher=()
  if command -v ccache >/dev/null; then
    launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
  fi
  cmake -S "$here" -B "$build_dir" -G Ninja "${launcher[@]}" >/dev/null
  cmake --build "$build_dir" -j "${CONTEND_JOBS:-$(nproc)}" --target contend contend-cli
  step pack "cpack -G DEB in $build_dir"
fi
# cpack installs what `cmake --install` would into a staging folder and packs it (its preinstall
# step first brings the build up to date, nothing to do right after a build).
rm -f "$build_dir"/contend_*.deb
(cd "$build_dir" && cpack -G DEB >/dev/null)
deb="$(find "$build_dir" -maxdepth 1 -name 'contend_*.deb' | head -n 1)"
if [ -z "$deb" ] || [ ! -f "$deb" ]; then fail "cpack wrote no contend_*.deb in $build_dir"; fi
built_version="$("$build_dir/app/cli/contend-cli" --version)"
echo "package: $deb (${built_version})"
dpkg-deb --field "$deb" Depends | tr ',' '\n' | sed 's/^ */  depends: /'

base="$cache/base"
if [ ! -f "$base/.contend-debootstrap-done" ]; then
  step debootstrap "debootstrap --variant=minbase bookworm into $base (once), from $mirror ($mirror_from)"
  mounted_below "$base" && fail "something is mounted under $base; unmount it first"
  rm -rf "$base"
  mkdir -p "$cache"
  debootstrap --variant=minbase bookworm "$base" "$mirror"
  touch "$base/.contend-debootstrap-done"
fi

step root "a fresh copy of the base root in $cache/run"
root="$cache/run"
unmount_root
# A root left by a run that was killed: never remove it while anything is mounted in it.
mounted_below "$root" && fail "something is still mounted under $root; unmount it first"
rm -rf "$root"
cp -a "$base" "$root"
# The root's own device nodes (debootstrap made them), not a bind of the host's /dev: nothing
# that runs in the root can then remove or replace one of the host's.
mount -t proc proc "$root/proc"
mount -t sysfs sys "$root/sys"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

step install "apt-get install ./$(basename "$deb") (dependencies from its Depends)"
in_root apt-get update -q >/dev/null
log="$cache/apt-install.log"
if ! in_root sh -c "cd /tmp && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends ./$(basename "$deb")" \
  >"$log" 2>&1; then
  tail -n 30 "$log"
  fail "apt-get install of the .deb (log: $log)"
fi
echo "  packages set up: $(grep -c '^Setting up' "$log") (log: $log)"
in_root dpkg -s contend | grep -E '^(Status|Version)'

step cli "contend-cli --version, contend-cli analyze /usr/share/contend/samples/projectx-before.json.gz"
installed_version="$(in_root contend-cli --version)"
echo "$installed_version"
[ "$installed_version" = "$built_version" ] ||
  fail "the installed contend-cli says '$installed_version', the build's '$built_version'"
in_root contend-cli analyze /usr/share/contend/samples/projectx-before.json.gz >"$cache/analyze.txt"
head -n 6 "$cache/analyze.txt"
grep -q '^summary: .*anomalies' "$cache/analyze.txt" || fail "contend-cli analyze printed no summary"

step app "QT_QPA_PLATFORM=offscreen contend --version, contend --screenshot /tmp/main.png (the installed sample)"
app_version="$(in_root env QT_QPA_PLATFORM=offscreen contend --version)"
echo "$app_version"
[ "$app_version" = "contend ${built_version#contend-cli }" ] ||
  fail "the installed contend says '$app_version', the build's contend-cli '$built_version'"
mkdir -m 700 "$root/tmp/xdg"
in_root env QT_QPA_PLATFORM=offscreen XDG_RUNTIME_DIR=/tmp/xdg contend --screenshot /tmp/main.png
[ -s "$root/tmp/main.png" ] || fail "the installed app wrote no screenshot"
file "$root/tmp/main.png" 2>/dev/null || ls -l "$root/tmp/main.png"
cp "$root/tmp/main.png" "$cache/installed-main.png"
end_step
printf '\n== test-deb: passed: the .deb installs on a fresh Debian 12 with its declared dependencies and runs (screenshot: %s)\n' \
  "$cache/installed-main.png"
