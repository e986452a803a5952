#!/usr/bin/env bash
# Installs every Debian package dmconf's build, tests and default backends need.
# Idempotent; runs `apt-get update` first; works as root and uses sudo otherwise.
#   scripts/install-deps.sh            build + test toolchain and default real backends
#   scripts/install-deps.sh --minimal  build + test toolchain only (no third-party backends)
set -euo pipefail

minimal=0
for arg in "$@"; do
  case "$arg" in
    --minimal) minimal=1 ;;
    -h|--help) sed -n '2,6p' "$0"; exit 0 ;;
    *) echo "install-deps.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi

# Toolchain and libraries the build and the test suite need.
packages=(
  build-essential cmake ninja-build pkg-config git ccache
  g++ clang-14 clang libclang-rt-14-dev clang-format
  libgtest-dev libgmock-dev googletest
  librapidcheck-dev nlohmann-json3-dev libabsl-dev libbenchmark-dev libcli11-dev
  python3-numpy python3-jsonschema
  libonnx-dev libprotobuf-dev libssl-dev
)
# Node.js (JSON Schema validation of reports, Node-based adapters). The machine image may carry
# a Node.js build that bundles npm and conflicts with Debian's npm package: install only if absent.
command -v npm >/dev/null 2>&1 || packages+=(nodejs npm)
# Headless Chromium: the browser tests of the HTML report (ctest label browser).
packages+=(chromium)
# Default real backends (issue: real backends) and external golden data.
if [ "$minimal" -eq 0 ]; then
  packages+=(
    libarmnn-dev libarmnn-cpuref-backend22
    libxnnpack-dev libpthreadpool-dev
    libeigen3-dev
    libonnx-testdata
  )
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ "${#missing[@]}" -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${#missing[@]} package(s): ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
