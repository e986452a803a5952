#!/usr/bin/env bash
# The main job on an existing build: scripts/main-job.sh BUILD_DIR [extra options].
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:?usage: main-job.sh BUILD_DIR [options]}"; shift || true
dmconf="$build/harness/cli/dmconf"
mkdir -p reports/out
if "$dmconf" --help 2>/dev/null | grep -q '^  run'; then
  exec "$dmconf" run --backend all --report reports/out/report.json --junit reports/out/junit.xml "$@"
fi
# Until `dmconf run` exists: evaluate the specification examples with the oracle.
exec "$dmconf" examples --report reports/out/examples.json "$@"
