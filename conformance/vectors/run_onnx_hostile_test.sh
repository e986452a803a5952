#!/usr/bin/env bash
# `dmconf vectors run-onnx` is as strict as `dmconf run` (docs/vector-format.md, "Running the
# node tests"; docs/bad-input.md):
# - nothing to run is refused: an empty folder, a folder whose only model.onnx is a FIFO, a
#   vector ONNX cannot express (onnx.run.empty, exit 2);
# - what the runtime would read is checked by stat first, with the limits of dmconf's ONNX
#   readers: a FIFO model or tensor, a 1 GiB model, a 300 MiB tensor (io.read,
#   io.read.too_large, exit 2, at once: each command runs under `timeout`);
# - with node on PATH (fake runtimes in the test's folder): its temporary folder is removed and
#   the runtime (and what it started) killed when dmconf gets SIGINT or SIGTERM or is killed
#   outright (SIGKILL); a runtime that dies or hangs is named with the test it was running.
# Usage: run_onnx_hostile_test.sh DMCONF SOURCE_DIR
set -uo pipefail
dmconf="$1"
src="$2"
source "$src/conformance/harness/check_lib.sh"
g="$src/vectors/golden"
one="$g/types.d2s.blocks_first.f32.json"
export TMPDIR="$tmp/tmpdir"  # run-onnx's temporary folders go here
mkdir -p "$TMPDIR"

# refused NAME RULE ARGS...: exit 2 within 30 s, the rule on stderr, no temporary folder left.
refused() {
  local name=$1 rule=$2
  shift 2
  timeout 30 "$dmconf" vectors run-onnx "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
  local rc=$?
  check "$name: exit 2 ($rc)" "[ $rc -eq 2 ]"
  check "$name: $rule" "grep -q '$rule' '$tmp/$name.err'"
  check "$name: no temporary folder left" "[ -z \"\$(ls -A '$TMPDIR')\" ]"
}

# A node-test folder: test_a with its three files, small and regular.
node_test() {  # DIR
  mkdir -p "$1/test_a/test_data_set_0"
  printf 'm' >"$1/test_a/model.onnx"
  printf 'i' >"$1/test_a/test_data_set_0/input_0.pb"
  printf 'o' >"$1/test_a/test_data_set_0/output_0.pb"
}

mkdir -p "$tmp/empty"
refused empty_folder 'onnx.run.empty: .*nothing to run' "$tmp/empty"
mkdir -p "$tmp/fifo_only/test_a"
mkfifo "$tmp/fifo_only/test_a/model.onnx"
refused fifo_model 'io.read: .*test_a/model.onnx: is a FIFO, not a regular file' "$tmp/fifo_only"
check "fifo_model: names the test folder" "grep -q '(node test $tmp/fifo_only/test_a; not run)' '$tmp/fifo_model.err'"
node_test "$tmp/fifo_tensor"
rm "$tmp/fifo_tensor/test_a/test_data_set_0/input_0.pb"
mkfifo "$tmp/fifo_tensor/test_a/test_data_set_0/input_0.pb"
refused fifo_tensor 'io.read: .*input_0.pb: is a FIFO' "$tmp/fifo_tensor"
node_test "$tmp/big_model"
truncate -s 1G "$tmp/big_model/test_a/model.onnx"  # sparse: no disk used
refused big_model 'io.read.too_large: .*model.onnx: 1073741824 bytes, above the limit of 65536 bytes' \
  "$tmp/big_model"
node_test "$tmp/big_tensor"
truncate -s 300M "$tmp/big_tensor/test_a/test_data_set_0/output_0.pb"
refused big_tensor 'io.read.too_large: .*output_0.pb: 314572800 bytes, above the limit of 268435456' \
  "$tmp/big_tensor"
refused nothing_expressible 'onnx.run.empty: ONNX can express none of the 1 vector(s)' \
  "$g/gen.negative.b2s.022.json"

if ! command -v node >/dev/null; then
  echo "note: node is not on PATH (scripts/install-deps.sh installs it): the signal and" \
    "runtime-death checks were not run"
  exit "$fail"
fi

