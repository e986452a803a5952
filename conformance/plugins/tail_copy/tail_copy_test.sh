#!/usr/bin/env bash
# One copy-tail bug, every route (issue: one case selection for every route). The tail_copy
# plugin (README.md: written apart from dmconf's generators, from the specifications) in its
# correct form passes, and each of its seeded row-copy tail bugs is caught, with at least 5
# failing cases, each `wrong_values` of the bug's own op, by
#   - `dmconf run` (the default catalogue);
#   - the per-op kernel tests of dmconf_add_backend_tests (their command line:
#     `run --ops X --no-shapes --require-cases --strict-coverage`), summed over the bug's ops;
#   - the golden vectors of its op (`run --vectors GOLDEN --ops X --no-catalogue`, the vectors
#     test of dmconf_add_backend_tests);
#   - `dmconf certify --profile nchw-core --ops X`: not conformant, 5 new failures or more;
# and a NaN read from another element's place is wrong_values in both NaN modes (docs/errata.md
# D9): cases/moved_quiet_nan.json, found by `dmconf fuzz` on depth_tail_from_vec, an f8e5m2
# DepthToSpace whose tail copy puts the quiet NaN 0x7f of input 608 where the signalling NaN 0x7d
# of input 624 belongs (so the output alone looks like 0x7d quieted in place).
#   tail_copy_test.sh DMCONF PLUGIN_DIR GOLDEN_DIR
set -uo pipefail
dmconf="$1"; dir="$2"; golden="$3"
source "$(dirname "${BASH_SOURCE[0]}")/../../harness/check_lib.sh"
# variant: the ops its bug is in
variants=(tail_copy_bug_b2s_no_tail:b2s tail_copy_bug_b2s_tail_elems:b2s
          tail_copy_bug_s2b_src_stride:s2b tail_copy_bug_s2b_tail_off_by_one:s2b
          tail_copy_bug_depth_tail_odd_byte:d2s,s2d tail_copy_bug_depth_tail_from_vec:d2s,s2d)
all_ops=b2s,s2b,d2s,s2d
# failing OPS REPORT...: the failing cases of the reports; exit 1 unless each is wrong_values
# of one of OPS (prefixes)
failing() {
  python3 - "$@" <<'PY'
import json, sys
prefix = {"SpaceToBatch": "s2b", "BatchToSpace": "b2s", "SpaceToDepth": "s2d",
          "DepthToSpace": "d2s", "ExtractImagePatches": "eip"}
ops = sys.argv[1].split(",")
n = 0
for path in sys.argv[2:]:
    for c in json.load(open(path))["backends"][0]["cases"]:
        if not c.get("failure"):
            continue
        if c["verdict"] != "wrong_values" or prefix[c["op"]] not in ops:
            print(f"unexpected: {c['id']} {c['verdict']}", file=sys.stderr)
            sys.exit(1)
        n += 1
print(n)
PY
}
q=(--quiet --no-shrink)

lib="$dir/libdmconf_plugin_tail_copy.so"
"$dmconf" run --backend-lib "$lib" "${q[@]}" --report "$tmp/ok.json" --failures "$tmp/ok-f" >/dev/null 2>&1
rc1=$?
"$dmconf" run --backend-lib "$lib" --vectors "$golden" --no-catalogue "${q[@]}" \
  --report "$tmp/ok-v.json" --failures "$tmp/ok-f" >/dev/null 2>&1
rc2=$?
"$dmconf" certify --profile nchw-core --ops "$all_ops" --backend-lib "$lib" --out "$tmp/ok-c" --quiet >/dev/null 2>&1
rc3=$?
check "the correct plugin passes run ($rc1), the golden vectors ($rc2) and certify ($rc3)" \
  '[ "$rc1" -eq 0 ] && [ "$rc2" -eq 0 ] && [ "$rc3" -eq 0 ]'

for v in "${variants[@]}"; do
  name=${v%%:*}; ops=${v#*:}; lib="$dir/libdmconf_plugin_$name.so"; o="$tmp/$name"
  "$dmconf" run --backend-lib "$lib" "${q[@]}" --report "$o.run.json" --failures "$o-f" >/dev/null 2>&1
  n_run=$(failing "$ops" "$o.run.json") || n_run=-1
  reports=()
  for op in ${ops//,/ }; do
    "$dmconf" run --backend-lib "$lib" --ops "$op" --no-shapes --require-cases --strict-coverage \
      "${q[@]}" --report "$o.$op.json" --failures "$o-f" >/dev/null 2>&1
    reports+=("$o.$op.json")
  done
  n_op=$(failing "$ops" "${reports[@]}") || n_op=-1
  "$dmconf" run --backend-lib "$lib" --vectors "$golden" --no-catalogue --ops "$ops" "${q[@]}" \
    --report "$o.vec.json" --failures "$o-f" >/dev/null 2>&1
  n_vec=$(failing "$ops" "$o.vec.json") || n_vec=-1
  "$dmconf" certify --profile nchw-core --ops "$ops" --backend-lib "$lib" --out "$o.cert" --quiet >/dev/null 2>&1
  rc=$?
  n_cert=$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1])); print(c["totals"]["new_failures"] if c["verdict"] == "not conformant" else 0)' "$o.cert/certificate.json" 2>/dev/null || echo -1)
  check "${name#tail_copy_}: run $n_run, per-op tests $n_op, golden vectors $n_vec, certify $n_cert (exit $rc) failing cases" \
    '[ "$n_run" -ge 5 ] && [ "$n_op" -ge 5 ] && [ "$n_vec" -ge 5 ] && [ "$n_cert" -ge 5 ] && [ "$rc" -eq 1 ]'
done
lib="$dir/libdmconf_plugin_tail_copy_bug_depth_tail_from_vec.so"
case="$(dirname "${BASH_SOURCE[0]}")/cases/moved_quiet_nan.json"
for mode in strict lenient; do
  "$dmconf" run --backend-lib "$lib" --vectors "$case" --nan-payload "$mode" "${q[@]}" \
    --report "$tmp/nan-$mode.json" --failures "$tmp/nan-f" >/dev/null 2>&1
  rc=$?
  verdict=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["backends"][0]["cases"][0]["verdict"])' "$tmp/nan-$mode.json" 2>/dev/null)
  check "a moved quiet NaN, --nan-payload $mode: exit $rc, $verdict" '[ "$rc" -eq 1 ] && [ "$verdict" = wrong_values ]'
done
"$dmconf" run --backend-lib "$dir/libdmconf_plugin_tail_copy.so" --vectors "$case" --nan-payload lenient \
  "${q[@]}" --report "$tmp/nan-ok.json" --failures "$tmp/nan-f" >/dev/null 2>&1
rc=$?
check "  the correct plugin passes it: exit $rc" '[ "$rc" -eq 0 ]'
exit "$fail"
