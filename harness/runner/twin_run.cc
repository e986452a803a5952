#include "harness/runner/twin_run.h"

#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/compare/compare.h"
#include "harness/compare/twin.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

// Whether a twin came back with an element from another place: judged as the case would be in
// lenient mode (a NaN of the twin's own data quieted or canonicalised in place is not a move),
// anything else that differs is.
bool TwinMovedElements(const std::optional<Tensor>& want, const RunOutcome& outcome) {
  if (!want.has_value()) return false;
  Expectation e;
  e.output_shape = want->shape;
  e.output = want;
  StrictnessOptions lenient;
  lenient.nan_payload_strict = false;
  const Verdict v = Compare(e, outcome, lenient).verdict;
  return v == Verdict::kWrongValues || v == Verdict::kWrongShape;
}

}  // namespace

void DiagnoseByTwins(const PreparedCase& p, const RunOutcome& outcome, const CaseRun& run,
                     const RunOptions& options, CaseResult& r) {
  const bool nan_only = r.verdict == Verdict::kNanPayloadChanged;
  const bool wrong_output =
      r.verdict == Verdict::kWrongValues || r.verdict == Verdict::kWrongShape || nan_only;
  if (!options.diagnostic_twins || !wrong_output || !p.expectation.ok() ||
      !p.expectation->output.has_value() || !outcome.output.has_value() ||
      !outcome.unwritten.empty() || outcome.output->NumElements() == 0) {
    return;
  }
  // A NaN-only difference (docs/errata.md D9) is checked for moved elements, in either mode:
  // the case's own data cannot tell a NaN quieted in place from a NaN read from the place of
  // another, quiet one.
  bool want = options.diagnose && WantsTwins(p.c, r.diagnosis);
  if (!want && !nan_only) return;
  const TwinPlan plan = PlanTwins(p.c);
  if (plan.twins.empty()) {
    if (want) r.diagnosis = TwinsSkipped(plan, r.diagnosis);
    return;
  }
  std::vector<RunOutcome> outs;
  for (const OpCase& t : plan.twins) {
    outs.push_back(run(t));
    if (!outs.back().output.has_value()) break;
  }
  if (nan_only) {
    for (size_t k = 0; k < outs.size(); ++k) {
      if (!TwinMovedElements(plan.want[k], outs[k])) continue;
      r.verdict = Verdict::kWrongValues;
      r.detail = absl::StrCat(
          r.detail, "; not a payload change: its diagnostic twin ", plan.twins[k].id,
          " (data that identify positions) comes back with elements from other places, so a "
          "NaN was read from another element's place (docs/errata.md D9)");
      want = options.diagnose;
      break;
    }
  }
  if (want) {
    r.diagnosis =
        DiagnoseFromTwins(p.c, *p.expectation->output, *outcome.output, plan, outs, r.diagnosis);
  }
}

}  // namespace dmconf
