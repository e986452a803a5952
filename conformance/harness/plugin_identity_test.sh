#!/usr/bin/env bash
# A plugin loaded by path goes by the name it declares (harness/backend/identity.h): two copies
# of one plugin (declared name "shape-bug", a seeded bug, so both fail) in one run are reported
# as "shape-bug" and "shape-bug-2" in the summary, the report (with `library` = the path as
# given), JUnit and the failures folder; their repro lines name the paths the user gave.
#   plugin_identity_test.sh DMCONF PLUGIN
set -uo pipefail
dmconf="$1"
lib="$2"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
mkdir -p "$tmp/other"
cp "$lib" "$tmp/other/copy.so"
out=$(cd "$tmp" && "$dmconf" run --backend-lib "$lib" --backend-lib other/copy.so --quiet \
  --no-shrink --no-kernels --shape-count 50 --report r.json --junit j.xml --failures f 2>&1)
rc=$?
check "the run fails (seeded bug): $rc" '[ "$rc" -eq 1 ]'
check "summary names both" 'grep -q "^== backend shape-bug:" <<<"$out" && grep -q "^== backend shape-bug-2:" <<<"$out"'
python3 - "$tmp/r.json" "$lib" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
got = [(b["name"], b.get("library")) for b in r["backends"]]
want = [("shape-bug", sys.argv[2]), ("shape-bug-2", "other/copy.so")]
assert got == want, got
for b, lib in zip(r["backends"], [sys.argv[2], "other/copy.so"]):
    repros = [c["repro"] for c in b["cases"] if c.get("failure") and "repro" in c]
    assert repros, b["name"]
    assert all(f"--backend-lib {lib} " in x for x in repros), repros[0]
print("ok   report: names, libraries and repro paths")
PY
python3 - "$tmp/j.xml" <<'PY' || fail=1
import sys, xml.etree.ElementTree as ET
suites = {s.get("name").split(".")[0] for s in ET.parse(sys.argv[1]).getroot().iter("testsuite")}
assert suites == {"shape-bug", "shape-bug-2"}, suites
print("ok   junit: suites named by the declared names")
PY
check "failures folder per declared name" '[ -d "$tmp/f/shape-bug" ] && [ -d "$tmp/f/shape-bug-2" ]'
exit "$fail"
