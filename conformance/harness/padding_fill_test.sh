#!/usr/bin/env bash
# Output buffers handed to plugins are not zero-filled (dmconf_plugin.h, alloc_output): a
# SpaceToBatch kernel that never writes the padding zeros fails with wrong_values and a
# diagnosis that says the padding was not written; the same kernel writing them passes.
#   padding_fill_test.sh DMCONF CORRECT_PLUGIN SKIPS_PADDING_PLUGIN
set -uo pipefail
dmconf="$1" correct="$2" skips="$3"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
cd "$tmp" || exit 1

out=$("$dmconf" run --backend-lib "$correct" --ops s2b --types f32 --quiet --strict-coverage \
  --report "$tmp/ok.json" 2>&1)
status=$?
ran=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1])); print(r['backends'][0]['totals']['run'])" "$tmp/ok.json")
if [ "$status" -ne 0 ] || ! grep -q "^OK: 0 new failure" <<<"$out" || [ "$ran" -lt 50 ]; then
  echo "FAIL: the SpaceToBatch plugin that writes its padding must pass (exit $status, $ran run):"
  grep -E "^FAIL|^OK|^FAILED" <<<"$out" | head -5
  fail=1
fi

out=$("$dmconf" run --backend-lib "$skips" --ops s2b --types f32 --quiet \
  --report "$tmp/bad.json" 2>&1)
status=$?
python3 - "$tmp/bad.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
cases = r["backends"][0]["cases"]
padded = [c for c in cases if c["verdict"] == "wrong_values"]
named = [c for c in padded if c.get("diagnosis", {}).get("mistake") == "output.padding_not_written"]
others = [c["verdict"] for c in cases if c["failure"] and c["verdict"] != "wrong_values"]
if not padded or len(named) != len(padded) or others:
    print("FAIL: skipped padding must be wrong_values diagnosed output.padding_not_written:",
          len(padded), "wrong_values,", len(named), "named, other failures:", others[:5])
    sys.exit(1)
print("skipped padding caught:", len(padded), "cases, every one diagnosed")
PY
if [ "$status" -ne 1 ] || ! grep -q "All of them are padding, where the spec puts zeros" <<<"$out"; then
  echo "FAIL: the run must fail (exit 1) and the summary must name the bug (exit $status)"
  grep -A2 "^FAIL" <<<"$out" | head -6
  fail=1
fi

[ "$fail" -eq 0 ] && echo "padding fill: all checks passed"
exit "$fail"
