#include "harness/io/vector_sets.h"

#include <algorithm>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "harness/gen/generate.h"
#include "harness/io/element_json.h"
#include "oracle/case_factory.h"

namespace dmconf::io {
namespace {

constexpr int64_t kHuge = int64_t{1} << 62;

// A 1-D tensor of the given type holding raw bits (for non-integer block_shape types).
Tensor Bits1D(ElementType t, const std::vector<uint64_t>& bits) {
  absl::StatusOr<Tensor> out = Tensor::Zeros(t, {static_cast<int64_t>(bits.size())});
  for (size_t i = 0; i < bits.size(); ++i) out->SetBits(static_cast<int64_t>(i), bits[i]);
  return *std::move(out);
}

// Special bit patterns per type: NaNs with payloads (quiet and signalling), +-inf, -0,
// subnormals, extremes; integer minima and maxima.
std::vector<uint64_t> SpecialBits(ElementType t) {
  switch (t) {
    case ElementType::kF32:
      return {0x7FC00000, 0x7FC00001, 0xFFC12345, 0x7F800001, 0x7FA00000, 0x7F800000,
              0xFF800000, 0x80000000, 0x00000001, 0x807FFFFF, 0x7F7FFFFF, 0x00800000,
              0x3F800000, 0xC0400000, 0x3EAAAAAB, 0x00000000};
    case ElementType::kF64:
      return {0x7FF8000000000000, 0x7FF8000000000001, 0xFFF0000000000001, 0x7FF4000000000000,
              0x7FF0000000000000, 0xFFF0000000000000, 0x8000000000000000, 0x0000000000000001,
              0x800FFFFFFFFFFFFF, 0x7FEFFFFFFFFFFFFF, 0x0010000000000000, 0x3FF0000000000000,
              0xC059000000000000, 0x3FB999999999999A, 0x4340000000000001, 0x0000000000000000};
    case ElementType::kF16:
      return {0x7E00, 0x7E01, 0xFE7F, 0x7C01, 0x7D00, 0x7C00, 0xFC00, 0x8000,
              0x0001, 0x83FF, 0x7BFF, 0x0400, 0x3C00, 0xC200, 0x3555, 0x0000};
    case ElementType::kBf16:
      return {0x7FC0, 0x7FC1, 0xFFC5, 0x7F81, 0x7FA0, 0x7F80, 0xFF80, 0x8000,
              0x0001, 0x807F, 0x7F7F, 0x0080, 0x3F80, 0xC040, 0x3EAB, 0x0000};
    case ElementType::kF8e4m3:  // no infinities; S.1111.111 is NaN
      return {0x7F, 0xFF, 0x80, 0x01, 0x87, 0x7E, 0xFE, 0x08, 0x38, 0xC4, 0x00, 0x37};
    case ElementType::kF8e5m2:
      return {0x7E, 0x7F, 0xFD, 0x7D, 0x7C, 0xFC, 0x80, 0x01, 0x83, 0x7B, 0x3C, 0x00};
    case ElementType::kF8e8m0:
      return {0xFF, 0x00, 0x7F, 0xFE, 0x80, 0x01};
    case ElementType::kF4e2m1:
      return {0x8, 0x1, 0x9, 0x7, 0xF, 0x2, 0x0, 0x3};
    default: {
      const int w = BitWidth(t);
      const uint64_t all = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
      if (IsSignedIntegerType(t)) {
        const uint64_t min = uint64_t{1} << (w - 1);
        return {min, all >> 1, all, 0, 1, min | 1, (all >> 1) - 1};
      }
      return {all, 0, 1, all - 1, all >> 1, (all >> 1) + 1};
    }
  }
}

// A deterministic permutation of the specials (splitmix64 from the seed), cycled over shape.
Tensor SpecialTensor(ElementType t, const Shape& shape, uint64_t seed) {
  std::vector<uint64_t> bits = SpecialBits(t);
  uint64_t state = seed;
  for (size_t i = bits.size(); i > 1; --i) {
    state += 0x9E3779B97F4A7C15ull;
    uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    std::swap(bits[i - 1], bits[z % i]);
  }
  absl::StatusOr<Tensor> out =
      MakeTensor(t, shape, [&](int64_t i) { return bits[static_cast<size_t>(i) % bits.size()]; });
  return *std::move(out);
}

class SetBuilder {
 public:
  SetBuilder(std::string profile, uint64_t seed) : profile_(std::move(profile)), seed_(seed) {}

