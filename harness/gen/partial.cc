#include "harness/gen/partial.h"

#include <limits>

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

ShapeCase SeededShapeCase(uint64_t seed, uint64_t index, bool partial, const GenerateOptions& o) {
  GenerateOptions shape_only = o;
  shape_only.build.with_data = false;
  SeededChooser ch(MixSeed(seed, index ^ (partial ? 0x9e3779b97f4a7c15ull : 0)));
  GeneratedCase g = GenerateCase(ch, shape_only);
  ShapeCase s;
  const char* kind = partial ? "partial" : "static";
  s.id = ShapeCaseId(partial, g.c.op, LaneName(g.lane), seed, index);
  s.origin = absl::StrCat("seeded seed=", seed, " index=", index, " ", kind);
  s.c = partial ? WidenToPartial(ch, g.c) : PartialCase::FromStatic(g.c);
  return s;
}

namespace {

constexpr int64_t k2p31 = int64_t{1} << 31;
constexpr int64_t k2p32 = int64_t{1} << 32;
constexpr int64_t k2p33 = int64_t{1} << 33;
constexpr int64_t k2p62 = int64_t{1} << 62;

struct WrapSpec {
  const char* name;  // the id's tail: which quantity wraps, and how
  Op op;
  Shape data;
  std::vector<std::vector<int64_t>> ints;  // block_shape, pads / crops (i64)
  std::optional<int64_t> block_size;
  std::vector<int64_t> sizes;
};

// Each product below is >= 2^64 and congruent to 0 or to a small value modulo 2^64.
const std::vector<WrapSpec>& WrapSpecs() {
  static const std::vector<WrapSpec>* specs = new std::vector<WrapSpec>{
      // SpaceToBatch: batch * B_2 * B_3 = 1 * 2^32 * 2^32 = 2^64 (wraps to 0); each padded
      // dim 1 + (B_i - 1) is divisible by B_i, so only the batch product breaks a rule.
      {"s2b.batch.B2^32x2^32",
       Op::kSpaceToBatch,
       {1, 1, 1, 1},
       {{1, 1, k2p32, k2p32}, {0, 0, 0, 0}, {0, 0, k2p32 - 1, k2p32 - 1}},
       {},
       {}},
      // 5 * 2^62 * 4 = 5 * 2^64 (wraps to 0).
      {"s2b.batch.5xB2^62x4",
       Op::kSpaceToBatch,
       {5, 1, 1, 1},
       {{1, 1, k2p62, 4}, {0, 0, 0, 0}, {0, 0, k2p62 - 1, 3}},
       {},
       {}},
      // 3 * 2^33 * 2^31 = 3 * 2^64 (wraps to 0).
      {"s2b.batch.3xB2^33x2^31",
       Op::kSpaceToBatch,
       {3, 1, 1, 1},
       {{1, 1, k2p33, k2p31}, {0, 0, 0, 0}, {0, 0, k2p33 - 1, k2p31 - 1}},
       {},
       {}},
      // BatchToSpace: prod(block_shape) = 2^64 (wraps to 0): "batch % 0" in wrapping code.
      {"b2s.batch.B2^32x2^32",
       Op::kBatchToSpace,
       {1, 1, 1, 1},
       {{1, 1, k2p32, k2p32}, {0, 0, 0, 0}, {0, 0, 0, 0}},
       {},
       {}},
      // DepthToSpace: block_size^K = (2^32)^2 = 2^64 (wraps to 0): "depth % 0".
      {"d2s.block^2.b2^32", Op::kDepthToSpace, {1, 1, 1, 1}, {}, k2p32, {}},
      // SpaceToDepth: depth * block_size^K = 2^32 * 2^32 = 2^64 (wraps to 0); the spatial
      // dims 2^32 are divisible by block_size and the data has 0 elements (batch 0).
      {"s2d.depth.b2^32", Op::kSpaceToDepth, {0, 1, k2p32, k2p32}, {}, k2p32, {}},
      // ExtractImagePatches: size_rows * size_cols * depth = 2^32 * 2^32 * 1 = 2^64 (wraps to
      // 0); the patch is larger than the 1 x 1 image, so out_rows = out_cols = 0 (valid).
      {"eip.depth.k2^32x2^32", Op::kExtractImagePatches, {1, 1, 1, 1}, {}, {}, {k2p32, k2p32}},
  };
  return *specs;
}

}  // namespace

ShapeCase WrapShapeCase(size_t index) {
  const WrapSpec& w = WrapSpecs()[index];
  OpCase c;
  c.op = w.op;
  c.data.type = ElementType::kF32;
  c.data.shape = w.data;  // no bytes: a shape-only case
  for (const std::vector<int64_t>& v : w.ints) {
    c.int_inputs.push_back(*MakeIntegerTensor(ElementType::kI64, v));
  }
  c.block_size = w.block_size;
  if (w.op == Op::kSpaceToDepth || w.op == Op::kDepthToSpace) c.mode = "blocks_first";
  if (w.op == Op::kExtractImagePatches) {
    c.sizes = w.sizes;
    c.strides = {1, 1};
    c.rates = {1, 1};
    c.auto_pad = "valid";
  }
  ShapeCase s;
  s.id = absl::StrCat("shape-wrap/", w.name);
  s.origin = absl::StrCat("curated wrap case ", index, " (products wrapping modulo 2^64)");
  s.c = PartialCase::FromStatic(c);
  return s;
}

std::vector<ShapeCase> WrapShapeCases() {
  std::vector<ShapeCase> out;
  for (size_t i = 0; i < WrapSpecs().size(); ++i) out.push_back(WrapShapeCase(i));
  return out;
}

}  // namespace dmconf
