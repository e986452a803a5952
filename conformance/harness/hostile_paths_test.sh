#!/usr/bin/env bash
# Hostile paths given to the commands that write and read files (docs/bad-input.md): an empty
# output path, a link out of a vector set, an output that is an input or another output, a
# plugin that cannot be loaded, FIFOs given as inputs. Every node is made in a fresh temp
# folder; every command runs under `timeout`, so a reader that blocks fails the test instead
# of hanging it.
#   hostile_paths_test.sh DMCONF SOURCE_DIR FORGED_REPLY_PLUGIN FORK_MANY_PLUGIN
# DMCONF_MEMORY_LIMIT_APPLIES=0 (ASan builds) runs the forged-reply check without `ulimit -v`.
set -uo pipefail
dmconf="$1" src="$2" forged_lib="$3" fork_many_lib="$4"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/hostile_pids.sh"
cd "$tmp" || exit 1

# expect STATUS RULE ARGS...: dmconf ARGS exits STATUS within 60 s, its output naming RULE.
expect() {
  local want="$1" rule="$2"
  shift 2
  local out status
  out=$(timeout -k 5 60 "$dmconf" "$@" 2>&1 </dev/null)
  status=$?
  if [ "$status" -ne "$want" ] || ! grep -qF -- "$rule" <<<"$out"; then
    echo "FAIL: dmconf $* -> exit $status (want $want, output naming '$rule'):"
    head -5 <<<"$out"
    fail=1
  else
    echo "ok: dmconf $* -> $status, $rule"
  fi
}
# absent PATH WHAT: PATH must not exist (nothing was written there).
absent() {
  if [ -e "$1" ]; then echo "FAIL: $2: $1 was written"; fail=1; fi
}

