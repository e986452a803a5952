#!/usr/bin/env bash
# A plugin loaded by path goes by the name it declares (harness/backend/identity.h): two copies
# of one plugin (declared name "shape-bug", a seeded bug, so both fail) in one run are reported
# as "shape-bug" and "shape-bug-2" in the summary, the report (with `library` = the path as
# given), JUnit and the failures folder; their repro lines name the paths the user gave.
# Refused before any case runs, exit 2, nothing written (docs/bad-input.md):
# - the same library given twice (p.so and sub/../p.so, a link and its target, the example
#   plugin by its path beside --backend example): io.path.same;
# - a plugin declaring the name of one of dmconf's own backends (oracle, mutant.*, all), for
#   run and fuzz: plugin.name.builtin. The example plugin by its own path is that backend and
#   keeps its name.
#   plugin_identity_test.sh DMCONF PLUGIN SOURCE_DIR EXAMPLE_PLUGIN
set -uo pipefail
dmconf="$1"
lib="$2"
src="$3"
example="$4"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
mkdir -p "$tmp/other"
cp "$lib" "$tmp/other/copy.so"
out=$(cd "$tmp" && "$dmconf" run --backend-lib "$lib" --backend-lib other/copy.so --quiet \
  --no-shrink --no-kernels --shape-count 50 --report r.json --junit j.xml --failures f 2>&1)
rc=$?
check "the run fails (seeded bug): $rc" '[ "$rc" -eq 1 ]'
check "summary names both" 'grep -q "^== backend shape-bug:" <<<"$out" && grep -q "^== backend shape-bug-2:" <<<"$out"'
python3 - "$tmp/r.json" "$lib" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
got = [(b["name"], b.get("library")) for b in r["backends"]]
want = [("shape-bug", sys.argv[2]), ("shape-bug-2", "other/copy.so")]
assert got == want, got
for b, lib in zip(r["backends"], [sys.argv[2], "other/copy.so"]):
    repros = [c["repro"] for c in b["cases"] if c.get("failure") and "repro" in c]
    assert repros, b["name"]
    assert all(f"--backend-lib {lib} " in x for x in repros), repros[0]
print("ok   report: names, libraries and repro paths")
PY
python3 - "$tmp/j.xml" <<'PY' || fail=1
import sys, xml.etree.ElementTree as ET
suites = {s.get("name").split(".")[0] for s in ET.parse(sys.argv[1]).getroot().iter("testsuite")}
assert suites == {"shape-bug", "shape-bug-2"}, suites
print("ok   junit: suites named by the declared names")
PY
check "failures folder per declared name" '[ -d "$tmp/f/shape-bug" ] && [ -d "$tmp/f/shape-bug-2" ]'

# refused NAME RULE DMCONF_ARGS...: exit 2, the rule named, nothing written, in $tmp/NAME.
refused() {
  local name=$1 rule=$2
  shift 2
  local outputs=(--report r.json --failures f)
  [ "$1" = fuzz ] && outputs=(--failures f)
  mkdir -p "$tmp/$name"
  (cd "$tmp/$name" && "$dmconf" "$@" "${outputs[@]}" >out.txt 2>&1)
  local rc=$?
  check "$name: exit 2 ($rc)" "[ $rc -eq 2 ]"
  check "$name: $rule" 'grep -q -- "$rule" "$tmp/$name/out.txt"'  # (eval sees the locals)
  check "$name: nothing written" "[ ! -e '$tmp/$name/r.json' ] && [ ! -e '$tmp/$name/f' ]"
}
cp "$lib" "$tmp/p.so"
mkdir -p "$tmp/sub"
ln -s p.so "$tmp/link.so"
refused twice_dotdot "io.path.same: ../p.so and ../sub/../p.so are the same file" run --backend-lib ../p.so \
  --backend-lib ../sub/../p.so --no-kernels --shape-count 5
refused twice_link "io.path.same: ../p.so and ../link.so are the same file" run --backend-lib ../p.so \
  --backend-lib ../link.so --no-kernels --shape-count 5
refused example_twice "io.path.same: .* and $example are the same file" run --backend example \
  --backend-lib "$example" --count 5

# Plugins that declare a built-in's name: the guide's minimal plugin, renamed.
for name in oracle mutant.d2s_mode_swapped all; do
  sed "s/\"minimal\"/\"$name\"/" "$src/harness/plugin/examples/minimal_plugin.c" >"$tmp/$name.c"
  cc -shared -fPIC -I"$src" -o "$tmp/lib$name.so" "$tmp/$name.c"
  refused "builtin_$name" "plugin.name.builtin: ../lib$name.so declares the name '$name', which is the name of one of dmconf's own backends" \
    run --backend-lib "../lib$name.so" --count 5
done
refused builtin_fuzz "plugin.name.builtin: ../liboracle.so declares the name 'oracle'" \
  fuzz --backend-lib ../liboracle.so --time 1
refused builtin_beside_oracle "plugin.name.builtin" run --backend oracle --backend-lib ../liboracle.so \
  --count 5

# The example plugin by its own path is the example backend: it keeps its name.
(cd "$tmp" && "$dmconf" run --backend-lib "$example" --count 5 --no-shrink --quiet \
  --report ex.json >ex.out 2>&1)
check "the example plugin by its path runs ($?)" "grep -q '^OK:' '$tmp/ex.out'"
check "and goes by its name" "python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(r[\"backends\"][0][\"name\"] != \"example\")' '$tmp/ex.json'"
exit "$fail"
