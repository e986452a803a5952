#!/usr/bin/env bash
# The worker protocol against hostile plugins, through the commands a vendor runs:
#   A. frames forged on the reply pipe (forging_plugin.c: any step byte, split in two writes,
#      before any request, after the last reply) by a plugin that is otherwise the example
#      plugin: in `run` (one job and --jobs 3), `vectors verify`, `certify` and `fuzz`, every
#      verdict that differs from the example plugin's is a harness_error naming
#      worker.reply.out_of_sequence on the forger's own case (DepthToSpace, block_size 3); a
#      frame of no case is a worker error of the backend, and the run fails; nothing hangs.
#   B. dmconf killed with SIGKILL while a plugin whose every call forks a sleeping child runs
#      (run, fuzz, certify, at two moments each): 1 s later no such child is left, and the
#      pipeline that read dmconf's output ($(...)) has ended within 2 s.
#   C. the process cap per case: a plugin that starts 300 processes in a case is that case's
#      crash worker.process_cap, confirmed as such by its replays (never flaky); one that leaves
#      one process behind per case never meets it; --jobs 3 gives the verdicts of --jobs 1.
#   worker_protocol_cli_test.sh DMCONF SOURCE_DIR EXAMPLE_PLUGIN FORK_PLUGIN FORGING_PLUGIN_DIR
#                               FORK_MANY_PLUGIN
# FORGING_PLUGIN_DIR holds libdmconf_forging_<mode>.so for every mode below.
set -uo pipefail
dmconf="$1" src="$2" example="$3" fork_lib="$4" forging="$5" fork_many="$6"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/hostile_pids.sh"
cd "$tmp" || exit 1
export DMCONF_WRAPPED_PLUGIN="$example"
export DMCONF_FORGE_DIR="$tmp/forge"

# compare EXAMPLE_REPORT FORGER_REPORT WANT: WANT "own" (forged cases are out_of_sequence
# harness errors of DepthToSpace block 3, at least one) or RULE (no case differs; the backend
# lists a worker error naming RULE). Prints what it found; fails otherwise.
compare() {
  python3 - "$@" <<'PY'
import json, sys
ex, fo, want = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
def cases(r):
    return {(c.get("lane", "kernel"), c["id"]): c for b in r["backends"] for c in b["cases"]}
e, f = cases(ex), cases(fo)
problems = []
if set(e) != set(f):
    problems.append("the two runs have different cases")
forged = [k for k, c in f.items() if c["verdict"] == "harness_error"
          and "worker.reply.out_of_sequence" in c["detail"]]
for k in forged:
    c = f[k]
    attrs = c.get("invocation", {}).get("attributes", "")
    if c["op"] != "DepthToSpace" or "block_size=3" not in attrs.split():
        problems.append(f"a forged frame blamed on another case: {k} ({c['op']} {attrs})")
moved = [k for k in e if k in f and f[k]["verdict"] != e[k]["verdict"] and k not in forged]
for k in moved[:5]:
    problems.append(f"{k}: {e[k]['verdict']} -> {f[k]['verdict']}: {f[k]['detail'][:120]}")
errors = [x for b in fo["backends"] for x in b.get("worker_errors", [])]
if want == "own":
    if not forged:
        problems.append("no case was judged out of sequence")
    if errors:
        problems.append(f"unexpected worker errors: {errors[:2]}")
else:
    if forged:
        problems.append(f"{len(forged)} cases judged out of sequence, none expected")
    if not any(x.startswith(want) for x in errors):
        problems.append(f"no worker error naming {want}: {errors[:2]}")
print(f"{len(forged)} forged, {len(moved)} moved, {len(errors)} worker error(s)")
for p in problems:
    print("  " + p)
sys.exit(1 if problems else 0)
PY
}

# A. Forged frames. The example plugin's own run is the reference for each route.
run_args=(--ops d2s --count 60 --directed-count 10 --seed 3 --timeout 5 --no-shrink --quiet)
timeout -k 5 300 "$dmconf" run --backend-lib "$example" "${run_args[@]}" --report ex.json \
  >ex.out 2>&1
check "the example plugin's reference run" '[ -s ex.json ]'
for mode in step0 step1 step2 step255 split before after; do
  lib="$forging/libdmconf_forging_$mode.so"
  want=own
  [ "$mode" = before ] && want=worker.start.failed
  [ "$mode" = after ] && want=worker.reply.unsolicited
  rm -rf "$DMCONF_FORGE_DIR" && mkdir -p "$DMCONF_FORGE_DIR"
  start=$(date +%s)
  timeout -k 5 300 "$dmconf" run --backend-lib "$lib" "${run_args[@]}" --report "$mode.json" \
    >"$mode.out" 2>&1
  code=$?
  secs=$(( $(date +%s) - start ))
  out=$(compare ex.json "$mode.json" "$want")
  rc=$?
  [ "$rc" -eq 0 ] && [ "$code" -eq 1 ] && [ "$secs" -lt 120 ]
  check_rc "run, forged $mode: exit $code in ${secs}s; $out" $? "$out$(tail -5 "$mode.out")"
