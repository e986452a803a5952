#!/usr/bin/env bash
# A diagnosis claims only what the evidence supports: when a case cannot tell two known mistakes
# apart (here a u1 ExtractImagePatches case with few distinct values, where "same_lower off by
# one" and "rates used as strides" give the same output), both are named, for either mutant;
# never just the first in the list.
#   ambiguous_diagnosis_test.sh DMCONF
set -uo pipefail
dmconf="$1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
id='sweep/valid/eip.u1.1x8x2x3.k2x2.s2x1.r3x1.same_lower.special.s1i88'
for m in eip_rate_as_stride eip_same_lower_off_by_one; do
  "$dmconf" run --backend "mutant.$m" --case-id "$id" --quiet --report "$tmp/$m.json" \
    --failures "$tmp/f" >/dev/null 2>&1
  python3 - "$tmp/$m.json" "$m" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
c = r["backends"][0]["cases"]
d = c[0].get("diagnosis", {}) if len(c) == 1 else {}
ok = (d.get("mistake") == "eip.same_lower_off_by_one|eip.rate_stride_swapped"
      and d.get("summary", "").startswith("matches equally (this case cannot tell them apart)"))
if not ok:
    print("FAIL:", sys.argv[2], "must name both mistakes:", d)
    sys.exit(1)
PY
done
[ "$fail" -eq 0 ] && echo "ambiguous diagnosis: both mistakes named"
exit "$fail"
