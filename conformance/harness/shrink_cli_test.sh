#!/usr/bin/env bash
# `dmconf shrink` and shrinking in `dmconf run`, on a plugin that leaves SpaceToBatch's padding
# unwritten (padding_plugin.c, variant skips_padding):
#   - run shrinks every new failure by default: each gets a <id>.min.json beside it, no larger
#     than the original, and replaying it fails with the same verdict (wrong_values);
#   - the smallest case with the bug, derived by hand: one padded element, no data, e.g.
#     SpaceToBatch of data [1, 0] with pads_begin [0, 1]: output [1, 1] = one padding zero,
#     so the minimal cases hold 0 data elements and 1 output element;
#   - --no-shrink writes no .min.json;
#   - `dmconf shrink FILE` writes FILE's minimal case with its repro; a passing case exits 1;
#     a device or a missing file exits 2.
#   shrink_cli_test.sh DMCONF SKIPS_PADDING_PLUGIN CORRECT_PLUGIN
set -uo pipefail
dmconf="$1"
bad="$2"
good="$3"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
elements() {  # data elements of a vector file
  python3 -c 'import json,sys,math; v=json.load(open(sys.argv[1])); print(math.prod(v["inputs"][0]["shape"]))' "$1"
}
out_elements() {
  python3 -c 'import json,sys,math; v=json.load(open(sys.argv[1])); print(math.prod(v["expectation"]["output"]["shape"]))' "$1"
}

"$dmconf" run --backend-lib "$bad" --ops s2b --count 20 --quiet --report "$tmp/r/report.json" \
  > "$tmp/run.txt" 2>&1
[ $? -eq 1 ] || bad "run on the buggy plugin should exit 1"
mins=$(find "$tmp/r/failures" -name '*.min.json' | wc -l)
origs=$(find "$tmp/r/failures" -name '*.json' ! -name '*.min.json' | wc -l)
[ "$mins" -ge 1 ] || bad "no .min.json written ($origs failures)"
grep -q 'shrunk: .* data elements, same verdict; repro: ' "$tmp/run.txt" || bad "no shrunk line"
for m in $(find "$tmp/r/failures" -name '*.min.json'); do
  o="${m%.min.json}.json"
  [ -f "$o" ] || { bad "$m has no original beside it"; continue; }
  [ "$(elements "$m")" -le "$(elements "$o")" ] || bad "$m is larger than $o"
  [ "$(elements "$m")" -eq 0 ] && [ "$(out_elements "$m")" -eq 1 ] ||
    bad "$m: $(elements "$m") data / $(out_elements "$m") output elements, want 0 / 1"
  grep -q '"note": "wrong_values (case .*; shrunk from ' "$m" || bad "$m: no provenance"
  "$dmconf" run --backend-lib "$bad" --vectors "$m" --quiet --no-shrink > "$tmp/replay.txt" 2>&1
  [ $? -eq 1 ] && grep -q '^FAIL wrong_values' "$tmp/replay.txt" || bad "$m does not replay"
  "$dmconf" run --backend-lib "$good" --vectors "$m" --quiet --no-shrink > /dev/null 2>&1 ||
    bad "$m fails on the correct plugin too"
done
echo "run: $origs failures, $mins shrunk"

"$dmconf" run --backend-lib "$bad" --ops s2b --count 20 --quiet --no-shrink \
  --report "$tmp/n/report.json" > /dev/null 2>&1
[ "$(find "$tmp/n/failures" -name '*.min.json' | wc -l)" -eq 0 ] || bad "--no-shrink shrank"

one=$(find "$tmp/n/failures" -name '*.json' | sort | tail -1)
"$dmconf" shrink "$one" --backend-lib "$bad" --out "$tmp/one.min.json" > "$tmp/shrink.txt" 2>&1
[ $? -eq 0 ] || bad "dmconf shrink exit status: $(cat "$tmp/shrink.txt")"
grep -q "^repro: dmconf run --backend-lib .* --vectors $tmp/one.min.json" "$tmp/shrink.txt" ||
  bad "no repro line: $(cat "$tmp/shrink.txt")"
[ -f "$tmp/one.min.json" ] && [ "$(out_elements "$tmp/one.min.json")" -eq 1 ] ||
  bad "dmconf shrink did not write the 1-element minimal case"
"$dmconf" shrink "$one" --backend-lib "$good" > /dev/null 2>&1
[ $? -eq 1 ] || bad "shrinking a case that passes should exit 1"
"$dmconf" shrink /dev/null --backend-lib "$bad" > /dev/null 2>&1
[ $? -eq 2 ] || bad "a device should exit 2"
"$dmconf" shrink "$tmp/missing.json" --backend-lib "$bad" > /dev/null 2>&1
[ $? -eq 2 ] || bad "a missing file should exit 2"
"$dmconf" shrink "$one" --backend-lib "$bad" --out /dev/full > /dev/null 2>&1
[ $? -eq 2 ] && [ -c /dev/full ] || bad "--out /dev/full should be refused, exit 2"

[ "$fail" -eq 0 ] && echo "all shrink CLI checks passed"
exit "$fail"
