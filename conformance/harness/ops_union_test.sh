#!/usr/bin/env bash
# One case selection for every op filter (docs/generators.md, "One case per id, whatever
# --ops"): for each backend below, `dmconf run` with the same options, once for every op and
# once per op (--ops X), must give
#   - per op, only cases of that op, and the same verdict for each id as the full run;
#   - together, exactly the full run's case ids (kernel and shape lane), each once;
#   - the same saved failure files, byte for byte (so the same cases, not only the same ids:
#     the saved file holds the whole case, data and shape included);
# and an expectations file written by the full run (--update-expectations) serves each per-op
# run unchanged under --strict-expectations: no new failure, no stale entry (exit 0).
# The widened catalogue cases `shape/<id>` included: each is seeded by its id, so --ops does
# not change it (docs/generators.md).
# Backends: the oracle (every case passes), mutant.neg_zero_flush (kernel failures on every
# op; a mutant's failures are scored, not listed as new, so it has no expectations part), a
# DepthToSpace plugin wrong on every case (kernel failures; its entries are idle in the other
# ops' runs: the expectations part) and a shape-inference plugin with a seeded bug (shape
# failures on every op; the generated and boundary shape cases compared).
#   ops_union_test.sh DMCONF ALWAYS_WRONG_D2S_LIBRARY SHAPE_BUG_LIBRARY
set -uo pipefail
dmconf="$1"
wrong_lib="$2"
shape_lib="$3"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
ops=(SpaceToBatch BatchToSpace SpaceToDepth DepthToSpace ExtractImagePatches)

run() {  # run NAME OUT [dmconf run options]: report OUT.json, failures OUT-f, status in OUT.rc
  local out="$2"
  shift 2
  "$dmconf" run "$@" --count 300 --no-shrink --quiet --report "$out.json" \
    --failures "$out-f" >"$out.log" 2>&1
  echo $? >"$out.rc"
}

compare() {  # compare DIR: the full run DIR/all against the per-op runs DIR/<op>
  python3 - "$1" "${ops[@]}" <<'EOF'
import json, os, sys
d, ops = sys.argv[1], sys.argv[2:]
def cases(name):
    r = json.load(open(os.path.join(d, name + ".json")))
    out = {}
    for b in r["backends"]:
        for c in b["cases"]:
            key = (b["name"], c["id"])
            if key in out:
                sys.exit(f"{name}: case {key} twice")
            out[key] = (c["op"], c["verdict"])
    return out
full = cases("all")
union = {}
for op in ops:
    part = cases(op)
    wrong_op = [k for k, v in part.items() if v[0] != op]
    if wrong_op:
        sys.exit(f"--ops {op} ran cases of other ops: {wrong_op[:3]}")
    for k, v in part.items():
        if k in union:
            sys.exit(f"case {k} in two per-op runs")
        if k not in full:
            sys.exit(f"--ops {op} ran {k}, which the full run did not")
        if full[k] != v:
            sys.exit(f"{k}: verdict {v[1]} under --ops {op}, {full[k][1]} in the full run")
        union[k] = v
missing = sorted(set(full) - set(union))
if missing:
    sys.exit(f"{len(missing)} case(s) of the full run in no per-op run, e.g. {missing[:3]}")
if not full:
    sys.exit("the full run has no case")
print(f"{len(full)} cases: the union of the per-op runs")
EOF
}

same_files() {  # same_files DIR: DIR/all-f against the union of DIR/<op>-f
  local d="$1" n=0 f rel
  while IFS= read -r f; do
    rel=${f#"$d/all-f/"}
    local found=""
    for op in "${ops[@]}"; do
      [ -f "$d/$op-f/$rel" ] && found="$d/$op-f/$rel"
    done
    if [ -z "$found" ]; then
      echo "  $rel: saved by the full run, by no per-op run"
      return 1
    fi
    cmp -s "$f" "$found" || { echo "  $rel: differs from $found"; return 1; }
    n=$((n + 1))
  done < <(find "$d/all-f" -type f -name '*.json' 2>/dev/null | sort)
  local per_op
  per_op=$(for op in "${ops[@]}"; do
    find "$d/$op-f" -type f -name '*.json' 2>/dev/null
  done | wc -l)
  [ "$per_op" -eq "$n" ] || { echo "  $per_op files saved per op, $n by the full run"; return 1; }
  echo "  $n failure files the same"
  [ "$n" -gt 0 ]
}

for spec in "oracle:--backend oracle" "neg_zero_flush:--backend mutant.neg_zero_flush" \
  "always_wrong:--backend-lib $wrong_lib" "shape_bug:--backend-lib $shape_lib"; do
  name=${spec%%:*}
  read -r -a args <<<"${spec#*:}"
  d="$tmp/$name"
  mkdir -p "$d"
  run "$name" "$d/all" "${args[@]}"
  for op in "${ops[@]}"; do run "$name" "$d/$op" "${args[@]}" --ops "$op"; done
  out=$(compare "$d" 2>&1)
  rc=$?
  check_rc "$name: run --ops X, for each X, together make run's cases, verdicts kept ($out)" \
    "$rc" "$out"
  if [ "$name" = oracle ]; then
    check "oracle: every run passes" \
      "[ \"\$(cat '$d'/*.rc | sort -u)\" = 0 ]"
    continue
  fi
  out=$(same_files "$d")
  rc=$?
  check_rc "$name: the same failure files, byte for byte ($(tail -1 <<<"$out"))" "$rc" "$out"
  case "$name" in always_wrong | shape_bug) ;; *) continue ;; esac  # expectations part
  # The full run's expectations file, unchanged, in the per-op runs.
  "$dmconf" run "${args[@]}" --count 300 --no-shrink --quiet --failures "$d/exp-f" \
    --update-expectations "$d/known.json" >"$d/update.log" 2>&1
  check "$name: --update-expectations wrote the full run's failures as known" \
    "grep -q 'added [1-9][0-9]* new failure(s) as known' '$d/update.log'"
  status=0
  for op in "${ops[@]}"; do
    "$dmconf" run "${args[@]}" --ops "$op" --count 300 --no-shrink --quiet \
      --failures "$d/exp-$op-f" --expectations "$d/known.json" --strict-expectations \
      >"$d/exp-$op.log" 2>&1 || { status=1; echo "--ops $op:"; tail -5 "$d/exp-$op.log"; }
  done
  check_rc "$name: the full run's --update-expectations file passes every --ops run, strict" \
    "$status"
done
exit "$fail"
