// The limits of `dmconf run`'s workers for a backend that a fuzz driver runs in its own process
// (the libFuzzer targets backend_diff and plugin_shape, and their random drivers): an
// address-space limit (DMCONF_MEMORY_LIMIT_BYTES, else `--memory-limit auto`: half of the
// machine's memory; not in AddressSanitizer builds), files of at most 1 GiB, the process-tree
// guards (a child subreaper: an orphan the backend leaves is re-parented here; SIGINT, SIGTERM
// and SIGHUP kill what it started) and, at exit, every process the backend left behind killed
// and reaped (harness/isolation/process_tree.h). The per-input time limit is the driver's:
// libFuzzer's -timeout, the random driver's DMCONF_FUZZ_TIMEOUT.
//
// Example:
//   ApplyInProcessBackendLimits();  // once, before the backend is loaded
#ifndef DMCONF_FUZZ_IN_PROCESS_LIMITS_H_
#define DMCONF_FUZZ_IN_PROCESS_LIMITS_H_

namespace dmconf {

void ApplyInProcessBackendLimits();

}  // namespace dmconf

#endif  // DMCONF_FUZZ_IN_PROCESS_LIMITS_H_
