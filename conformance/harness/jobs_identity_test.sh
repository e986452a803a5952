#!/usr/bin/env bash
# `dmconf run --jobs N` gives the report of --jobs 1, order included (only the report's "run"
# block, with its times and host, may differ), the same JUnit XML and the same saved failing
# cases: on the oracle, a mutant and a plugin that crashes and hangs on cases of its choice,
# so that both budgets fire (budget_plugin.c). Bad --jobs values are usage errors (exit 2)
# naming their rule.
# A plugin that crashes on many cases (the example plugin's fault_crash) runs several times
# with 3 jobs: each crash is named by the signal that ended the worker, as with one job (a
# worker reaped by another job's sweep of stray processes was once "worker vanished").
# Usage: jobs_identity_test.sh DMCONF BUDGET_PLUGIN CRASH_PLUGIN
dmconf=$1
plugin=$2
crash_plugin=$3
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"

# One run with N jobs, in a folder of its own (the report names its failures folder).
run_jobs() {
  mkdir -p "$tmp/j$1"
  (cd "$tmp/j$1" && "$dmconf" run --backend oracle --backend mutant.d2s_mode_swapped \
    --backend-lib "$plugin" --count 150 --shape-count 60 --no-shrink --quiet --timeout 0.3 \
    --max-consecutive-hangs 2 --max-consecutive-crashes 3 --jobs "$1" --report report.json \
    --junit junit.xml --failures failures >stdout.txt 2>stderr.txt)
  echo $?
}

# The report without its "run" block, as canonical JSON.
without_run() {
  python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); r.pop("run"); print(json.dumps(r, indent=1))' "$1"
}

rc1=$(run_jobs 1)
check "--jobs 1: exit 1 (the plugin and the mutant fail)" '[ "$rc1" = 1 ]'
# The budgets must fire, or the test proves nothing about them.
for v in skipped_after_hangs skipped_after_crashes '"hang"' '"crash"'; do
  check "--jobs 1 report has $v" 'grep -q "\"verdict\": $(tr -d \" <<<"$v" | sed "s/.*/\"&\"/")" "$tmp/j1/report.json"'
done
without_run "$tmp/j1/report.json" >"$tmp/j1/report.norun.json"
for n in 2 3; do
  rc=$(run_jobs $n)
  check "--jobs $n: exit $rc as --jobs 1" '[ "$rc" = "$rc1" ]'
  without_run "$tmp/j$n/report.json" >"$tmp/j$n/report.norun.json"
  d=$(diff "$tmp/j1/report.norun.json" "$tmp/j$n/report.norun.json" && [ -s "$tmp/j$n/report.norun.json" ])
  check_rc "--jobs $n: the report of --jobs 1 but its run block" $? "$d"
  d=$(diff "$tmp/j1/junit.xml" "$tmp/j$n/junit.xml")
  check_rc "--jobs $n: the JUnit XML of --jobs 1" $? "$d"
  d=$(diff -r "$tmp/j1/failures" "$tmp/j$n/failures")
  check_rc "--jobs $n: the saved failing cases of --jobs 1" $? "$d"
done

# Crashes in several workers at once: the report of one job, every time.
crash_report() {
  (cd "$tmp" && "$dmconf" run --backend-lib "$crash_plugin" --count 50 --no-shapes --no-shrink \
    --quiet --max-consecutive-crashes 1000 --jobs "$1" --report "crash$2.json" >/dev/null 2>&1)
  without_run "$tmp/crash$2.json"
}
crash_report 1 one >"$tmp/crash.one.txt"
check "fault_crash plugin: its crashes are in the report" \
  'grep -q "worker killed by SIGSEGV" "$tmp/crash.one.txt"'
for round in 1 2 3 4 5; do
  d=$(crash_report 3 "three$round" | diff "$tmp/crash.one.txt" -)
  check_rc "fault_crash plugin, --jobs 3, round $round: the report of --jobs 1" $? "$d"
done

# Bad values: exit 2, the rule named, nothing run.
expect_usage() {
  local rule=$1
  shift
  out=$("$dmconf" run --backend oracle --count 1 --no-shapes --quiet "$@" 2>&1)
  local rc=$?
  check "$* -> exit 2 ($rc), $rule" '[ "$rc" = 2 ] && grep -q "$rule" <<<"$out"'
}
expect_usage "cli.integer: '0'" --jobs 0
expect_usage "cli.integer: '-2'" --jobs -2
expect_usage "cli.integer: '257'" --jobs 257
expect_usage "cli.integer: 'two'" --jobs two
expect_usage "cli.jobs.no_isolation" --jobs 2 --no-isolation
exit $fail
