#!/usr/bin/env bash
# Concurrent runs on the same output paths (docs/bad-input.md, "Files dmconf writes"): 16 runs
# with different seeds and counts write the same --report, --junit and --html at once.
# Afterwards each file parses, and the three come from one run: the report's seed is the one
# in the HTML page's data, and the JUnit test cases are exactly the report's cases (run k has
# k sweep cases more than the curated ones).
#   concurrent_outputs_test.sh DMCONF
set -uo pipefail
dmconf="$1"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
check_set() {
  python3 - "$tmp/out" <<'PY'
import json, re, sys, xml.etree.ElementTree as ET
d = sys.argv[1]
report = json.load(open(d + "/r.json"))
seed = report["options"]["seed"]
ids = sorted(c["id"] for b in report["backends"] for c in b["cases"])
junit = ET.parse(d + "/j.xml").getroot()
jids = sorted(t.get("name") for t in junit.iter("testcase"))
page = open(d + "/r.html", encoding="utf-8").read()
m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
data = json.loads(m.group(1))
hseed = data["options"]["seed"]
if ids != jids or hseed != seed:
    print("mixed: report seed %s, html seed %s, report %d cases, junit %d cases, same ids: %s"
          % (seed, hseed, len(ids), len(jids), ids == jids))
    sys.exit(1)
PY
}
for trial in 1 2 3 4; do
  rm -rf "$tmp/out"; mkdir -p "$tmp/out"
  pids=()
  for seed in $(seq 1 16); do
    "$dmconf" run --backend oracle --ops d2s,s2d --count "$seed" --directed-count 0 --quiet \
      --seed $((seed * 1000 + trial)) --report "$tmp/out/r.json" --junit "$tmp/out/j.xml" \
      --html "$tmp/out/r.html" --failures "$tmp/out/f" >"$tmp/out/run$seed.txt" 2>&1 &
    pids+=($!)
  done
  for p in "${pids[@]}"; do
    wait "$p" || { echo "FAIL trial $trial: a run exited $?"; fail=1; }
  done
  if ! check_set; then echo "FAIL trial $trial: outputs of different runs mixed"; fail=1; fi
  leftovers=$(find "$tmp/out" -maxdepth 1 -name '.*' | wc -l)
  [ "$leftovers" -eq 0 ] || { echo "FAIL trial $trial: $leftovers hidden file(s) left"; fail=1; }
done
[ "$fail" -eq 0 ] && echo "concurrent_outputs_test: ok"
exit "$fail"
