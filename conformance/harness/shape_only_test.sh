#!/usr/bin/env bash
# A plugin with shape inference and no kernels (run is NULL: shape_bug_plugin.c built with
# SHAPE_ONLY) loads; `dmconf run` runs its shape lane and reports its kernel lane as "not
# provided": no kernel case, no declared slice, no bare "OK" line; a shape bug still fails
# the run. `dmconf fuzz` fuzzes its shape lane (the kernel lane: not provided).
#   shape_only_test.sh DMCONF CORRECT_LIB BUGGY_LIB   (BUGGY: ceil_off_by_one, unsound_shape)
set -uo pipefail
dmconf="$1" correct="$2" buggy="$3"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

out=$("$dmconf" run --backend-lib "$correct" --count 20 --shape-count 40 --quiet \
  --report "$tmp/r.json" --failures "$tmp/f" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '^   kernel lane: not provided' <<<"$out" ||
  ! grep -qE '^   shape inference: [1-9][0-9]* cases .*: pass [1-9]' <<<"$out" ||
  ! grep -qE '^OK \(shape inference only; kernel lane not provided by shape-bug\): 0 new failure' <<<"$out" ||
  grep -q '^OK:' <<<"$out"; then
  bad "correct: dmconf run exit $rc: $(tail -5 <<<"$out")"
else
  echo "ok   correct: dmconf run passes its shape lane, kernel lane not provided"
fi
python3 - "$tmp/r.json" <<'PY' || fail=1
import json, sys
b = json.load(open(sys.argv[1]))["backends"][0]
lanes = {c.get("lane", "") for c in b["cases"]}
if b["capabilities"].get("kernels") is not False or "" in lanes or b["slices"] != [] \
        or not b["cases"]:
    print("FAIL: the report must show kernels false, shape cases only, no slice:",
          b["capabilities"].get("kernels"), sorted(lanes), b["slices"][:1])
    sys.exit(1)
print("ok   correct: report capabilities.kernels false, %d shape cases, no kernel case"
      % len(b["cases"]))
PY
# The report (capabilities.kernels false, no slice) validates against the schema, when Ajv is
# installed (scripts/install-report-validator.sh).
src=$(cd "$(dirname "$0")/../.." && pwd)
if [ -f "$src/reports/validator/node_modules/ajv/package.json" ]; then
  if ! v=$(node "$src/reports/validator/validate.js" "$src/reports/dmconf-report-2.schema.json" \
    "$tmp/r.json" 2>&1); then
    bad "the shape-only report is not valid: $v"
  else
    echo "ok   correct: the report validates against the schema"
  fi
else
  echo "(Ajv not installed: the report was not validated)"
fi

out=$("$dmconf" run --backend-lib "$buggy" --count 20 --shape-count 40 --quiet \
  --failures "$tmp/fb" --report "$tmp/b.json" --junit "$tmp/b.xml" 2>&1)
rc=$?
# Each shape failure's card names its inputs and attributes, partial dims as written.
if ! grep -qE '^     case: .*; data [a-z0-9]+ [0-9?.,]*([0-9]\.\.|\?)' <<<"$out" ||
  ! grep -qE 'case: .*; data [a-z0-9]+ [0-9?.,]*([0-9]\.\.|\?)' "$tmp/b.xml" ||
  ! python3 -c "import json,sys; cs=[c for c in json.load(open(sys.argv[1]))['backends'][0]['cases'] if c['failure']]; sys.exit(not cs or not all(c['invocation']['inputs'][0]['partial_shape'] for c in cs))" "$tmp/b.json"; then
  bad "buggy: shape failure cards lack the case's inputs (summary, JUnit or report)"
else
  echo "ok   buggy: shape failure cards show inputs as written (summary, JUnit, report)"
fi
if [ "$rc" -ne 1 ] || ! grep -qE '^   shape inference: .*unsound_shape [1-9]' <<<"$out" ||
  ! grep -qE '^FAILED \(shape inference only; kernel lane not provided by shape-bug\)' <<<"$out"; then
  bad "buggy: dmconf run exit $rc: $(tail -4 <<<"$out")"
else
  echo "ok   buggy: dmconf run fails on unsound_shape"
fi

out=$("$dmconf" fuzz --backend-lib "$correct" --time 5 --quiet --failures "$tmp/fz" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '^kernel lane: not provided' <<<"$out" ||
  ! grep -q '^shape lane: [1-9][0-9]* cases' <<<"$out"; then
  bad "correct: dmconf fuzz exit $rc: $(tail -4 <<<"$out")"
else
  echo "ok   correct: dmconf fuzz, $(grep '^shape lane' <<<"$out")"
fi
out=$("$dmconf" fuzz --backend-lib "$buggy" --time 30 --max-findings 1 --quiet \
  --failures "$tmp/fzb" 2>&1)
rc=$?
if [ "$rc" -ne 1 ] || ! grep -q '^FINDING unsound_shape (shape_partial)' <<<"$out"; then
  bad "buggy: dmconf fuzz exit $rc: $(tail -4 <<<"$out")"
else
  echo "ok   buggy: dmconf fuzz finds unsound_shape"
fi

[ "$fail" -eq 0 ] && echo "all shape-only checks passed"
exit "$fail"
