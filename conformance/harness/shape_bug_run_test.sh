#!/usr/bin/env bash
# Seeded shape-inference bugs that the default `dmconf run` shape lane must catch with their
# verdict class, each by at least MIN failing cases (shape_bug_plugin.c's table):
#   absent_block_zero  block_size absent read as 0: the catalogue's edge cases with block_size
#                      absent (the spec default 1), widened -> unsound_shape / false_reject
#   eff_unknown_rank   the ExtractImagePatches effective-size rule skipped under unknown rank
#                      -> false_accept
#   shape_bug_run_test.sh DMCONF NAME:LIBRARY:VERDICT:MIN...
set -uo pipefail
dmconf="$1"
shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
for spec in "$@"; do
  IFS=: read -r name lib verdict min <<<"$spec"
  out=$("$dmconf" run --backend-lib "$lib" --report "$tmp/$name.json" \
    --failures "$tmp/fail-$name" 2>&1)
  rc=$?
  lane=$(grep -m1 -o 'shape inference: .*' <<<"$out")
  n=$(grep -o "[ ,]$verdict [0-9]*" <<<"$lane" | grep -o '[0-9]*$' || echo 0)
  n=${n:-0}
  if [ "$rc" -ne 1 ] || [ "$n" -lt "$min" ]; then
    echo "FAIL: $name: dmconf run exit $rc, $verdict count $n (at least $min wanted): $lane"
    fail=1
  else
    echo "ok   $name: caught as $verdict by $n cases"
  fi
done
exit "$fail"
