#!/usr/bin/env bash
# The options of fuzz, shrink, report * and vectors * tried as a hostile user would
# (docs/bad-input.md, "The command line"): an empty input path is cli.path.empty (measured
# before: `vectors check ""` read /MANIFEST.json, the others said "io.read: : ..." and
# `vectors verify ""` exited 1); an input given twice, or a folder and a file in it, is
# io.path.same before anything runs or is written (measured before: each ran twice under one
# case id, a report that report merge refuses); `--ops ""` and `--types ""` are
# cli.list.empty (measured before: silently all).
#   hostile_options_test.sh DMCONF SOURCE_DIR
set -uo pipefail
dmconf="$1"; src="$2"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
cd "$tmp" || exit 1
cp "$src/vectors/golden/attrs.d2s.blocks_first.b3.json" v.json
mkdir set && cp v.json set/a.json
"$dmconf" run --backend oracle --count 1 --directed-count 0 --quiet --report r.json >/dev/null 2>&1
expect() {  # expect RULE CMD...: exit 2 and RULE in the output, nothing written into out/
  local rule="$1"; shift
  rm -rf out; mkdir out
  timeout 60 "$dmconf" "$@" >o.txt 2>&1
  local rc=$?
  if [ "$rc" -eq 2 ] && grep -q "$rule" o.txt && [ -z "$(ls -A out)" ]; then
    echo "ok   $* -> $rule"
  else
    echo "FAIL $*: exit $rc, expected 2 and $rule; $(head -c 300 o.txt)"; fail=1
  fi
}
for cmd in "vectors verify" "vectors check" "vectors check-shapes" "vectors export-npy" \
           "vectors export-onnx" "report html" "report merge" "shrink"; do
  extra=()
  case "$cmd" in
    "vectors export-npy"|"vectors export-onnx") extra=(--out out/x) ;;
    "report html"|"report merge") extra=(-o out/x.json) ;;
    "shrink") extra=(--backend oracle --out out/x.json) ;;
  esac
  # shellcheck disable=SC2086
  expect cli.path.empty $cmd "" "${extra[@]}"
done
expect cli.path.empty report diff "" r.json --html out/d.html
expect cli.path.empty run --backend oracle --vectors "" --report out/r.json
expect cli.path.empty run --backend oracle --count 1 --expectations "" --report out/r.json
expect cli.path.empty vectors import-onnx --from "" --out out/imp
expect io.path.same vectors verify v.json v.json --report out/r.json
expect io.path.same vectors verify set set/a.json --report out/r.json
expect io.path.same run --backend oracle --vectors v.json --vectors ./v.json --report out/r.json
expect io.path.same vectors export-npy v.json set/../v.json --out out/np
expect io.path.same vectors export-onnx set set/a.json --out out/ox
expect cli.list.empty vectors generate --out out/set --profile smoke --ops ""
expect cli.list.empty vectors generate --out out/set --profile smoke --types ","
expect cli.list.empty run --backend oracle --count 1 --ops "" --report out/r.json
expect cli.list.empty run --backend oracle --count 1 --types "" --report out/r.json
[ "$fail" -eq 0 ] && echo "hostile_options_test: ok"
exit "$fail"
