#include "harness/runner/twin_run.h"

#include <vector>

#include "harness/compare/twin.h"

namespace dmconf {

void DiagnoseByTwins(const PreparedCase& p, const RunOutcome& outcome, const CaseRun& run,
                     const RunOptions& options, CaseResult& r) {
  const bool wrong_output = r.verdict == Verdict::kWrongValues ||
                            r.verdict == Verdict::kWrongShape ||
                            r.verdict == Verdict::kNanPayloadChanged;
  if (!options.diagnose || !options.diagnostic_twins || !wrong_output || !p.expectation.ok() ||
      !p.expectation->output.has_value() || !outcome.output.has_value() ||
      !outcome.unwritten.empty() || outcome.output->NumElements() == 0 ||
      !WantsTwins(p.c, r.diagnosis)) {
    return;
  }
  const TwinPlan plan = PlanTwins(p.c);
  if (plan.twins.empty()) {
    r.diagnosis = TwinsSkipped(plan, r.diagnosis);
    return;
  }
  std::vector<RunOutcome> outs;
  for (const OpCase& t : plan.twins) {
    outs.push_back(run(t));
    if (!outs.back().output.has_value()) break;
  }
  r.diagnosis =
      DiagnoseFromTwins(p.c, *p.expectation->output, *outcome.output, plan, outs, r.diagnosis);
}

}  // namespace dmconf
