#!/usr/bin/env bash
# The main job on an existing build: scripts/main-job.sh BUILD_DIR [extra `dmconf run` options].
# Runs every built-in backend (oracle, direct, the example C-ABI plugin, and the real libraries
# Arm NN, XNNPACK and Eigen) against the oracle, on the default catalogue and the repro vectors
# of every finding (vectors/regressions/), with the known divergences of the real libraries
# listed in reports/expectations/ (docs/findings.md; each entry matches a failing case of this
# run, so a first run prints no stale-expectation warning), and writes
# reports/out/report.json, reports/out/junit.xml, reports/out/report.html (the report as one
# self-contained page; its path is printed) and a summary matrix on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:?usage: main-job.sh BUILD_DIR [options]}"; shift || true
dmconf="$build/harness/cli/dmconf"
mkdir -p reports/out
expectations=()
for f in reports/expectations/armnn.json reports/expectations/xnnpack.json \
         reports/expectations/eigen.json; do
  [ -f "$f" ] && expectations+=(--expectations "$f")
done
# --vectors alone would run only the files: the catalogue runs too when --count is given.
count=(--count 400)
for a in "$@"; do [ "$a" = --count ] || [[ "$a" == --count=* ]] && count=(); done
exec "$dmconf" run --backend all "${expectations[@]}" --vectors vectors/regressions "${count[@]}" \
  --report reports/out/report.json --junit reports/out/junit.xml \
  --html reports/out/report.html "$@"
