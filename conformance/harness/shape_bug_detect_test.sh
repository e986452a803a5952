#!/usr/bin/env bash
# Detection power on seeded shape-inference bugs (shape_bug_plugin.c, one library per
# variant): every buggy variant must be caught with its verdict class (shape_bug_table.sh),
# within 60 s each, (a) by `dmconf run`'s shape-inference lane (by at least
# $shape_bug_min_cases cases) and (b) by the plugin_shape fuzz target (its
# libFuzzer-free random driver), whose saved finding must replay through `dmconf run --vectors`
# with the same verdict. The correct variant and the example plugin produce no failure; the
# OpenVINO-like variant ("?" wherever OpenVINO answers it) is loose_shape, never unsound_shape,
# and fails only under --strict-shapes.
#   shape_bug_detect_test.sh FUZZ_RANDOM DMCONF NAME=LIBRARY...
set -uo pipefail
fuzz="$1"
dmconf="$2"
shift 2
source "$(dirname "$0")/shape_bug_table.sh"
shape_bug_args "$@" && [ "${#want[@]}" -eq "$shape_bug_count" ] || { echo "FAIL: shape_bug_table.sh not read"; exit 1; }
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

# run NAME [extra options]: runs dmconf on the variant; sets $out (stdout + stderr), $rc, $secs.
run() {
  local name="$1"
  shift
  local start=$SECONDS
  out=$("$dmconf" run --backend-lib "${lib[$name]}" --report "$tmp/$name.json" \
    --junit "$tmp/$name.xml" --failures "$tmp/fail-$name" "$@" 2>&1)
  rc=$?
  secs=$((SECONDS - start))
}
# The summary's shape-lane line: "shape inference: N cases (...): pass P, wrong_shape W, ...".
lane_line() { grep -m1 -o 'shape inference: .*' <<<"$out"; }
count_of() {  # count_of CLASSES: their count in the shape-lane line (0 when absent)
  shape_bug_count_in "$(lane_line)" "$1"
}

for name in "${!want[@]}"; do
  v="${want[$name]}"
  # (a) dmconf run.
  run "$name"
  n=$(count_of "$v")
  if [ "$rc" -ne 1 ] || [ "$n" -lt "$shape_bug_min_cases" ]; then
    bad "$name: dmconf run exit $rc, $v count $n ($(lane_line))"
  elif [ "$secs" -gt 60 ]; then
    bad "$name: dmconf run took $secs s (limit 60)"
  else
    echo "ok   $name: dmconf run caught it as $v ($n cases, $secs s)"
  fi
  # (b) the fuzz target, then the replay of what it saved.
  start=$SECONDS
  fout=$(DMCONF_FUZZ_PLUGIN="${lib[$name]}" DMCONF_FUZZ_FINDINGS="$tmp/find-$name" \
    "$fuzz" 60 1 2>&1)
  frc=$?
  fsecs=$((SECONDS - start))
  got=$(grep -m1 -o 'plugin_shape finding: [a-z_]*' <<<"$fout" | awk '{print $3}')
  file=$(grep -m1 -o -- '--vectors [^ ]*\.json' <<<"$fout" | awk '{print $2}')
  if [ "$frc" -ne 1 ] || ! shape_bug_is "$got" "$v"; then
    bad "$name: fuzz exit $frc, first finding '$got', want $v: $(tail -3 <<<"$fout")"
  elif [ "$fsecs" -gt 60 ]; then
    bad "$name: the fuzz target took $fsecs s (limit 60)"
  elif [ -z "$file" ] || [ ! -f "$file" ]; then
    bad "$name: the fuzz finding names no saved file: $fout"
  else
    run "$name" --vectors "$file"
    if [ "$rc" -ne 1 ] || [ "$(count_of "$got")" -ne 1 ]; then
      bad "$name: replaying $file: exit $rc, $(lane_line)"
    else
      echo "ok   $name: fuzz target found $got in $fsecs s; its saved case replays as $got"
    fi
  fi
done

# Correct implementations: no failure from either tool.
for name in correct example; do
  run "$name"
  if [ "$rc" -ne 0 ] || [ "$(count_of unsound_shape)" -ne 0 ] || [ "$(count_of loose_shape)" -ne 0 ]; then
    bad "$name: dmconf run exit $rc: $(lane_line)"
  else
    echo "ok   $name: dmconf run passes ($(lane_line))"
  fi
  fout=$(DMCONF_FUZZ_PLUGIN="${lib[$name]}" DMCONF_FUZZ_FINDINGS="$tmp/find-$name" \
    "$fuzz" 20 1 2>&1)
  [ $? -eq 0 ] && echo "ok   $name: fuzz target, $(tail -1 <<<"$fout")" || bad "$name: fuzz: $fout"
done

# OpenVINO-like: loose, never unsound; a failure only with --strict-shapes.
run openvino_like
loose=$(count_of loose_shape)
if [ "$rc" -ne 0 ] || [ "$loose" -eq 0 ] || [ "$(count_of unsound_shape)" -ne 0 ]; then
  bad "openvino_like: dmconf run exit $rc: $(lane_line)"
else
  echo "ok   openvino_like: $loose loose_shape, 0 unsound_shape, exit 0"
fi
run openvino_like --strict-shapes
[ "$rc" -eq 1 ] && echo "ok   openvino_like: --strict-shapes fails it (exit 1)" ||
  bad "openvino_like: --strict-shapes exit $rc"
fout=$(DMCONF_FUZZ_PLUGIN="${lib[openvino_like]}" DMCONF_FUZZ_FINDINGS="$tmp/find-ov" \
  "$fuzz" 20 1 2>&1)
[ $? -eq 0 ] && echo "ok   openvino_like: fuzz target, $(tail -1 <<<"$fout")" ||
  bad "openvino_like: fuzz: $fout"

[ "$fail" -eq 0 ] && echo "all shape-bug checks passed"
exit "$fail"
