#!/usr/bin/env bash
# `dmconf certify` (harness/report/certificate.h), checked against independent facts:
#   - the oracle is conformant to nchw-core; the statement validates against its schema, its
#     totals equal the sums of its counts and the run report's case count, every kernel case has
#     rank 4 and a type of the profile, and its digest is the SHA-256 of its own text;
#   - the example plugin (DepthToSpace and SpaceToDepth only) is not conformant, for its
#     unsupported cases; its SHA-256 is sha256sum's, its name the one it declares;
#   - a plugin with a seeded shape bug and its failures listed as known is not conformant, and
#     each known failure is in the statement with its reason;
#   - hostile text (--signed-off-by with markup, a pipe and a control byte) is escaped in the
#     Markdown statement;
#   - usage errors exit 2: an unknown profile, several backends.
#   certify_test.sh DMCONF SOURCE_DIR EXAMPLE_PLUGIN SHAPE_BUG_PLUGIN
set -uo pipefail
dmconf="$1"; src="$2"; example="$3"; buggy="$4"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
validator="$src/reports/validator/validate.js"
schema="$src/reports/dmconf-certificate-1.schema.json"
validate() {
  if [ -f "$src/reports/validator/node_modules/ajv/package.json" ]; then
    node "$validator" "$schema" "$1" >/dev/null
  else
    echo "note: Ajv not installed; schema not checked"
  fi
}

out=$("$dmconf" certify --list-profiles); rc=$?
check "list-profiles: $rc" '[ "$rc" -eq 0 ] && grep -q "^nchw-core/1 " <<<"$out" && grep -q "^full/1 " <<<"$out" && grep -q "^shape-inference/1 " <<<"$out"'

out=$("$dmconf" certify --profile nchw-core --backend oracle --out "$tmp/oracle" --quiet \
  --signed-off-by $'Q <script>x</script> | a\x1b' 2>&1); rc=$?
check "oracle conformant to nchw-core: exit $rc" '[ "$rc" -eq 0 ] && grep -q "oracle is conformant to profile nchw-core/1" <<<"$out"'
check "oracle statement validates" 'validate "$tmp/oracle/certificate.json"'
python3 - "$tmp/oracle" <<'PY' || fail=1
import hashlib, json, sys
d = sys.argv[1]
c = json.load(open(f"{d}/certificate.json"))
r = json.load(open(f"{d}/report.json"))
assert c["verdict"] == "conformant" and c["reasons"] == [], c["reasons"]
t = c["totals"]
for k in ("cases", "passed", "new_failures", "known_failures", "unsupported"):
    assert t[k] == sum(x[k] for x in c["counts"]), k
assert t["cases"] == len(r["backends"][0]["cases"]) > 100, t
assert t["cases"] == sum(x["cases"] for x in c["status_matrix"])
types = {"f32", "f16", "bf16", "i32", "i8", "u8"}
assert all(x["rank"] == 4 and x["element_type"] in types for x in c["status_matrix"]
           if x["lane"] == "kernel"), "a kernel case outside the profile"
assert {x["op"] for x in c["counts"]} == set(c["profile"]["ops"]) and len(c["profile"]["ops"]) == 5
assert all(x["status"] == "implemented" for x in c["status_matrix"])
body = dict(c); digest = body.pop("digest")
text = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
assert hashlib.sha256(text.encode()).hexdigest() == digest, "digest"
print("ok   oracle statement: totals, ranks, types, ops and digest")
PY
md="$tmp/oracle/certificate.md"
check "markdown: no raw tag or control byte" '! grep -q "<script>" "$md" && ! grep -q $'"'"'\x1b'"'"' "$md" && grep -q "&lt;script&gt;" "$md"'
check "markdown: the signed-off row keeps its columns" '[ "$(grep "^| signed off by" "$md" | sed "s/\\\\|//g" | tr -cd "|" | wc -c)" -eq 3 ]'

out=$("$dmconf" certify --profile nchw-core --backend-lib "$example" --out "$tmp/example" --quiet 2>&1); rc=$?
check "example plugin not conformant: exit $rc" '[ "$rc" -eq 1 ] && grep -q "unsupported" <<<"$out"'
python3 - "$tmp/example/certificate.json" "$(sha256sum "$example" | cut -d" " -f1)" "$example" <<'PY' || fail=1
import json, sys
c = json.load(open(sys.argv[1]))
b = c["backend"]
assert b == {"name": "example", "library": sys.argv[3], "sha256": sys.argv[2]}, b
assert c["verdict"] == "not conformant" and any("unsupported" in x for x in c["reasons"])
st = {(x["op"], x["status"]) for x in c["status_matrix"]}
assert ("SpaceToBatch", "unsupported") in st and ("DepthToSpace", "implemented") in st, st
print("ok   example statement: name, library, sha256, matrix")
PY
check "example statement validates" 'validate "$tmp/example/certificate.json"'

cat > "$tmp/known.json" <<'JSON'
{"format": "dmconf-expectations/1",
 "known_failures": [{"backend": "shape-bug", "case": "*",
                     "reason": "seeded bug ceil_off_by_one | <b>listed</b>"}]}
JSON
out=$("$dmconf" certify --profile shape-inference --backend-lib "$buggy" --out "$tmp/buggy" \
  --expectations "$tmp/known.json" --quiet 2>&1); rc=$?
check "seeded shape bug, failures known: not conformant, exit $rc" '[ "$rc" -eq 1 ] && grep -q "known failure" <<<"$out"'
python3 - "$tmp/buggy/certificate.json" "$tmp/known.json" <<'PY' || fail=1
import json, sys
c = json.load(open(sys.argv[1]))
listed = c["known_failures"]
assert c["totals"]["new_failures"] == 0 and c["totals"]["known_failures"] == len(listed) > 0
assert all(k["reason"] == "seeded bug ceil_off_by_one | <b>listed</b>" and k["lane"] == "shape"
           for k in listed)
assert c["profile"]["lanes"] == ["shape"] and {x["lane"] for x in c["counts"]} == {"shape"}
print(f"ok   {len(listed)} known failures in the statement with their reasons")
PY
check "markdown: known reasons escaped" 'grep -q "seeded bug ceil\\_off\\_by\\_one \\| &lt;b&gt;listed&lt;/b&gt;" "$tmp/buggy/certificate.md"'

out=$("$dmconf" certify --profile no-such --backend oracle --out "$tmp/x" 2>&1); rc=$?
check "unknown profile: exit $rc" '[ "$rc" -eq 2 ] && grep -q "certify.profile" <<<"$out"'
out=$("$dmconf" certify --profile full --backend oracle,direct --out "$tmp/x" 2>&1); rc=$?
check "two backends refused: exit $rc" '[ "$rc" -eq 2 ] && grep -q "certify.backend" <<<"$out"'
exit "$fail"