  // Adds c as vector `id`; `rule` is the rule the oracle must decide on ("" = valid).
  void Add(OpCase c, const std::string& id, const std::string& rule,
           std::vector<std::string> classes, std::string source = "") {
    if (!status_.ok()) return;
    Provenance p;
    p.kind = source.empty() ? "generated" : "spec_example";
    p.generator = std::string(kGeneratorName);
    p.profile = profile_;
    p.seed = seed_;
    p.source = std::move(source);
    c.id = id;
    if (!ids_.insert(id).second) {
      status_ = absl::InternalError(absl::StrCat("vector.generate.intent: duplicate id ", id));
      return;
    }
    absl::StatusOr<VectorCase> v = VectorCaseFromOracle(c, p, classes);
    if (!v.ok()) {
      status_ = absl::InternalError(
          absl::StrCat("vector.generate.intent: ", id, ": ", v.status().message()));
      return;
    }
    const std::string got = v->expected.rule ? std::string(v->expected.rule->id) : "";
    const bool evaluated = v->expected.kind != ExpectationKind::kValid || v->expected.output;
    if (got != rule || !evaluated) {
      status_ = absl::InternalError(
          absl::StrCat("vector.generate.intent: ", id, " meant ", rule.empty() ? "valid" : rule,
                       ", the oracle says ", got.empty() ? "valid" : got));
      return;
    }
    out_.push_back(*std::move(v));
  }

  uint64_t seed() const { return seed_; }
  absl::StatusOr<std::vector<VectorCase>> Finish() {
    if (!status_.ok()) return status_;
    return std::move(out_);
  }

 private:
  std::string profile_;
  uint64_t seed_;
  std::vector<VectorCase> out_;
  std::set<std::string> ids_;
  absl::Status status_;
};

const char* kModes[] = {"blocks_first", "depth_first"};
const char* kPads[] = {"valid", "same_upper", "same_lower"};

// ---- The specification examples ----

void AddSpecExamples(SetBuilder& b) {
  const ElementType f32 = ElementType::kF32;
  b.Add(BlockOpCase(Op::kSpaceToBatch, PositionTensor(f32, {2, 6, 10, 3, 3}), {1, 2, 4, 3, 1},
                    {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0}),
        "spec.s2b.ir_layer", "", {"spec_example"}, "SpaceToBatch-2, Example (IR layer)");
  b.Add(BlockOpCase(Op::kBatchToSpace, PositionTensor(f32, {48, 3, 3, 1, 3}), {1, 2, 4, 3, 1},
                    {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0}),
        "spec.b2s.ir_layer", "", {"spec_example"}, "BatchToSpace-2, Example (IR layer)");
  for (const char* mode : kModes) {
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionTensor(f32, {5, 7, 4, 6}), 2, mode),
          absl::StrCat("spec.s2d.ir_layer.", mode), "", {"spec_example"},
          "SpaceToDepth-1, Example (IR layer)");
    b.Add(DepthOpCase(Op::kDepthToSpace, PositionTensor(f32, {5, 28, 2, 3}), 2, mode),
          absl::StrCat("spec.d2s.ir_layer.", mode), "", {"spec_example"},
          "DepthToSpace-1, Example (IR layer)");
  }
  b.Add(PatchOpCase(PositionTensor(f32, {64, 3, 10, 10}), {3, 3}, {5, 5}, {1, 1}, "valid"),
        "spec.eip.ir_layer", "", {"spec_example"}, "ExtractImagePatches-3, Example (IR layer)");
  // The worked examples use a 10 x 10 image holding 1..100 (row-major).
  struct Worked {
    int n;
    std::vector<int64_t> sizes, strides, rates;
    const char* pad;
  } worked[] = {{1, {3, 3}, {5, 5}, {1, 1}, "valid"},
                {2, {4, 4}, {8, 8}, {1, 1}, "valid"},
                {3, {4, 4}, {9, 9}, {1, 1}, "same_upper"},
                {4, {3, 3}, {5, 5}, {2, 2}, "valid"}};
  for (const Worked& w : worked) {
    b.Add(PatchOpCase(PositionTensor(f32, {1, 1, 10, 10}, 1), w.sizes, w.strides, w.rates, w.pad),
          absl::StrCat("spec.eip.example", w.n), "", {"spec_example"},
          absl::StrCat("ExtractImagePatches-3, Examples, example ", w.n));
  }
  b.Add(PatchOpCase(PositionTensor(f32, {1, 2, 5, 5}, 1), {2, 2}, {3, 3}, {1, 1}, "valid"),
        "spec.eip.example5", "", {"spec_example"}, "ExtractImagePatches-3, Examples, example 5");
}

// ---- Every op x mode / auto_pad x element type ----

