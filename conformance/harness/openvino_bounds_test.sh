#!/usr/bin/env bash
# OpenVINO's interval conventions for unbounded dims are no failure (docs/errata-partial.md,
# D-P1 / D-P9): shape_bug_plugin.c's openvino_bounds variant, correct but answering 2^63-1 for
# every unbounded upper bound and floor((2^63-1) / d) for [a, inf) / d, gets no failure and
# no loose_shape from the default `dmconf run` shape lane, and no finding from 60 s of
# `dmconf fuzz` nor from the plugin_shape fuzz target (its random driver, when built).
#   openvino_bounds_test.sh DMCONF PLUGIN [FUZZ_RANDOM]
set -uo pipefail
dmconf="$1"
plugin="$2"
fuzz="${3:-}"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
out=$("$dmconf" run --backend-lib "$plugin" --report "$tmp/r.json" --failures "$tmp/fail" 2>&1)
rc=$?
lane=$(grep -m1 -o 'shape inference: .*' <<<"$out")
if [ "$rc" -ne 0 ] || [ -z "$lane" ] || grep -q 'unsound_shape\|loose_shape\|invalid_answer' <<<"$lane"; then
  echo "FAIL: dmconf run exit $rc: ${lane:-no shape lane}"
  grep -m5 'unsound_shape\|loose_shape' <<<"$out"
  fail=1
else
  echo "ok   dmconf run: $lane"
fi
# dmconf fuzz (its shape lane beside the kernels), 60 s: no finding.
fout=$("$dmconf" fuzz --backend-lib "$plugin" --time 60 --timeout 10 --failures "$tmp/dfind" 2>&1)
if [ $? -ne 0 ] || grep -q '^FINDING' <<<"$fout" || ! grep -qE '^[1-9][0-9]* cases in' <<<"$fout"; then
  echo "FAIL: dmconf fuzz: $(grep -A2 '^FINDING' <<<"$fout" | head -12) $(tail -1 <<<"$fout")"
  fail=1
else
  echo "ok   dmconf fuzz: $(tail -1 <<<"$fout")"
fi
if [ -n "$fuzz" ] && [ -x "$fuzz" ]; then
  fout=$(DMCONF_FUZZ_PLUGIN="$plugin" DMCONF_FUZZ_FINDINGS="$tmp/find" "$fuzz" 20 1 2>&1)
  if [ $? -ne 0 ]; then
    echo "FAIL: the plugin_shape fuzz target: $(tail -5 <<<"$fout")"
    fail=1
  else
    echo "ok   plugin_shape fuzz target: $(tail -1 <<<"$fout")"
  fi
fi
exit "$fail"
