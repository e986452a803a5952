// Per-op validation and shape inference, structure-aware. Built once per op (DMCONF_FUZZ_OP =
// 0..4, the Op enum) and once for all ops (-1). Checks, for every input:
//   - nothing crashes, hangs or trips a sanitizer, whatever the (perturbed) case;
//   - a builder's valid case is valid, and a negative case breaks exactly its rule (a
//     literal input, fuzz/literal_case.h, promises neither);
//   - for a valid case, the inferred shape equals the evaluated output's shape, and partial
//     inference on the exact shape gives the same shape.
#include <fuzzer/FuzzedDataProvider.h>

#include "fuzz/fuzz_chooser.h"
#include "fuzz/literal_case.h"
#include "fuzz/perturb.h"
#include "harness/gen/generate.h"
#include "oracle/oracle.h"
#include "oracle/partial/partial_infer.h"

#ifndef DMCONF_FUZZ_OP
#define DMCONF_FUZZ_OP -1
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dmconf;
  const bool literal = StripLiteralMagic(&data, &size);
  FuzzedDataProvider fdp(data, size);
  FuzzChooser ch(&fdp);
  GenerateOptions o;
  o.build.max_elements = 256;
  if (DMCONF_FUZZ_OP >= 0) o.ops = {static_cast<Op>(DMCONF_FUZZ_OP)};
  GeneratedCase g = literal ? LiteralCase(ch) : GenerateCase(ch, o);
  if (g.kind == GenKind::kNegative) {
    NegativeCase n{g.c, *g.twin, g.rule};
    if (!CheckNegativeCase(n).ok())
      FuzzFail(g.c, "a negative case does not break exactly its rule");
  }
  const bool perturbed = fdp.remaining_bytes() > 0 && fdp.ConsumeBool();
  if (perturbed) Perturb(fdp, &g.c);
  const bool raw = literal || perturbed;  // no builder promise holds

  absl::StatusOr<Validation> v = Validate(g.c);
  if (!v.ok()) {
    if (!raw && g.kind == GenKind::kValid) FuzzFail(g.c, "a built valid case is malformed");
    return 0;
  }
  if (!raw && g.kind == GenKind::kValid && !v->violations.empty()) {
    FuzzFail(g.c, "a built valid case breaks a rule");
  }
  if (v->kind() != ExpectationKind::kValid) return 0;
  absl::StatusOr<Expectation> e = Evaluate(g.c, EvalOptions{int64_t{1} << 20});
  if (e.ok()) {
    if (e->kind != ExpectationKind::kValid || !e->output)
      FuzzFail(g.c, "Evaluate disagrees with Validate");
    if (e->output->shape != v->output_shape) {
      FuzzFail(g.c, "inferred shape differs from the evaluated output's shape");
    }
  }
  absl::StatusOr<PartialResult> p = InferPartialShape(PartialCase::FromStatic(g.c));
  if (g.c.int_inputs.size() ==
      (g.c.op == Op::kSpaceToBatch || g.c.op == Op::kBatchToSpace ? 3u : 0u)) {
    if (!p.ok() || p->kind != PartialKind::kShape || !p->has_output ||
        !(p->output.ToString() == PartialShape::Static(v->output_shape).ToString())) {
      FuzzFail(g.c, "partial inference on the exact shape differs from static inference");
    }
  }
  return 0;
}
