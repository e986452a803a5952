#!/usr/bin/env bash
# `dmconf run --update-expectations FILE` (harness/runner/expectations_update.h), on a plugin
# with a seeded shape-inference bug (many failing cases):
#   1. FILE missing: the run fails (exit 1) and FILE lists exactly the report's new failures,
#      each with its backend, id, verdict and rule and the placeholder reason;
#   2. the same run again with FILE: exit 0, no new failure, FILE unchanged ("up to date");
#   3. a stale entry whose case ran is removed and printed; one naming no case that ran is kept;
#   4. refused with --shard (cli.update_expectations.shard) and as the --report path
#      (io.path.same), exit 2, FILE untouched.
#   update_expectations_test.sh DMCONF PLUGIN
set -uo pipefail
dmconf="$1"
lib="$2"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
E="$tmp/known.json"
run() { "$dmconf" run --backend-lib "$lib" --quiet --no-shrink --failures "$tmp/f" "$@" 2>&1; }

out=$(run --update-expectations "$E" --report "$tmp/r1.json"); rc=$?
check "first run exits 1 (new failures): $rc" '[ "$rc" -eq 1 ]'
python3 - "$tmp/r1.json" "$E" <<'PY' || fail=1
import json, sys
report = json.load(open(sys.argv[1]))
known = json.load(open(sys.argv[2]))
b = report["backends"][0]
new = {(b["name"], c["id"], c["verdict"], c.get("rule", "")) for c in b["cases"]
       if c.get("failure") and c["verdict"] != "harness_error"}
entries = known["known_failures"]
got = {(e["backend"], e["case"], e["verdict"], e.get("rule", "")) for e in entries}
assert known["format"] == "dmconf-expectations/1"
assert len(new) > 10, f"the seeded bug should fail many cases, got {len(new)}"
assert got == new and len(entries) == len(new), f"{len(got ^ new)} entries differ"
assert all(e["reason"].startswith("unexplained: ") for e in entries)
print(f"ok   {len(entries)} new failures listed, one entry each")
PY
check "each addition printed" '[ "$(grep -c "^  + added " <<<"$out")" -eq "$(python3 -c "import json;print(len(json.load(open(\"$E\"))[\"known_failures\"]))")" ]'

before=$(sha256sum "$E")
out=$(run --expectations "$E" --update-expectations "$E" --report "$tmp/r2.json"); rc=$?
check "second run exits 0: $rc" '[ "$rc" -eq 0 ]'
check "second run: up to date" 'grep -q "is up to date" <<<"$out"'
check "second run: file unchanged" '[ "$(sha256sum "$E")" = "$before" ]'
check "second run: no new failure" 'python3 -c "import json,sys; s=json.load(open(sys.argv[1]))[\"summary\"]; sys.exit(s[\"new_failures\"] != 0 or s[\"known_failures\"] == 0)" "$tmp/r2.json"'

python3 - "$tmp/r2.json" "$E" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))["backends"][0]
passing = next(c["id"] for c in b["cases"] if c["verdict"] == "pass")
k = json.load(open(sys.argv[2]))
k["known_failures"].append({"backend": b["name"], "case": passing, "reason": "stale one"})
k["known_failures"].append({"backend": b["name"], "case": "no-such-case-*", "reason": "idle one"})
json.dump(k, open(sys.argv[2], "w"), indent=2)
PY
out=$(run --update-expectations "$E"); rc=$?
check "third run exits 0 (stale entries warn only): $rc" '[ "$rc" -eq 0 ]'
check "stale entry removed and printed" 'grep -q "^  - removed /known_failures/[0-9]*: .*(stale one)" <<<"$out" && ! grep -q "stale one" "$E"'
check "idle entry kept and counted" 'grep -q "idle one" "$E" && grep -q "1 stale entry kept: no case it names ran" <<<"$out"'

before=$(sha256sum "$E")
out=$(run --update-expectations "$E" --shard 1/2); rc=$?
check "--shard refused: $rc" '[ "$rc" -eq 2 ] && grep -q "cli.update_expectations.shard" <<<"$out"'
out=$(run --update-expectations "$E" --report "$E"); rc=$?
check "same path as --report refused: $rc" '[ "$rc" -eq 2 ] && grep -q "io.path.same" <<<"$out"'
check "file untouched by refused runs" '[ "$(sha256sum "$E")" = "$before" ]'
exit "$fail"
