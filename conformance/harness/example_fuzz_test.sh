#!/usr/bin/env bash
# A plugin of harness/plugin/examples (example_plugin.c, the template vendors start from, or
# minimal_plugin.c, the guide's) passes `dmconf fuzz` on every lane for a bounded time: no
# finding. (The example once refused valid cases with "block_size^K too large", answered an
# output dim of -9223372036854775806 and accepted an output above 2^63-1 elements; the minimal
# one died of SIGFPE on a b * b that wrapped to 0 and looped over a batch of 2^62 with no
# output element.)
#   example_fuzz_test.sh DMCONF PLUGIN SECONDS
set -uo pipefail
dmconf="$1"
plugin="$2"
secs="${3:-20}"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
# --timeout 10: a hang is a case that takes 10 s (the default 2 s is too close to what a loaded
# CI machine under a sanitizer can take for a big must_reject case).
out=$("$dmconf" fuzz --backend-lib "$plugin" --time "$secs" --timeout 10 --failures "$tmp/find" 2>&1)
rc=$?
if [ "$rc" -ne 0 ] || grep -q '^FINDING' <<<"$out"; then
  echo "FAIL: dmconf fuzz exit $rc"
  grep -A3 '^FINDING' <<<"$out" | head -40
  exit 1
fi
# A run that tried nothing proves nothing (a wrong library path gives 0 cases).
if ! grep -qE '^[1-9][0-9]* cases in' <<<"$out"; then
  echo "FAIL: dmconf fuzz ran no case: $(tail -1 <<<"$out")"
  exit 1
fi
echo "ok   $(tail -1 <<<"$out")"
