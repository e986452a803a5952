#!/usr/bin/env bash
# generate_subset_test.sh DMCONF SOURCE_DIR WORK_DIR
# `dmconf vectors generate --ops ... --types ...` writes exactly the files of the checked-in
# golden set (vectors/golden, same profile and seed) whose op and data type are asked for, byte
# for byte; the manifest records the subset; `vectors check` regenerates the same subset; bad
# names and an empty subset are refused with exit 2.
set -euo pipefail
dmconf=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
fail() { echo "generate_subset_test: FAIL: $*" >&2; exit 1; }

# The expected files, read from the golden set itself (not from the code under test).
python3 - "$src/vectors/golden" DepthToSpace,SpaceToDepth f16,u4 >"$work/expected.txt" <<'PY'
import glob, json, os, sys
golden, ops, types = sys.argv[1], sys.argv[2].split(','), sys.argv[3].split(',')
for f in sorted(glob.glob(os.path.join(golden, '*.json'))):
    if f.endswith('MANIFEST.json'):
        continue
    j = json.load(open(f))
    if j['op'] in ops and j['inputs'][0]['type'] in types:
        print(os.path.basename(f))
PY
[ -s "$work/expected.txt" ] || fail "the golden set has no DepthToSpace/SpaceToDepth f16/u4 case"

"$dmconf" vectors generate --out "$work/set" --ops d2s,SpaceToDepth-1 --types u4,f16 \
  >"$work/gen.log" 2>&1 || { cat "$work/gen.log" >&2; fail "generate exited $?"; }
(cd "$work/set" && ls | grep -v '^MANIFEST.json$' | sort) >"$work/got.txt"
diff -u "$work/expected.txt" "$work/got.txt" || fail "the subset holds other files than expected"
while read -r f; do
  cmp -s "$src/vectors/golden/$f" "$work/set/$f" || fail "$f differs from the golden set's"
done <"$work/expected.txt"
python3 - "$work/set/MANIFEST.json" <<'PY' || fail "the manifest does not record the subset"
import json, sys
m = json.load(open(sys.argv[1]))
assert m['ops'] == ['DepthToSpace', 'SpaceToDepth'], m.get('ops')
assert m['types'] == ['f16', 'u4'], m.get('types')
PY
"$dmconf" vectors check "$work/set" >"$work/check.log" 2>&1 ||
  { cat "$work/check.log" >&2; fail "vectors check of the subset failed"; }
first=$(head -1 "$work/expected.txt")
printf ' ' >>"$work/set/$first"
if "$dmconf" vectors check "$work/set" >"$work/check2.log" 2>&1; then
  fail "vectors check passed a changed file"
fi

set +e
"$dmconf" vectors generate --out "$work/bad" --ops NoSuchOp >"$work/bad.log" 2>&1
bad=$?
"$dmconf" vectors generate --out "$work/empty" --profile smoke --ops s2b --types nf4 >"$work/empty.log" 2>&1
empty=$?
set -e
[ "$bad" -eq 2 ] && grep -q 'case.op.known' "$work/bad.log" || fail "an unknown op: exit $bad"
[ "$empty" -eq 2 ] && grep -q 'vector.generate.empty' "$work/empty.log" ||
  fail "an empty subset: exit $empty"
[ ! -e "$work/bad" ] && [ ! -e "$work/empty" ] || fail "a refused generate wrote a folder"
echo "generate_subset_test: $(wc -l <"$work/expected.txt") files, as in vectors/golden"