void AddTypeSweep(SetBuilder& b) {
  for (ElementType t : AllElementTypes()) {
    const std::string tn(ElementTypeName(t));
    b.Add(BlockOpCase(Op::kSpaceToBatch, PositionTensor(t, {2, 3, 4}), {1, 2, 2}, {0, 1, 0},
                      {0, 0, 2}),
          absl::StrCat("types.s2b.", tn), "", {"sweep:types"});
    b.Add(BlockOpCase(Op::kBatchToSpace, PositionTensor(t, {8, 2, 3}), {1, 2, 2}, {0, 1, 0},
                      {0, 0, 1}),
          absl::StrCat("types.b2s.", tn), "", {"sweep:types"});
    for (const char* mode : kModes) {
      b.Add(DepthOpCase(Op::kSpaceToDepth, PositionTensor(t, {1, 2, 4, 6}), 2, mode),
            absl::StrCat("types.s2d.", mode, ".", tn), "", {"sweep:types"});
      b.Add(DepthOpCase(Op::kDepthToSpace, PositionTensor(t, {1, 8, 2, 3}), 2, mode),
            absl::StrCat("types.d2s.", mode, ".", tn), "", {"sweep:types"});
    }
    for (const char* pad : kPads) {
      b.Add(PatchOpCase(PositionTensor(t, {1, 2, 5, 6}), {2, 3}, {2, 2}, {1, 1}, pad),
            absl::StrCat("types.eip.", pad, ".", tn), "", {"sweep:types"});
    }
  }
}

// ---- Ranks: from each op's minimum to 7 ----

void AddRankSweep(SetBuilder& b) {
  const ElementType t = ElementType::kI32;
  for (size_t rank = 2; rank <= 7; ++rank) {
    // SpaceToBatch: dims 1 (batch), then 3, 2, 3, 2, ...; blocks 2 on odd axes (padding
    // where needed), 1 elsewhere.
    Shape d = {2}, out_d = {0};
    std::vector<int64_t> block = {1}, pb = {0}, pe = {0};
    for (size_t k = 1; k < rank; ++k) {
      d.push_back(k % 2 == 1 ? 3 : 2);
      block.push_back(k % 2 == 1 ? 2 : 1);
      pb.push_back(k % 2 == 1 ? 1 : 0);
      pe.push_back(0);
    }
    b.Add(BlockOpCase(Op::kSpaceToBatch, PositionTensor(t, d), block, pb, pe),
          absl::StrCat("ranks.s2b.r", rank), "", {"sweep:ranks"});
    // BatchToSpace: batch = 2 * prod(block), spatial dims 2; crop one row on the first axis.
    Shape bd = {1};
    std::vector<int64_t> bblock = {1}, cb = {0}, ce = {0};
    int64_t prod = 1;
    for (size_t k = 1; k < rank; ++k) {
      bblock.push_back(k <= 3 ? 2 : 1);
      prod *= bblock.back();
      bd.push_back(2);
      cb.push_back(k == 1 ? 1 : 0);
      ce.push_back(0);
    }
    bd[0] = 2 * prod;
    b.Add(BlockOpCase(Op::kBatchToSpace, PositionTensor(t, bd), bblock, cb, ce),
          absl::StrCat("ranks.b2s.r", rank), "", {"sweep:ranks"});
    if (rank < 3) continue;
    // SpaceToDepth / DepthToSpace: K = rank - 2 spatial dims of 2 (then 1), block 2.
    const size_t k_dims = rank - 2;
    Shape sd = {1, 2}, dd = {1, int64_t{1} << k_dims};
    for (size_t k = 0; k < k_dims; ++k) {
      sd.push_back(k < 3 ? 2 : 2);
      dd.push_back(k < 2 ? 2 : 1);
    }
    for (const char* mode : kModes) {
      b.Add(DepthOpCase(Op::kSpaceToDepth, PositionTensor(t, sd), 2, mode),
            absl::StrCat("ranks.s2d.", mode, ".r", rank), "", {"sweep:ranks"});
      b.Add(DepthOpCase(Op::kDepthToSpace, PositionTensor(t, dd), 2, mode),
            absl::StrCat("ranks.d2s.", mode, ".r", rank), "", {"sweep:ranks"});
    }
  }
}

// ---- Attribute and input-type variations ----

