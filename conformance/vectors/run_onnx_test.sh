#!/usr/bin/env bash
# dmconf vectors run-onnx (docs/vector-format.md, "Running the node tests"):
# - always: a missing adapter is a clear error naming the install command (exit 2); an adapter
#   that hangs is killed after --timeout (exit 2); one that dies early is an error (exit 2);
# - when the Node adapter is installed (scripts/install-optional-backends.sh node): a small
#   vector set runs in ONNX Runtime with the totals the export rules predict, and a corrupted
#   expected output is counted as failed (exit 1).
# Usage: run_onnx_test.sh DMCONF SOURCE_DIR
set -uo pipefail
dmconf="$1"
src="$2"
source "$src/conformance/harness/check_lib.sh"
g="$src/vectors/golden"

# --help names the route and the install command.
"$dmconf" vectors run-onnx --help >"$tmp/help" 2>&1
check help_names_install "grep -q 'scripts/install-optional-backends.sh node' '$tmp/help'"
check help_names_runtime "grep -q -- '--runtime onnxruntime' '$tmp/help'"

# A fake adapter folder: run_onnx_tests.js as given, and the two npm packages "installed".
fake_adapter() {  # DIR SCRIPT_TEXT
  mkdir -p "$1/node_modules/onnxruntime-node" "$1/node_modules/onnx-proto"
  echo '{}' >"$1/node_modules/onnxruntime-node/package.json"
  echo '{}' >"$1/node_modules/onnx-proto/package.json"
  printf '%s\n' "$2" >"$1/run_onnx_tests.js"
}

# No adapter installed: exit 2, the rule, the install command.
mkdir -p "$tmp/empty"
cp "$src/harness/backends/subprocess/node/run_onnx_tests.js" "$tmp/empty/"
"$dmconf" vectors run-onnx "$g/types.d2s.blocks_first.f32.json" --adapter "$tmp/empty" \
  >"$tmp/none.out" 2>"$tmp/none.err"
check missing_adapter_exit_2 "[ $? -eq 2 ]"
check missing_adapter_rule "grep -q 'onnx.runtime.unavailable: ' '$tmp/none.err'"
check missing_adapter_names_command \
  "grep -q 'install it with .scripts/install-optional-backends.sh node.' '$tmp/none.err'"
check missing_adapter_names_package "grep -q 'npm package onnxruntime-node is not installed' '$tmp/none.err'"

# node not on PATH: the same error, naming it.
mkdir -p "$tmp/nobin"
PATH="$tmp/nobin" "$dmconf" vectors run-onnx "$g/types.d2s.blocks_first.f32.json" \
  >"$tmp/nonode.out" 2>&1
check no_node_exit_2 "[ $? -eq 2 ]"
check no_node_named "grep -q 'onnx.runtime.unavailable: .*node is not on PATH' '$tmp/nonode.out'"

if command -v node >/dev/null; then
  # A runtime that never finishes is killed after --timeout, with everything it started.
  fake_adapter "$tmp/hang" "require('child_process').spawn('sleep', ['300'], {stdio: 'ignore'});
setInterval(() => {}, 1000);"
  start=$(date +%s)
  "$dmconf" vectors run-onnx "$g/types.d2s.blocks_first.f32.json" --adapter "$tmp/hang" \
    --timeout 2 >"$tmp/hang.out" 2>"$tmp/hang.err"
  rc=$?
  took=$(($(date +%s) - start))
  check hang_exit_2 "[ $rc -eq 2 ]"
  check hang_rule "grep -q 'onnx.runtime.timeout: ' '$tmp/hang.err'"
  check hang_bounded "[ $took -lt 30 ]"
  check hang_killed "! pgrep -f '$tmp/hang/run_onnx_tests.js' >/dev/null"

  # A runtime that dies before its totals line is an error, not a pass.
  fake_adapter "$tmp/dies" "console.log('x: pass'); process.exit(3);"
  "$dmconf" vectors run-onnx "$g/types.d2s.blocks_first.f32.json" --adapter "$tmp/dies" \
    >"$tmp/dies.out" 2>"$tmp/dies.err"
  check dies_exit_2 "[ $? -eq 2 ]"
  check dies_rule "grep -q 'onnx.runtime.failed: .*exited with status 3 before its totals line' '$tmp/dies.err'"

  # An installed dmconf (PREFIX/bin/dmconf: a copy without the build tree's link beside it)
  # uses PREFIX/share/dmconf/node, never the source tree's adapter (even when that one is
  # installed); missing, the error names where to run npm ci.
  mkdir -p "$tmp/prefix/bin" "$tmp/prefix/share/dmconf/node"
  cp "$dmconf" "$tmp/prefix/bin/dmconf"
  cp "$src/harness/backends/subprocess/node/run_onnx_tests.js" "$tmp/prefix/share/dmconf/node/"
  env -u DMCONF_NODE_ADAPTER_DIR "$tmp/prefix/bin/dmconf" vectors run-onnx \
    "$g/types.d2s.blocks_first.f32.json" >"$tmp/inst0.out" 2>&1
  check installed_missing_exit_2 "[ $? -eq 2 ]"
  check installed_missing_names_prefix \
    "grep -q 'an installed dmconf: .npm ci. in $tmp/prefix/share/dmconf/node' '$tmp/inst0.out'"
  fake_adapter "$tmp/prefix/share/dmconf/node" \
    'console.log("run_onnx_tests: 0 passed, 0 failed, 0 unsupported, 0 known (F8)");'
  env -u DMCONF_NODE_ADAPTER_DIR "$tmp/prefix/bin/dmconf" vectors run-onnx \
    "$g/types.d2s.blocks_first.f32.json" >"$tmp/inst1.out" 2>&1
  check installed_exit_0 "[ $? -eq 0 ]"
  check installed_adapter_used \
    "grep -qx 'dmconf vectors run-onnx: adapter $tmp/prefix/share/dmconf/node' '$tmp/inst1.out'"
  # $DMCONF_NODE_ADAPTER_DIR, when set, is the one folder used (nothing to fall back on).
  DMCONF_NODE_ADAPTER_DIR="$tmp/nowhere" "$tmp/prefix/bin/dmconf" vectors run-onnx \
    "$g/types.d2s.blocks_first.f32.json" >"$tmp/inst2.out" 2>&1
  check env_adapter_only "[ $? -eq 2 ] && grep -q '$tmp/nowhere/run_onnx_tests.js not found' '$tmp/inst2.out'"

  # --install runs the project's script of the tree the adapter is in, then the run.
  tree="$tmp/tree"
  mkdir -p "$tree/scripts" "$tree/harness/backends/subprocess/node"
  printf '%s\n' 'console.log("run_onnx_tests: 0 passed, 0 failed, 0 unsupported, 0 known (F8)");' \
    >"$tree/harness/backends/subprocess/node/run_onnx_tests.js"
  cat >"$tree/scripts/install-optional-backends.sh" <<'EOF'
