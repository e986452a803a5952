#!/usr/bin/env bash
# A diagnosis claims only what the evidence supports: when a case cannot tell two known mistakes
# apart (here a u1 ExtractImagePatches case with two distinct values, where "same_lower off by
# one" and "rates used as strides" give the same output), neither is named alone, for either
# mutant: the case alone lists both as consistent and says its data do not identify positions;
# its diagnostic twins (data that identify every position) give the same output for both too,
# so the diagnosis is ambiguous between exactly those two (docs/diagnoses.md).
#   ambiguous_diagnosis_test.sh DMCONF
set -uo pipefail
dmconf="$1"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
id='sweep/valid/eip.u1.1x8x2x3.k2x2.s2x1.r3x1.same_lower.special.s1i88'
for m in eip_rate_as_stride eip_same_lower_off_by_one; do
  "$dmconf" run --backend "mutant.$m" --case-id "$id" --quiet --report "$tmp/$m.json" \
    --failures "$tmp/f" >/dev/null 2>&1
  python3 - "$tmp/$m.json" "$m" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
c = r["backends"][0]["cases"]
d = c[0].get("diagnosis", {}) if len(c) == 1 else {}
s = d.get("summary", "")
named = set(d.get("mistake", "").split("|"))
ok = (named == {"eip.same_lower_off_by_one", "eip.rate_stride_swapped"}
      and d.get("from_twin") is True
      and s.startswith("from 6 diagnostic twins")
      and "ambiguous: same_lower pads_begin off by one (total / 2 + 1), rates used as strides" in s
      and "this case alone: not named: the data of this case hold 2 distinct value(s)" in s)
if not ok:
    print("FAIL:", sys.argv[2], "must name neither mistake and list both:", d)
    sys.exit(1)
PY
done
[ "$fail" -eq 0 ] && echo "ambiguous diagnosis: neither mistake named alone, both listed"
exit "$fail"