done

# --jobs 3: the same verdicts as one job, forged cases included.
lib="$forging/libdmconf_forging_step1.so"
timeout -k 5 300 "$dmconf" run --backend-lib "$lib" "${run_args[@]}" --jobs 3 \
  --report jobs.json >jobs.out 2>&1
out=$(compare ex.json jobs.json own)
check_rc "run --jobs 3, forged step1: $out" $? "$out"
python3 - step1.json jobs.json <<'PY' >jobs.diff
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
v = lambda r: {(c.get("lane", ""), c["id"]): c["verdict"] for x in r["backends"] for c in x["cases"]}
sys.exit(0 if v(a) == v(b) else 1)
PY
check_rc "run --jobs 3 gives the verdicts of --jobs 1" $? "$(cat jobs.diff)"

# vectors verify of the golden set (its DepthToSpace files of block_size 3 are the forger's).
for mode in step1 split; do
  lib="$forging/libdmconf_forging_$mode.so"
  timeout -k 5 300 "$dmconf" vectors verify "$src/vectors/golden" --backend-lib "$example" \
    --report vex.json >/dev/null 2>&1
  timeout -k 5 300 "$dmconf" vectors verify "$src/vectors/golden" --backend-lib "$lib" \
    --report "v$mode.json" >"v$mode.out" 2>&1
  out=$(compare vex.json "v$mode.json" own)
  check_rc "vectors verify, forged $mode: $out" $? "$out$(tail -5 "v$mode.out")"
done

# certify: the statement's report has the forger's own cases as its only differences.
timeout -k 5 600 "$dmconf" certify --profile nchw-core --backend-lib "$example" --out cex \
  >cex.out 2>&1
timeout -k 5 600 "$dmconf" certify --profile nchw-core \
  --backend-lib "$forging/libdmconf_forging_step0.so" --out cfo >cfo.out 2>&1
code=$?
out=$(compare cex/report.json cfo/report.json own)
rc=$?
[ "$rc" -eq 0 ] && [ "$code" -eq 1 ] && grep -q "not conformant" cfo/certificate.md
check_rc "certify, forged step0: exit $code; $out" $? "$out$(tail -5 cfo.out)"

# fuzz: every finding is the forger's own kind of case.
for mode in step1 after; do
  rm -rf "fz$mode"
  timeout -k 5 120 "$dmconf" fuzz --backend-lib "$forging/libdmconf_forging_$mode.so" --time 6 \
    --seed 2 --no-shrink --quiet --failures "fz$mode" >"fz$mode.out" 2>&1
  code=$?
  python3 - "fz$mode" "$mode" "fz$mode.out" <<'PY' >"fz$mode.check"
import glob, json, sys
folder, mode, log = sys.argv[1:4]
text = open(log).read()
findings = [l for l in text.splitlines() if l.startswith("FINDING ")]
problems = []
for f in glob.glob(folder + "/**/*.json", recursive=True):
    c = json.load(open(f))
    case = c.get("case", c)
    if case.get("op") != "DepthToSpace" or case.get("attributes", {}).get("block_size") != 3:
        problems.append(f"a finding on another case: {f}")
if any(not l.startswith("FINDING harness_error") for l in findings):
    problems.append("a finding of another verdict: " + [l for l in findings
                    if not l.startswith("FINDING harness_error")][0])
if mode == "step1" and (not findings or "worker.reply.out_of_sequence" not in text):
    problems.append("no out_of_sequence finding")
if mode == "after" and ("worker.reply.unsolicited" not in text or findings):
    problems.append("want one worker error and no finding")
print(f"{len(findings)} finding(s)", *problems, sep="\n  ")
sys.exit(1 if problems else 0)
PY
  rc=$?
  [ "$rc" -eq 0 ] && [ "$code" -eq 1 ]
  ok=$?
  check_rc "fuzz, forged $mode: exit $code, $(head -1 "fz$mode.check")" "$ok" \
    "$(cat "fz$mode.check")$(tail -8 "fz$mode.out")"
done

# C. The process cap, counted per case.
# verdicts REPORT: "lane/id verdict" per case, sorted.
verdicts() {
  python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))
