#!/usr/bin/env bash
# Validates reports produced by `dmconf run` (and the checked-in example report) against
# reports/dmconf-report-2.schema.json with Ajv, and checks that a broken report is rejected and
# that the JUnit XML is well-formed.
#   report_schema_test.sh DMCONF SOURCE_DIR WORK_DIR SKIPS_PADDING_PLUGIN
# Exit status 77 (skipped) when Ajv could not be installed (no access to the npm registry).
set -euo pipefail
dmconf="$1"; src="$2"; out="$3"; skips_padding="$4"
validator="$src/reports/validator/validate.js"
schema="$src/reports/dmconf-report-2.schema.json"
if [ ! -f "$src/reports/validator/node_modules/ajv/package.json" ]; then
  echo "report_schema_test: Ajv is not installed (scripts/install-report-validator.sh failed?)"
  exit 77
fi
rm -rf "$out"; mkdir -p "$out"
cat > "$out/known.json" <<'JSON'
{"format": "dmconf-expectations/1",
 "known_failures": [{"backend": "mutant.d2s_mode_swapped", "case": "example/*",
                     "reason": "listed to exercise the known-failure fields",
                     "link": "https://example.org/issue/1"}]}
JSON
# Passes, failures with diagnoses, a known failure, unsupported cases and crashes.
status=0
"$dmconf" run --backend oracle,example,mutant.d2s_mode_swapped,fault-crash --count 40 \
  --timeout 2 --quiet --expectations "$out/known.json" --report "$out/report.json" \
  --junit "$out/junit.xml" > "$out/run.txt" || status=$?
[ "$status" -eq 1 ] || { echo "expected exit status 1 (new failures), got $status"; exit 1; }
grep -q '"verdict": "crash"' "$out/report.json"
grep -q '"known": {' "$out/report.json"
grep -q '"diagnosis": {' "$out/report.json"
# New failures are shrunk by default: the report lists the minimal case beside the original.
grep -q '"shrunk": {' "$out/report.json"
grep -q '"invocation": {' "$out/report.json"
grep -q '"listed": \[' "$out/report.json"
# A mutation report.
"$dmconf" run --backend mutants --ops DepthToSpace --count 20 --timeout 0.5 --quiet \
  --report "$out/mutants.json" > "$out/mutants.txt" || true
grep -q '"mutation": {' "$out/mutants.json"
# Shrunk wrong outputs (a plugin that leaves SpaceToBatch's padding unwritten): the minimal case
# carries its own diagnosis (shrunk.diagnosis), printed beside the original's in the text
# summary and the JUnit XML.
"$dmconf" run --backend-lib "$skips_padding" --ops s2b --count 20 --quiet \
  --report "$out/shrunk.json" --junit "$out/shrunk.xml" > "$out/shrunk.txt" 2>&1 || true
python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if any("diagnosis" in c.get("shrunk", {}) for b in r["backends"] for c in b["cases"]) else 1)' \
  "$out/shrunk.json" || { echo "no shrunk.diagnosis in the report"; exit 1; }
grep -q 'shrunk diagnosis: ' "$out/shrunk.txt" || { echo "no shrunk diagnosis in the summary"; exit 1; }
grep -q 'shrunk diagnosis: ' "$out/shrunk.xml" || { echo "no shrunk diagnosis in the JUnit XML"; exit 1; }
# A report with an unreadable vector file (file_errors).
mkdir -p "$out/set"
good="$src/vectors/golden/attrs.b2s.asymmetric_crops.json"
cp "$good" "$out/set/good.json"
python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); v["op"]=17; print(json.dumps(v))' \
  "$good" > "$out/set/bad.json"
"$dmconf" run --backend oracle --vectors "$out/set" --quiet --report "$out/file-errors.json" \
  > "$out/file-errors.txt" 2>&1 || true
grep -q '"file_errors": \[' "$out/file-errors.json"
node "$validator" "$schema" "$out/report.json" "$out/mutants.json" "$out/file-errors.json" \
  "$out/shrunk.json" \
  "$src/reports/example-report.json"
# The validator is not a rubber stamp: a report with a wrong format tag or verdict fails.
sed 's|"dmconf-report/2"|"dmconf-report/1"|' "$out/report.json" > "$out/bad1.json"
sed '0,/"verdict": "pass"/s//"verdict": "passed"/' "$out/report.json" > "$out/bad2.json"
for bad in "$out/bad1.json" "$out/bad2.json"; do
  if node "$validator" "$schema" "$bad" > "$out/bad.txt"; then
    echo "report_schema_test: $bad was accepted"; exit 1
  fi
done
python3 -c "import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])" "$out/junit.xml"
echo "report_schema_test: ok"
