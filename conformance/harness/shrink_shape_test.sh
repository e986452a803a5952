#!/usr/bin/env bash
# Shape-lane failures are shrunk (harness/shrink/shrink_shape.h), on the seeded shape bugs of
# shape_bug_plugin.c (shape_bug_table.sh). For each bug, the default `dmconf run`:
#   - shrinks at least one of its shape-lane failures: the report's `shrunk` part names the
#     minimal case as written (`case`), its file and repro line;
#   - each minimal file is a dmconf-shape-case/1 file recording the original's verdict, and is
#     smaller than the original by the documented order (docs/shrinking.md, computed here from
#     the two files: known rank before unknown, fewer unknowns, smaller dim bounds, smaller
#     attributes, a simpler element type);
#   - the repro line of a minimal case replays it with the same verdict;
# and `dmconf shrink` takes the original shape-case file and writes a minimal one that replays
# with the same verdict.
# With SOURCE_DIR=DIR first (and the report validator installed), the reports are checked
# against reports/dmconf-report-2.schema.json.
#   shrink_shape_test.sh DMCONF [SOURCE_DIR=DIR] NAME=LIBRARY...   (NAME: shape_bug_plugin.c's variants)
set -uo pipefail
dmconf="$1"
shift
src=""
if [[ "${1:-}" == SOURCE_DIR=* ]]; then
  src="${1#SOURCE_DIR=}"
  shift
fi
source "$(dirname "$0")/shape_bug_table.sh"
shape_bug_args "$@"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

# check_report REPORT: prints "<shrunk count> <verdict> <original file> <minimal file> <repro>"
# of the first shrunk shape case, or an error line starting with "ERR".
check_report() {
  python3 - "$1" <<'PY'
import json, sys

def key(f):
    """The documented order of shape-case size, from a dmconf-shape-case/1 file."""
    shape = f["data"]["shape"]
    rank = 9 if shape is None else len(shape)
    unknowns = 1 if shape is None else 0
    bounds = 0
    for d in shape or []:
        if isinstance(d, int):
            bounds += 2 * d
        else:
            unknowns += 1
            bounds += d[0] + (d[1] if d[1] is not None else 0)
    attrs = 0
    for inp in f.get("inputs", []):
        if "values" in inp:
            attrs += sum(abs(int(v)) for v in inp["values"])
        else:
            s = inp.get("shape")
            unknowns += 1 + (1 if s is None else sum(0 if isinstance(d, int) else 1 for d in s))
    a = f.get("attributes", {})
    attrs += abs(a.get("block_size", 0))
    for k in ("sizes", "strides", "rates"):
        attrs += sum(abs(v) for v in a.get(k, []))
    attrs += 1 if a.get("auto_pad", "valid") != "valid" else 0
    simple = {"u8": 0, "i32": 1, "f32": 2}
    return (rank, unknowns, bounds, attrs, simple.get(f["data"]["type"], 3))

try:
    r = json.load(open(sys.argv[1]))
except (OSError, ValueError) as e:
    print("ERR no report:", e)
    sys.exit()
shrunk = []
for b in r["backends"]:
    for c in b["cases"]:
        if c.get("lane", "").startswith("shape_") and "shrunk" in c:
            shrunk.append(c)
if not shrunk:
    print("ERR no shape-lane case was shrunk")
    sys.exit()
for c in shrunk:
    s = c["shrunk"]
    if not s.get("case") or not s.get("vector_file") or not s.get("repro"):
        print("ERR", c["id"], "shrunk part lacks case / vector_file / repro:", s)
        sys.exit()
    orig, mini = json.load(open(c["vector_file"])), json.load(open(s["vector_file"]))
    if mini.get("schema") != "dmconf-shape-case/1":
        print("ERR", s["vector_file"], "is no dmconf-shape-case/1 file")
        sys.exit()
    if mini["failure"]["verdict"] != c["verdict"]:
        print("ERR", s["vector_file"], "records", mini["failure"]["verdict"], "not", c["verdict"])
        sys.exit()
    if not key(mini) < key(orig):
        print("ERR", s["vector_file"], "is not smaller:", key(mini), "vs", key(orig))
        sys.exit()
c = shrunk[0]
print(len(shrunk), c["verdict"], c["vector_file"], c["shrunk"]["vector_file"])
PY
}

# replays FILE VERDICT LIB: whether `dmconf run --vectors FILE` fails with VERDICT once.
replays() {
  local out
  out=$("$dmconf" run --backend-lib "$3" --vectors "$1" --quiet --no-shrink \
    --failures "$tmp/replay" 2>&1)
  [ $? -eq 1 ] && grep -q "shape inference: 1 cases .*[ ,]$2 1" <<<"$out"
}

for name in "${!want[@]}"; do
  l="${lib[$name]:-}"
  [ -n "$l" ] || { bad "$name: no library given"; continue; }
  "$dmconf" run --backend-lib "$l" --report "$tmp/$name.report.json" --failures "$tmp/f-$name" \
    --quiet >"$tmp/$name.out" 2>&1
  line=$(check_report "$tmp/$name.report.json")
  if [[ "$line" == ERR* ]]; then
    bad "$name: $line"
    continue
  fi
  read -r count verdict orig mini <<<"$line"
  if ! replays "$mini" "$verdict" "$l"; then
    bad "$name: the minimal case $mini does not replay as $verdict"
    continue
  fi
  out=$("$dmconf" shrink "$orig" --backend-lib "$l" --out "$tmp/$name.cli.min.json" 2>&1)
  rc=$?
  if [ "$rc" -ne 0 ] || ! grep -q '"schema": "dmconf-shape-case/1"' "$tmp/$name.cli.min.json" ||
    ! replays "$tmp/$name.cli.min.json" "$verdict" "$l"; then
    bad "$name: dmconf shrink $orig: exit $rc: $out"
    continue
  fi
  echo "ok   $name: $count shape failure(s) shrunk, e.g. $verdict $(grep -m1 '^minimal: ' <<<"$out")"
done
if [ -n "$src" ] && [ -f "$src/reports/validator/node_modules/ajv/package.json" ]; then
  if node "$src/reports/validator/validate.js" "$src/reports/dmconf-report-2.schema.json" \
    "$tmp"/*.report.json >"$tmp/valid.txt" 2>&1; then
    echo "ok   every report (with shrunk.case) matches the schema"
  else
    bad "a report with shrunk.case does not match the schema: $(head -5 "$tmp/valid.txt")"
  fi
fi
[ "$fail" -eq 0 ] && echo "all shape-shrinking checks passed"
exit "$fail"
