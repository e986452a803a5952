#!/usr/bin/env bash
# Installs (and optionally builds and tests) the optional real backends, which are off by default.
#   scripts/install-optional-backends.sh node [--run]    ONNX Runtime + TensorFlow.js for Node
#       npm packages pinned in harness/backends/subprocess/node/package-lock.json, installed into
#       harness/backends/subprocess/node/node_modules (git-ignored; about 340 MB). The ONNX
#       Runtime CUDA download is skipped (ONNXRUNTIME_NODE_INSTALL=skip): the CPU library ships in
#       the package. Needs node and npm (scripts/install-deps.sh installs them when absent).
#   scripts/install-optional-backends.sh torch [--run]   libtorch (Debian libtorch-dev, ~500-650 MB)
#       then builds with -DDMCONF_WITH_TORCH=ON
#   scripts/install-optional-backends.sh opencv [--run]  OpenCV dnn (Debian libopencv-dnn-dev,
#       ~40 MB) then builds with -DDMCONF_WITH_OPENCV=ON
# --run: configure (preset dev), build the adapter's tests and dmconf, run the tests, then run
#   `dmconf run --backend NAME --expectations reports/expectations/NAME.json` (when that file
#   exists) and write reports/out/NAME.json and reports/out/NAME.junit.xml; exits non-zero on a
#   failing test or a new failure.
set -euo pipefail
cd "$(dirname "$0")/.."

what="${1:-}"
run=0
[ "${2:-}" = "--run" ] && run=1
if [ "$(id -u)" -eq 0 ]; then SUDO=""; else SUDO="sudo"; fi

# dmconf run against one optional adapter, with its known failures, report under reports/out/.
run_dmconf() {
  local name="$1" expectations=()
  [ -f "reports/expectations/$name.json" ] &&
    expectations=(--expectations "reports/expectations/$name.json")
  mkdir -p reports/out
  echo "install-optional-backends: dmconf run --backend $name ${expectations[*]}"
  build/dev/harness/cli/dmconf run --backend "$name" "${expectations[@]}" --quiet \
    --report "reports/out/$name.json" --junit "reports/out/$name.junit.xml"
}

apt_install() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
}

case "$what" in
  node)
    command -v npm >/dev/null || { echo "install-optional-backends: npm not found" >&2; exit 1; }
    (cd harness/backends/subprocess/node &&
      ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund)
    if [ "$run" -eq 1 ]; then
      cmake --preset dev
      cmake --build --preset dev --target node_adapters_test subprocess_protocol_test dmconf
      ctest --preset dev -R 'OnnxRuntimeAdapter|TfjsAdapter|SubprocessProtocol|SubprocessBackend'
      run_dmconf onnxruntime
      run_dmconf tfjs
    fi
    ;;
  torch)
    apt_install libtorch-dev
    if [ "$run" -eq 1 ]; then
      cmake --preset dev -DDMCONF_WITH_TORCH=ON
      cmake --build --preset dev --target torch_backend_test dmconf
      ctest --preset dev -R 'TorchBackend'
      run_dmconf torch
    fi
    ;;
  opencv)
    apt_install libopencv-dnn-dev
    if [ "$run" -eq 1 ]; then
      cmake --preset dev -DDMCONF_WITH_OPENCV=ON
      cmake --build --preset dev --target opencv_backend_test dmconf
      ctest --preset dev -R 'OpencvBackend'
      run_dmconf opencv
    fi
    ;;
  -h|--help|"")
    sed -n '2,17p' "$0"
    [ -n "$what" ] || exit 2
    ;;
  *)
    echo "install-optional-backends: unknown backend '$what' (node, torch, opencv)" >&2
    exit 2
    ;;
esac
