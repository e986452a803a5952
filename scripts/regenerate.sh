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
