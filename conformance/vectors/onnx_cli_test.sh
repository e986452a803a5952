#!/usr/bin/env bash
# End-to-end test of `dmconf vectors export-onnx` and `import-onnx --from` an export: the golden
# set exported (skipped cases printed with their reason, the list file written), imported back
# to the same files byte for byte, the imported set checked by `vectors check`, and a
# non-existent vector path refused with exit status 2.
#   onnx_cli_test.sh DMCONF SOURCE_DIR
set -uo pipefail
dmconf="$1"; src="$2"
source "$src/conformance/harness/check_lib.sh"
passed=0
ok() { passed=$((passed + 1)); }

out=$("$dmconf" vectors export-onnx "$src/vectors/golden" --out "$tmp/onnx"); rc=$?
[ "$rc" -eq 0 ] && ok || bad "export-onnx exited $rc: $out"
exported=$(ls -d "$tmp/onnx"/test_dmconf_* 2>/dev/null | wc -l)
skipped=$(grep -c '^skipped ' <<<"$out")
total=$(ls "$src/vectors/golden"/*.json | grep -vc MANIFEST.json)
[ "$exported" -gt 0 ] && [ $((exported + skipped)) -eq "$total" ] && ok ||
  bad "exported $exported + skipped $skipped != $total vectors"
grep -q "^skipped rule\.s2b\.data\.rank: onnx\.export\.case: " <<<"$out" && ok ||
  bad "a must_reject case is not listed as skipped with its reason"
grep -q "$exported exported, $skipped skipped" <<<"$out" && ok || bad "summary line: $out"
[ -f "$tmp/onnx/dmconf-onnx-export.json" ] && ok || bad "no dmconf-onnx-export.json"
for f in model.onnx test_data_set_0/input_0.pb test_data_set_0/output_0.pb; do
  [ -s "$tmp/onnx/test_dmconf_spec_s2b_ir_layer/$f" ] && ok || bad "spec.s2b.ir_layer has no $f"
done

out=$("$dmconf" vectors import-onnx --from "$tmp/onnx" --out "$tmp/back"); rc=$?
[ "$rc" -eq 0 ] && ok || bad "import-onnx of the export exited $rc: $out"
back=$(ls "$tmp/back"/*.json | grep -vc MANIFEST.json)
[ "$back" -eq "$exported" ] && ok || bad "imported $back vectors, exported $exported"
differ=0
for f in "$tmp/back"/*.json; do
  name=$(basename "$f")
  [ "$name" = MANIFEST.json ] && continue
  cmp -s "$f" "$src/vectors/golden/$name" || { differ=$((differ + 1)); echo "differs: $name"; }
done
[ "$differ" -eq 0 ] && ok || bad "$differ imported files differ from vectors/golden"
"$dmconf" vectors check "$tmp/back" >/dev/null && ok || bad "vectors check of the imported set"

"$dmconf" vectors export-onnx "$tmp/none.json" --out "$tmp/x" >/dev/null 2>&1; rc=$?
[ "$rc" -eq 2 ] && ok || bad "a missing vector path exited $rc, not 2"

echo "onnx_cli_test: $passed passed$([ "$fail" -eq 0 ] || echo ", and the failures above")"
[ "$fail" -eq 0 ]