void AddVariations(SetBuilder& b) {
  const ElementType f32 = ElementType::kF32;
  // block_shape / pads / crops in every integer type (values all fit u1? no: use u8 upward and
  // the sub-byte unsigned types with values that fit).
  for (ElementType it : AllElementTypes()) {
    if (!IsIntegerType(it)) continue;
    const bool tiny = BitWidth(it) < 2;
    const std::string tn(ElementTypeName(it));
    if (tiny) {
      // u1 holds 0 and 1 only: block 1, pads 0/1.
      b.Add(BlockOpCase(Op::kSpaceToBatch, PositionTensor(f32, {1, 3}), {1, 1}, {0, 1}, {0, 0}, it),
            absl::StrCat("int_types.s2b.", tn), "", {"sweep:int_types"});
      b.Add(BlockOpCase(Op::kBatchToSpace, PositionTensor(f32, {1, 3}), {1, 1}, {0, 1}, {0, 0}, it),
            absl::StrCat("int_types.b2s.", tn), "", {"sweep:int_types"});
      continue;
    }
    b.Add(BlockOpCase(Op::kSpaceToBatch, PositionTensor(f32, {1, 3, 2}), {1, 2, 2}, {0, 1, 1},
                      {0, 0, 1}, it),
          absl::StrCat("int_types.s2b.", tn), "", {"sweep:int_types"});
    b.Add(BlockOpCase(Op::kBatchToSpace, PositionTensor(f32, {4, 2, 2}), {1, 2, 2}, {0, 1, 0},
                      {0, 0, 1}, it),
          absl::StrCat("int_types.b2s.", tn), "", {"sweep:int_types"});
  }
  // Larger blocks, block 1, and the spec default block_size (absent = 1).
  for (const char* mode : kModes) {
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionTensor(f32, {1, 2, 6, 3}), 3, mode),
          absl::StrCat("attrs.s2d.", mode, ".b3"), "", {"sweep:attrs"});
    b.Add(DepthOpCase(Op::kDepthToSpace, PositionTensor(f32, {1, 18, 2, 1}), 3, mode),
          absl::StrCat("attrs.d2s.", mode, ".b3"), "", {"sweep:attrs"});
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionTensor(f32, {1, 2, 3, 3}), 1, mode),
          absl::StrCat("attrs.s2d.", mode, ".b1"), "", {"sweep:attrs"});
    b.Add(DepthOpCase(Op::kDepthToSpace, PositionTensor(f32, {1, 2, 3, 3}), std::nullopt, mode),
          absl::StrCat("attrs.d2s.", mode, ".default_block"), "", {"sweep:attrs"});
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionTensor(f32, {2, 3, 4, 4, 2}), 2, mode),
          absl::StrCat("attrs.s2d.", mode, ".b2.batch2.3d"), "", {"sweep:attrs"});
  }
  // SpaceToBatch / BatchToSpace: a round trip pair and asymmetric pads / crops.
  b.Add(BlockOpCase(Op::kSpaceToBatch, PositionTensor(f32, {2, 5, 3}), {1, 3, 2}, {0, 2, 1},
                    {0, 2, 0}),
        "attrs.s2b.asymmetric_pads", "", {"sweep:attrs"});
  b.Add(BlockOpCase(Op::kBatchToSpace, PositionTensor(f32, {12, 3, 2}), {1, 3, 2}, {0, 2, 1},
                    {0, 2, 0}),
        "attrs.b2s.asymmetric_crops", "", {"sweep:attrs"});
  b.Add(BlockOpCase(Op::kSpaceToBatch, PositionTensor(f32, {1, 2, 2}), {1, 1, 1}, {0, 0, 0},
                    {0, 0, 0}),
        "attrs.s2b.identity", "", {"sweep:attrs"});
  b.Add(BlockOpCase(Op::kSpaceToBatch, PositionTensor(f32, {1, 1, 1}), {1, 4, 4}, {0, 2, 1},
                    {0, 1, 2}),
        "attrs.s2b.all_padding_blocks", "", {"sweep:attrs"});
  b.Add(BlockOpCase(Op::kBatchToSpace, PositionTensor(f32, {4, 1, 1}), {1, 2, 2}, {0, 1, 1},
                    {0, 1, 1}),
        "attrs.b2s.crop_to_empty", "", {"sweep:attrs"});
  // ExtractImagePatches: rates, patches larger than the image, asymmetric padding, 1 x 1.
  for (const char* pad : kPads) {
    b.Add(PatchOpCase(PositionTensor(f32, {1, 1, 7, 7}), {3, 2}, {2, 3}, {2, 3}, pad),
          absl::StrCat("attrs.eip.", pad, ".rates"), "", {"sweep:attrs"});
    b.Add(PatchOpCase(PositionTensor(f32, {1, 1, 3, 3}), {4, 5}, {1, 1}, {1, 1}, pad),
          absl::StrCat("attrs.eip.", pad, ".patch_larger_than_image"), "", {"sweep:attrs"});
    b.Add(PatchOpCase(PositionTensor(f32, {2, 2, 4, 5}), {2, 2}, {3, 2}, {1, 1}, pad),
          absl::StrCat("attrs.eip.", pad, ".odd_padding"), "", {"sweep:attrs"});
    b.Add(PatchOpCase(PositionTensor(f32, {1, 3, 2, 2}), {1, 1}, {1, 1}, {1, 1}, pad),
          absl::StrCat("attrs.eip.", pad, ".size1"), "", {"sweep:attrs"});
  }
}