golden="$src/vectors/golden"
one="$golden/spec.d2s.blocks_first.json"
[ -f "$one" ] || one=$(ls "$golden"/*.json | grep -v MANIFEST | head -1)
mkdir in && cp "$one" in/case.json
run=(run --backend oracle --ops d2s --count 2 --directed-count 0 --no-shapes)

# --- A: an empty output path is refused by the write layer, for every command that writes.
expect 2 "io.path.empty" vectors export-onnx in --out ""
expect 2 "io.path.empty" vectors export-npy in --out ""
expect 2 "io.path.empty" vectors generate --profile smoke --out ""
"$dmconf" vectors export-onnx in --out onnx0 >/dev/null || { echo "FAIL: export-onnx"; fail=1; }
expect 2 "io.path.empty" vectors import-onnx --from onnx0 --out ""
"$dmconf" "${run[@]}" --report r.json >/dev/null 2>&1
expect 2 "io.path.empty" report diff r.json r.json --html ""
expect 2 "io.path.empty" report merge r.json -o m.json --junit ""
expect 2 "cli.shard" "${run[@]}" --shard ""
for name in test_dmconf_ "$(basename "$one" .json)"; do
  if compgen -G "/${name}*" >/dev/null; then echo "FAIL: written into /: /${name}*"; fail=1; fi
done

# --- B: writes and removals inside a vector set stay inside it, and remove only what the set
# recorded. A link in the set to a victim folder, listed by a forged manifest, must not lead
# a regeneration to the victim.
"$dmconf" vectors generate --out set --profile smoke >/dev/null || { echo "FAIL: generate"; fail=1; }
mkdir victim && echo '{"mine": true}' >victim/victim.json
ln -s ../victim set/link
# forge NAME FILE: add NAME to set/MANIFEST.json with FILE's size and sha256.
forge() {
  python3 - "$1" "$2" <<'PY'
import hashlib, json, sys
name, f = sys.argv[1], sys.argv[2]
data = open(f, "rb").read()
m = json.load(open("set/MANIFEST.json"))
m["files"].append({"path": name, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
m["files"].sort(key=lambda e: e["path"])
m["file_count"] = len(m["files"])
m["total_bytes"] = sum(e["bytes"] for e in m["files"])
open("set/MANIFEST.json", "w").write(json.dumps(m, indent=2) + "\n")
PY
}
forge link/victim.json victim/victim.json
expect 2 "io.path.outside_folder" vectors generate --out set --profile smoke
[ -f victim/victim.json ] || { echo "FAIL: the victim outside the set was removed"; fail=1; }
# A file the manifest lists but whose contents are not what it recorded is not removed.
rm set/link && "$dmconf" vectors generate --out set --profile smoke >/dev/null
echo '{"edited": 1}' >set/edited.json && echo '{"original": 1}' >orig.json
forge edited.json orig.json
expect 2 "io.remove.not_ours" vectors generate --out set --profile smoke
[ -f set/edited.json ] || { echo "FAIL: a file the set did not write was removed"; fail=1; }
# A listed file that is exactly what the set recorded is still removed (the set's own cleanup).
cp orig.json set/edited.json
expect 0 "vectors" vectors generate --out set --profile smoke
absent set/edited.json "the set's own stale file is removed"
# An ONNX export whose earlier list names a folder that is a link out of the export.
"$dmconf" vectors export-onnx in --out onnx >/dev/null || { echo "FAIL: export-onnx"; fail=1; }
folder=$(ls onnx | grep '^test_dmconf_' | head -1)
mkdir victim2 && mkdir victim2/test_data_set_0 && echo keep >victim2/model.onnx
rm -r "onnx/$folder" && ln -s ../victim2 "onnx/$folder"
expect 2 "io.path.outside_folder" vectors export-onnx in --out onnx
[ -f victim2/model.onnx ] && [ "$(cat victim2/model.onnx)" = keep ] ||
  { echo "FAIL: export-onnx wrote or removed through a link"; fail=1; }

# --- C: an output that is an input, or another output of the same command, is refused before
# anything is written (compared as files: device and inode, else the normalized path).
cp r.json r2.json
expect 2 "io.path.same" "${run[@]}" --report x.json --junit x.json
absent x.json "run --report x --junit x"
expect 2 "io.path.same" "${run[@]}" --report x.json --junit ./sub/../x.json
expect 2 "io.path.same" "${run[@]}" --vectors in/case.json --report in/case.json
before=$(sha256sum r.json)
expect 2 "io.path.same" report html r.json -o r.json
expect 2 "io.path.same" report html r.json -o "$tmp/./r.json"
expect 2 "io.path.same" report diff r.json r2.json --html r.json
expect 2 "io.path.same" report merge r.json -o x.json --junit x.json
expect 2 "io.path.same" report merge r.json -o r.json
ln -s r.json r-link.json
expect 2 "io.path.same" report html r-link.json -o r.json
[ "$(sha256sum r.json)" = "$before" ] || { echo "FAIL: an input report was replaced"; fail=1; }
before=$(sha256sum in/case.json)
expect 2 "io.path.same" shrink in/case.json --backend oracle --out in/case.json
[ "$(sha256sum in/case.json)" = "$before" ] || { echo "FAIL: shrink replaced its input"; fail=1; }

# --- D: a plugin that cannot be loaded is exit 2 with the loader's message, before any case
# runs and before anything is written.
expect 2 "backend.startup" "${run[@]}" --backend-lib ./typo.so --report typo.json
absent typo.json "run with a mistyped plugin"
absent dmconf-failures "run with a mistyped plugin"
expect 2 "typo.so: cannot open shared object file" vectors verify in --backend-lib ./typo.so
absent dmconf-failures "vectors verify with a mistyped plugin"
expect 2 "backend.startup" fuzz --backend-lib ./typo.so --time 5 --failures fz
absent fz "fuzz with a mistyped plugin"
expect 2 "backend.startup" shrink in/case.json --backend-lib ./typo.so
absent in/case.min.json "shrink with a mistyped plugin"

# --- E: FIFOs (and other non-regular files) given as inputs are refused by stat before they
# are opened: a clear error, never a reader waiting for a writer.
mkfifo fifo.json
expect 1 "is a FIFO" "${run[@]}" --vectors fifo.json
expect 1 "is a FIFO" vectors verify fifo.json
expect 2 "is a FIFO" shrink fifo.json --backend oracle
expect 2 "is a FIFO" report html fifo.json -o page.html
expect 2 "is a FIFO" report diff fifo.json r.json
expect 2 "is a FIFO" report merge fifo.json -o m2.json
expect 2 "is a FIFO" "${run[@]}" --expectations fifo.json
mkdir fset && mkfifo fset/MANIFEST.json
expect 2 "is a FIFO" vectors check fset

# --- F: JSON nested far deeper than any real file is refused before it is parsed (it crashed
# `report html` and `report merge` with SIGSEGV at 400,000 levels).
python3 - <<'PY'
import json
deep = "[" * 400000 + "]" * 400000
r = json.load(open("r.json"))
r["options"] = {"deep": "@DEEP@"}
open("deep-report.json", "w").write(json.dumps(r).replace('"@DEEP@"', deep))
v = json.load(open("in/case.json"))
open("deep-vector.json", "w").write(json.dumps(v)[:-1] + ', "x": ' + deep + "}")
open("deep-exp.json", "w").write('{"schema": "dmconf-expectations/1", "x": ' + deep + "}")
PY
expect 2 "report.json.nesting" report html deep-report.json -o deep.html
expect 2 "report.json.nesting" report merge deep-report.json -o deep-merged.json
expect 2 "report.json.nesting" report diff deep-report.json r.json
expect 1 "vector.json.nesting" vectors verify deep-vector.json
expect 2 "expectations.json.nesting" "${run[@]}" --expectations deep-exp.json
absent deep.html "report html of a deep report"
# What the streamed reader (report_stream.h: html, merge and diff) refuses before it would hold it:
# a string longer than 64 MiB (nlohmann's lexer holds a token whole, twice), a case of more
# than 2^20 JSON values.
python3 - <<'PY'
import json
r = json.load(open("r.json"))
c = r["backends"][0]["cases"][0]
c["detail"] = "a" * (65 << 20)
open("long-string.json", "w").write(json.dumps(r))
c["detail"] = "x"
c["extra"] = [0] * ((1 << 20) + 1)
open("big-case.json", "w").write(json.dumps(r))
PY
expect 2 "report.too_large: long-string.json: a string or number longer than" \
  report html long-string.json -o long.html
expect 2 "report.too_large: long-string.json: a string or number longer than" \
  report merge long-string.json -o long-merged.json
expect 2 "report.too_large: long-string.json: a string or number longer than" \
  report diff r.json long-string.json
expect 2 "report.too_large: big-case.json: /backends/0/cases/0/extra/" \
  report html big-case.json -o big-case.html
expect 2 "report.too_large: big-case.json: /backends/0/cases/0/extra/" \
  report merge big-case.json -o big-case-merged.json
expect 2 "report.too_large: big-case.json: /backends/0/cases/0/extra/" \
  report diff big-case.json r.json
absent long-merged.json "report merge of a report with a 65 MiB string"
rm -f long-string.json big-case.json
# A legal report bigger than the whole-document parse could hold under the process's
# address-space limit (a 25 MB report under `ulimit -v 200000`: before the readers streamed,
# nlohmann's parser aborted on bad_alloc): read one case at a time, it is written out.
if [ "${DMCONF_MEMORY_LIMIT_APPLIES:-1}" != 0 ]; then
  python3 - <<'PY'
import json
r = json.load(open("r.json"))
b = r["backends"][0]
cases = b["cases"]
b["cases"] = [dict(c, id="%s.x%d" % (c["id"], i)) for i in range(100000 // len(cases) + 1)
              for c in cases]
open("big.json", "w").write(json.dumps(r, indent=1))
PY
  # html, merge and diff read a report one case at a time (report_stream.h): they need no room
  # for the whole document and do their work under the same limit.
  for args in "report html big.json -o big.html" "report merge big.json -o big-m.json" \
              "report diff big.json r.json"; do
    read -ra argv <<<"$args"
    out=$(timeout 120 bash -c 'ulimit -v 200000; exec "$@"' _ "$dmconf" "${argv[@]}" 2>&1)
    status=$?
    if [ "$status" -gt 1 ]; then
      echo "FAIL: $args under ulimit -v 200000 -> exit $status (want 0 or 1: streamed)"
      head -3 <<<"$out"
      fail=1
    else
      echo "ok: $args under ulimit -v 200000 -> $status (streamed)"
    fi
  done
  [ -s big-m.json ] || { echo "FAIL: report merge big.json wrote no report"; fail=1; }
  [ -s big.html ] || { echo "FAIL: report html big.json wrote no page"; fail=1; }
fi

# --- G: a reply header claiming 16 GiB, written on the reply pipe by the plugin, is refused by
# its check (worker_protocol.h) before its length is read, so nothing is allocated: the case is
# a harness_error naming worker.reply.out_of_sequence, the run goes on and writes its report.
limit="ulimit -v 4194304;"  # 4 GiB: a build that allocates the claim fails, never swaps
[ "${DMCONF_MEMORY_LIMIT_APPLIES:-1}" = 0 ] && limit=""
out=$(timeout -k 5 120 bash -c "$limit"' exec "$@"' _ "$dmconf" run --backend-lib "$forged_lib" \
  --ops d2s --types f32 --count 2 --directed-count 0 --no-shapes --no-shrink --memory-limit 1G \
  --timeout 5 --report forged.json 2>&1)
status=$?
if [ "$status" -ne 1 ] || ! grep -q "worker.reply.out_of_sequence" forged.json 2>/dev/null; then
  echo "FAIL: forged reply length -> exit $status (want 1 and worker.reply.out_of_sequence in the report)"
  head -5 <<<"$out"
  fail=1
else
  echo "ok: forged reply length -> harness_error, report written"
fi

# --- I: an empty shard writes a valid report with 0 cases and exits 0; a memory limit too low
# for a plugin to load is named as the likely cause.
expect 0 "holds no case" "${run[@]}" --shard 1/1000000 --report empty-shard.json
python3 -c 'import json,sys; r=json.load(open("empty-shard.json")); sys.exit(r["summary"]["cases"] != 0)' ||
  { echo "FAIL: the empty shard's report is missing or lists cases"; fail=1; }
if [ "${DMCONF_MEMORY_LIMIT_APPLIES:-1}" != 0 ]; then
  expect 2 "--memory-limit: a limit this low" fuzz --backend-lib "$forged_lib" --time 5 \
    --memory-limit 16M --failures fz16
fi

# --- J: fuzz and shrink take --memory-limit with run's parser (and refuse what run refuses).
expect 2 "cli.memory_limit" fuzz --backend oracle --time 1 --memory-limit 1K
expect 2 "cli.memory_limit" shrink in/case.json --backend oracle --memory-limit 12Q
expect 2 "cli.memory_limit" "${run[@]}" --memory-limit 1K

# --- J: a per-worker process cap: a plugin that starts 300 processes per case has its tree
# killed at 128 (counted every 100 ms while the case runs), a crash naming worker.process_cap;
# none of its processes outlives the run.
out=$(timeout -k 5 120 "$dmconf" run --backend-lib "$fork_many_lib" --ops d2s --types f32 \
  --count 2 --directed-count 0 --no-shapes --no-shrink --timeout 20 --max-consecutive-crashes 1 \
  --report cap.json 2>&1)
status=$?
alive=0
for f in "$DMCONF_HOSTILE_PID_DIR"/*; do
  [ -e "$f" ] || continue
  state=$(awk '{print $3}' "/proc/$(basename "$f")/stat" 2>/dev/null) || continue
  [ "$state" = Z ] || alive=$((alive + 1))
done
if [ "$status" -ne 1 ] || ! grep -q "worker.process_cap" cap.json 2>/dev/null || [ "$alive" -ne 0 ]; then
  echo "FAIL: process cap -> exit $status, $alive process(es) left (want 1, worker.process_cap, 0)"
  head -5 <<<"$out"
  fail=1
else
  echo "ok: process cap -> crash naming worker.process_cap, no process left"
fi

# --- H: control bytes from option values and paths are printed escaped (\x1b), never raw.
esc=$'\x1b[2J\r'
for args in "eval --case bad${esc}.json" "run --backend oracle --shard 1${esc}/2" \
  "run --backend x${esc}" "infer-shape --op d2s${esc} --shape 1,4,2,2"; do
  read -ra argv <<<"$args"
  out=$(timeout 60 "$dmconf" "${argv[@]}" 2>&1 </dev/null)
  if grep -q $'[\x1b\r]' <<<"$out" || ! grep -qF '\x1b' <<<"$out"; then
    echo "FAIL: raw control bytes printed for: ${args//$'\x1b'/ESC}"
    fail=1
  else
    echo "ok: escaped: ${args//$'\x1b'/ESC}"
  fi
done

exit $fail
