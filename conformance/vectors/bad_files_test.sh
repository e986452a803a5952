#!/usr/bin/env bash
# One bad file does not stop a vector run: `dmconf run --vectors` and `dmconf vectors verify`
# list it (rule, location, file) on stderr, in the summary, the JSON report and JUnit, run the
# other files, write the reports, exit 1, and never echo raw control bytes. A manifest entry
# that leaves its folder is named in the error.
#   bad_files_test.sh DMCONF SOURCE_DIR
set -uo pipefail
dmconf="$1"; src="$2"
source "$src/conformance/harness/check_lib.sh"

mkdir "$tmp/set"
cp "$src/vectors/golden/attrs.b2s.asymmetric_crops.json" "$tmp/set/a-good.json"
cp "$src/vectors/golden/attrs.d2s.blocks_first.b3.json" "$tmp/set/c-good.json"
# A wrong member type, with a NUL and an escape sequence in the id.
python3 - "$tmp/set/a-good.json" "$tmp/set/b-bad.json" <<'PY'
import json, sys
v = json.load(open(sys.argv[1]))
v["id"] = "bad\u0000id\u001b[31m"
v["op"] = 17
open(sys.argv[2], "w").write(json.dumps(v))
PY

for name in run vectors; do
  if [ "$name" = run ]; then cmd=(run --vectors "$tmp/set"); else cmd=(vectors verify "$tmp/set"); fi
  "$dmconf" "${cmd[@]}" --backend oracle --report "$tmp/$name.json" --junit "$tmp/$name.xml" --quiet \
    >"$tmp/$name.out" 2>"$tmp/$name.err"
  code=$?
  [ "$code" -eq 1 ]; rc=$?; check_rc "$name: exit $code" $rc "want 1"
  grep -q 'ERROR .*b-bad.json' "$tmp/$name.err"; rc=$?
  check_rc "$name: the bad file is listed on stderr" $rc "$(head -c 300 "$tmp/$name.err")"
  python3 - "$tmp/$name.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
errs = r.get("file_errors", [])
assert len(errs) == 1 and errs[0]["file"].endswith("b-bad.json"), errs
assert errs[0]["rule"].startswith("vector."), errs
assert r["summary"]["file_errors"] == 1
assert r["summary"]["cases"] >= 2, r["summary"]   # the good files ran
PY
  rc=$?; check_rc "$name: report lists the error with its rule; the good files ran" $rc "report"
  grep -q '<error type="vector\.' "$tmp/$name.xml"; rc=$?
  check_rc "$name: JUnit lists the error" $rc "$(grep -c error "$tmp/$name.xml")"
  if LC_ALL=C grep -qP '[\x00-\x08\x0b-\x1f\x7f]' "$tmp/$name.out" "$tmp/$name.err"; then rc=1; else rc=0; fi
  check_rc "$name: no raw control bytes on the terminal" $rc "found some"
done
grep -q 'FAILED: 0 new failure(s), 0 known failure(s), 1 vector file error(s)' "$tmp/run.out"; rc=$?
check_rc "run: the summary's last line counts the unreadable file" $rc "$(tail -2 "$tmp/run.out")"

# A manifest entry that leaves the set's folder is named.
mkdir "$tmp/evil"
cat > "$tmp/evil/MANIFEST.json" <<'JSON'
{"schema": "dmconf-vector-manifest/1", "generator": "dmconf", "file_count": 1, "total_bytes": 1,
 "coverage": {}, "files": [{"path": "../outside.json", "bytes": 1, "sha256": "00"}]}
JSON
schema=$(python3 -c "import json;print(json.load(open('$src/vectors/golden/MANIFEST.json'))['schema'])")
sed -i "s|dmconf-vector-manifest/1|$schema|" "$tmp/evil/MANIFEST.json"
"$dmconf" vectors check "$tmp/evil" >"$tmp/evil.out" 2>&1
code=$?
[ "$code" -ne 0 ] && grep -q "vector.manifest.path" "$tmp/evil.out" && grep -q "'../outside.json'" "$tmp/evil.out"
rc=$?; check_rc "manifest '../' entry named (exit $code)" $rc "$(cat "$tmp/evil.out")"
exit $fail