print("\n".join(sorted(c.get("lane", "kernel") + "/" + c["id"] + " " + c["verdict"]
                       for b in r["backends"] for c in b["cases"])))' "$1"
}
for jobs in 1 3; do
  reset_pids
  timeout -k 5 300 "$dmconf" run --backend-lib "$fork_many" --ops d2s --types f32 --count 6 \
    --directed-count 0 --no-shapes --timeout 20 --max-consecutive-crashes 0 --jobs "$jobs" \
    --shrink-total-seconds 4 --report "cap$jobs.json" >"cap$jobs.out" 2>&1
  sleep 1
  caps=$(grep -c '"verdict": "crash"' "cap$jobs.json")
  flaky=$(grep -c '"verdict": "flaky"' "cap$jobs.json")
  named=$(grep -c 'worker.process_cap' "cap$jobs.json")
  s=$(survivors)
  [ "$caps" -gt 0 ] && [ "$flaky" -eq 0 ] && [ "$named" -ge "$caps" ] && [ "$s" -eq 0 ]; rc=$?
  check_rc "300 processes a case, --jobs $jobs: $caps crash(es) worker.process_cap, $flaky flaky, $s survive" $rc \
    "$(tail -5 "cap$jobs.out")"
  cleanup
  reset_pids
  timeout -k 5 300 "$dmconf" run --backend-lib "$fork_lib" --ops d2s,s2d --types f32 \
    --count 2500 --directed-count 60 --no-shapes --no-shrink --jobs "$jobs" \
    --report "leak$jobs.json" >"leak$jobs.out" 2>&1
  named=$(grep -c 'worker.process_cap' "leak$jobs.json")
  left=$(recorded)
  [ "$named" -eq 0 ] && [ "$left" -gt 300 ]; rc=$?
  check_rc "one process left per case, --jobs $jobs: $left left, $named case(s) blamed" $rc \
    "$(grep -m3 process_cap "leak$jobs.json")"
  cleanup
done
# Two missing or empty reports would be equal: each must list cases.
v1=$(verdicts cap1.json) v3=$(verdicts cap3.json)
[ -n "$v1" ] && [ "$v1" = "$v3" ]
check_rc "the process cap: --jobs 3 gives the verdicts of --jobs 1" $? ""
v1=$(verdicts leak1.json) v3=$(verdicts leak3.json)
[ -n "$v1" ] && [ "$v1" = "$v3" ]
check_rc "one process left per case: --jobs 3 gives the verdicts of --jobs 1" $? ""

# B. kill -9 of dmconf: nothing it started outlives it.
# killed_at SECONDS ARGS...: dmconf ARGS, its output read through a pipe (as $(...) reads it),
# killed with SIGKILL after SECONDS; prints how long the pipe stayed open after the kill.
killed_at() {
  local delay="$1"
  shift
  rm -f dmconf.pid
  ( bash -c 'echo $$ >dmconf.pid; exec "$@"' _ "$dmconf" "$@" 2>&1 | cat >/dev/null ) &
  local reader=$!
  for _ in $(seq 50); do [ -s dmconf.pid ] && break; sleep 0.1; done
  # The delay counts from the plugin's first child (an ASan build takes seconds to get there).
  for _ in $(seq 300); do [ -n "$(ls "$DMCONF_HOSTILE_PID_DIR")" ] && break; sleep 0.1; done
  sleep "$delay"
  # The plugin's children alive just before the kill: proves survivors() sees live ones. A
  # worker's restart kills its keeper's tree, so a sample may fall on none: sample again, up
  # to 2 s, until one sees some.
  for _ in $(seq 40); do
    survivors >alive_before
    [ "$(cat alive_before)" -gt 0 ] && break
    sleep 0.05
  done
  local killed_ns
  killed_ns=$(date +%s%N)
  kill -9 "$(cat dmconf.pid)"
  for _ in $(seq 100); do kill -0 "$reader" 2>/dev/null || break; sleep 0.05; done
  local open_ms=$(( ($(date +%s%N) - killed_ns) / 1000000 ))
  kill -9 "$reader" 2>/dev/null
  wait "$reader" 2>/dev/null
  echo "$open_ms"
}
for route in run fuzz certify; do
  case "$route" in
    run) args=(run --backend-lib "$fork_lib" --ops d2s,s2d --count 4000 --quiet --report k.json) ;;
    fuzz) args=(fuzz --backend-lib "$fork_lib" --time 60 --quiet --failures kfz) ;;
    certify) args=(certify --profile nchw-core --backend-lib "$fork_lib" --out kcert) ;;
  esac
  for delay in 0.5 2; do
    reset_pids
    open_ms=$(killed_at "$delay" "${args[@]}")
    sleep 1
    n=$(recorded); s=$(survivors); a=$(cat alive_before)
    [ "$a" -gt 0 ] && [ "$s" -eq 0 ] && [ "$open_ms" -le 2000 ]
    check_rc "kill -9 of $route after ${delay}s: $n children started, $a alive at the kill, $s survive 1 s later, output closed in ${open_ms} ms" $? "survivors"
    cleanup
  done
done

exit "$fail"
