#include "harness/gen/partial.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "harness/gen/case_ids.h"

namespace dmconf {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

int64_t SaturatedAdd(int64_t a, int64_t b) { return a > kMax - b ? kMax : a + b; }

// An interval containing v: exact, bounded around it, unbounded above, or "?".
Dim Widen(Chooser& ch, int64_t v) {
  switch (ch.Weighted({4, 3, 2, 1})) {
    case 0:
      return Dim::Exact(v);
    case 1: {
      // One choice per statement: C++ leaves the order of argument evaluation open, and the
      // same seed must give the same case under every compiler (vectors/shapes).
      const int64_t up = ch.Int(0, 3);
      const int64_t down = ch.Int(0, 3);
      return Dim::Range(v - std::min<int64_t>(v, down), SaturatedAdd(v, up));
    }
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

namespace {

// Value k of constant input `t` (0 when it has none: a u64 above 2^63-1, or an input shorter
// than k + 1, as a negative case's may be).
int64_t IntAt(const Tensor& t, int64_t k) {
  if (k < 0 || k >= t.NumElements()) return 0;
  return t.GetInteger(k).value_or(0);
}

// The widest interval around v of values v' for which d does not divide v' + off:
// [v - r + 1, v + (d - r) - 1] with r = (v + off) mod d. nullopt when d divides v + off, or
// near 2^62 (the overflow lane keeps its exact dims).
std::optional<Dim> NoMultipleAround(int64_t v, int64_t off, int64_t d) {
  constexpr int64_t kRoom = int64_t{1} << 62;
  if (d < 2 || v >= kRoom || off >= kRoom || d >= kRoom) return std::nullopt;
  const int64_t r = (v + off) % d;
  if (r == 0) return std::nullopt;
  return Dim::Range(v - r + 1, v + (d - r) - 1);
}

// Each data dim of `c` that breaks a divisibility rule ("block_shape[i] divides D_i + pads",
// "spatial dims divisible by block_size", "depth divisible by block_size^K", "batch divisible
// by prod(block_shape)") widened in p into the widest interval around it that still breaks it:
// every instance breaks the rule, so the case stays must_reject with interval dims. Whether a
// dim was widened so.
bool NarrowToBrokenDivisibility(PartialCase& p, const OpCase& c) {
  if (!p.data.dims || p.data.dims->size() != c.data.shape.size()) return false;
  std::vector<Dim>& dims = *p.data.dims;
  const Shape& d = c.data.shape;
  bool narrowed = false;
  auto put = [&](size_t i, int64_t off, int64_t div) {
    if (std::optional<Dim> w = NoMultipleAround(d[i], off, div)) {
      dims[i] = *w;
      narrowed = true;
    }
  };
  const size_t n = d.size();
  if (c.op == Op::kSpaceToBatch && c.int_inputs.size() == 3) {
    const int64_t len = std::min({c.int_inputs[0].NumElements(), c.int_inputs[1].NumElements(),
                                  c.int_inputs[2].NumElements()});
    for (size_t i = 1; i < n && static_cast<int64_t>(i) < len; ++i) {
      int64_t pads = 0;  // pads_begin[i] + pads_end[i]; a sum above 2^63-1 is left alone
      if (__builtin_add_overflow(IntAt(c.int_inputs[1], i), IntAt(c.int_inputs[2], i), &pads)) {
        continue;
      }
      if (pads >= 0) put(i, pads, IntAt(c.int_inputs[0], i));
    }
  } else if (c.op == Op::kBatchToSpace && !c.int_inputs.empty() && n > 0) {
    int64_t prod = 1;
    for (int64_t k = 0; k < c.int_inputs[0].NumElements(); ++k) {
      const int64_t b = IntAt(c.int_inputs[0], k);
      if (b < 1 || prod > (int64_t{1} << 62) / b) return false;
      prod *= b;
    }
    put(0, 0, prod);
  } else if ((c.op == Op::kSpaceToDepth || c.op == Op::kDepthToSpace) && n >= 3) {
    const int64_t b = c.block_size.value_or(1);
    if (c.op == Op::kSpaceToDepth) {
      for (size_t i = 2; i < n; ++i) put(i, 0, b);
      return narrowed;
    }
    int64_t bk = 1;
    for (size_t i = 2; i < n; ++i) {
      if (b < 1 || bk > (int64_t{1} << 62) / b) return false;
      bk *= b;
    }
    put(1, 0, bk);
  }
  return narrowed;
}

// The integer inputs constant as generated (the values a broken rule reads).
void ConstantInputs(PartialCase& p, const OpCase& c) {
  const PartialCase k = PartialCase::FromStatic(c);
  p.int_inputs = k.int_inputs;
  p.int_shapes = k.int_shapes;
  p.int_types = k.int_types;
}

}  // namespace

ShapeCase SeededShapeCase(uint64_t seed, uint64_t index, bool partial, const GenerateOptions& o) {
  GenerateOptions shape_only = o;
  shape_only.build.with_data = false;
  SeededChooser ch(MixSeed(seed, index ^ (partial ? 0x9e3779b97f4a7c15ull : 0)));
  GeneratedCase g = GenerateCase(ch, shape_only);
  // Decisions of a stream of their own, so that every other choice of the case stays as it was.
  const uint64_t extra = MixSeed(seed ^ 0x616273656e74ull, index ^ (partial ? 1 : 0));
  // "block_size: Default value: 1. Required: no": a case with block_size 1 goes, one time in
  // two, without it.
  const bool depth = g.c.op == Op::kSpaceToDepth || g.c.op == Op::kDepthToSpace;
  if (depth && g.c.block_size == 1 && (extra & 1) != 0) g.c.block_size.reset();
  ShapeCase s;
  const char* kind = partial ? "partial" : "static";
  s.id = ShapeCaseId(partial, g.c.op, GenKindName(g.kind), seed, index);
  s.origin = absl::StrCat("seeded seed=", seed, " index=", index, " ", kind);
  s.c = partial ? WidenToPartial(ch, g.c) : PartialCase::FromStatic(g.c);
  if (partial && g.kind == GenKind::kNegative) KeepRuleBroken(s.c, g.c, extra >> 1);
  return s;
}

void KeepRuleBroken(PartialCase& p, const OpCase& c, uint64_t bits) {
  if (NarrowToBrokenDivisibility(p, c)) {
    ConstantInputs(p, c);
  } else if ((bits & 1) == 0) {
    // An illegal value under an unknown rank: a rule on the attributes or the inputs' values
    // alone rejects every instance at any rank.
    p.data = PartialShape::DynamicRank();
    ConstantInputs(p, c);
  }
}

}  // namespace dmconf
