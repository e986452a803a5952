#!/usr/bin/env bash
# Shrinking a crash or a hang names its threshold (harness/shrink/threshold.h), on the hostile
# variants of the OpenVINO-style plugin (conformance/plugins/ov_style, correct below the
# threshold):
#   crash_rank6: run() crashes at rank >= 6. A rank-7 SpaceToBatch case (block_shape ones, so
#     the output is the input) shrinks to a case that "fails from rank 6; passes at 5": in the
#     summary, in the report's shrunk.thresholds, and from `dmconf shrink`; the minimal case
#     replays as a crash.
#   hang_block4: run() hangs for block_size > 4. A SpaceToDepth case of block_size 3658 (the
#     finding whose shrunk case kept block_size 3658) shrinks, given --shrink-seconds for about
#     20 timeouts, to "fails from block_size 5; passes at 4": the bisection gets there. At
#     --shrink-seconds below two timeouts the hang is confirmed and left unshrunk, within the
#     budget: --shrink-seconds bounds a hang's confirming and shrinking too.
# With SOURCE_DIR (and the report validator installed), both reports are checked against
# reports/dmconf-report-2.schema.json.
#   shrink_threshold_test.sh DMCONF CORRECT_PLUGIN CRASH_PLUGIN HANG_PLUGIN [SOURCE_DIR]
set -uo pipefail
dmconf="$1"
correct="$2"
crash="$3"
hang="$4"
src="${5:-}"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

# Two hand-made valid vectors whose output is their input: SpaceToBatch with block_shape ones
# and no pads (rank 7), SpaceToDepth of [1, 1, B] with block B (the output [1, B, 1] holds
# the input's elements in order).
python3 - "$tmp" <<'PY'
import json, sys
def vector(name, op, version, attrs, shape, out_shape, ints=()):
    n = 1
    for d in shape:
        n *= d
    data = [i % 251 for i in range(n)]
    inputs = [{"name": "data", "constant": False, "type": "u8", "shape": shape, "data": data}]
    for iname, vals in ints:
        inputs.append({"name": iname, "constant": True, "type": "i64", "shape": [len(vals)],
                       "data": vals})
    v = {"schema": "dmconf-vector/1", "id": name, "op": op, "version": version, "attributes": attrs,
         "inputs": inputs,
         "expectation": {"kind": "valid", "output": {"type": "u8", "shape": out_shape,
                                                     "data": data}},
         "provenance": {"kind": "hand_written", "note": "threshold test"}}
    json.dump(v, open(f"{sys.argv[1]}/{name}.json", "w"))
r7 = [1, 2, 3, 1, 1, 1, 2]
vector("s2b.rank7", "SpaceToBatch", 2, {}, r7, r7,
       [("block_shape", [1] * 7), ("pads_begin", [0] * 7), ("pads_end", [0] * 7)])
vector("s2d.b3658", "SpaceToDepth", 1, {"block_size": 3658, "mode": "blocks_first"},
       [1, 1, 3658], [1, 3658, 1])
PY

# The vectors are right: the correct plugin passes both.
for v in s2b.rank7 s2d.b3658; do
  "$dmconf" run --backend-lib "$correct" --vectors "$tmp/$v.json" --failures "$tmp/ok" \
    >"$tmp/ok.out" 2>&1 || bad "the correct plugin fails $v: $(tail -3 "$tmp/ok.out")"
done

# check_threshold REPORT WHAT FROM AT: the report's failing case has a shrunk part with that
# threshold; prints the minimal case's file.
check_threshold() {
  python3 - "$@" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
want = {"what": sys.argv[2], "fails_from": int(sys.argv[3]), "passes_at": int(sys.argv[4])}
for b in r["backends"]:
    for c in b["cases"]:
        s = c.get("shrunk")
        if s and want in s.get("thresholds", []):
            print(s["vector_file"])
            sys.exit()
print("ERR no shrunk case with threshold", want)
PY
}

# A crash at rank >= 6.
out=$("$dmconf" run --backend-lib "$crash" --vectors "$tmp/s2b.rank7.json" --report "$tmp/c.json" \
  --failures "$tmp/c" 2>&1)
