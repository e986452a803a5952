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
#   - usage errors exit 2: an unknown profile, several backends;
#   - the statement is bound to what ran (self_changing_plugin.c): it names the SHA-256 of the
#     run's report, JUnit and HTML page and the run id the report records; a plugin that
#     rewrites the file it was loaded from cannot (every worker loads a sealed copy of the
#     bytes hashed before the run: the statement's SHA-256 is theirs, no worker ran anything
#     else); one that replaces or removes its file on disk gets no statement
#     (certify.plugin.changed, exit 2), and an older statement in the folder is removed, its
#     report, JUnit and HTML replaced by this run's; a plugin that needs $ORIGIN in its RUNPATH
#     is refused with the loader's message and a note (it runs under `dmconf run`).
#   certify_test.sh DMCONF SOURCE_DIR EXAMPLE_PLUGIN SHAPE_BUG_PLUGIN SELF_CHANGING_DIR
set -uo pipefail
dmconf="$1"; src="$2"; example="$3"; buggy="$4"; selfdir="$5"
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

# The statement and its run's outputs name each other.
python3 - "$tmp/oracle" <<'PY' || fail=1
import hashlib, json, sys
d = sys.argv[1]
c = json.load(open(f"{d}/certificate.json"))
r = json.load(open(f"{d}/report.json"))
run = c["run"]
for role, name in (("report", "report.json"), ("junit", "junit.xml"), ("html", "report.html")):
    assert run[role]["file"] == name, run
    assert run[role]["sha256"] == hashlib.sha256(open(f"{d}/{name}", "rb").read()).hexdigest(), role
assert r["options"]["certificate"] == {"id": run["id"], "file": "certificate.json"}, r["options"]
print("ok   the statement names its report's, JUnit's and page's SHA-256; the report its id")
PY

# Plugins that change their own file during the run (self_changing_plugin.c). Each copy lives
# in a folder of its own; the marker makes the change happen once.
sha() { sha256sum "$1" | cut -d" " -f1; }
passes() {  # the number of passing cases in a report
  python3 -c 'import json,sys; print(sum(c["verdict"] == "pass" for c in json.load(open(sys.argv[1]))["backends"][0]["cases"]))' "$1"
}
self_certify() {  # MODE OUT: certify a fresh copy of the MODE variant into OUT
  mkdir -p "$tmp/$1"; cp "$selfdir/libdmconf_self_changing_$1.so" "$tmp/$1/libself.so"
  DMCONF_SELF_WITH="$example" DMCONF_SELF_PATH="$tmp/$1/libself.so" \
    DMCONF_SELF_MARKER="$tmp/$1/marker" "$dmconf" certify --profile nchw-core \
    --backend-lib "$tmp/$1/libself.so" --out "$2" --quiet 2>&1
}

before=$(sha "$selfdir/libdmconf_self_changing_rewrite_self.so")
out=$(self_certify rewrite_self "$tmp/c-rewrite"); rc=$?
check "a plugin rewriting the file it was loaded from: exit $rc (not conformant)" '[ "$rc" -eq 1 ] && [ -e "$tmp/rewrite_self/marker" ]'
check "  its file is untouched (the sealed copy refused the write)" '[ "$(sha "$tmp/rewrite_self/libself.so")" = "$before" ]'
check "  the statement names the SHA-256 hashed before the run" '[ "$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"backend\"][\"sha256\"])" "$tmp/c-rewrite/certificate.json")" = "$before" ]'
check "  no worker ran another file: no case passed" '[ "$(passes "$tmp/c-rewrite/report.json")" -eq 0 ]'

# An older statement in the folder (the oracle's, conformant), then a failed certify there.
cp -r "$tmp/oracle" "$tmp/c-remove"
old_sums=$(cd "$tmp/c-remove" && sha256sum report.json junit.xml report.html)
out=$(self_certify remove_named "$tmp/c-remove"); rc=$?
check "a plugin removing its file: exit $rc, certify.plugin.changed" '[ "$rc" -eq 2 ] && grep -q "certify.plugin.changed: $tmp/remove_named/libself.so changed during the run" <<<"$out"'
check "  no statement left in the folder (the older one removed)" '[ ! -e "$tmp/c-remove/certificate.json" ] && [ ! -e "$tmp/c-remove/certificate.md" ]'
check "  report, JUnit and HTML are this run's" '(cd "$tmp/c-remove" && ! sha256sum report.json junit.xml report.html | grep -qxFf <(echo "$old_sums")) && python3 -c "import json,sys; r=json.load(open(sys.argv[1])); assert r[\"backends\"][0][\"name\"] == \"self-changing\" and \"certificate\" in r[\"options\"]" "$tmp/c-remove/report.json"'
check "  no leftover temporary" '[ -z "$(find "$tmp/c-remove" -maxdepth 1 -name ".*dmconf-tmp*")" ]'

out=$(self_certify replace_named "$tmp/c-replace"); rc=$?
check "a plugin replacing its file by another plugin: exit $rc, certify.plugin.changed" '[ "$rc" -eq 2 ] && grep -q "certify.plugin.changed" <<<"$out" && [ ! -e "$tmp/c-replace/certificate.json" ]'
check "  the file was replaced, and no worker loaded the replacement: no case passed" '[ "$(sha "$tmp/replace_named/libself.so")" = "$(sha "$example")" ] && [ "$(passes "$tmp/c-replace/report.json")" -eq 0 ]'

origin="$selfdir/libdmconf_self_changing_origin.so"
out=$("$dmconf" run --backend-lib "$origin" --ops d2s --count 5 --quiet 2>&1); rc=$?
check "a plugin needing \$ORIGIN runs under dmconf run: exit $rc" '[ "$rc" -eq 0 ]'
out=$("$dmconf" certify --profile nchw-core --backend-lib "$origin" --out "$tmp/c-origin" --quiet 2>&1); rc=$?
check "  certify refuses it with the loader's message and a note: exit $rc" '[ "$rc" -eq 2 ] && grep -q "backend.startup: .*plugin.load: $origin: libdmconf_self_changing_dep.so: cannot open shared object file.*RUNPATH or RPATH names \$ORIGIN" <<<"$out" && [ ! -e "$tmp/c-origin/report.json" ]'

out=$("$dmconf" certify --profile no-such --backend oracle --out "$tmp/x" 2>&1); rc=$?
check "unknown profile: exit $rc" '[ "$rc" -eq 2 ] && grep -q "certify.profile" <<<"$out"'
out=$("$dmconf" certify --profile full --backend oracle,direct --out "$tmp/x" 2>&1); rc=$?
check "two backends refused: exit $rc" '[ "$rc" -eq 2 ] && grep -q "certify.backend" <<<"$out"'
exit "$fail"
