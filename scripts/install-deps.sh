#!/usr/bin/env bash
# Installs the Debian 12 packages Contend needs to build, test and run.
# Idempotent and fast when everything is present: it asks dpkg first and only
# calls apt-get for what is missing. Non-interactive; needs root (or sudo).
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config
  qt6-base-dev qt6-base-dev-tools libgl-dev
  libqcustomplot-dev
  libboost-graph-dev
  nlohmann-json3-dev
  catch2
  libsimdjson-dev
  zlib1g-dev
  libsqlite3-dev
  parallel
  xvfb xauth fonts-dejavu-core
  clang libclang-rt-14-dev
  clang-format clang-tidy
  ccache python3 debootstrap
  # The Python module (python/): pybind11 and the headers to build it, pip/setuptools/wheel/venv
  # for `pip install --no-build-isolation ./python`, numpy and pandas at run time, tqdm for its
  # progress bar, pytest for its tests and matplotlib, nbconvert and ipykernel to execute the
  # example notebook (ctest "python: ...").
  python3-dev python3-pybind11 python3-venv python3-pip python3-setuptools python3-wheel
  python3-numpy python3-pandas python3-tqdm python3-pytest python3-matplotlib
  jupyter-nbconvert python3-ipykernel
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
