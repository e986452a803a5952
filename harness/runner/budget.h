// The hang and crash budgets of a run (RunOptions::max_consecutive_hangs / _crashes): the
// consecutive hangs and crashes among the cases of one op, and the result of a case not run
// because its op used up a budget. The sequential lanes (runner.cc) and the parallel ones
// (parallel_lanes.h) count with the same Streak, so that both skip the same cases.
//
// Example:
//   Streak s;
//   for (...) {
//     if (auto skipped = SkipKernelAfterBudget(name, s, p, options)) { keep(*skipped); continue; }
//     CaseResult r = RunCase(...);  s.Count(r);
//   }
#ifndef DMCONF_HARNESS_RUNNER_BUDGET_H_
#define DMCONF_HARNESS_RUNNER_BUDGET_H_

#include <optional>
#include <string>

#include "harness/runner/runner.h"
#include "harness/runner/shape_lane.h"

namespace dmconf {

// Consecutive hangs and crashes among the cases of one op, and the case that ended the streak
// that used up a budget.
struct Streak {
  int hangs = 0;
  int crashes = 0;
  std::string last_id;  // the last case of the streak
  // True once a budget of `options` is used up: the op's next cases are skipped.
  bool Exhausted(const RunOptions& options) const {
    return (options.max_consecutive_hangs > 0 && hangs >= options.max_consecutive_hangs) ||
           (options.max_consecutive_crashes > 0 && crashes >= options.max_consecutive_crashes);
  }
  // A case that ran: a hang (crash) extends its streak, any other verdict ends both; an
  // unsupported case (not run) says nothing either way.
  void Count(const CaseResult& r) {
    if (r.verdict == Verdict::kUnsupported) return;
    hangs = r.verdict == Verdict::kHang ? hangs + 1 : 0;
    crashes = r.verdict == Verdict::kCrash ? crashes + 1 : 0;
    // Only a streak's own cases are named (a budget is used up by hangs or crashes alone).
    if (hangs > 0 || crashes > 0) last_id = r.id;
  }
};

// The result of a kernel case (a shape case) not run because its op used up a budget of
// `options` (verdict skipped_after_hangs / skipped_after_crashes, the detail naming the count
// and the last case of the streak), or nullopt to run it.
std::optional<CaseResult> SkipKernelAfterBudget(const std::string& backend, const Streak& s,
                                                const PreparedCase& p, const RunOptions& options);
std::optional<CaseResult> SkipShapeAfterBudget(const std::string& backend, const Streak& s,
                                               const PreparedShapeCase& p,
                                               const RunOptions& options);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_RUNNER_BUDGET_H_
