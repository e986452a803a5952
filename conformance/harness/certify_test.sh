#!/usr/bin/env bash
# `dmconf certify` (harness/report/certificate.h), checked against independent facts:
#   - every current profile (nchw-core/2, shape-inference/2, full/2) has, for every rule of its
#     ops that its ranks can break, a negative case and a valid twin, recounted from the run's
#     report against `dmconf rules`; the rules outside the ranks are the hand-derived ones
#     (data.rank in a 4-D profile); nchw-core/1 still runs, superseded, its cases all in /2;
#     `--ops` states only the ops it names; a backend that accepts negative pads is conformant
#     to nchw-core/1 and not to nchw-core/2;
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
check "list-profiles: $rc" '[ "$rc" -eq 0 ] && grep -q "^nchw-core/2 " <<<"$out" && grep -q "^full/2 " <<<"$out" && grep -q "^shape-inference/2 " <<<"$out"'
check "list-profiles: version 1 kept, marked superseded" 'grep -q "^nchw-core/1 .*(superseded by nchw-core/2)$" <<<"$out" && grep -q "^full/1 .*(superseded by full/2)$" <<<"$out"'

out=$("$dmconf" certify --profile nchw-core --backend oracle --out "$tmp/oracle" --quiet \
  --signed-off-by $'Q <script>x</script> | a\x1b' 2>&1); rc=$?
check "oracle conformant to nchw-core: exit $rc" '[ "$rc" -eq 0 ] && grep -q "oracle is conformant to profile nchw-core/2" <<<"$out"'
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

# Rule coverage (item: a profile certifies only what it tests). The rules are `dmconf rules`'
# must_reject and unspecified rules of each op; the counts are recounted here from the run's
# report: a negative case is one expected to be refused (or unspecified) for that rule, a twin
# a valid case whose id is rule/<rule>/twin/... (a shape case's shape/rule/<rule>/twin/...).
"$dmconf" rules > "$tmp/rules.txt"
for prof in nchw-core shape-inference full; do
  out=$("$dmconf" certify --profile "$prof" --backend oracle --out "$tmp/cov-$prof" --quiet 2>&1); rc=$?
  check "oracle conformant to $prof/2: exit $rc" '[ "$rc" -eq 0 ] && grep -q "oracle is conformant to profile $prof/2" <<<"$out"'
  check "  $prof statement validates" 'validate "$tmp/cov-$prof/certificate.json"'
  python3 - "$tmp/cov-$prof" "$tmp/rules.txt" "$prof" <<'PY' || fail=1
import collections, json, re, sys
d, rules_txt, prof = sys.argv[1:4]
c = json.load(open(f"{d}/certificate.json"))
r = json.load(open(f"{d}/report.json"))
prefix = {"SpaceToBatch": "s2b", "BatchToSpace": "b2s", "SpaceToDepth": "s2d",
          "DepthToSpace": "d2s", "ExtractImagePatches": "eip"}
rules = [m.group(1) for m in re.finditer(r"^(\S+)\s+(must_reject|unspecified)\s", open(rules_txt).read(), re.M)]
neg, twin, types = collections.Counter(), collections.Counter(), collections.defaultdict(collections.Counter)
for x in r["backends"][0]["cases"]:
    types[x["op"]][x["element_type"]] += 1
    if x["expected"] in ("must_reject", "unspecified") and x["rule"]:
        neg[x["rule"]] += 1
    m = re.match(r"^(?:shape/)?rule/([^/]+)/twin/", x["id"])
    if m and x["expected"] == "valid":
        twin[m.group(1)] += 1
# Hand-derived: 4-D data cannot break a data.rank rule (ranks >= 2, >= 3, == 4); any other rule
# of the five ops has 4-D cases that break it. Profiles of every rank have no rule outside.
outside = {f"{p}.data.rank" for p in prefix.values()} if prof == "nchw-core" else set()
assert [o["op"] for o in c["coverage"]] == c["profile"]["ops"] == c["scope"]["ops"], c["scope"]
assert c["scope"]["whole_profile"] is True
for o in c["coverage"]:
    own = [x for x in rules if x.startswith(prefix[o["op"]] + ".")]
    assert len(own) >= 6, own
    assert set(o["rules_outside_ranks"]) == outside & set(own), (o["op"], o["rules_outside_ranks"])
    listed = {x["rule"]: (x["negative_cases"], x["twin_cases"]) for x in o["rules"]}
    assert set(listed) == set(own) - outside, (o["op"], set(own) - set(listed))
    for rule, (n, t) in listed.items():
        assert n >= 1 and t >= 1, f"{prof}: {rule} has {n} negative case(s), {t} twin(s)"
        assert (n, t) == (neg[rule], twin[rule]), (rule, n, t, neg[rule], twin[rule])
    assert o["rules_not_exercised"] == []
    assert o["element_types"] == dict(types[o["op"]]), o["op"]
    if prof == "nchw-core":  # every type of the profile, for every op
        assert set(o["element_types"]) == set(c["profile"]["element_types"]), o
print(f"ok   {prof}/2: every rule of its ranks has a negative case and a valid twin; counts recounted")
PY
done
check "markdown lists the rules per op" 'grep -q "^| b2s.crops.fit | [1-9][0-9]* | [1-9]" "$tmp/cov-nchw-core/certificate.md" && grep -q "no data of the profile.s ranks breaks them: s2b.data.rank" "$tmp/cov-nchw-core/certificate.md"'

