#!/usr/bin/env bash
# A failure whose replays disagree is `flaky` (harness/shrink/replay.h): reported with its
# replay count and how many replays failed, a failure of the backend (exit 1), and never shrunk
# into a repro that claims determinism. A deterministic failure stays what it is and is shrunk.
# The plugin (flaky_plugin.c) answers wrong on every other call of run(), whatever the case.
#   flaky_test.sh DMCONF SOURCE_DIR ALTERNATING_PLUGIN ALWAYS_WRONG_PLUGIN
set -uo pipefail
dmconf="$1"; src="$2"; flaky="$3"; wrong="$4"
source "$src/conformance/harness/check_lib.sh"
case_file="$src/vectors/golden/attrs.d2s.blocks_first.b3.json"  # DepthToSpace f32 [1,18,2,1]

# run: every failing case is replayed before it is shrunk; all of them disagree.
"$dmconf" run --backend-lib "$flaky" --ops d2s --types f32 --count 30 --quiet \
  --report "$tmp/r.json" --junit "$tmp/r.xml" --failures "$tmp/fail" >"$tmp/run.out" 2>&1
code=$?
[ "$code" -eq 1 ]; rc=$?; check_rc "run, flaky plugin: exit $code" $rc "want 1: $(tail -3 "$tmp/run.out")"
python3 - "$tmp/r.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
cases = r["backends"][0]["cases"]
failing = [c for c in cases if c["failure"]]
assert failing, "no failing case"
flaky = [c for c in failing if c["verdict"] == "flaky"]
assert len(flaky) == len(failing), [c["verdict"] for c in failing]
for c in flaky:
    rp = c["replays"]
    assert rp["count"] == 3 and 1 <= rp["failed"] <= 2, rp
    assert rp["first_verdict"] == "wrong_values", rp
    assert "shrunk" not in c and "diagnosis" not in c, c
    assert c["detail"].startswith("flaky: wrong_values ("), c["detail"]
    assert "of 3 replays failed; another replay gave pass" in c["detail"], c["detail"]
assert r["summary"]["new_failures"] == len(flaky), r["summary"]
PY
rc=$?; check_rc "run: every failure is flaky, with its replays, not shrunk nor diagnosed" $rc "report"
grep -q '<failure type="flaky"' "$tmp/r.xml"; rc=$?; check_rc "run: JUnit names the verdict flaky" $rc "junit"
[ -z "$(find "$tmp/fail" -name '*.min.json')" ]; rc=$?
check_rc "run: no minimal case written" $rc "$(find "$tmp/fail" -name '*.min.json' | head -3)"
n_saved=$(find "$tmp/fail" -name '*.json' | wc -l)
n_flaky_notes=$(grep -l '"note": "flaky' -r "$tmp/fail" | wc -l)
[ "$n_saved" -gt 0 ] && [ "$n_saved" -eq "$n_flaky_notes" ]; rc=$?
check_rc "run: each saved case names the verdict flaky ($n_flaky_notes of $n_saved)" $rc "notes"
validator="$src/reports/validator/validate.js"
if [ -f "$src/reports/validator/node_modules/ajv/package.json" ]; then
  node "$validator" "$src/reports/dmconf-report-2.schema.json" "$tmp/r.json" >"$tmp/v.out" 2>&1
  rc=$?; check_rc "run: the report validates against its schema" $rc "$(head -5 "$tmp/v.out")"
fi
"$dmconf" report html "$tmp/r.json" -o "$tmp/r.html" >/dev/null 2>&1; rc=$?
check_rc "report html reads a report with flaky cases" $rc "exit $rc"

# run, deterministic plugin: wrong_values, replays agree, shrunk.
"$dmconf" run --backend-lib "$wrong" --ops d2s --types f32 --count 10 --quiet \
  --report "$tmp/w.json" --failures "$tmp/failw" >"$tmp/w.out" 2>&1
python3 - "$tmp/w.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
failing = [c for c in r["backends"][0]["cases"] if c["failure"]]
assert failing and all(c["verdict"] == "wrong_values" for c in failing), failing[:1]
assert all("replays" not in c for c in failing)
assert any("shrunk" in c for c in failing), "nothing shrunk"
PY
rc=$?; check_rc "run, deterministic plugin: wrong_values, shrunk, never flaky" $rc "report"

# shrink: the first run fails (call 1), replays 2-4 give pass, wrong, pass.
cp "$case_file" "$tmp/c.json"
"$dmconf" shrink "$tmp/c.json" --backend-lib "$flaky" >"$tmp/s.out" 2>&1; code=$?
[ "$code" -eq 1 ]; rc=$?; check_rc "shrink, flaky plugin: exit $code" $rc "want 1: $(cat "$tmp/s.out")"
grep -q "flaky: wrong_values (.*) at first, then 1 of 3 replays failed; another replay gave pass" \
  "$tmp/s.out"; rc=$?
check_rc "shrink: names flaky and the replay count" $rc "$(cat "$tmp/s.out")"
[ ! -e "$tmp/c.min.json" ]; rc=$?; check_rc "shrink: writes nothing" $rc "c.min.json exists"
"$dmconf" shrink "$tmp/c.json" --backend-lib "$wrong" >"$tmp/s.out" 2>&1; code=$?
[ "$code" -eq 0 ] && [ -f "$tmp/c.min.json" ] && grep -q "wrong_values kept" "$tmp/s.out"; rc=$?
check_rc "shrink, deterministic plugin: shrunk, exit $code" $rc "$(cat "$tmp/s.out")"

# fuzz: the finding is flaky and not shrunk.
"$dmconf" fuzz --backend-lib "$flaky" --time 3 --max-findings 1 --quiet --failures "$tmp/fz" \
  >"$tmp/f.out" 2>&1; code=$?
[ "$code" -eq 1 ]; rc=$?; check_rc "fuzz, flaky plugin: exit $code" $rc "want 1: $(tail -3 "$tmp/f.out")"
grep -q "^FINDING flaky .*" "$tmp/f.out" && grep -q "of 3 replays failed" "$tmp/f.out" &&
  ! grep -q "shrunk:" "$tmp/f.out"; rc=$?
check_rc "fuzz: the finding is flaky, not shrunk" $rc "$(head -5 "$tmp/f.out")"
"$dmconf" fuzz --backend-lib "$wrong" --time 3 --max-findings 1 --quiet --failures "$tmp/fw" \
  >"$tmp/f.out" 2>&1
grep -q "^FINDING wrong_values" "$tmp/f.out" && grep -q "shrunk:" "$tmp/f.out"; rc=$?
check_rc "fuzz, deterministic plugin: wrong_values, shrunk" $rc "$(head -5 "$tmp/f.out")"
# One name: fuzz saves findings under the plugin's declared name, as run does (measured before:
# a folder named after the library's path).
[ "$(ls "$tmp/fw")" = flaky ] && [ "$(ls "$tmp/fail")" = flaky ]; rc=$?
check_rc "fuzz and run save under the declared name" $rc "fuzz: $(ls "$tmp/fw"); run: $(ls "$tmp/fail")"

exit $fail