min=$(check_threshold "$tmp/c.json" rank 6 5)
if ! grep -q '^FAIL crash ' <<<"$out" || ! grep -q 'shrunk: .*; fails from rank 6; passes at 5, same verdict' <<<"$out" ||
  [[ "$min" == ERR* ]]; then
  bad "crash_rank6: $min: $(grep -A3 '^FAIL' <<<"$out")"
else
  rout=$("$dmconf" run --backend-lib "$crash" --vectors "$min" --no-shrink --failures "$tmp/c2" 2>&1)
  rank=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["inputs"][0]["shape"]))' "$min")
  if ! grep -q '^FAIL crash ' <<<"$rout" || [ "$rank" != 6 ]; then
    bad "crash_rank6: the minimal case (rank $rank) does not replay as a crash: $rout"
  else
    echo "ok   crash_rank6: $(grep -m1 'shrunk:' <<<"$out" | cut -c1-80)..."
  fi
fi
sout=$("$dmconf" shrink "$tmp/s2b.rank7.json" --backend-lib "$crash" --out "$tmp/cli.min.json" 2>&1)
if [ $? -ne 0 ] || ! grep -q '^minimal: .*; fails from rank 6; passes at 5, crash kept' <<<"$sout"; then
  bad "dmconf shrink on crash_rank6: $sout"
else
  echo "ok   dmconf shrink: $(grep '^minimal' <<<"$sout")"
fi

# A hang for block_size > 4, given time for about 20 timeouts.
out=$("$dmconf" run --backend-lib "$hang" --vectors "$tmp/s2d.b3658.json" --timeout 1 \
  --shrink-seconds 20 --report "$tmp/h.json" --failures "$tmp/h" 2>&1)
min=$(check_threshold "$tmp/h.json" block_size 5 4)
if ! grep -q '^FAIL hang ' <<<"$out" || [[ "$min" == ERR* ]] ||
  ! grep -q 'fails from block_size 5; passes at 4, same verdict' <<<"$out"; then
  bad "hang_block4: $min: $(grep -A3 '^FAIL' <<<"$out")"
elif [ "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["attributes"]["block_size"])' "$min")" != 5 ]; then
  bad "hang_block4: the minimal case $min does not have block_size 5"
else
  echo "ok   hang_block4: $(grep -m1 'shrunk:' <<<"$out" | cut -c1-80)..."
fi
# The same at --shrink-seconds 1.5, below two timeouts: the run (one hang of 1 s, its replay of
# 1 s) ends within 1 s of the budget, and the hang is not shrunk (measured before: shrunk at 16
# timeouts, 16 s, whatever --shrink-seconds said).
start=$(date +%s%N)
out=$("$dmconf" run --backend-lib "$hang" --vectors "$tmp/s2d.b3658.json" --timeout 1 \
  --shrink-seconds 1.5 --report "$tmp/h2.json" --failures "$tmp/h2" 2>&1)
ms=$(( ($(date +%s%N) - start) / 1000000 ))
if ! grep -q '^FAIL hang ' <<<"$out" || grep -q '"shrunk"' "$tmp/h2.json" || [ "$ms" -gt 4500 ]; then
  bad "hang_block4 at --shrink-seconds 1.5: ${ms} ms, shrunk: $(grep -c '"shrunk"' "$tmp/h2.json")"
else
  echo "ok   hang_block4 at --shrink-seconds 1.5: unshrunk, the run took ${ms} ms"
fi
if [ -n "$src" ] && [ -f "$src/reports/validator/node_modules/ajv/package.json" ]; then
  if node "$src/reports/validator/validate.js" "$src/reports/dmconf-report-2.schema.json" \
    "$tmp/c.json" "$tmp/h.json" >"$tmp/valid.txt" 2>&1; then
    echo "ok   both reports (with shrunk.thresholds) match the schema"
  else
    bad "a report with shrunk.thresholds does not match the schema: $(head -5 "$tmp/valid.txt")"
  fi
fi
[ "$fail" -eq 0 ] && echo "all threshold checks passed"
exit "$fail"
