#!/usr/bin/env bash
# Every report a command writes validates against its schema, whatever a plugin declared or a
# shard report claims (docs/bad-input.md, "Plugins and backends" and "Files dmconf reads"):
#  - run and fuzz with plugins whose capabilities lie (negative ranks, min_rank above
#    max_rank, a count of 2^30 ops with a table of one): exit 2 naming
#    plugin.capabilities.rank / .count before any case runs, and no report written;
#  - run of the plugin with hostile text in its name and modes, sharded in two, and the merge
#    of the shards: every report validates (Ajv); fuzz of it: its findings read back;
#  - merges of shards whose slice counts sum past 2^63-1, or hold a negative count or rank:
#    exit 2 naming report.merge.count_overflow / report.field.value, no report written
#    (measured before: the merged count was -2, and negative ranks were written as read).
#   hostile_reports_test.sh DMCONF SOURCE_DIR TEXT_PLUGIN NEG_RANK HUGE_COUNT RANK_ORDER
set -uo pipefail
dmconf="$1"; src="$2"; text="$3"; neg_rank="$4"; huge_count="$5"; rank_order="$6"
validator="$src/reports/validator/validate.js"
schema="$src/reports/dmconf-report-2.schema.json"
if [ ! -f "$src/reports/validator/node_modules/ajv/package.json" ]; then
  echo "hostile_reports_test: Ajv is not installed"; exit 77
fi
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
cd "$tmp" || exit 1
for liar in "$neg_rank:plugin.capabilities.rank" "$rank_order:plugin.capabilities.rank" \
            "$huge_count:plugin.capabilities.count"; do
  lib="${liar%%:*}"; rule="${liar##*:}"; name=$(basename "$lib")
  rm -f liar.json
  "$dmconf" run --backend-lib "$lib" --count 5 --report liar.json --failures lf >liar.out 2>&1
  rc=$?
  [ "$rc" -eq 2 ] && grep -q "$rule" liar.out && [ ! -e liar.json ] && [ ! -e lf ]
  check_rc "run $name: exit $rc, $rule, nothing written" $? "$(head -c 600 liar.out)"
  timeout 60 "$dmconf" fuzz --backend-lib "$lib" --time 2 --quiet --failures ff >fuzz.out 2>&1
  rc=$?
  [ "$rc" -eq 2 ] && grep -q "$rule" fuzz.out && [ ! -e ff ]
  check_rc "fuzz $name: exit $rc, $rule" $? "$(head -c 600 fuzz.out)"
done
# The hostile text plugin, sharded, and the merge: all validate.
for k in 1 2; do
  "$dmconf" run --backend-lib "$text" --ops d2s,s2d --count 10 --directed-count 0 --no-shrink \
    --shard "$k/2" --report "s$k.json" --failures f >"s$k.out" 2>&1
done
"$dmconf" report merge s1.json s2.json -o merged.json --junit merged.xml >merge.out 2>&1
rc=$?
out=$(node "$validator" "$schema" s1.json s2.json merged.json 2>&1)
check_rc "shards of the hostile-text plugin and their merge (exit $rc) validate" $? "$out"
# fuzz writes no report: its findings are vector files, which must read back (every file
# parses and `vectors verify` on the oracle reads each one: exit 0, no file error).
timeout 120 "$dmconf" fuzz --backend-lib "$text" --time 3 --no-shrink --quiet --failures found \
  >fuzz-text.out 2>&1
rc=$?
n=$(find found -name '*.json' | wc -l)
[ "$rc" -eq 1 ] && [ "$n" -gt 0 ] && "$dmconf" vectors verify found --backend oracle --quiet \
  >verify-found.out 2>&1
check_rc "fuzz of the hostile-text plugin: exit $rc, $n finding file(s), each reads back" $? \
  "$(head -c 600 fuzz-text.out; head -c 600 verify-found.out 2>/dev/null)"
# Forged counts and ranks in the shards.
forge() {  # forge WHAT: writes t1.json, t2.json from s1.json, s2.json
  python3 - "$1" <<'PY'
import json, sys
what = sys.argv[1]
for k in (1, 2):
    r = json.load(open("s%d.json" % k))
    b = r["backends"][0]
    if what == "overflow":
        b["slices"][0]["cases_in_run"] = 2**63 - 1
    elif what == "negative_count" and k == 2:
        b["slices"][0]["ran"] = -1
    elif what == "negative_rank":
        b["capabilities"]["ops"][0]["min_rank"] = -3
    json.dump(r, open("t%d.json" % k, "w"))
PY
}
for case in overflow:report.merge.count_overflow negative_count:report.field.value \
            negative_rank:report.field.value; do
  what="${case%%:*}"; rule="${case##*:}"
  forge "$what"
  rm -f tm.json
  "$dmconf" report merge t1.json t2.json -o tm.json >tm.out 2>&1
  rc=$?
  [ "$rc" -eq 2 ] && grep -q "$rule" tm.out && [ ! -e tm.json ]
  check_rc "merge of shards with a forged $what: exit $rc, $rule, nothing written" $? \
    "$(head -c 600 tm.out; [ -e tm.json ] && node "$validator" "$schema" tm.json 2>&1 | head -5)"
done
[ "$fail" -eq 0 ] && echo "hostile_reports_test: ok"
exit "$fail"
