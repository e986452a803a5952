#!/usr/bin/env bash
# `dmconf vectors run-onnx` in ONNX Runtime on malformed node tests: a model.onnx that is not
# protobuf and an output_0.pb cut short each fail their own test, named by its folder and file,
# while the intact test beside them passes and the run goes on to its totals (exit 1).
# Needs the Node adapter (scripts/install-optional-backends.sh node); without it: exit 77
# (ctest: skipped).
# Usage: run_onnx_malformed_test.sh DMCONF SOURCE_DIR
set -uo pipefail
dmconf="$1"
src="$2"
source "$src/conformance/harness/check_lib.sh"
adapter="$src/harness/backends/subprocess/node"
if ! command -v node >/dev/null || [ ! -f "$adapter/node_modules/onnxruntime-node/package.json" ] ||
  [ ! -f "$adapter/node_modules/onnx-proto/package.json" ]; then
  echo "skipped: the Node adapter is not installed (scripts/install-optional-backends.sh node)"
  exit 77
fi
g="$src/vectors/golden"
"$dmconf" vectors export-onnx "$g/types.d2s.blocks_first.f32.json" "$g/types.s2d.blocks_first.f32.json" \
  "$g/types.d2s.depth_first.f32.json" --out "$tmp/onnx" >/dev/null
check "exported" "[ \$(ls -d '$tmp'/onnx/test_* | wc -l) -eq 3 ]"
printf '\xff\xff\xff\xff' >"$tmp/onnx/test_dmconf_types_d2s_blocks_first_f32/model.onnx"
out="$tmp/onnx/test_dmconf_types_s2d_blocks_first_f32/test_data_set_0/output_0.pb"
head -c 7 "$out" >"$out.cut" && mv "$out.cut" "$out"
timeout 120 "$dmconf" vectors run-onnx "$tmp/onnx" >"$tmp/run.out" 2>&1
rc=$?
check "exit 1 (two tests failed) ($rc)" "[ $rc -eq 1 ]"
check "the bad model fails its own test, naming folder and file" \
  "grep -q '^FAILED      $tmp/onnx/test_dmconf_types_d2s_blocks_first_f32 (model.onnx: ' '$tmp/run.out'"
check "the cut tensor fails its own test, naming folder and file" \
  "grep -q '^FAILED      $tmp/onnx/test_dmconf_types_s2d_blocks_first_f32 (test_data_set_0/output_0.pb: ' '$tmp/run.out'"
check "the intact test passes" "grep -q '^passed      $tmp/onnx/test_dmconf_types_d2s_depth_first_f32\$' '$tmp/run.out'"
check "the run reaches its totals" \
  "grep -qx 'run-onnx (onnxruntime): 1 passed, 2 failed, 0 unsupported, 0 known (F8)' '$tmp/run.out'"
[ "$fail" -eq 0 ] || cat "$tmp/run.out"
exit "$fail"