# Version 1 stays reproducible: its cases are all in version 2, with the same ids; its statement
# says it is superseded and lists the rules it never exercised.
out=$("$dmconf" certify --profile nchw-core/1 --backend oracle --out "$tmp/v1" --quiet 2>&1); rc=$?
check "nchw-core/1 still runs: exit $rc, superseded" '[ "$rc" -eq 0 ] && grep -q "oracle is conformant to profile nchw-core/1" <<<"$out" && grep -q "superseded by nchw-core/2" <<<"$out" && grep -q "is superseded by" "$tmp/v1/certificate.md"'
python3 - "$tmp/v1" "$tmp/cov-nchw-core" <<'PY' || fail=1
import json, sys
c = json.load(open(f"{sys.argv[1]}/certificate.json"))
v1 = [x["id"] for x in json.load(open(f"{sys.argv[1]}/report.json"))["backends"][0]["cases"]]
v2 = {x["id"] for x in json.load(open(f"{sys.argv[2]}/report.json"))["backends"][0]["cases"]}
assert c["profile"]["superseded_by"] == "nchw-core/2" and c["profile"]["cases"]["catalogue_edition"] == 1
assert set(v1) < v2 and len(v1) == len(set(v1)), (len(v1), len(v2))
missing = {o["op"]: o["rules_not_exercised"] for o in c["coverage"]}
# At rank 4, version 1 had no SpaceToBatch or BatchToSpace rule pair.
assert "s2b.pads_begin.nonnegative" in missing["SpaceToBatch"] and "b2s.crops.fit" in missing["BatchToSpace"], missing
print(f"ok   nchw-core/1: {len(v1)} cases, all in nchw-core/2 ({len(v2)}); not exercised listed")
PY

# --ops: a statement about some of the profile's ops.
out=$("$dmconf" certify --profile nchw-core --ops b2s,s2b --backend oracle --out "$tmp/ops" --quiet 2>&1); rc=$?
check "--ops b2s,s2b: exit $rc, conformant for those ops" '[ "$rc" -eq 0 ] && grep -q "oracle is conformant for SpaceToBatch, BatchToSpace of profile nchw-core/2" <<<"$out" && grep -q "conformant for SpaceToBatch, BatchToSpace of profile nchw-core/2" "$tmp/ops/certificate.md"'
check "  --ops statement validates" 'validate "$tmp/ops/certificate.json"'
python3 - "$tmp/ops/certificate.json" "$tmp/ops/report.json" <<'PY' || fail=1
import json, sys
c = json.load(open(sys.argv[1])); r = json.load(open(sys.argv[2]))
want = {"SpaceToBatch", "BatchToSpace"}
assert c["scope"] == {"ops": ["SpaceToBatch", "BatchToSpace"], "whole_profile": False}, c["scope"]
assert len(c["profile"]["ops"]) == 5
assert {x["op"] for x in r["backends"][0]["cases"]} == want
assert {x["op"] for x in c["counts"]} == want and {o["op"] for o in c["coverage"]} == want
assert c["totals"]["cases"] == len(r["backends"][0]["cases"])
print("ok   --ops: only the named ops run and are counted")
PY
out=$("$dmconf" certify --profile nchw-core --ops d2s,s2d --backend-lib "$example" --out "$tmp/ops-example" --quiet 2>&1); rc=$?
check "example plugin, --ops d2s,s2d (what it provides): exit $rc, conformant for them" '[ "$rc" -eq 0 ] && grep -q "example is conformant for SpaceToDepth, DepthToSpace of profile nchw-core/2" <<<"$out"'
out=$("$dmconf" certify --profile shape-inference --ops d2s,bogus --backend oracle --out "$tmp/ops-bad" --quiet 2>&1); rc=$?
check "--ops with an unknown op: exit $rc, certify.ops" '[ "$rc" -eq 2 ] && grep -q "certify.ops: case.op.known: unknown op .bogus." <<<"$out"'
out=$("$dmconf" certify --profile nchw-core --ops d2s,d2s --backend oracle --out "$tmp/ops-bad" --quiet 2>&1); rc=$?
check "--ops naming an op twice: exit $rc" '[ "$rc" -eq 2 ] && grep -q "certify.ops: DepthToSpace is given twice" <<<"$out"'

# Backends that skip a must_reject check of SpaceToBatch or BatchToSpace are conformant to
# nchw-core/1 (no rank-4 pair of theirs) and not to nchw-core/2.
for m in s2b_negative_pads_accepted; do
  out=$("$dmconf" certify --profile nchw-core/1 --backend "mutant.$m" --out "$tmp/m1" --quiet 2>&1); rc1=$?
  out=$("$dmconf" certify --profile nchw-core/2 --backend "mutant.$m" --out "$tmp/m2" --quiet 2>&1); rc2=$?
  check "mutant.$m: nchw-core/1 exit $rc1 (conformant), nchw-core/2 exit $rc2 (not)" '[ "$rc1" -eq 0 ] && [ "$rc2" -eq 1 ] && grep -q "s2b.pads_begin.nonnegative" <<<"$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[\"reasons\"])" "$tmp/m2/certificate.json")$(cat "$tmp/m2/report.json")"'
done

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
