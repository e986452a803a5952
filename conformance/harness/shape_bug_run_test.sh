#!/usr/bin/env bash
# Every seeded shape-inference bug of shape_bug_plugin.c (shape_bug_table.sh) is caught by the
# default `dmconf run` (its shape lane) with its verdict class, by at least
# $shape_bug_min_cases failing cases; the correct variant has no failure.
#   shape_bug_run_test.sh DMCONF NAME=LIBRARY...   (correct and every bug of the table)
set -uo pipefail
dmconf="$1"
shift
source "$(dirname "$0")/shape_bug_table.sh"
shape_bug_args "$@" && [ "${#want[@]}" -eq "$shape_bug_count" ] || { echo "FAIL: shape_bug_table.sh not read"; exit 1; }
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
for name in correct "${!want[@]}"; do
  if [ -z "${lib[$name]:-}" ]; then
    echo "FAIL: $name: no library given"
    fail=1
    continue
  fi
  out=$("$dmconf" run --backend-lib "${lib[$name]}" --report "$tmp/$name.json" \
    --failures "$tmp/fail-$name" 2>&1)
  rc=$?
  lane=$(grep -m1 -o 'shape inference: .*' <<<"$out")
  if [ "$name" = correct ]; then
    [ "$rc" -eq 0 ] && echo "ok   correct: no failure ($lane)" || { echo "FAIL: correct: exit $rc: $lane"; fail=1; }
    continue
  fi
  verdict="${want[$name]}"
  n=$(shape_bug_count_in "$lane" "$verdict")
  if [ "$rc" -ne 1 ] || [ "$n" -lt "$shape_bug_min_cases" ]; then
    echo "FAIL: $name: dmconf run exit $rc, $verdict count $n (at least $shape_bug_min_cases wanted): $lane"
    fail=1
  else
    echo "ok   $name: caught as $verdict by $n cases"
  fi
done
exit "$fail"