# A fake runtime folder: run_onnx_tests.js as given, the two npm packages "installed".
fake_adapter() {  # DIR SCRIPT_TEXT
  mkdir -p "$1/node_modules/onnxruntime-node" "$1/node_modules/onnx-proto"
  echo '{}' >"$1/node_modules/onnxruntime-node/package.json"
  echo '{}' >"$1/node_modules/onnx-proto/package.json"
  printf '%s\n' "$2" >"$1/run_onnx_tests.js"
}

# A runtime that begins a test, starts a sleeper, notes its pid, and hangs.
fake_adapter "$tmp/hang" "const fs = require('fs');
console.log('test_dmconf_types_d2s_blocks_first_f32: begin');
const c = require('child_process').spawn('sleep', ['300'], {stdio: 'ignore'});
fs.writeFileSync(process.env.STARTED, process.pid + ' ' + c.pid);
setInterval(() => {}, 1000);"

# gone PIDS...: none of the processes is alive after at most 10 s (a zombie waiting for its
# new parent to reap it counts as gone).
gone() {
  for _ in $(seq 100); do
    local alive=0 state
    for p in "$@"; do
      state=$(ps -o stat= -p "$p" 2>/dev/null)
      [ -n "$state" ] && [ "${state#Z}" = "$state" ] && alive=1
    done
    [ "$alive" -eq 0 ] && return 0
    sleep 0.1
  done
  return 1
}
# empty_within DIR: DIR is empty after at most 10 s.
empty_within() {
  for _ in $(seq 100); do
    [ -z "$(ls -A "$1")" ] && return 0
    sleep 0.1
  done
  return 1
}

for sig in INT TERM KILL; do
  started="$tmp/started.$sig"
  # Through python3's exec, with the default dispositions (a shell's background job would
  # ignore SIGINT).
  STARTED="$started" python3 -c 'import os, signal, sys
for s in (signal.SIGINT, signal.SIGTERM): signal.signal(s, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' "$dmconf" vectors run-onnx "$one" --adapter "$tmp/hang" \
    --timeout 120 >"$tmp/sig.$sig.out" 2>&1 &
  pid=$!
  for _ in $(seq 300); do [ -s "$started" ] && break; sleep 0.1; done
  check "$sig: the runtime started" "[ -s '$started' ]"
  check "$sig: the temporary folder exists while it runs" "[ -n \"\$(ls -A '$TMPDIR')\" ]"
  kill -s "$sig" "$pid"
  { wait "$pid"; } 2>/dev/null  # (no job notice for the killed one)
  read -r runtime sleeper <"$started" || true
  check "$sig: the runtime and its sleeper are gone" "gone ${runtime:-0} ${sleeper:-0}"
  check "$sig: the temporary folder is removed" "empty_within '$TMPDIR'"
done

# A runtime that dies inside a test: the error names the test and the vector file it came from.
fake_adapter "$tmp/dies" "console.log('test_dmconf_types_d2s_blocks_first_f32: begin');
process.kill(process.pid, 'SIGKILL');"
timeout 60 "$dmconf" vectors run-onnx "$one" --adapter "$tmp/dies" >"$tmp/dies.out" 2>"$tmp/dies.err"
check "dies: exit 2" "[ $? -eq 2 ]"
check "dies: names the test it was running" \
  "grep -qF 'onnx.runtime.failed: node run_onnx_tests.js killed by SIGKILL (signal 9) before its totals line while running test_dmconf_types_d2s_blocks_first_f32 ($one)' '$tmp/dies.err'"

# A runtime that hangs in a test of a given folder: the timeout names that folder.
node_test "$tmp/given"
fake_adapter "$tmp/hang2" "console.log('test_a: begin'); setInterval(() => {}, 1000);"
timeout 60 "$dmconf" vectors run-onnx "$tmp/given" --adapter "$tmp/hang2" --timeout 1 \
  >"$tmp/hang2.out" 2>"$tmp/hang2.err"
check "hang: exit 2" "[ $? -eq 2 ]"
check "hang: names the test it was running" \
  "grep -qF 'onnx.runtime.timeout: the runtime did not finish in 1 s (--timeout) while running $tmp/given/test_a; killed' '$tmp/hang2.err'"
check "no temporary folder left" "[ -z \"\$(ls -A '$TMPDIR')\" ]"
exit "$fail"