// ---- Special values (bit-exact copies, padding zeros beside them) ----

void AddSpecials(SetBuilder& b) {
  for (ElementType t : AllElementTypes()) {
    if (!IsFloatEncoded(t) && !IsIntegerType(t)) continue;
    if (IsIntegerType(t) && BitWidth(t) < 8 && t != ElementType::kI4) continue;
    const std::string tn(ElementTypeName(t));
    b.Add(BlockOpCase(Op::kSpaceToBatch, SpecialTensor(t, {1, 4, 4}, b.seed()), {1, 2, 2},
                      {0, 1, 0}, {0, 1, 2}),
          absl::StrCat("special.s2b.", tn), "", {"sweep:special"});
    b.Add(
        DepthOpCase(Op::kDepthToSpace, SpecialTensor(t, {1, 4, 2, 2}, b.seed()), 2, "depth_first"),
        absl::StrCat("special.d2s.", tn), "", {"sweep:special"});
    b.Add(
        PatchOpCase(SpecialTensor(t, {1, 1, 4, 4}, b.seed()), {2, 2}, {2, 2}, {1, 1}, "same_lower"),
        absl::StrCat("special.eip.", tn), "", {"sweep:special"});
  }
}

// ---- Zero-sized tensors ----

void AddZeroSized(SetBuilder& b) {
  const ElementType f32 = ElementType::kF32;
  b.Add(BlockOpCase(Op::kSpaceToBatch, PositionTensor(f32, {0, 2, 2}), {1, 2, 1}, {0, 0, 0},
                    {0, 0, 0}),
        "zero.s2b.batch0", "", {"sweep:zero"});
  b.Add(BlockOpCase(Op::kSpaceToBatch, PositionTensor(f32, {1, 0, 2}), {1, 2, 1}, {0, 1, 0},
                    {0, 1, 0}),
        "zero.s2b.spatial0_padded", "", {"sweep:zero"});
  b.Add(BlockOpCase(Op::kBatchToSpace, PositionTensor(f32, {0, 2, 2}), {1, 2, 2}, {0, 0, 0},
                    {0, 0, 0}),
        "zero.b2s.batch0", "", {"sweep:zero"});
  b.Add(BlockOpCase(Op::kBatchToSpace, PositionTensor(f32, {4, 0, 3}), {1, 2, 2}, {0, 0, 1},
                    {0, 0, 0}),
        "zero.b2s.spatial0", "", {"sweep:zero"});
  for (const char* mode : kModes) {
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionTensor(f32, {0, 2, 2, 2}), 2, mode),
          absl::StrCat("zero.s2d.", mode, ".batch0"), "", {"sweep:zero"});
    b.Add(DepthOpCase(Op::kSpaceToDepth, PositionTensor(f32, {1, 2, 0, 4}), 2, mode),
          absl::StrCat("zero.s2d.", mode, ".spatial0"), "", {"sweep:zero"});
    b.Add(DepthOpCase(Op::kDepthToSpace, PositionTensor(f32, {1, 0, 2, 2}), 2, mode),
          absl::StrCat("zero.d2s.", mode, ".depth0"), "", {"sweep:zero"});
    b.Add(DepthOpCase(Op::kDepthToSpace, PositionTensor(f32, {1, 4, 0, 2}), 2, mode),
          absl::StrCat("zero.d2s.", mode, ".spatial0"), "", {"sweep:zero"});
  }
  for (const char* pad : kPads) {
    b.Add(PatchOpCase(PositionTensor(f32, {0, 1, 4, 4}), {2, 2}, {1, 1}, {1, 1}, pad),
          absl::StrCat("zero.eip.", pad, ".batch0"), "", {"sweep:zero"});
    b.Add(PatchOpCase(PositionTensor(f32, {1, 0, 4, 4}), {2, 2}, {1, 1}, {1, 1}, pad),
          absl::StrCat("zero.eip.", pad, ".depth0"), "", {"sweep:zero"});
    b.Add(PatchOpCase(PositionTensor(f32, {1, 1, 0, 4}), {2, 2}, {1, 1}, {1, 1}, pad),
          absl::StrCat("zero.eip.", pad, ".rows0"), "", {"sweep:zero"});
  }
}

// ---- Every must_reject / unspecified rule: a case breaking it and its valid twin ----

void AddRulePair(SetBuilder& b, const std::string& rule, OpCase negative, OpCase twin) {
  b.Add(std::move(negative), absl::StrCat("rule.", rule), rule, {});
  b.Add(std::move(twin), absl::StrCat("rule.", rule, ".twin"), "", {absl::StrCat("twin:", rule)});
}

