#!/usr/bin/env bash
# The OpenVINO-style plugin (docs/false-positive-hunt.md) against `dmconf run`:
#   clean: a correct plugin gets no failure (exit 0, "0 new failure(s)", kernel and shape
#          lanes both run);
#   VERDICT:MIN: a seeded-bug variant is caught (exit 1) by at least MIN failing cases of
#          that verdict (VERDICT may be several, "a|b": the cases of any of them count);
#   nofail:VERDICT: no failure (exit 0), and the shape lane counts cases of VERDICT (a
#          suspicion that is no failure: undecided_shape).
#   ov_style_test.sh DMCONF PLUGIN clean|VERDICT:MIN|nofail:VERDICT [dmconf run options...]
set -uo pipefail
dmconf="$1"
plugin="$2"
expect="$3"
shift 3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
out=$("$dmconf" run --backend-lib "$plugin" --report "$tmp/report.json" \
  --failures "$tmp/failures" "$@" 2>&1)
rc=$?
head=$(grep -m1 '^== backend' <<<"$out")
lane=$(grep -m1 -o 'shape inference: .*' <<<"$out")
if [ "$expect" = clean ]; then
  if [ "$rc" -ne 0 ] || ! grep -q ' 0 new failure(s)' <<<"$head"; then
    echo "FAIL: dmconf run exit $rc: $head"
    grep -A2 '^FAIL' <<<"$out" | head -30
    exit 1
  fi
  # A run that tried nothing proves nothing: both lanes must have run cases.
  if ! grep -qE ': [1-9][0-9]* passed' <<<"$head" || ! grep -qE 'pass [1-9]' <<<"$lane"; then
    echo "FAIL: a lane ran no case: $head / $lane"
    exit 1
  fi
  echo "ok   clean: $head"
  echo "     $lane"
  exit 0
fi
if [ "${expect%%:*}" = nofail ]; then
  verdict=${expect#nofail:}
  if [ "$rc" -ne 0 ] || ! grep -qE "$verdict [1-9]" <<<"$lane"; then
    echo "FAIL: dmconf run exit $rc (0 and $verdict wanted): $head / $lane"
    grep -A2 '^FAIL' <<<"$out" | head -10
    exit 1
  fi
  echo "ok   no failure, $verdict counted: $lane"
  exit 0
fi
IFS=: read -r verdict min <<<"$expect"
n=$(grep -cE "^FAIL ($verdict) " <<<"$out")
if [ "$rc" -ne 1 ] || [ "$n" -lt "$min" ]; then
  echo "FAIL: dmconf run exit $rc, $n $verdict case(s) (at least $min wanted): $head / $lane"
  grep '^FAIL' <<<"$out" | head -10
  exit 1
fi
echo "ok   caught as $verdict by $n case(s)"
grep -m1 -A1 -E "^FAIL ($verdict) " <<<"$out"
