#!/usr/bin/env bash
# Regenerates every generated, checked-in file. BUILD=build/dev (default) names the build;
# OUT=dir writes them under dir instead of the repository (used by check-generated.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD:-${1:-build/dev}}"
out="${OUT:-.}"
dmconf="$build/harness/cli/dmconf"
mkdir -p "$out/docs"
"$dmconf" rules --markdown > "$out/docs/rules.md"
# Golden vectors (profile golden, seed 1) and the ONNX node tests converted to vectors (when
# libonnx-testdata is installed; otherwise the checked-in copy is kept and
# `dmconf vectors check` verifies its sha256 sums).
"$dmconf" vectors generate --out "$out/vectors/golden" --profile golden --seed 1 >/dev/null
if [ -d /usr/share/libonnx-testdata/data/node ]; then
  "$dmconf" vectors import-onnx --out "$out/vectors/external/onnx" >/dev/null
fi
