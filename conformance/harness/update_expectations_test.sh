#!/usr/bin/env bash
# `dmconf run --update-expectations FILE` (harness/runner/expectations_update.h), on a plugin
# with a seeded shape-inference bug (many failing cases):
#   1. FILE missing: the run fails (exit 1) and FILE lists exactly the report's new failures,
#      each with its backend, id, verdict and rule and the placeholder reason;
#   2. the same run again with FILE: exit 0, no new failure, FILE unchanged ("up to date");
#   3. a stale entry whose case ran is removed and printed; one naming no case that ran is kept;
#   4. refused with --shard (cli.update_expectations.shard) and as the --report path
#      (io.path.same), exit 2, FILE untouched;
#   5. entries are matched by what they say: another writer that replaces entry 0 during the
#      run (self_changing_plugin.c renames its file over FILE), keeping the count, makes the
#      update refuse (expectations.update.changed, naming the entry) and keeps that writer's
#      file;
#   6. the file keeps its layout: a compact 13.9 MB file stays compact, under the 16 MiB the
#      reader accepts, and the next run reads it; an indented one keeps its indent; an update
#      that would pass the reader's limit is refused (io.write.too_large), the file kept;
#   7. the file keeps its mode; a read-only FILE (0444) and a link into a missing folder are
#      refused before the run (io.write.read_only, io.write.dangling_link): no report written.
#   update_expectations_test.sh DMCONF PLUGIN SELF_REPLACING_PLUGIN
set -uo pipefail
dmconf="$1"
lib="$2"
self="$3"
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
check "idle entry kept and counted" 'grep -q "idle one" "$E" && grep -q "1 idle entry kept: no case it names ran" <<<"$out"'

before=$(sha256sum "$E")
out=$(run --update-expectations "$E" --shard 1/2); rc=$?
check "--shard refused: $rc" '[ "$rc" -eq 2 ] && grep -q "cli.update_expectations.shard" <<<"$out"'
out=$(run --update-expectations "$E" --report "$E"); rc=$?
check "same path as --report refused: $rc" '[ "$rc" -eq 2 ] && grep -q "io.path.same" <<<"$out"'
check "file untouched by refused runs" '[ "$(sha256sum "$E")" = "$before" ]'

# 5. Another writer replaces entry 0 during the run, keeping the count.
cat > "$tmp/e5.json" <<'JSON'
{"format": "dmconf-expectations/1",
 "known_failures": [
  {"backend": "self-changing", "case": "*", "verdict": "hang", "reason": "entry A"},
  {"backend": "self-changing", "case": "*", "verdict": "wrong_shape", "reason": "entry B"}]}
JSON
sed 's/"verdict": "hang", "reason": "entry A"/"verdict": "false_accept", "reason": "entry C, the other writer'"'"'s"/' "$tmp/e5.json" > "$tmp/e5-other.json"
out=$(DMCONF_SELF_WITH="$tmp/e5-other.json" DMCONF_SELF_PATH="$tmp/e5.json" DMCONF_SELF_MARKER="$tmp/m5" \
  "$dmconf" run --backend-lib "$self" --ops d2s --count 5 --quiet --no-shrink --failures "$tmp/f5" \
  --update-expectations "$tmp/e5.json" 2>&1); rc=$?
check "an entry replaced during the run: exit $rc, the entry named" '[ "$rc" -eq 2 ] && grep -qF "expectations.update.changed: $tmp/e5.json: the entry /known_failures/0 (self-changing, case *, hang (entry A)) changed or was removed while the run went on" <<<"$out"'
check "  the other writer's file is kept" 'cmp -s "$tmp/e5.json" "$tmp/e5-other.json"'

# 6. Layout and size. A compact file of 13.9 MB (entries of a backend that does not run are
# kept as they are).
big="$tmp/big.json"
python3 - "$big" 13900000 <<'PY'
import json, sys
path, size = sys.argv[1], int(sys.argv[2])
entry = lambda i: {"backend": "other-backend", "case": f"case/{i:07d}/" + "x" * 60,
                   "verdict": "crash", "reason": "kept: a backend that does not run"}