void AddRules(SetBuilder& b) {
  const ElementType f32 = ElementType::kF32, i64 = ElementType::kI64;
  auto x = [](Shape s) { return PositionTensor(ElementType::kF32, s); };
  const Op s2b = Op::kSpaceToBatch, b2s = Op::kBatchToSpace;
  // SpaceToBatch: valid base [1, 4] block [1, 2].
  AddRulePair(b, "s2b.data.rank", BlockOpCase(s2b, x({4}), {2}, {0}, {0}),
              BlockOpCase(s2b, x({1, 4}), {1, 2}, {0, 0}, {0, 0}));
  {
    OpCase neg = BlockOpCase(s2b, x({1, 4}), {1, 2}, {0, 0}, {0, 0});
    neg.int_inputs[0] = Bits1D(f32, {0x3F800000, 0x40000000});  // f32 [1, 2]
    AddRulePair(b, "s2b.inputs.integer_type", std::move(neg),
                BlockOpCase(s2b, x({1, 4}), {1, 2}, {0, 0}, {0, 0}));
  }
  AddRulePair(b, "s2b.inputs.shape", BlockOpCase(s2b, x({1, 4}), {1, 2, 1}, {0, 0, 0}, {0, 0, 0}),
              BlockOpCase(s2b, x({1, 4, 1}), {1, 2, 1}, {0, 0, 0}, {0, 0, 0}));
  AddRulePair(b, "s2b.block_shape.positive", BlockOpCase(s2b, x({1, 4}), {1, 0}, {0, 0}, {0, 0}),
              BlockOpCase(s2b, x({1, 4}), {1, 1}, {0, 0}, {0, 0}));
  AddRulePair(b, "s2b.pads_begin.nonnegative", BlockOpCase(s2b, x({1, 4}), {1, 2}, {0, -1}, {0, 1}),
              BlockOpCase(s2b, x({1, 4}), {1, 2}, {0, 1}, {0, 1}));
  AddRulePair(b, "s2b.pads_end.nonnegative", BlockOpCase(s2b, x({1, 4}), {1, 2}, {0, 1}, {0, -1}),
              BlockOpCase(s2b, x({1, 4}), {1, 2}, {0, 1}, {0, 1}));
  AddRulePair(b, "s2b.block_shape.divides", BlockOpCase(s2b, x({1, 3}), {1, 2}, {0, 0}, {0, 0}),
              BlockOpCase(s2b, x({1, 3}), {1, 2}, {0, 1}, {0, 0}));
  AddRulePair(b, "s2b.output.representable",
              BlockOpCase(s2b, x({1, 2}), {1, 1}, {0, 0}, {0, INT64_MAX - 1}),
              BlockOpCase(s2b, x({1, 2}), {1, 1}, {0, 0}, {0, 2}));
  AddRulePair(b, "s2b.block_shape.batch_one", BlockOpCase(s2b, x({1, 4}), {2, 2}, {0, 0}, {0, 0}),
              BlockOpCase(s2b, x({1, 4}), {1, 2}, {0, 0}, {0, 0}));
  AddRulePair(b, "s2b.pads_begin.batch_zero", BlockOpCase(s2b, x({1, 4}), {1, 2}, {1, 0}, {0, 0}),
              BlockOpCase(s2b, x({1, 4}), {1, 2}, {0, 0}, {0, 0}));
  AddRulePair(b, "s2b.pads_end.batch_zero", BlockOpCase(s2b, x({1, 4}), {1, 2}, {0, 0}, {1, 0}),
              BlockOpCase(s2b, x({1, 4}), {1, 2}, {0, 0}, {0, 0}));
  // BatchToSpace: valid base [4, 1] block [1, 2].
  AddRulePair(b, "b2s.data.rank", BlockOpCase(b2s, x({4}), {2}, {0}, {0}),
              BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 0}, {0, 0}));
  {
    OpCase neg = BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 0}, {0, 0});
    for (Tensor& t : neg.int_inputs) {
      t = Bits1D(ElementType::kF32,
                 {t.GetBits(0) ? 0x3F800000u : 0u, t.GetBits(1) ? 0x40000000u : 0u});
    }
    AddRulePair(b, "b2s.inputs.integer_type", std::move(neg),
                BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 0}, {0, 0}));
  }
  {
    OpCase neg = BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 0}, {0, 0});
    neg.int_inputs[1] = *MakeIntegerTensor(ElementType::kI32, {0, 0});
    AddRulePair(b, "b2s.inputs.same_type", std::move(neg),
                BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 0}, {0, 0}, ElementType::kI32));
  }
  AddRulePair(b, "b2s.inputs.shape", BlockOpCase(b2s, x({4, 1}), {1, 2, 1}, {0, 0, 0}, {0, 0, 0}),
              BlockOpCase(b2s, x({4, 1, 1}), {1, 2, 1}, {0, 0, 0}, {0, 0, 0}));
  AddRulePair(b, "b2s.block_shape.positive", BlockOpCase(b2s, x({4, 1}), {1, 0}, {0, 0}, {0, 0}),
              BlockOpCase(b2s, x({4, 1}), {1, 1}, {0, 0}, {0, 0}));
  AddRulePair(b, "b2s.crops_begin.nonnegative",
              BlockOpCase(b2s, x({4, 2}), {1, 2}, {0, -1}, {0, 1}),
              BlockOpCase(b2s, x({4, 2}), {1, 2}, {0, 1}, {0, 1}));
  AddRulePair(b, "b2s.crops_end.nonnegative", BlockOpCase(b2s, x({4, 2}), {1, 2}, {0, 1}, {0, -1}),
              BlockOpCase(b2s, x({4, 2}), {1, 2}, {0, 1}, {0, 1}));
  AddRulePair(b, "b2s.batch.divisible", BlockOpCase(b2s, x({3, 1}), {1, 2}, {0, 0}, {0, 0}),
              BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 0}, {0, 0}));
  AddRulePair(b, "b2s.crops.fit", BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 2}, {0, 1}),
              BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 1}, {0, 1}));
  AddRulePair(b, "b2s.output.representable",
              BlockOpCase(b2s, x({0, 4}), {1, kHuge}, {0, 0}, {0, 0}),
              BlockOpCase(b2s, x({0, 4}), {1, 2}, {0, 0}, {0, 0}));
  AddRulePair(b, "b2s.block_shape.batch_one", BlockOpCase(b2s, x({4, 1}), {2, 2}, {0, 0}, {0, 0}),
              BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 0}, {0, 0}));
  AddRulePair(b, "b2s.crops_begin.batch_zero", BlockOpCase(b2s, x({4, 1}), {1, 2}, {1, 0}, {0, 0}),
              BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 0}, {0, 0}));
  AddRulePair(b, "b2s.crops_end.batch_zero", BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 0}, {1, 0}),
              BlockOpCase(b2s, x({4, 1}), {1, 2}, {0, 0}, {0, 0}));
  // SpaceToDepth / DepthToSpace: valid bases [1, 2, 4, 4] and [1, 8, 2, 2], block 2.
  for (Op op : {Op::kSpaceToDepth, Op::kDepthToSpace}) {
    const bool s2d = op == Op::kSpaceToDepth;
    const std::string p(OpPrefix(op));
    const Shape base = s2d ? Shape{1, 2, 4, 4} : Shape{1, 8, 2, 2};
    auto ok = [&] { return DepthOpCase(op, x(base), 2, "blocks_first"); };
    AddRulePair(b, p + ".data.rank",
                DepthOpCase(op, x(s2d ? Shape{2, 4} : Shape{4, 2}), 2, "blocks_first"),
                DepthOpCase(op, x(s2d ? Shape{2, 4, 2} : Shape{2, 4, 2}), 2, "blocks_first"));
    AddRulePair(b, p + ".block_size.positive", DepthOpCase(op, x(base), 0, "blocks_first"), ok());
    AddRulePair(b, p + ".mode.required", DepthOpCase(op, x(base), 2, std::nullopt), ok());
    AddRulePair(b, p + ".mode.enum", DepthOpCase(op, x(base), 2, "DCR"), ok());
    AddRulePair(b, p + ".block_size.divides",
                DepthOpCase(op, x(s2d ? Shape{1, 2, 3, 4} : Shape{1, 6, 2, 2}), 2, "depth_first"),
                DepthOpCase(op, x(s2d ? Shape{1, 2, 4, 4} : Shape{1, 8, 2, 2}), 2, "depth_first"));
    AddRulePair(
        b, p + ".output.representable",
        DepthOpCase(op, x(s2d ? Shape{0, kHuge, 2, 2} : Shape{0, 4, kHuge, 2}), 2, "blocks_first"),
        DepthOpCase(op, x(s2d ? Shape{0, 2, 2, 2} : Shape{0, 4, 2, 2}), 2, "blocks_first"));
  }
  (void)i64;
  // ExtractImagePatches: valid base [1, 1, 5, 5], sizes 2, strides 1, rates 1, valid.
  auto eip = [&](std::vector<int64_t> sizes, std::vector<int64_t> strides,
                 std::vector<int64_t> rates, std::optional<std::string> pad,
                 Shape s = {1, 1, 5, 5}) {
    return PatchOpCase(x(s), std::move(sizes), std::move(strides), std::move(rates),
                       std::move(pad));
  };
  const std::vector<int64_t> two = {2, 2}, one = {1, 1};
  AddRulePair(b, "eip.data.rank", eip(two, one, one, "valid", {1, 5, 5}),
              eip(two, one, one, "valid"));
  AddRulePair(b, "eip.sizes.length", eip({2}, one, one, "valid"), eip(two, one, one, "valid"));
  AddRulePair(b, "eip.strides.length", eip(two, {1, 1, 1}, one, "valid"),
              eip(two, one, one, "valid"));
  AddRulePair(b, "eip.rates.length", eip(two, one, {}, "valid"), eip(two, one, one, "valid"));
  AddRulePair(b, "eip.sizes.nonnegative", eip({-1, 2}, one, one, "valid"),
              eip({1, 2}, one, one, "valid"));
  AddRulePair(b, "eip.strides.positive", eip(two, {0, 1}, one, "valid"),
              eip(two, one, one, "valid"));
  AddRulePair(b, "eip.rates.positive", eip(two, one, {1, 0}, "valid"), eip(two, one, one, "valid"));
  AddRulePair(b, "eip.auto_pad.required", eip(two, one, one, std::nullopt),
              eip(two, one, one, "valid"));
  AddRulePair(b, "eip.auto_pad.enum", eip(two, one, one, "SAME_UPPER"),
              eip(two, one, one, "same_upper"));
  AddRulePair(b, "eip.output.representable",
              eip({int64_t{1} << 32, int64_t{1} << 32}, one, one, "valid"),
              eip({5, 5}, one, one, "valid"));
  AddRulePair(b, "eip.sizes.zero", eip({0, 2}, one, one, "valid"), eip({1, 2}, one, one, "valid"));
}

}  // namespace

