#!/usr/bin/env bash
# `dmconf report html` and `dmconf run --html` (and `report merge`, `report diff`) on good and bad input: the two pages of one run
# are byte-identical, and every malformed or hostile report is refused with exit status 2 and
# an error that names its rule (report.*, io.*), never a crash; a bad output path is refused
# and left untouched.
#   report_cli_test.sh DMCONF WORK_DIR
set -euo pipefail
dmconf="$1"; out="$2"
rm -rf "$out"; mkdir -p "$out"
status=0
"$dmconf" run --backend example,mutant.d2s_mode_swapped --ops DepthToSpace --count 20 --quiet \
  --report "$out/r.json" --html "$out/run.html" > "$out/run.txt" || status=$?
[ "$status" -eq 0 ] || { echo "dmconf run: exit status $status"; cat "$out/run.txt"; exit 1; }
grep -qx "html report: $out/run.html" "$out/run.txt"
[ "$("$dmconf" report html "$out/r.json" -o "$out/cli.html")" = "$out/cli.html" ]
cmp "$out/run.html" "$out/cli.html"

# expect RULE FILE [OUTPUT]: `report html` refuses FILE with exit status 2, naming RULE.
expect() {
  local rule="$1" file="$2" target="${3:-$out/bad.html}" rc=0
  "$dmconf" report html "$file" -o "$target" > "$out/stdout.txt" 2> "$out/stderr.txt" || rc=$?
  if [ "$rc" -ne 2 ]; then echo "$file: exit status $rc, expected 2"; cat "$out/stderr.txt"; exit 1; fi
  if ! grep -q "^dmconf report html: $rule" "$out/stderr.txt"; then
    echo "$file: expected rule $rule, got:"; cat "$out/stderr.txt"; exit 1
  fi
}
# edit NAME PYTHON: a copy of the report changed by a Python statement on `r`.
edit() {
  python3 -c "import json,sys; r=json.load(open(sys.argv[1])); $2; print(json.dumps(r))" \
    "$out/r.json" > "$out/$1.json"
}
expect io.read "$out/missing.json"
expect io.read "$out"
printf '{"format": ' > "$out/truncated.json"; expect report.json.syntax "$out/truncated.json"
printf '[]' > "$out/array.json"; expect report.field.type "$out/array.json"
sed 's|"dmconf-report/2"|"dmconf-report/1"|' "$out/r.json" > "$out/old.json"
expect report.format "$out/old.json"
sed '0,/"format": /s//"format": "x", "format": /' "$out/r.json" > "$out/dup.json"
expect report.duplicate_key "$out/dup.json"
edit nobackends 'del r["backends"]'; expect report.field.missing "$out/nobackends.json"
edit failure 'r["backends"][0]["cases"][0]["failure"] = "yes"'
expect report.field.type "$out/failure.json"
grep -q '/backends/0/cases/0/failure' "$out/stderr.txt"
edit verdict 'r["backends"][0]["cases"][0]["verdict"] = "passed"'
expect report.verdict.unknown "$out/verdict.json"
edit counts 'r["backends"][0]["counts"]["DepthToSpace"]["f32"] = {"pass": -1}'
expect report.field.type "$out/counts.json"
edit listed '[c for b in r["backends"] for c in b["cases"] if "mismatch" in c][0]["mismatch"]["listed"][0] = [1, 2]'
expect report.field.type "$out/listed.json"
edit shape '[c for b in r["backends"] for c in b["cases"] if "mismatch" in c][0]["mismatch"]["shape"] = ["<b>"]'
expect report.field.type "$out/shape.json"
edit matrix 'r["backends"][0]["status_matrix"][0]["rank"] = "<b>"'
expect report.field.type "$out/matrix.json"
grep -q '/backends/0/status_matrix/0/rank' "$out/stderr.txt"
# A source map (planted on a failing case: mutants are not shrunk) of the wrong type, and one
# whose holds and expected differ in length.
plant='c = [c for b in r["backends"] for c in b["cases"] if "mismatch" in c][0]; c["shrunk"] = {"id": "x", "from_elements": 8, "to_elements": 8, "attempts": 1, "budget_exhausted": False, "source_map": {"shape": [2], "input_shape": [2], "holds": [1, 0], "expected": [0, 1]}}; m = c["shrunk"]["source_map"]'
edit srcmap_ok "$plant"
[ "$("$dmconf" report html "$out/srcmap_ok.json" -o "$out/srcmap.html")" = "$out/srcmap.html" ]
edit srcmap_type "$plant; m[\"holds\"] = [\"<b>\", 0]"
expect report.field.type "$out/srcmap_type.json"
edit srcmap_length "$plant; m[\"expected\"] = [0]"
expect report.field.value "$out/srcmap_length.json"
# Bad targets: a folder and a device are refused and left as they were.
mkdir -p "$out/folder"
expect io.write.not_regular "$out/r.json" "$out/folder"
expect io.write.not_regular "$out/r.json" /dev/null
[ -c /dev/null ]
# report merge reads reports with the same checks.
rc=0; "$dmconf" report merge "$out/r.json" "$out/verdict.json" -o "$out/m.json" 2> "$out/stderr.txt" || rc=$?
[ "$rc" -eq 2 ] && grep -q '^dmconf report merge: report.verdict.unknown' "$out/stderr.txt" ||
  { echo "report merge of a bad report: exit status $rc"; cat "$out/stderr.txt"; exit 1; }
