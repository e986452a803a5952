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
# Golden shape-inference cases (docs/shape-case-format.md): static and partial, seed 1.
"$dmconf" vectors generate-shapes --out "$out/vectors/shapes" --seed 1 >/dev/null
if [ -d /usr/share/libonnx-testdata/data/node ]; then
  "$dmconf" vectors import-onnx --out "$out/vectors/external/onnx" >/dev/null
fi
# Fuzz seed corpora (docs/fuzzing.md): seeded-driver cases recorded as builder choices, and the
# golden and regression vectors as literal inputs (golden-<id>).
M="$build/fuzz/dmconf_fuzz_make_corpus"
corpus="$out/fuzz/corpus"
vecs=("$out/vectors/golden" vectors/regressions)
i=0
for op in s2b b2s s2d d2s eip; do
  "$M" "$corpus/shape_$op" 40 "$i" 1
  "$M" --golden "$corpus/shape_$op" "$i" "${vecs[@]}" >/dev/null
  i=$((i + 1))
done
for t in shape_all literal_vs_direct partial_shape backend_diff plugin_shape; do "$M" "$corpus/$t" 60 -1 1; done
"$M" "$corpus/infer" 60 -1 2
for t in shape_all infer literal_vs_direct partial_shape; do
  "$M" --golden "$corpus/$t" -1 "${vecs[@]}" >/dev/null
done
for op in 3 4; do "$M" --golden "$corpus/backend_diff" "$op" "${vecs[@]}" >/dev/null; done
