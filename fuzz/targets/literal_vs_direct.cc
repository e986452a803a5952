// Differential: the literal oracle (reshape / transpose / reshape primitives) against the
// direct per-element index formulas (oracle/direct). Any difference in output, or a case one
// accepts and the other refuses, aborts with the repro.
#include <fuzzer/FuzzedDataProvider.h>

#include "absl/strings/match.h"
#include "fuzz/fuzz_chooser.h"
#include "fuzz/literal_case.h"
#include "fuzz/perturb.h"
#include "harness/gen/generate.h"
#include "oracle/direct/direct.h"
#include "oracle/oracle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dmconf;
  const bool literal = StripLiteralMagic(&data, &size);
  FuzzedDataProvider fdp(data, size);
  FuzzChooser ch(&fdp);
  GenerateOptions o;
  o.build.max_elements = 512;
  o.valid_weight = 12;
  GeneratedCase g = literal ? LiteralCase(ch) : GenerateCase(ch, o);
  if (fdp.remaining_bytes() > 0 && fdp.ConsumeBool()) Perturb(fdp, &g.c, 512);
  constexpr int64_t kMaxBytes = int64_t{1} << 20;
  absl::StatusOr<Expectation> lit = Evaluate(g.c, EvalOptions{kMaxBytes});
  absl::StatusOr<Tensor> dir = direct::DirectEvaluate(g.c, kMaxBytes);
  const bool lit_out = lit.ok() && lit->output.has_value();
  if (lit_out != dir.ok()) {
    // The two may refuse for different size limits only (intermediates vs the output).
    const bool size_limit =
        (!lit.ok() && absl::StartsWith(lit.status().message(), "case.output.too_large")) ||
        (!dir.ok() && absl::StartsWith(dir.status().message(), "case.output.too_large"));
    if (!size_limit) FuzzFail(g.c, "one implementation accepts a case the other refuses");
    return 0;
  }
  if (lit_out && *dir != *lit->output) FuzzFail(g.c, "literal oracle and direct formulas differ");
  return 0;
}