Tensor PositionTensor(ElementType t, const Shape& shape, int64_t start) {
  const int w = BitWidth(t);
  const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
  absl::StatusOr<Tensor> out = MakeTensor(t, shape, [&](int64_t i) -> uint64_t {
    const int64_t v = start + i;
    if (t == ElementType::kBoolean) return static_cast<uint64_t>(v & 1);
    if (IsFloatEncoded(t)) {
      absl::StatusOr<uint64_t> bits = DecodeElement(t, nlohmann::json(v));
      if (bits.ok()) return *bits;
    }
    return static_cast<uint64_t>(v) & mask;
  });
  return out.ok() ? *std::move(out) : Tensor{};
}

// ---- The case generators' seeded driver ----
//
// harness/gen's SeededCase(seed, i) (the driver of dmconf run's sweep), with small data: valid
// cases by construction over every op, rank, mode, auto_pad and element type, cases that break
// exactly one rule (its id in the vector's rule), and overflow cases the oracle refuses. Ids:
// gen.<lane>.<op prefix>.<index>; classes gen:<lane> and gen:<class> (docs/generators.md).
// The section is SeededCase(1, i) whatever the profile's --seed (which only permutes special
// values), so every seed gives the same ids.
void AddGenerated(SetBuilder& b) {
  constexpr uint64_t kGenSeed = 1;
  GenerateOptions o;
  o.build.max_elements = 256;
  for (uint64_t i = 0; i < 160; ++i) {
    GeneratedCase g = SeededCase(kGenSeed, i, o);
    std::string rule;
    if (g.lane == Lane::kNegative) {
      if (g.rule == nullptr || g.rule->kind == RuleKind::kMalformed) continue;
      rule = std::string(g.rule->id);
    } else if (g.lane == Lane::kOverflow) {
      absl::StatusOr<Validation> v = Validate(g.c);
      if (!v.ok() || v->kind() == ExpectationKind::kValid) continue;
      rule = std::string(v->deciding()->rule->id);
    }
    std::vector<std::string> classes = {absl::StrCat("gen:", LaneName(g.lane))};
    for (const std::string& c : Classify(g)) classes.push_back(absl::StrCat("gen:", c));
    const std::string id = absl::StrCat("gen.", LaneName(g.lane), ".", OpPrefix(g.c.op), ".",
                                        absl::StrFormat("%03d", i));
    b.Add(std::move(g.c), id, rule, std::move(classes));
  }
}

std::vector<std::string> ProfileNames() { return {"golden", "smoke"}; }

absl::StatusOr<std::vector<VectorCase>> BuildProfile(absl::string_view profile, uint64_t seed) {
  SetBuilder b(std::string(profile), seed);
  if (profile == "smoke") {
    AddSpecExamples(b);
  } else if (profile == "golden") {
    AddSpecExamples(b);
    AddTypeSweep(b);
    AddRankSweep(b);
    AddVariations(b);
    AddSpecials(b);
    AddZeroSized(b);
    AddRules(b);
    AddGenerated(b);
  } else {
    return absl::InvalidArgumentError(absl::StrCat("vector.profile.known: unknown profile '",
                                                   profile, "' (expected golden or smoke)"));
  }
  return b.Finish();
}

}  // namespace dmconf::io
