#!/usr/bin/env bash
# The in-process fuzz drivers run a backend under the limits of dmconf's workers
# (fuzz/in_process_limits.h): with the hostile plugins (hostile_plugin.c, each leftover process
# records its pid in $DMCONF_HOSTILE_PID_DIR),
#   - a plugin that forks a sleeper per case: no process outlives the driver;
#   - a plugin that hangs: the driver stops at DMCONF_FUZZ_TIMEOUT with a timeout message,
#     exit 1, and kills what the plugin started;
#   - a plugin that allocates without bound: it meets DMCONF_MEMORY_LIMIT_BYTES (the driver dies
#     at the limit instead of taking the machine's memory) — skipped in ASan builds.
#   fuzz_driver_limits_test.sh BACKEND_DIFF_RANDOM FORK HANG_D2S ALLOC
set -uo pipefail
driver="$1" fork_lib="$2" hang_lib="$3" alloc_lib="$4"
source "$(dirname "${BASH_SOURCE[0]}")/check_lib.sh"
source "$(dirname "${BASH_SOURCE[0]}")/hostile_pids.sh"
export DMCONF_FUZZ_FINDINGS="$tmp/find"

reset_pids
out=$(DMCONF_FUZZ_PLUGIN="$fork_lib" timeout 60 "$driver" 3 1 2>&1)
n=$(ls "$DMCONF_HOSTILE_PID_DIR" | wc -l); s=$(survivors)
check "forking plugin: $n children started, $s survive the driver" '[ "$n" -gt 0 ] && [ "$s" -eq 0 ]'

reset_pids
start=$(date +%s)
out=$(DMCONF_FUZZ_PLUGIN="$hang_lib" DMCONF_FUZZ_TIMEOUT=2 timeout 60 "$driver" 30 1 2>&1); rc=$?
secs=$(( $(date +%s) - start )); s=$(survivors)
check "hanging plugin: exit $rc in ${secs}s, $s survive" '[ "$rc" -eq 1 ] && [ "$secs" -lt 20 ] && [ "$s" -eq 0 ] && grep -q "timeout: an input ran longer" <<<"$out"'

if [ "${DMCONF_MEMORY_LIMIT_APPLIES:-1}" = 1 ]; then
  reset_pids
  start=$(date +%s)
  out=$(DMCONF_FUZZ_PLUGIN="$alloc_lib" DMCONF_MEMORY_LIMIT_BYTES=536870912 timeout 120 \
    "$driver" 30 1 2>&1); rc=$?
  secs=$(( $(date +%s) - start ))
  # Without the limit the plugin eats memory until the 120 s timeout (rc 124) or the machine's
  # end; with it, the driver dies at once at 512 MiB (a signal: rc above 128).
  check "allocating plugin: the driver stops at the limit (exit $rc, ${secs}s)" '[ "$rc" -gt 128 ] && [ "$rc" -ne 137 ] && [ "$secs" -lt 60 ]'
else
  echo "skip memory limit: not applied in AddressSanitizer builds"
fi
exit "$fail"
