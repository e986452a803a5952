// Diagnostic twins: when a failing case's data cannot identify positions (sub-byte and boolean
// types, special-value fills), the same op, shape, attributes and element type are run again
// with data that do. One twin holds the position code i + 1 of element i when the type is wide
// enough; narrower types get several twins, twin k holding digit k of the code (in base
// 2^width), so that their outputs together name the input element behind every output element.
// The runner runs the twins through the backend (harness/runner/twin_run.h); this file plans
// them and diagnoses their outputs: the combined position map is diagnosed like a
// self-identifying case (diagnosis.h), type-specific models (packing, u1 bit order) are checked
// on every twin, and a mistake is named only when it also reproduces the original case's
// output. Twins that all pass say that the bug depends on the values. docs/diagnoses.md.
//
// Example:
//   TwinPlan plan = PlanTwins(c);           // c: u1 data, 100 elements: 7 twins
//   std::vector<RunOutcome> outs;  for (const OpCase& t : plan.twins) outs.push_back(Run(t));
//   Diagnosis d = DiagnoseFromTwins(c, expected, actual, plan, outs, original_diagnosis);
//   // d.from_twin; d.mistake == "subbyte.lsb_first_throughout"
#ifndef DMCONF_HARNESS_COMPARE_TWIN_H_
#define DMCONF_HARNESS_COMPARE_TWIN_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/types/span.h"
#include "harness/backend/backend.h"
#include "harness/compare/diagnosis.h"
#include "oracle/op_case.h"
#include "oracle/tensor.h"

namespace dmconf {

// The work is bounded: at most this many twins, of at most this many elements each.
inline constexpr int kMaxTwins = 16;
inline constexpr int64_t kMaxTwinElements = int64_t{1} << 20;

struct TwinPlan {
  std::vector<OpCase> twins;  // ids "<case id>~twin<k>"
  // The oracle's output of each twin (std::nullopt: the twin is not valid), evaluated once.
  std::vector<std::optional<Tensor>> want;
  int digit_bits = 0;   // bits of the position code each twin carries
  std::string skipped;  // why no twin is run (twins empty): the bound it would exceed
};

// Whether a wrong output of c, diagnosed as `d`, asks for twins: its data (not empty) do not
// identify positions and the diagnosis names no mistake.
bool WantsTwins(const OpCase& c, const std::optional<Diagnosis>& d);

TwinPlan PlanTwins(const OpCase& c);

// The diagnosis of c (oracle output `expected`, backend output `actual`, diagnosed alone as
// `original`) from the outcomes of plan.twins, in order (fewer than planned: the twins stopped
// at the first one without an output).
Diagnosis DiagnoseFromTwins(const OpCase& c, const Tensor& expected, const Tensor& actual,
                            const TwinPlan& plan, absl::Span<const RunOutcome> outcomes,
                            const std::optional<Diagnosis>& original);

// The diagnosis of c when its twins are not run (plan.skipped): the original's, saying why.
Diagnosis TwinsSkipped(const TwinPlan& plan, const std::optional<Diagnosis>& original);

}  // namespace dmconf

#endif  // DMCONF_HARNESS_COMPARE_TWIN_H_