cd "$(dirname "$0")/../harness/backends/subprocess/node" || exit 1
[ "$1" = node ] || exit 2
for p in onnxruntime-node onnx-proto; do mkdir -p node_modules/$p && echo '{}' >node_modules/$p/package.json; done
echo "fake install done"
EOF
  "$dmconf" vectors run-onnx "$g/types.d2s.blocks_first.f32.json" --install \
    --adapter "$tree/harness/backends/subprocess/node" >"$tmp/install.out" 2>&1
  check install_exit_0 "[ $? -eq 0 ]"
  check install_ran_script "grep -q '^fake install done' '$tmp/install.out'"
  check install_then_ran "grep -q '^run-onnx (onnxruntime): 0 passed' '$tmp/install.out'"
fi

adapter="$src/harness/backends/subprocess/node"
if command -v node >/dev/null && [ -f "$adapter/node_modules/onnxruntime-node/package.json" ] &&
  [ -f "$adapter/node_modules/onnx-proto/package.json" ]; then
  # Six valid f32 cases ONNX expresses and ONNX Runtime implements, one SpaceToDepth
  # depth_first (skipped: ONNX's SpaceToDepth has no mode) and one must_reject case (skipped:
  # a node test holds an output): docs/vector-format.md, "ONNX node tests".
  set_files=()
  for f in types.b2s.f32 types.s2b.f32 types.d2s.blocks_first.f32 types.d2s.depth_first.f32 \
    types.s2d.blocks_first.f32 types.eip.valid.f32 types.s2d.depth_first.f32 \
    gen.negative.b2s.022; do
    set_files+=("$g/$f.json")
  done
  ls -d /tmp/dmconf-run-onnx-* 2>/dev/null | sort >"$tmp/tmp.before"
  "$dmconf" vectors run-onnx "${set_files[@]}" --runtime onnxruntime >"$tmp/ok.out" 2>&1
  check set_exit_0 "[ $? -eq 0 ]"
  ls -d /tmp/dmconf-run-onnx-* 2>/dev/null | sort >"$tmp/tmp.after"
  check set_temp_removed "[ -z \"\$(comm -13 '$tmp/tmp.before' '$tmp/tmp.after')\" ]"
  check set_totals "grep -qx 'run-onnx (onnxruntime): 6 passed, 0 failed, 0 unsupported, 0 known (F8); 2 skipped by the export' '$tmp/ok.out'"
  check set_lists_each "[ \$(grep -c '^passed ' '$tmp/ok.out') -eq 6 ]"

  # A wrong expected output is a failure: export one vector, flip the last byte of its
  # output_0.pb (raw_data is the TensorProto's last field), run the export folder.
  "$dmconf" vectors export-onnx "$g/types.d2s.blocks_first.f32.json" --out "$tmp/onnx" >/dev/null
  pb=$(ls "$tmp"/onnx/*/test_data_set_0/output_0.pb)
  python3 - "$pb" <<'EOF'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[-1] ^= 0x01
open(p, 'wb').write(b)
EOF
  "$dmconf" vectors run-onnx "$tmp/onnx" >"$tmp/bad.out" 2>&1
  check corrupt_exit_1 "[ $? -eq 1 ]"
  check corrupt_totals "grep -qx 'run-onnx (onnxruntime): 0 passed, 1 failed, 0 unsupported, 0 known (F8)' '$tmp/bad.out'"
  check corrupt_names_folder "grep -q '^FAILED      $tmp/onnx/test_dmconf_types_d2s_blocks_first_f32 (output bytes differ' '$tmp/bad.out'"
else
  echo "note: the Node adapter is not installed (scripts/install-optional-backends.sh node):" \
    "only the error paths were tested; CI (.ci/run) installs it and runs the route"
fi
exit $fail
