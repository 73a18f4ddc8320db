#!/usr/bin/env bash
# The README's Python steps, as a new user runs them, checked end to end (CI stage
# `python-install`): a venv that sees Debian's numpy and pandas, `pip install
# --no-build-isolation --no-index ./python` (nothing fetched; setup.py builds core with CMake
# into build-python/, through ccache), then the README's check command, whose anomaly count
# must be the one `contend-cli analyze` writes for the same sample.
#   scripts/test-python-install.sh [--cli PATH]   (default: build/app/cli/contend-cli)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cli="$here/build/app/cli/contend-cli"
case "${1:-}" in
--cli) cli="$2" ;;
-h | --help)
  sed -n '2,7p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'
  exit 0
  ;;
esac
[ -x "$cli" ] || { echo "test-python-install: $cli not built (run scripts/test.sh first)" >&2; exit 2; }
start=$(date +%s)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
/usr/bin/python3 -m venv --system-site-packages "$tmp/venv"
(cd "$here" && "$tmp/venv/bin/pip" install --quiet --no-build-isolation --no-index ./python)
sample="resources/samples/projectx-before.json.gz"
# The README's command, from the repository root, with the venv's interpreter.
got="$(cd "$here" && "$tmp/venv/bin/python" -c "import contend; print(contend.analyze('$sample').anomalies.shape)")"
"$cli" analyze "$here/$sample" --json "$tmp/report.json" >/dev/null
want="$(/usr/bin/python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['summary']['anomalies'])" "$tmp/report.json")"
echo "test-python-install: contend.analyze(...).anomalies.shape = $got; contend-cli analyze: $want anomalies"
case "$got" in
"($want, "*) ;;
*)
  echo "test-python-install: FAILED: the module and the CLI disagree" >&2
  exit 1
  ;;
esac
echo "test-python-install: passed in $(($(date +%s) - start)) s"
