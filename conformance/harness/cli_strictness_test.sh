#!/usr/bin/env bash
# The command line is strict and its exit codes match the docs (docs/bad-input.md): every
# usage error exits 2 (CLI11's own codes 104-109 are not leaked), numbers out of range are
# refused rather than saturated, counts and timeouts are validated, an empty output path is
# refused, and a --failures folder that cannot be made is one error before the run. A declared
# slice in which nothing ran is a warning, and a failure with --strict-coverage.
#   cli_strictness_test.sh DMCONF UNSUPPORTED_PLUGIN SOURCE_DIR
set -uo pipefail
dmconf="$1" unsupported_lib="$2" src="$3"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
cd "$tmp" || exit 1

# expect STATUS RULE ARGS...: dmconf ARGS exits STATUS and its output contains RULE.
expect() {
  local want="$1" rule="$2"
  shift 2
  local out status
  out=$("$dmconf" "$@" 2>&1)
  status=$?
  if [ "$status" -ne "$want" ] || ! grep -qF -- "$rule" <<<"$out"; then
    echo "FAIL: dmconf $* -> exit $status (want $want, output naming '$rule'):"
    head -5 <<<"$out"
    fail=1
  fi
}

d2s=(infer-shape --op d2s --shape 1,4,2,2 --mode blocks_first)
# Integers out of int64 range are refused, never saturated to 2^63-1.
expect 2 "cli.integer: '9223372036854775808'" "${d2s[@]}" --block-size 9223372036854775808
expect 2 "cli.integer: '99999999999999999999999'" "${d2s[@]}" --block-size 99999999999999999999999
expect 2 "cli.integer: '-9223372036854775809'" "${d2s[@]}" --block-size -9223372036854775809
# --threads (EvalOptions::threads) in [1, 64] on every command that has it.
for cmd in "eval --op s2d --shape 1,1,4,4 --block-size 2 --mode blocks_first" \
  "run --backend oracle --count 1" "vectors generate --out /nonexistent"; do
  read -ra args <<<"$cmd"
  expect 2 "cli.integer: '0' is not an integer in [1, 64]" "${args[@]}" --threads 0
  expect 2 "cli.integer: '65' is not an integer in [1, 64]" "${args[@]}" --threads 65
done
expect 2 "cli.integer: '2.5'" "${d2s[@]}" --block-size 2.5
expect 2 "cli.integer: '0x10'" "${d2s[@]}" --block-size 0x10
# The extremes themselves are legal numbers: the oracle judges them by the spec's rules.
expect 0 "block_size^K = 9223372036854775807^2" "${d2s[@]}" --block-size 9223372036854775807
expect 0 "d2s.block_size.positive: block_size = -9223372036854775808" "${d2s[@]}" \
  --block-size -9223372036854775808

# Timeouts are finite and positive; counts are non-negative; seeds are unsigned.
run=(run --backend oracle --quiet --ops d2s --case-id 'example/d2s*')
for t in 0 -1 nan inf -inf 1e999 86401 abc ""; do
  expect 2 "cli.seconds: '$t'" "${run[@]}" --timeout "$t"
done
expect 2 "cli.integer: '-1'" "${run[@]}" --count -1
expect 2 "cli.integer: '10000001'" "${run[@]}" --count 10000001
expect 2 "cli.integer: '-5'" "${run[@]}" --directed-count -5
expect 2 "cli.integer: '-1'" "${run[@]}" --seed -1
expect 2 "cli.integer: '18446744073709551616'" "${run[@]}" --seed 18446744073709551616
expect 2 "cli.integer: '-1'" "${run[@]}" --max-consecutive-hangs -1
expect 2 "cli.integer: '1.5'" "${run[@]}" --max-consecutive-crashes 1.5
expect 2 "cli.integer: '-2'" "${run[@]}" --max-listed -2
expect 2 "cli.integer: '-1'" vectors generate --out "$tmp/gen" --seed -1
# Legal extremes pass (the case-id filter leaves only the spec's example to run).
expect 0 "OK: 0 new failure(s)" "${run[@]}" --seed 18446744073709551615 --timeout 86400 \
  --count 0 --directed-count 0 --max-listed 0

# An empty output path is refused (it used to write nothing, silently).
expect 2 "cli.path.empty" "${run[@]}" --report ""
expect 2 "cli.path.empty" "${run[@]}" --junit ""
expect 2 "cli.path.empty" "${run[@]}" --failures ""

