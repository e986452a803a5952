#include "harness/gen/partial.h"

#include <limits>

#include "absl/strings/str_cat.h"

namespace dmconf {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

int64_t SaturatedAdd(int64_t a, int64_t b) { return a > kMax - b ? kMax : a + b; }

// An interval containing v: exact, bounded around it, unbounded above, or "?".
Dim Widen(Chooser& ch, int64_t v) {
  switch (ch.Weighted({4, 3, 2, 1})) {
    case 0:
      return Dim::Exact(v);
    case 1:
      return Dim::Range(v - std::min<int64_t>(v, ch.Int(0, 3)), SaturatedAdd(v, ch.Int(0, 3)));
    case 2:
      return Dim::AtLeast(v - std::min<int64_t>(v, ch.Int(0, 3)));
    default:
      return Dim::Any();
  }
}

}  // namespace

PartialCase WidenToPartial(Chooser& ch, const OpCase& c) {
  PartialCase p = PartialCase::FromStatic(c);
  if (ch.Weighted({9, 1}) == 1) {
    p.data = PartialShape::DynamicRank();
  } else {
    for (size_t i = 0; i < c.data.shape.size(); ++i) {
      (*p.data.dims)[i] = Widen(ch, c.data.shape[i]);
    }
  }
  for (size_t k = 0; k < 3; ++k) {
    if (!p.int_inputs[k] || ch.Bool()) continue;
    const Tensor& t = *p.int_inputs[k];
    switch (ch.Weighted({3, 2, 1})) {
      case 0:  // the shape it has: [N]
        p.int_shapes[k] = PartialShape::Static(t.shape);
        break;
      case 1:  // a partial shape containing it
        p.int_shapes[k].dims.emplace();
        for (int64_t d : t.shape) p.int_shapes[k].dims->push_back(Widen(ch, d));
        break;
      default:  // unknown rank
        p.int_shapes[k] = PartialShape::DynamicRank();
        break;
    }
    p.int_types[k] = t.type;
    p.int_inputs[k].reset();
  }
  return p;
}

ShapeCase SeededShapeCase(uint64_t seed, uint64_t index, bool partial, const GenerateOptions& o) {
  GenerateOptions shape_only = o;
  shape_only.build.with_data = false;
  SeededChooser ch(MixSeed(seed, index ^ (partial ? 0x9e3779b97f4a7c15ull : 0)));
  GeneratedCase g = GenerateCase(ch, shape_only);
  ShapeCase s;
  const char* kind = partial ? "partial" : "static";
  s.id = absl::StrCat("shape-", kind, "-", OpPrefix(g.c.op), "-", LaneName(g.lane), "-s", seed,
                      "-i", index);
  s.origin = absl::StrCat("seeded seed=", seed, " index=", index, " ", kind);
  s.c = partial ? WidenToPartial(ch, g.c) : PartialCase::FromStatic(g.c);
  return s;
}

}  // namespace dmconf
