#!/usr/bin/env bash
# End-to-end test of `dmconf vectors` and `dmconf eval --case`: determinism of generate, check
# catching stale / extra / missing files, verify, export-npy (loaded with numpy when present),
# and malformed files giving a clean error with the file and JSON location.
#   cli_test.sh DMCONF SOURCE_DIR
set -uo pipefail
dmconf="$1"; src="$2"
source "$src/conformance/harness/check_lib.sh"
passed=0
ok() { passed=$((passed + 1)); }

"$dmconf" vectors generate --out "$tmp/a" >/dev/null || bad "generate a"
"$dmconf" vectors generate --out "$tmp/b" >/dev/null || bad "generate b"
diff -r "$tmp/a" "$tmp/b" >/dev/null && ok || bad "two generations differ"
"$dmconf" vectors generate --out "$tmp/b" >/dev/null || bad "regenerate in place"
diff -r "$tmp/a" "$tmp/b" >/dev/null && ok || bad "regenerating in place changed files"
"$dmconf" vectors generate --out "$tmp/s" --seed 7 >/dev/null || bad "generate seed 7"
diff -r "$tmp/a" "$tmp/s" >/dev/null && bad "seed 7 gave the same files" || ok

"$dmconf" vectors check "$tmp/a" >/dev/null && ok || bad "check of a fresh set"
f=$(ls "$tmp/a"/types.s2d.blocks_first.f32.json)
sed -i 's/"mode": "blocks_first"/"mode": "depth_first"/' "$f"
out=$("$dmconf" vectors check "$tmp/a"); rc=$?
[ "$rc" -eq 1 ] && ok || bad "check of a stale file exited $rc"
grep -q "differs: types.s2d.blocks_first.f32.json" <<<"$out" && ok || bad "check did not name the stale file: $out"
"$dmconf" vectors generate --out "$tmp/a" >/dev/null
echo '{}' > "$tmp/a/extra.json"; rm "$tmp/a/rule.s2b.data.rank.json"
out=$("$dmconf" vectors check "$tmp/a"); rc=$?
[ "$rc" -eq 1 ] && grep -q "extra: extra.json" <<<"$out" && grep -q "missing: rule.s2b.data.rank.json" <<<"$out" && ok || bad "extra/missing not reported: $out"
rm "$tmp/a/extra.json"
mkdir "$tmp/foreign"; echo '{}' > "$tmp/foreign/mine.json"
"$dmconf" vectors generate --out "$tmp/foreign" >/dev/null 2>&1 && bad "generate wrote into a foreign folder" || ok
[ -f "$tmp/foreign/mine.json" ] && ok || bad "generate deleted a foreign file"

out=$("$dmconf" vectors verify --quiet "$tmp/b" "$src/vectors/regressions"); rc=$?
[ "$rc" -eq 0 ] && grep -q " passed, 0 failed" <<<"$out" && ok || bad "verify of the golden set: $out"
cp "$tmp/b/types.d2s.depth_first.i32.json" "$tmp/wrong.json"
sed -i 's/"mode": "depth_first"/"mode": "blocks_first"/' "$tmp/wrong.json"
# The file is wrong, not the backend: a file error naming the rule and the file, exit 1.
out=$("$dmconf" vectors verify "$tmp/wrong.json" 2>&1); rc=$?
[ "$rc" -eq 1 ] && grep -q "ERROR vector.expectation.contradicts_oracle: $tmp/wrong.json: " <<<"$out" && ok || bad "verify missed a wrong expectation: $out"

out=$("$dmconf" eval --case "$tmp/b/spec.eip.example2.json"); rc=$?
[ "$rc" -eq 0 ] && grep -q "expectation: valid" <<<"$out" && grep -q "agrees" <<<"$out" && ok || bad "eval --case: $out"

# Malformed files: exit 2, the rule, the file and the JSON location; never a crash.
printf '{"schema": "dmconf-vector/1", "id": ' > "$tmp/trunc.json"
sed 's/"shape": \[1, 1, 10, 10\]/"shape": [1, 1, 10, -10]/' "$tmp/b/spec.eip.example2.json" > "$tmp/neg.json"
sed 's/"shape": \[1, 1, 10, 10\]/"shape": [1, 1, 1000000000, 1000000000]/' "$tmp/b/spec.eip.example2.json" > "$tmp/giant.json"
sed 's/"type": "f32"/"type": "f31"/' "$tmp/b/spec.eip.example2.json" > "$tmp/type.json"
sed 's/"op": "ExtractImagePatches"/"op": "Im2Col"/' "$tmp/b/spec.eip.example2.json" > "$tmp/op.json"
for case in "trunc:vector.json.syntax:line" "neg:case.tensor.dims_nonnegative:/inputs/0/shape/3" \
            "giant:case.tensor.byte_size:/inputs/0/data" "type:case.element_type.known:/inputs/0/type" \
            "op:case.op.known:/op"; do
  IFS=: read -r name rule where <<<"$case"
  # verify lists a bad file and fails the run (1); eval of one bad file is a usage error (2).
  for cmd in "vectors verify:1" "eval --case:2"; do
    want=${cmd##*:}; cmd=${cmd%:*}
    out=$("$dmconf" $cmd "$tmp/$name.json" 2>&1); rc=$?
    if [ "$rc" -eq "$want" ] && grep -q "$rule: $tmp/$name.json: $where" <<<"$out"; then ok; else bad "$cmd $name.json: rc $rc: $out"; fi
  done
done

"$dmconf" vectors export-npy "$tmp/b" --out "$tmp/npy" >/dev/null && ok || bad "export-npy"
[ -f "$tmp/npy/manifest.json" ] && [ -f "$tmp/npy/spec.eip.example1/data.npy" ] && ok || bad "export files"
py=""
for p in python3 /usr/bin/python3; do
  if "$p" -c "import numpy" 2>/dev/null; then py="$p"; break; fi
done
if [ -n "$py" ]; then
  out=$("$py" "$src/scripts/vectors_npy_example.py" "$tmp/npy" --check); rc=$?
  [ "$rc" -eq 0 ] && ok || bad "numpy check: $out"
else
  echo "numpy not installed: the numpy load of the export is not run"
fi

echo "cli_test: $passed passed$([ "$fail" -eq 0 ] || echo ", and the failures above")"
[ "$fail" -eq 0 ]