# CLI11's own errors exit 2 as documented; --help exits 0.
expect 2 "not expected: --no-such-flag" "${run[@]}" --no-such-flag
expect 2 "1 required TEXT missing" run --backend
expect 2 "--op is required" infer-shape --shape 1,2
expect 2 "A subcommand is required"
expect 2 "A subcommand is required" no-such-command
expect 0 "Exit status" run --help

# A --failures folder that cannot be made is one error before the run, naming the culprit.
printf 'x' >"$tmp/a-file"
out=$("$dmconf" run --backend mutants --quiet --count 5 --failures "$tmp/a-file/sub/dir" 2>&1)
status=$?
if [ "$status" -ne 2 ] || [ "$(grep -c 'io.mkdir' <<<"$out")" -ne 1 ] ||
  ! grep -qF "$tmp/a-file is a regular file, not a directory" <<<"$out" ||
  grep -q "== backend" <<<"$out"; then
  echo "FAIL: an impossible --failures folder must be one io.mkdir error before the run (exit 2):"
  head -5 <<<"$out"
  fail=1
fi
if [ "$(id -u)" -ne 0 ]; then  # root may write anywhere: only a normal user can test this
  mkdir -p "$tmp/ro" && chmod 555 "$tmp/ro"
  expect 2 "cannot write in" run --backend mutants --quiet --count 5 --failures "$tmp/ro/f"
  chmod 755 "$tmp/ro"
fi

# A declared slice that runs nothing: the plugin declares DepthToSpace f32 rank 4 and answers
# UNSUPPORTED to every case. Without --strict-coverage: a warning, exit 0.
out=$("$dmconf" run --backend-lib "$unsupported_lib" --ops d2s --quiet --report "$tmp/u.json" 2>&1)
status=$?
if [ "$status" -ne 0 ] ||
  ! grep -qE '^   DepthToSpace f32 rank 4 modes blocks_first,depth_first: 0/[1-9][0-9]* \([1-9][0-9]* unsupported\)  WARNING: no case of this declared slice ran$' <<<"$out" ||
  ! grep -qF "WARNING: 1 declared slice(s) in which no case ran" <<<"$out" ||
  ! grep -qE '^OK: 0 new failure\(s\), 0 known failure\(s\), [1-9][0-9]* unsupported, 1 unexercised slice\(s\)$' <<<"$out"; then
  echo "FAIL: an unexercised declared slice must be a warning (exit 0), got exit $status:"
  tail -12 <<<"$out"
  fail=1
fi
# The report counts the slice; every case the plugin saw was unsupported, so the slice's
# in-run count equals its unsupported count and nothing ran.
python3 - "$tmp/u.json" <<'PY' || fail=1
import json, sys
r = json.load(open(sys.argv[1]))
s = r["backends"][0]["slices"]
ok = (r["summary"]["unexercised_slices"] == 1 and len(s) == 1 and s[0]["unexercised"]
      and s[0]["ran"] == 0 and s[0]["cases_in_run"] > 0
      and s[0]["cases_in_run"] == s[0]["unsupported"]
      and r["options"]["strict_coverage"] is False)
if not ok:
    print("FAIL: report slices/summary do not show the unexercised slice:", s, r["summary"])
    sys.exit(1)
PY
# With --strict-coverage: a failure, exit 1.
out=$("$dmconf" run --backend-lib "$unsupported_lib" --ops d2s --quiet --strict-coverage 2>&1)
status=$?
if [ "$status" -ne 1 ] || ! grep -qF "ERROR: 1 declared slice(s) in which no case ran" <<<"$out" ||
  ! grep -qE '^FAILED: 0 new failure\(s\), 0 known failure\(s\), [1-9][0-9]* unsupported, 1 unexercised slice\(s\)$' <<<"$out"; then
  echo "FAIL: --strict-coverage must fail an unexercised slice (exit 1), got exit $status:"
  tail -6 <<<"$out"
  fail=1
fi
# Control: the oracle runs every declared slice; strict mode passes and reports no warning.
out=$("$dmconf" run --backend oracle --ops d2s --count 20 --quiet --strict-coverage 2>&1)
status=$?
if [ "$status" -ne 0 ] || grep -q "WARNING" <<<"$out" ||
  ! grep -qE '^   DepthToSpace all types ranks 0-64: [1-9][0-9]*/[1-9][0-9]*$' <<<"$out"; then
  echo "FAIL: the oracle's declared slices all ran, strict mode must pass (exit $status):"
  tail -8 <<<"$out"
  fail=1
