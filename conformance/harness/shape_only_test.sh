#!/usr/bin/env bash
# A plugin with shape inference and no kernels (run is NULL: shape_bug_plugin.c built with
# SHAPE_ONLY) loads; `dmconf run` runs its shape lane and reports its kernel lane as "not
# provided": no kernel case, no declared slice, no bare "OK" line; a shape bug still fails
# the run, and each unsound_shape failure names its witness instance (report, saved static case).
# `dmconf fuzz` fuzzes its shape lane (the kernel lane: not provided) and prints the witness.
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
  ! grep -qE '^FAILED \(shape inference only; kernel lane not provided by shape-bug\)' <<<"$out" ||
  ! grep -qE '^     witness: data \[[0-9,]*\].*; as a static case: dmconf run .*\.witness\.json' <<<"$out"; then
  bad "buggy: dmconf run exit $rc: $(tail -4 <<<"$out")"
else
  echo "ok   buggy: dmconf run fails on unsound_shape; its cards name the witness"
fi

# Every unsound_shape failure carries its proof (harness/compare/shape_judge.h): a witness
# whose data dims lie in the partial case's intervals and whose output the backend's answer
# leaves out, checked here from the saved partial case and the answer in the detail; the
# witness is saved as a static shape case that the oracle backend runs and passes.
python3 - "$tmp/b.json" "$tmp/witnesses" <<'PY' || fail=1
import json, re, sys
cases = [c for c in json.load(open(sys.argv[1]))["backends"][0]["cases"]
         if c["verdict"] == "unsound_shape" and c["failure"]]
def inside(v, d):  # one dim of a saved partial case: n, [lo, hi] or [lo, null]
    if isinstance(d, int):
        return v == d
    return v >= d[0] and (d[1] is None or v <= d[1])
def answer_dims(text):  # PartialShape::ToString: [n, ?, [lo,hi], [lo,inf)]
    return [(int(lo), None if hi == "inf" else int(hi)) if lo else
            ((0, None) if q else (int(n), int(n)))
            for lo, hi, q, n in re.findall(r"\[(\d+),(\d+|inf)[\])]|(\?)|(\d+)", text[1:-1])]
def answer_has(a, v):
    return v >= a[0] and (a[1] is None or v <= a[1])
bad, proved = [], 0
files = []
for c in cases:
    w = c.get("witness")
    if not w or not w.get("case_file") or not w.get("repro"):
        bad.append("%s: no witness with a saved case" % c["id"]); continue
    f = json.load(open(w["case_file"]))
    partial = json.load(open(c["vector_file"]))
    dims, pdims = f["data"]["shape"], partial["data"].get("shape")
    if not all(isinstance(d, int) for d in dims) or f["expected"]["kind"] != "shape" \
            or f["expected"]["output"] != w["output"]:
        bad.append("%s: the witness file is no static case with output %s" % (c["id"], w["output"]))
        continue
    if isinstance(pdims, list) and (len(pdims) != len(dims) or
                                    not all(inside(v, d) for v, d in zip(dims, pdims))):
        bad.append("%s: witness data %s is no instance of %s" % (c["id"], dims, pdims)); continue
    if ("data [%s]" % ",".join(map(str, dims))) not in w["instance"]:
        bad.append("%s: instance text %r does not name data %s" % (c["id"], w["instance"], dims))
        continue
    d = c["detail"]
    if d.startswith("answered [") and ", but the accepted instance" in d:
        text = d[len("answered "):d.index(", but the accepted instance")]
        ans, out = answer_dims(text), w["output"]
        if len(ans) == len(out) and all(answer_has(a, v) for a, v in zip(ans, out)):
            bad.append("%s: witness output %s lies inside the answer %s" % (c["id"], out, text))
            continue
        proved += 1
    files.append(w["case_file"])
if not cases or bad:
    print("FAIL: unsound_shape witnesses (%d cases): %s" % (len(cases), bad[:3])); sys.exit(1)
open(sys.argv[2], "w").write("\n".join(files) + "\n")
print("ok   buggy: %d unsound_shape cases, each with a witness instance of its partial case "
      "(%d outside the answer as read from the detail), saved as a static case" % (len(cases), proved))
PY
if [ -s "$tmp/witnesses" ]; then
  mapfile -t wfiles <"$tmp/witnesses"
  vargs=()
  for w in "${wfiles[@]}"; do vargs+=(--vectors "$w"); done
  if ! o=$("$dmconf" run --backend oracle "${vargs[@]}" --quiet 2>&1); then
    bad "the oracle backend fails the saved witnesses: $(tail -3 <<<"$o")"
  else
    echo "ok   the oracle backend passes the ${#wfiles[@]} saved witness cases"
  fi
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
if [ "$rc" -ne 1 ] || ! grep -q '^FINDING unsound_shape (shape_partial)' <<<"$out" ||
  ! grep -qE '^     witness: data \[[0-9,]*\].*: output \[' <<<"$out" ||
  ! grep -qE '^     witness repro: dmconf run .*--vectors .*\.witness\.json' <<<"$out"; then
  bad "buggy: dmconf fuzz exit $rc: $(tail -4 <<<"$out")"
else
  echo "ok   buggy: dmconf fuzz finds unsound_shape, with its witness and the witness's repro"
fi

[ "$fail" -eq 0 ] && echo "all shape-only checks passed"
exit "$fail"
