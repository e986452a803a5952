#!/usr/bin/env bash
# A vector or shape-case file whose expectation the oracle contradicts blames the file, not the
# backend: `dmconf run --vectors`, `dmconf vectors verify` and `dmconf shrink` list it as a file
# error `vector.expectation.contradicts_oracle` naming the file and the oracle's answer, judge
# none of its cases (the oracle gets no `wrong_values`, nothing is saved as a repro) and fail
# (exit 1; shrink: exit 2, nothing written). Files the oracle agrees with still run and pass.
#   contradicted_files_test.sh DMCONF SOURCE_DIR
set -uo pipefail
dmconf="$1"; src="$2"
source "$src/conformance/harness/check_lib.sh"
rule=vector.expectation.contradicts_oracle

mkdir "$tmp/set" "$tmp/good"
good="$src/vectors/golden/attrs.b2s.asymmetric_crops.json"
cp "$good" "$tmp/set/a-good.json"
cp "$good" "$tmp/good/a-good.json"
d2s="$src/vectors/golden/attrs.d2s.blocks_first.b3.json"
shape="$src/vectors/shapes/shape-static-b2s-valid-s1-i5.json"
python3 - "$d2s" "$shape" "$tmp/set" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
out = sys.argv[3]
# One output element changed (the oracle gives 9 at index 2).
v["expectation"]["output"]["data"][2] = 7
json.dump(v, open(out + "/b-element.json", "w"))
# The class changed: a valid case said to be refused.
v = json.load(open(sys.argv[1]))
v["expectation"] = {"kind": "must_reject", "rule": "d2s.block_size.divides"}
json.dump(v, open(out + "/c-class.json", "w"))
# A shape case whose stored output shape is wrong ([3, 24, 1] is right).
s = json.load(open(sys.argv[2]))
s["expected"]["output"] = [3, 25, 1]
json.dump(s, open(out + "/d-shape.json", "w"))
PY

for name in run vectors; do
  if [ "$name" = run ]; then cmd=(run --vectors "$tmp/set"); else cmd=(vectors verify "$tmp/set"); fi
  (cd "$tmp" && "$dmconf" "${cmd[@]}" --backend oracle --report "$tmp/$name.json" \
    --junit "$tmp/$name.xml" --failures "$tmp/fail-$name" >"$tmp/$name.out" 2>"$tmp/$name.err")
  code=$?
  [ "$code" -eq 1 ]; rc=$?; check_rc "$name: exit $code" $rc "want 1"
  for f in b-element c-class d-shape; do
    grep -q "ERROR $rule: $tmp/set/$f.json: " "$tmp/$name.err"; rc=$?
    check_rc "$name: $f.json listed on stderr with the rule" $rc "$(head -c 600 "$tmp/$name.err")"
  done
  python3 - "$tmp/$name.json" "$rule" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); rule = sys.argv[2]
errs = {e["file"].rsplit("/", 1)[-1]: e for e in r.get("file_errors", [])}
assert sorted(errs) == ["b-element.json", "c-class.json", "d-shape.json"], errs
for e in errs.values():
    assert e["rule"] == rule, e
m = errs["b-element.json"]["message"]
assert "output element 2: the file expects 7, the oracle gives 9" in m, m
m = errs["c-class.json"]["message"]
assert "the file expects must_reject (d2s.block_size.divides), the oracle says valid" in m, m
m = errs["d-shape.json"]["message"]
assert "[3,25,1]" in m.replace(" ", "") and "[3,24,1]" in m.replace(" ", ""), m
assert r["summary"]["file_errors"] == 3, r["summary"]
# Only the good file was judged, and it passed: no case of a contradicted file ran.
ids = [c["id"] for b in r["backends"] for c in b["cases"]]
assert len(ids) == 1 and "d2s" not in ids[0] and "shape" not in ids[0], ids
assert r["summary"]["new_failures"] == 0, r["summary"]
PY
  rc=$?; check_rc "$name: report: three file errors with the oracle's answers, no backend failure" $rc "report"
  grep -q "<error type=\"$rule\"" "$tmp/$name.xml"; rc=$?
  check_rc "$name: JUnit lists the error" $rc "$(grep -c error "$tmp/$name.xml")"
  [ ! -e "$tmp/fail-$name" ] || [ -z "$(find "$tmp/fail-$name" -name '*.json')" ]; rc=$?
  check_rc "$name: no repro saved for a contradicted file" $rc "$(find "$tmp/fail-$name" -name '*.json')"
  grep -q "wrong_values\|shape_wrong" "$tmp/$name.out"; rc=$((1 - $?))
  check_rc "$name: the oracle is not blamed" $rc "$(grep -m2 'wrong' "$tmp/$name.out")"
done

# The good file alone still passes both routes.
"$dmconf" run --vectors "$tmp/good" --backend oracle --quiet >"$tmp/g.out" 2>&1; rc=$?
check_rc "run: a file the oracle agrees with passes" $rc "$(tail -3 "$tmp/g.out")"
"$dmconf" vectors verify "$tmp/good" --backend oracle --quiet >"$tmp/g.out" 2>&1; rc=$?
check_rc "verify: a file the oracle agrees with passes" $rc "$(tail -3 "$tmp/g.out")"

# shrink: refused, naming the rule, nothing written.
for f in b-element c-class; do
  "$dmconf" shrink "$tmp/set/$f.json" --backend oracle >"$tmp/s.out" 2>&1; code=$?
  [ "$code" -eq 2 ]; rc=$?; check_rc "shrink $f: exit $code" $rc "want 2: $(cat "$tmp/s.out")"
  grep -q "$rule: $tmp/set/$f.json: " "$tmp/s.out"; rc=$?
  check_rc "shrink $f: names the rule and the file" $rc "$(cat "$tmp/s.out")"
  [ ! -e "$tmp/set/$f.min.json" ]; rc=$?
  check_rc "shrink $f: writes nothing" $rc "$tmp/set/$f.min.json exists"
done
"$dmconf" shrink "$tmp/good/a-good.json" --backend oracle >"$tmp/s.out" 2>&1; code=$?
[ "$code" -eq 1 ]; rc=$?; check_rc "shrink of a right file on the oracle: nothing to shrink (exit $code)" $rc "$(cat "$tmp/s.out")"

exit $fail
