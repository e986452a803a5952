// Shape inference alone, as lean as possible (the throughput target): a structure-aware case
// from any lane (or a literal case, fuzz/literal_case.h), built without data bytes, optionally
// perturbed, then Validate(). Never
// crashes; a built valid case is valid and has an output shape of its rank.
#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz/fuzz_chooser.h"
#include "fuzz/literal_case.h"
#include "fuzz/perturb.h"
#include "harness/gen/generate.h"
#include "oracle/oracle.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dmconf;
  const bool literal = StripLiteralMagic(&data, &size);
  FuzzedDataProvider fdp(data, size);
  FuzzChooser ch(&fdp);
  static const GenerateOptions o = [] {
    GenerateOptions x;
    x.build.with_data = false;
    x.overflow_weight = 2;
    return x;
  }();
  GeneratedCase g = literal ? LiteralCase(ch, /*with_data=*/false) : GenerateCase(ch, o);
  const bool perturbed = fdp.remaining_bytes() > 0 && fdp.ConsumeBool();
  if (perturbed) Perturb(fdp, &g.c, 0);
  const bool raw = literal || perturbed;  // no builder promise holds
  absl::StatusOr<Validation> v = Validate(g.c);
  if (!raw && g.kind == GenKind::kValid) {
    if (!v.ok() || !v->violations.empty() || v->output_shape.size() != g.c.data.shape.size()) {
      FuzzFail(g.c, "a built valid case is not valid");
    }
  }
  return 0;
}
