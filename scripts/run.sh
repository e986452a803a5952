#!/usr/bin/env bash
# Command (1) of the README: install what is needed, build (release), and run the main job:
# a conformance run of the built-in backends against the oracle, which writes a JSON report
# under reports/out/ and prints a summary.
#   scripts/run.sh [extra `dmconf run` options]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake --preset release
cmake --build --preset release
exec bash scripts/main-job.sh build/release "$@"
