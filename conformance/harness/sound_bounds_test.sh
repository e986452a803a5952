#!/usr/bin/env bash
# Sound answers are no failure, however tight (docs/errata-partial.md, D-P1 / D-P6 / D-P9). A
# variant of shape_bug_plugin.c that is correct but answers bounds of its own for unbounded
# dims gets no failure and no loose_shape from the default `dmconf run` shape lane, and no
# finding from `dmconf fuzz` (SECONDS on each seed of SEEDS, "1,2,3") nor from the plugin_shape
# fuzz target (its random driver, when given). The variants:
#   openvino_bounds  OpenVINO's conventions: 2^63-1 for every unbounded upper bound and
#                    floor((2^63-1) / d) for [a, inf) / d
#   tight_bounds     the largest multiples below 2^63 where the oracle's own bound is not
#                    reached: an `unsound_shape` there would be a claim without an instance
#   sound_bounds_test.sh DMCONF PLUGIN SECONDS SEEDS [FUZZ_RANDOM]
set -uo pipefail
dmconf="$1"
plugin="$2"
secs="$3"
seeds="$4"
fuzz="${5:-}"
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
# dmconf fuzz (its shape lane beside the kernels), SECONDS per seed: no finding.
for seed in ${seeds//,/ }; do
  fout=$("$dmconf" fuzz --backend-lib "$plugin" --time "$secs" --seed "$seed" --timeout 10 \
    --failures "$tmp/dfind-$seed" 2>&1)
  if [ $? -ne 0 ] || grep -q '^FINDING' <<<"$fout" || ! grep -qE '^[1-9][0-9]* cases in' <<<"$fout"; then
    echo "FAIL: dmconf fuzz --seed $seed: $(grep -A3 '^FINDING' <<<"$fout" | head -12) $(tail -1 <<<"$fout")"
    fail=1
  else
    echo "ok   dmconf fuzz --seed $seed, $secs s: $(grep '^shape lane' <<<"$fout"); $(tail -1 <<<"$fout")"
  fi
done
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
