#!/usr/bin/env bash
# Command (2) of the README: install what is needed, build, and run the whole test suite.
#   scripts/test.sh           install deps, check formatting (clang-format), configure + build +
#                             ctest (preset dev, g++), and check that generated files (rule
#                             table, golden vectors) are current; then the same suite under
#                             ASan + UBSan (preset asan, clang; all but the tests labelled
#                             sanitizer_long, which the g++ half runs).
#   scripts/test.sh --no-asan skip the ASan + UBSan run (quicker local runs; CI runs it)
# Exits non-zero when any step or any test fails.
set -euo pipefail
cd "$(dirname "$0")/.."

asan=1
for arg in "$@"; do
  case "$arg" in
    --asan) asan=1 ;;
    --no-asan) asan=0 ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown option '$arg' (see --help)" >&2; exit 2 ;;
  esac
done

bash scripts/install-deps.sh
echo "== dmconf: source formatting (clang-format, .clang-format) =="
bash scripts/check-format.sh
echo "== dmconf: configure, build and test (preset dev, g++) =="
cmake --workflow --preset ci
bash scripts/check-generated.sh build/dev
if [ "$asan" -eq 1 ]; then
  echo "== dmconf: configure, build and test under ASan + UBSan (preset asan, clang) =="
  cmake --workflow --preset asan
fi
echo "== dmconf: all tests passed =="