fi

# Unsupported is never "passed": vectors verify counts it apart, and --fail-unsupported makes
# it a failure (the plugin runs nothing, so every golden vector is unsupported).
golden_count=$(find "$src/vectors/golden" -name '*.json' ! -name MANIFEST.json | wc -l)
out=$("$dmconf" vectors verify "$src/vectors/golden" --backend-lib "$unsupported_lib" --quiet \
  --failures "$tmp/vf" 2>&1)
status=$?
if [ "$status" -ne 0 ] ||
  ! grep -qx "vectors: 0 passed, 0 failed, $golden_count unsupported" <<<"$out"; then
  echo "FAIL: verify must count $golden_count unsupported vectors apart (exit 0), got exit $status:"
  tail -3 <<<"$out"
  fail=1
fi
out=$("$dmconf" vectors verify "$src/vectors/golden" --backend-lib "$unsupported_lib" --quiet \
  --fail-unsupported --failures "$tmp/vf" --junit "$tmp/u.xml" 2>&1)
status=$?
if [ "$status" -ne 1 ] ||
  ! grep -qx "vectors: 0 passed, $golden_count failed, 0 unsupported" <<<"$out" ||
  ! grep -q "<failure type=\"unsupported\"" "$tmp/u.xml" || grep -q "<skipped" "$tmp/u.xml"; then
  echo "FAIL: --fail-unsupported must fail every unsupported vector (exit 1, JUnit failures):"
  tail -3 <<<"$out"
  fail=1
fi

# An expectations entry that matched no failing case is listed (a warning), and fails the run
# with --strict-expectations; the report counts it and names its file and location.
cat >"$tmp/exp.json" <<'JSON'
{"format": "dmconf-expectations/1",
 "known_failures": [{"backend": "oracle", "case": "*", "verdict": "hang", "reason": "stale on purpose"}]}
JSON
out=$("$dmconf" "${run[@]}" --expectations "$tmp/exp.json" --report "$tmp/s.json" 2>&1)
status=$?
if [ "$status" -ne 0 ] ||
  ! grep -qF "WARNING $tmp/exp.json: /known_failures/0: oracle, case *, hang (stale on purpose)" <<<"$out" ||
  ! grep -qE '^OK: 0 new failure\(s\), 0 known failure\(s\), 1 stale expectation\(s\)$' <<<"$out" ||
  ! python3 -c "import json,sys; r=json.load(open(sys.argv[1])); sys.exit(not (r['summary']['stale_expectations'] == 1 and r['stale_expectations'][0]['source'].endswith('/known_failures/0')))" "$tmp/s.json"; then
  echo "FAIL: a stale expectation must be listed as a warning (exit 0), got exit $status:"
  tail -4 <<<"$out"
  fail=1
fi
out=$("$dmconf" "${run[@]}" --expectations "$tmp/exp.json" --strict-expectations 2>&1)
status=$?
if [ "$status" -ne 1 ] || ! grep -qF "ERROR $tmp/exp.json: /known_failures/0" <<<"$out"; then
  echo "FAIL: --strict-expectations must fail a stale entry (exit 1), got exit $status"
  fail=1
fi
printf '{"format": "dmconf-expectations/1", "known_failures": [{"case": "*", "reason": "r", "verdicts": "crash"}]}' >"$tmp/bad-exp.json"
expect 2 "expectations.field.unknown: $tmp/bad-exp.json: /known_failures/0/verdicts" \
  "${run[@]}" --expectations "$tmp/bad-exp.json"

# One tensor size limit, one name and value: an input and an output above it are refused with
# the same words and the same number (kMaxTensorBytes, 2 GiB), not two different limits.
limit="above the limit for one tensor (2147483648 bytes)"
expect 2 "case.tensor.too_large: a f32 tensor of shape [1,1,32768,32768] is $limit" \
  eval --op s2d --type f32 --shape 1,1,32768,32768 --block-size 1 --mode blocks_first
expect 2 "case.output.too_large: the output [1,3000000001] of type u8 is $limit" \
  eval --op s2b --type u8 --shape 1,1 --block-shape 1,1 --pads-begin 0,0 --pads-end 0,3000000000

[ "$fail" -eq 0 ] && echo "cli strictness: all checks passed"
exit "$fail"
