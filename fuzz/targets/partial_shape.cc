// Partial-shape inference: soundness spot checks. A small valid case (or a literal case,
// fuzz/literal_case.h) is widened into a partial case (intervals, sometimes unbounded, unknown
// rank, non-constant block/pads/crops of a known, partial or unknown shape), one instance
// inside it is chosen, and the static oracle's verdict on the instance must be implied by the
// partial answer (accepted instance -> inside the answer; a must_reject answer -> the
// instance is rejected).
#include <fuzzer/FuzzedDataProvider.h>

#include <limits>

#include "fuzz/fuzz_chooser.h"
#include "fuzz/literal_case.h"
#include "fuzz/perturb.h"
#include "harness/gen/builders.h"
#include "oracle/oracle.h"
#include "oracle/partial/partial_infer.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace dmconf;
  const bool literal = StripLiteralMagic(&data, &size);
  FuzzedDataProvider fdp(data, size);
  FuzzChooser ch(&fdp);
  BuildOptions bo;
  bo.max_elements = 128;
  OpCase c = literal ? LiteralCase(ch).c : BuildValidCase(ch, ch.Pick<Op>(AllOps()), bo);
  if (fdp.ConsumeBool()) Perturb(fdp, &c, 128);
  PartialCase p = PartialCase::FromStatic(c);
  // The instance: the case itself, moved inside the widened intervals. Perturbed dims can be
  // anywhere in int64, so the widening saturates.
  auto add = [](int64_t a, int64_t b) {
    return CheckedAdd(a, b).value_or(b > 0 ? std::numeric_limits<int64_t>::max()
                                           : std::numeric_limits<int64_t>::min());
  };
  OpCase inst = c;
  if (p.data.dims) {
    for (size_t i = 0; i < p.data.dims->size(); ++i) {
      Dim& d = (*p.data.dims)[i];
      d.lo = std::max<int64_t>(0, add(d.lo, -ch.Int(0, 3)));
      if (ch.Bool()) {
        d.hi.reset();
      } else {
        d.hi = add(*d.hi, ch.Int(0, 3));
      }
      inst.data.shape[i] = ch.Int(d.lo, d.hi.value_or(add(d.lo, 8)));
    }
  }
  // A non-constant input keeps the instance's constant; its declared shape contains the
  // constant's: the same, a partial one (each dim an interval around it, unbounded or ?), or
  // an unknown rank.
  for (size_t k = 0; k < 3; ++k) {
    if (!p.int_inputs[k] || !ch.Bool()) continue;
    const Shape& s = p.int_inputs[k]->shape;
    switch (ch.Int(0, 2)) {
      case 0:
        p.int_shapes[k] = PartialShape::Static(s);
        break;
      case 1:
        p.int_shapes[k] = PartialShape::Of({});
        for (int64_t n : s) {
          Dim d{std::max<int64_t>(0, add(n, -ch.Int(0, 3))), std::nullopt};
          if (ch.Int(0, 2) != 0) d.hi = add(n, ch.Int(0, 3));
          if (ch.Int(0, 3) == 0) d = Dim::Any();
          p.int_shapes[k].dims->push_back(d);
        }
        break;
      default:
        p.int_shapes[k] = PartialShape::DynamicRank();
        break;
    }
    p.int_inputs[k].reset();
  }
  if (ch.Weighted({9, 1}) == 1) p.data = PartialShape::DynamicRank();
  absl::StatusOr<PartialResult> r = InferPartialShape(p);
  absl::StatusOr<Validation> v = Validate(inst);
  if (!r.ok() || !v.ok()) return 0;
  if (v->kind() == ExpectationKind::kMustReject || v->output_shape.empty()) return 0;
  if (r->kind == PartialKind::kMustReject)
    FuzzFail(inst, "partial inference rejects an accepted instance");
  if (r->has_output && !r->output.Contains(v->output_shape)) {
    FuzzFail(inst, "an accepted instance's output is outside the partial answer");
  }
  return 0;
}
