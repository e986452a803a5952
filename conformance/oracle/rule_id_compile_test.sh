#!/usr/bin/env bash
# Rule ids are checked by the compiler (oracle/rule_id.h): a RuleId made from an id in the rule
# table compiles, a misspelt one does not.
#   rule_id_compile_test.sh CXX SOURCE_DIR
set -uo pipefail
cxx="$1" src="$2"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
snippet() {
  printf '#include "oracle/rule_id.h"\nconstexpr dmconf::RuleId kRule{"%s"};\nint main() { return kRule.id().empty(); }\n' "$1" >"$tmp/t.cc"
  "$cxx" -std=c++20 -fsyntax-only -I"$src" "$tmp/t.cc" 2>"$tmp/err"
}
fail=0
if ! snippet "s2d.block_size.divides"; then
  echo "FAIL: a rule id from the table must compile:"; head -5 "$tmp/err"; fail=1
fi
if snippet "s2d.block_size.divide"; then
  echo "FAIL: a misspelt rule id compiled"; fail=1
elif ! grep -q "unknown rule id" "$tmp/err"; then
  echo "FAIL: the compile error does not say why:"; head -5 "$tmp/err"; fail=1
fi
[ "$fail" -eq 0 ] && echo "rule ids: checked at compile time"
exit "$fail"
