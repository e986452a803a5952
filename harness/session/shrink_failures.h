// A session's phase "confirm and shrink": the new failing kernel cases of one backend run,
// replayed (harness/shrink/replay.h) and shrunk (harness/shrink) within the session's budgets,
// each minimal case saved beside the original with its repro line.
//
// Example:
//   unsaved += ShrinkNewFailures(cases, options, run_options, "failures", "--backend xnnpack",
//                                info, run, /*tty=*/false);
#ifndef DMCONF_HARNESS_SESSION_SHRINK_FAILURES_H_
#define DMCONF_HARNESS_SESSION_SHRINK_FAILURES_H_

#include <cstdint>
#include <string>
#include <vector>

#include "harness/backends/registry/registry.h"
#include "harness/runner/runner.h"
#include "harness/session/run_session.h"

namespace dmconf {

// Shrinks the new failing kernel cases of one backend run (harness/shrink) through a fresh
// worker of the same backend, saves each minimal case beside the original and records it in
// the result. Each is replayed first (harness/shrink/replay.h): a failure whose replays
// disagree becomes flaky and is not shrunk. Returns how many minimal cases could not be saved.
int64_t ShrinkNewFailures(const RunCases& cases, const SessionOptions& f, RunOptions ro,
                          const std::string& failures_dir, const std::string& repro_flag,
                          const BackendInfo& b, BackendRun& r, bool tty);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SESSION_SHRINK_FAILURES_H_
