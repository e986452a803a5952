// Replaying a failure before it is shrunk (a kernel case, or a shape case: ConfirmShapeFailure):
// a failure is shrunk (and its repro claims that the backend fails that case) only when running
// the case again gives the same result. A failure
// whose replays disagree is `flaky`: a failure of the backend, reported with its replay count
// and how many replays failed, and never shrunk.
//
// The case is replayed kFailureReplays (3) times through the same backend (in a run, the
// isolated worker), with the run's options. A replay agrees when it gives the same verdict and
// deciding rule and, for an answer that was judged (wrong values, shape or type, a false
// accept or reject, ...), the same detail and the same number of wrong elements. A crash, a
// hang or an out_of_memory agrees by verdict alone (a signal's wording or a timing may vary),
// and a hang or an out_of_memory is replayed once only (each replay waits the whole timeout
// or fills the memory limit).
//
// Example:
//   CaseResult r = RunCase(backend, name, caps, p, ro);
//   if (IsFailure(r.verdict, ro.strictness) && !ConfirmFailure(backend, name, caps, p, ro, &r)) {
//     // r.verdict == Verdict::kFlaky, r.replays = {3, 1, wrong_values}: do not shrink
//   }
#ifndef DMCONF_HARNESS_SHRINK_REPLAY_H_
#define DMCONF_HARNESS_SHRINK_REPLAY_H_

#include <string>

#include "harness/backend/backend.h"
#include "harness/runner/runner.h"
#include "harness/runner/shape_lane.h"

namespace dmconf {

inline constexpr int kFailureReplays = 3;

// Whether `replay` gives the same result as `failure` (see above).
bool SameReplay(const CaseResult& failure, const CaseResult& replay);

// Replays `original` (whose run gave `*failure`) and returns true when every replay agrees.
// Otherwise `*failure` becomes flaky (MarkFlaky) and false is returned. `seconds`, when set,
// receives the time the replays took.
bool ConfirmFailure(Backend& backend, const std::string& name, const Capabilities& caps,
                    const PreparedCase& original, const RunOptions& run_options,
                    CaseResult* failure, double* seconds = nullptr);

// The same for a failing shape case (RunShapeCase, shape_lane.h).
bool ConfirmShapeFailure(Backend& backend, const std::string& name, const Capabilities& caps,
                         const PreparedShapeCase& original, const RunOptions& run_options,
                         CaseResult* failure, double* seconds = nullptr);

// Turns `*failure` into a flaky result: verdict flaky, replays {count, failed, first verdict},
// a detail naming both results ("flaky: wrong_values (...) at first, then 1 of 3 replays
// failed; another replay gave pass"), no diagnosis (which would name a deterministic
// mistake), and failure/known from the run's expectations for the verdict flaky.
void MarkFlaky(const std::string& name, const RunOptions& run_options, int count, int failed,
               const CaseResult& other, CaseResult* failure);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_SHRINK_REPLAY_H_