[ ! -e "$out/m.json" ]
# One reader for the three commands: a report they cannot take (an op dmconf does not know, a
# negative slice count, a shard that is not K/N) is refused by html, merge and diff alike, with
# the same message.
edit badop 'r["backends"][0]["cases"][0]["op"] = "Transpose"'
edit badslice 'r["backends"][0]["slices"][0]["ran"] = -1'
edit badshard 'r["options"]["shard"] = "3/2"'
for bad in badop:/cases/0/op badslice:/slices/0/ran badshard:/options/shard; do
  file="$out/${bad%%:*}.json"; where="${bad#*:}"
  rc=0; "$dmconf" report html "$file" -o "$out/x.html" 2> "$out/html.err" || rc=$?
  [ "$rc" -eq 2 ] && grep -q "^dmconf report html: report.field.value: .*$where" "$out/html.err" ||
    { echo "report html $bad: exit status $rc"; cat "$out/html.err"; exit 1; }
  msg=$(sed 's/^dmconf report html: //' "$out/html.err")
  rc=0; "$dmconf" report merge "$file" -o "$out/x.json" 2> "$out/merge.err" || rc=$?
  [ "$rc" -eq 2 ] && [ "$(cat "$out/merge.err")" = "dmconf report merge: $msg" ] ||
    { echo "report merge $bad: exit status $rc"; cat "$out/merge.err"; exit 1; }
  rc=0; "$dmconf" report diff "$out/r.json" "$file" > /dev/null 2> "$out/diff.err" || rc=$?
  [ "$rc" -eq 2 ] && [ "$(cat "$out/diff.err")" = "dmconf report diff: $msg" ] ||
    { echo "report diff $bad: exit status $rc"; cat "$out/diff.err"; exit 1; }
done
# A case's expected class and lane are names from one list each: others are refused by rule.
edit expected 'r["backends"][0]["cases"][0]["expected"] = "invalid"'
edit lane 'r["backends"][0]["cases"][0]["lane"] = "shape"'
for bad in expected:case.expected.known lane:case.lane.known; do
  rc=0; "$dmconf" report merge "$out/${bad%%:*}.json" -o "$out/m.json" 2> "$out/stderr.txt" || rc=$?
  [ "$rc" -eq 2 ] && grep -q "report.field.value: .*/cases/0/${bad%%:*}: ${bad#*:}: " "$out/stderr.txt" ||
    { echo "report merge of a case with a bad ${bad%%:*}: exit status $rc"; cat "$out/stderr.txt"; exit 1; }
  [ ! -e "$out/m.json" ]
done
# No report, no output: usage errors.
for args in "" "$out/r.json"; do
  rc=0; "$dmconf" report html $args > /dev/null 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || { echo "report html $args: exit status $rc, expected 2"; exit 1; }
done
# The cap on embedded failing cases: an integer in [0, 2^31-1], else a usage error by rule
# before anything is read or written; 0 embeds none (the counts stay).
for bad in -1 2.5 x 2147483648; do
  rc=0; "$dmconf" report html "$out/r.json" -o "$out/cap.html" --max-failures "$bad" \
      > /dev/null 2> "$out/stderr.txt" || rc=$?
  [ "$rc" -eq 2 ] && grep -q "cli.integer: '$bad' is not an integer" "$out/stderr.txt" &&
    [ ! -e "$out/cap.html" ] ||
    { echo "report html --max-failures $bad: exit status $rc"; cat "$out/stderr.txt"; exit 1; }
  rc=0; "$dmconf" run --backend oracle --count 1 --html "$out/cap.html" \
      --html-max-failures "$bad" > /dev/null 2> "$out/stderr.txt" || rc=$?
  [ "$rc" -eq 2 ] && grep -q "cli.integer: '$bad' is not an integer" "$out/stderr.txt" &&
    [ ! -e "$out/cap.html" ] ||
    { echo "run --html-max-failures $bad: exit status $rc"; cat "$out/stderr.txt"; exit 1; }
done
"$dmconf" report html "$out/r.json" -o "$out/cap.html" --max-failures 0 > /dev/null
grep -q '"embedded":{"cap":0,"embedded":0,' "$out/cap.html" ||
  { echo "report html --max-failures 0: the page does not embed 0 cases"; exit 1; }
echo "report_cli_test: ok"
