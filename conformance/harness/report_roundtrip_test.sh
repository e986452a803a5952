#!/usr/bin/env bash
# The report's reader and writer are one format: a report `dmconf run` wrote, decoded by the
# reader and written again, is the same document, whole and case by case (report_roundtrip.cc).
# The run holds every optional part of the format (checked first, so that the round trip
# cannot pass by leaving a part out): known failures and stale expectations, a vector file that
# cannot be read, a mutant, a plugin with shape inference only, shape-lane cases with partial
# inputs, wrong values with a mismatch and diagnosis, failures shrunk and a flaky one replayed.
# Its two shards and their merge go through the round trip too.
#   report_roundtrip_test.sh DMCONF ROUNDTRIP SOURCE_DIR SHAPE_BUG FLAKY SHAPE_ONLY KERNEL_BUG
set -uo pipefail
dmconf="$1"; roundtrip="$2"; src="$3"; shape_bug="$4"; flaky="$5"; shape_only="$6"; kernel_bug="$7"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
cd "$tmp" || exit 1
mkdir bad && echo '{"format": 1}' > bad/broken.json
cat > stale.json <<'JSON'
{"format": "dmconf-expectations/1",
 "known_failures": [{"backend": "oracle", "case": "*", "verdict": "hang", "reason": "stale"}]}
JSON
args=(--backend all,mutant.d2s_mode_swapped --backend-lib "$shape_bug" --backend-lib "$flaky"
      --backend-lib "$shape_only" --backend-lib "$kernel_bug" --count 50 --shape-count 20
      --vectors "$src/vectors/regressions" --vectors bad --expectations stale.json --quiet)
for e in armnn xnnpack eigen; do args+=(--expectations "$src/reports/expectations/$e.json"); done
"$dmconf" run "${args[@]}" --report whole.json --failures f > whole.out 2>&1
rc=$?
check "run: exit $rc (1: new failures), a report" '[ $rc -eq 1 ] && [ -s whole.json ]'
for k in 1 2; do
  "$dmconf" run "${args[@]}" --shard "$k/2" --report "s$k.json" --failures "f$k" > "s$k.out" 2>&1
done
"$dmconf" report merge s1.json s2.json -o merged.json > merge.out 2>&1
rc=$?
check "merge of the two shards: exit $rc (1, as the whole run), a report" \
  '[ $rc -eq 1 ] && [ -s merged.json ]'
missing=$(python3 - whole.json <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
seen = {k for k in ("mutation", "file_errors", "stale_expectations") if k in r}
for b in r["backends"]:
    seen |= {"library"} & set(b)
    if b["capabilities"].get("kernels") is False:
        seen.add("kernels: false")
    for c in b["cases"]:
        seen |= set(c)
        seen |= {"shrunk." + k for k in c.get("shrunk", {})}
        seen |= {"partial_shape" for i in c.get("invocation", {}).get("inputs", [])
                 if "partial_shape" in i}
want = ["mutation", "file_errors", "stale_expectations", "library", "kernels: false", "known",
        "invocation", "partial_shape", "mismatch", "diagnosis", "shrunk", "shrunk.diagnosis",
        "shrunk.vector_file", "shrunk.repro", "replays", "lane", "vector_file", "repro"]
print(" ".join(k for k in want if k not in seen))
PY
)
check "the run's report holds every optional part of the format (missing: ${missing:-none})" \
  '[ -z "$missing" ]'
"$roundtrip" whole.json s1.json s2.json merged.json > roundtrip.out 2>&1
rc=$?
check "decoded and written again: the same documents (exit $rc)" '[ $rc -eq 0 ]'
cat roundtrip.out
[ "$fail" -eq 0 ] && echo "report_roundtrip_test: ok"
exit "$fail"
