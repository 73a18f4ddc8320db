#!/usr/bin/env bash
# The README's run command: installs what is missing, builds, and opens Contend on the bundled
# "project X before" sample (or on TRACE if given). Uses Xvfb when there is no display.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$here/scripts/install-deps.sh"
build_dir="${CONTEND_BUILD_DIR:-$here/build}"
"$here/scripts/build.sh" "$build_dir"
trace="${1:-$here/resources/samples/projectx-before.json.gz}"
if [ -x "$build_dir/app/gui/contend" ]; then
  if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ] && [ "${QT_QPA_PLATFORM:-}" = "" ]; then
    echo "no display: starting Contend under Xvfb (xvfb-run); set DISPLAY to see the window"
    exec xvfb-run -a "$build_dir/app/gui/contend" "$trace"
  fi
  exec "$build_dir/app/gui/contend" "$trace"
fi
# Without the GUI (CONTEND_BUILD_GUI=OFF) show what the CLI sees.
if [ ! -e "$trace" ]; then
  trace="$(mktemp -d)/generated.json"
  "$build_dir/app/cli/contend-cli" simulate mixed --seed 7 --out "$trace"
fi
exec "$build_dir/app/cli/contend-cli" info "$trace"
