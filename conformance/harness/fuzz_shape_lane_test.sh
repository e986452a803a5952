#!/usr/bin/env bash
# `dmconf fuzz` fuzzes a plugin's shape inference (shape_bug_plugin.c: infer_static and
# infer_partial for all five ops, run() answering UNSUPPORTED to everything). Every seeded
# bug must be found by `dmconf fuzz --backend-lib` within --time SECONDS with its verdict class
# (shape_bug_table.sh), saved as a dmconf-shape-case/1 file whose repro line (`dmconf run
# --vectors`) fails the same way, and shrunk to a minimal dmconf-shape-case/1 file that replays
# the same way too; the correct variant gives no finding and the shape lane's
# throughput is printed, with each bug's time to its first finding.
#   fuzz_shape_lane_test.sh DMCONF SECONDS NAME=LIBRARY...   (NAME: shape_bug_plugin.c's variants)
set -uo pipefail
dmconf="$1"
secs="$2"
shift 2
source "$(dirname "$0")/shape_bug_table.sh"
shape_bug_args "$@" && [ "${#want[@]}" -eq "$shape_bug_count" ] || { echo "FAIL: shape_bug_table.sh not read"; exit 1; }
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

for name in "${!want[@]}"; do
  v="${want[$name]}"
  out=$("$dmconf" fuzz --backend-lib "${lib[$name]}" --time "$secs" --max-findings 1 --quiet \
    --failures "$tmp/find-$name" 2>&1)
  rc=$?
  got=$(grep -m1 -o '^FINDING [a-z_]* (shape_[a-z]*)' <<<"$out" | awk '{print $2}')
  file=$(grep -m1 -o -- '--vectors [^ ]*\.json' <<<"$out" | awk '{print $2}')
  after=$(grep -m1 -o '^FINDING .*(after [0-9.]* s)' <<<"$out" | grep -o 'after [0-9.]* s')
  if [ "$rc" -ne 1 ] || ! shape_bug_is "$got" "$v"; then
    bad "$name: dmconf fuzz exit $rc, first shape finding '$got', want $v: $(tail -4 <<<"$out")"
    continue
  fi
  if ! grep -q '^shape lane: [1-9][0-9]* cases in .* s ([0-9]*/s, ' <<<"$out" ||
    ! grep -q '^kernel lane: [0-9]* cases' <<<"$out"; then
    bad "$name: no per-lane throughput: $(tail -4 <<<"$out")"
  fi
  if [ -z "$file" ] || ! grep -q '"schema": "dmconf-shape-case/1"' "$file"; then
    bad "$name: the finding names no saved shape-case file: $out"
    continue
  fi
  rout=$("$dmconf" run --backend-lib "${lib[$name]}" --vectors "$file" --quiet \
    --failures "$tmp/replay-$name" 2>&1)
  rrc=$?
  if [ "$rrc" -ne 1 ] || ! grep -q "shape inference: 1 cases .*[ ,]$got 1" <<<"$rout"; then
    bad "$name: replaying $file: exit $rrc: $(grep 'shape inference' <<<"$rout")"
    continue
  fi
  # The finding is shrunk: its minimal dmconf-shape-case/1 file replays the same way.
  min=$(grep -m1 -o -- '^     shrunk: .*--vectors [^ ]*\.min\.json' <<<"$out" | grep -o '[^ ]*\.min\.json$')
  mout=$("$dmconf" run --backend-lib "${lib[$name]}" --vectors "${min:-/nonexistent}" --quiet \
    --no-shrink --failures "$tmp/replay-min-$name" 2>&1)
  if [ -z "$min" ] || ! grep -q "shape inference: 1 cases .*[ ,]$got 1" <<<"$mout"; then
    bad "$name: no shrunk finding that replays as $got ('$min'): $(grep 'shape inference' <<<"$mout")"
  else
    echo "ok   $name: dmconf fuzz found $got ($after); its saved case and its shrunk case replay as $got"
  fi
done

# The correct variant: no finding, and the shape lane ran.
out=$("$dmconf" fuzz --backend-lib "${lib[correct]}" --time "$secs" --quiet --failures "$tmp/c" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] || ! grep -q '^shape lane: [1-9][0-9]* cases' <<<"$out" ||
  ! grep -q ' 0 finding(s)$' <<<"$out"; then
  bad "correct: dmconf fuzz exit $rc: $(tail -4 <<<"$out")"
else
  echo "ok   correct: $(grep '^shape lane' <<<"$out")"
fi

[ "$fail" -eq 0 ] && echo "all fuzz shape-lane checks passed"
exit "$fail"
