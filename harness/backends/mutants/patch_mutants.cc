// Patch-gather bugs of ExtractImagePatches kernels, written from the spec's formula with one
// term changed: the row rate, and the order of the patch offsets in the depth. They are not in
// the known-mistake list (harness/compare/mistakes.h): only the fitted diagnosis can name them.
#include "harness/backends/mutants/mutant_support.h"
#include "harness/compare/mistakes.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

bool ValidPatchCase(const OpCase& c) {
  if (c.op != Op::kExtractImagePatches || c.data.shape.size() != 4 || c.sizes.size() != 2 ||
      c.strides.size() != 2 || c.rates.size() != 2) {
    return false;
  }
  absl::StatusOr<Validation> v = Validate(c);
  return v.ok() && v->kind() == ExpectationKind::kValid;
}

// The valid path uses the column rate for rows too (a copy-paste slip).
RunOutcome EipColRateForRows(const OpCase& c) {
  if (!ValidPatchCase(c) || c.auto_pad != "valid") return CorrectOutcome(c);
  OpCase m = c;
  m.rates[0] = c.rates[1];
  return CorrectOutcome(m);
}

// Patch offsets column-major in the depth: channel (kw * KH + kh) * C + c holds what the spec
// puts at (kh * KW + kw) * C + c.
RunOutcome EipKernelColumnMajor(const OpCase& c) {
  RunOutcome right = CorrectOutcome(c);
  if (!ValidPatchCase(c) || !right.output.has_value() || right.output->NumElements() == 0) {
    return right;
  }
  const Tensor& y = *right.output;
  const int64_t C = c.data.shape[1], KH = c.sizes[0], KW = c.sizes[1];
  const int64_t plane = y.shape[2] * y.shape[3], chans = y.shape[1];
  return OutcomeOf(Gather(y, y.shape, [&](int64_t i) {
    const int64_t n = i / (chans * plane), ch = i / plane % chans, rest = i % plane;
    const int64_t k = ch / C, cc = ch % C;
    const int64_t kw = k / KH, kh = k % KH;  // the mutant's k = kw * KH + kh
    return (n * chans + (kh * KW + kw) * C + cc) * plane + rest;
  }));
}

}  // namespace

std::vector<MutantInfo> PatchGatherMutants() {
  return {
      {"eip_col_rate_for_rows",
       "ExtractImagePatches: valid padding uses the column rate for rows",
       {Verdict::kWrongValues, Verdict::kWrongShape},
       EipColRateForRows},
      {"eip_kernel_column_major",
       "ExtractImagePatches: patch offsets column-major in the depth (kw * KH + kh)",
       {Verdict::kWrongValues},
       EipKernelColumnMajor},
  };
}

}  // namespace dmconf
