#!/usr/bin/env bash
# dmconf vectors generate-shapes / check-shapes: the golden set is deterministic and current,
# and check-shapes finds a stale answer, a changed byte, an extra file and an unreadable file.
# Usage: shape_cli_test.sh DMCONF SOURCE_DIR
set -uo pipefail
dmconf="$1"
src="$2"
source "$src/conformance/harness/check_lib.sh"
ok() { :; }

"$dmconf" vectors generate-shapes --out "$tmp/a" --seed 1 >/dev/null || bad "generate-shapes"
"$dmconf" vectors generate-shapes --out "$tmp/b" --seed 1 >/dev/null || bad "generate-shapes again"
diff -r "$tmp/a" "$tmp/b" >/dev/null || bad "two generations differ"
diff -r "$tmp/a" "$src/vectors/shapes" >/dev/null || bad "vectors/shapes is stale (scripts/regenerate.sh)"
n=$(ls "$tmp/a" | grep -c '\.json$')
[ "$n" -ge 31 ] && [ "$n" -le 61 ] || bad "about 40 files expected, found $((n - 1)) and a manifest"
"$dmconf" vectors generate-shapes --out "$tmp/c" --seed 2 >/dev/null || bad "seed 2"
diff -r "$tmp/a" "$tmp/c" >/dev/null && bad "seeds 1 and 2 give the same set"

"$dmconf" vectors check-shapes "$tmp/a" >"$tmp/out" 2>&1 || bad "check-shapes of a fresh set: $(cat "$tmp/out")"
"$dmconf" vectors check-shapes "$src/vectors/shapes" >"$tmp/out" 2>&1 || bad "check-shapes vectors/shapes: $(cat "$tmp/out")"

# A stored answer the oracle no longer gives: STALE (both the bytes and the answer), exit 1.
f=$(grep -l '"kind": "must_reject"' "$tmp/a"/*.json | head -1)
python3 - "$f" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["expected"] = {"kind": "shape", "output": None}
json.dump(d, open(p, "w"), indent=2)
PY
"$dmconf" vectors check-shapes "$tmp/a" >"$tmp/out" 2>&1; rc=$?
[ "$rc" -eq 1 ] || bad "stale answer: exit $rc, expected 1"
grep -q "STALE shape_case.expected.stale: $f: " "$tmp/out" || bad "stale answer not named: $(cat "$tmp/out")"
grep -q "differs: $(basename "$f")" "$tmp/out" || bad "changed bytes not named: $(cat "$tmp/out")"
# One file alone (no manifest): its answer only.
"$dmconf" vectors check-shapes "$f" >"$tmp/out" 2>&1; rc=$?
[ "$rc" -eq 1 ] || bad "stale file alone: exit $rc"

# An extra file and an unreadable one.
"$dmconf" vectors generate-shapes --out "$tmp/d" --seed 1 >/dev/null
cp "$(ls "$tmp/d"/shape-*.json | head -1)" "$tmp/d/extra.json"
echo '{"schema": "dmconf-shape-case/1", "id": ' >"$tmp/d/broken.json"
"$dmconf" vectors check-shapes "$tmp/d" >"$tmp/out" 2>&1; rc=$?
[ "$rc" -eq 1 ] || bad "extra files: exit $rc"
grep -q "extra: extra.json" "$tmp/out" || bad "extra file not named: $(cat "$tmp/out")"
grep -q "BAD shape_case.json.syntax: $tmp/d/broken.json: line" "$tmp/out" ||
  bad "broken file not named: $(cat "$tmp/out")"
# A set another generator made is never written over (its files would be removed).
"$dmconf" vectors generate --out "$tmp/g" --profile smoke >/dev/null || bad "generate smoke"
before=$(ls "$tmp/g" | wc -l)
"$dmconf" vectors generate-shapes --out "$tmp/g" --seed 1 >"$tmp/out" 2>&1; rc=$?
[ "$rc" -eq 2 ] || bad "generate-shapes over a vector set: exit $rc"
grep -q "shape_case.set.foreign: $tmp/g: " "$tmp/out" || bad "foreign set not named: $(cat "$tmp/out")"
[ "$(ls "$tmp/g" | wc -l)" -eq "$before" ] && [ ! -e "$(ls "$tmp/a"/shape-*.json | head -1 | sed "s|$tmp/a|$tmp/g|")" ] ||
  bad "the vector set was changed"
# A missing path is a usage problem, not a pass.
"$dmconf" vectors check-shapes "$tmp/none.json" >"$tmp/out" 2>&1; rc=$?
[ "$rc" -ne 0 ] || bad "missing file passed"

[ "$fail" -eq 0 ] && echo "shape_cli_test: all passed"
exit "$fail"