one = len(json.dumps(entry(0), separators=(",", ":"))) + 1
doc = {"format": "dmconf-expectations/1",
       "known_failures": [entry(i) for i in range(size // one)]}
open(path, "w").write(json.dumps(doc, separators=(",", ":")))
PY
small_run() { "$dmconf" run --backend-lib "$lib" --ops d2s --count 5 --quiet --no-shrink --failures "$tmp/f6" "$@" 2>&1; }
out=$(small_run --update-expectations "$big"); rc=$?
size=$(stat -c %s "$big")
check "a compact 13.9 MB file updated: exit $rc, $size bytes, one line, under 16 MiB" '[ "$rc" -eq 1 ] && [ "$size" -le 16777216 ] && [ "$(wc -l < "$big")" -eq 0 ] && grep -q "added" <<<"$out"'
out=$(small_run --expectations "$big"); rc=$?
check "  the next run reads it: exit $rc" '[ "$rc" -eq 0 ] && ! grep -q "io.read.too_large" <<<"$out"'
python3 - "$E" <<'PY'
import json, sys
k = json.load(open(sys.argv[1]))
k["known_failures"].append({"backend": "self-changing-no", "case": "x", "reason": "idle"})
open(sys.argv[1], "w").write(json.dumps(k, indent=4) + "\n")
PY
out=$(run --update-expectations "$E"); rc=$?
check "an indented file keeps its indent of 4: exit $rc" '[ "$rc" -eq 0 ] && python3 -c "import json,sys; t=open(sys.argv[1]).read(); sys.exit(t != json.dumps(json.loads(t), indent=4) + \"\\n\")" "$E"'
python3 - "$tmp/full.json" <<'PY'
import json, sys
limit = 16 << 20
entry = lambda i: {"backend": "other-backend", "case": f"c{i:08d}" + "y" * 2000, "reason": "r"}
one = len(json.dumps(entry(0), separators=(",", ":"))) + 1
entries = [entry(i) for i in range((limit - 200) // one)]
text = json.dumps({"format": "dmconf-expectations/1", "known_failures": entries}, separators=(",", ":"))
assert len(text) <= limit
open(sys.argv[1], "w").write(text)
PY
before=$(sha256sum "$tmp/full.json")
out=$(small_run --update-expectations "$tmp/full.json"); rc=$?
check "an update above the reader's 16 MiB: exit $rc, io.write.too_large, file kept" '[ "$rc" -eq 2 ] && grep -q "io.write.too_large: $tmp/full.json: [0-9]* bytes, above the 16777216 bytes an expectations file may have" <<<"$out" && [ "$(sha256sum "$tmp/full.json")" = "$before" ]'

# 7. Mode, read-only files and links into missing folders.
chmod 0640 "$E"
out=$(run --update-expectations "$E"); rc=$?
check "the file keeps its mode 0640: exit $rc" '[ "$rc" -eq 0 ] && [ "$(stat -c %a "$E")" = 640 ]'
chmod 0444 "$E"; before=$(sha256sum "$E")
out=$(run --update-expectations "$E" --report "$tmp/r7.json"); rc=$?
check "a read-only file (0444) refused before the run: exit $rc" '[ "$rc" -eq 2 ] && grep -q "io.write.read_only: $E: its mode 0444" <<<"$out" && [ ! -e "$tmp/r7.json" ] && [ "$(sha256sum "$E")" = "$before" ] && [ "$(stat -c %a "$E")" = 444 ]'
ln -s "$tmp/missing/dir/known.json" "$tmp/link.json"
out=$(run --update-expectations "$tmp/link.json" --report "$tmp/r8.json"); rc=$?
check "a link into a missing folder refused before the run: exit $rc" '[ "$rc" -eq 2 ] && grep -q "io.write.dangling_link: $tmp/link.json -> $tmp/missing/dir/known.json" <<<"$out" && [ ! -e "$tmp/r8.json" ] && [ ! -e "$tmp/missing" ]'
exit "$fail"
