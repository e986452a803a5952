// Bad and extreme input: dims near 2^63, overflowing products, huge blocks, negative and
// out-of-range integers, wrong lengths, unknown enum strings, wrong byte counts, zero-sized
// tensors and giant valid outputs. Every case ends in a clear verdict naming its rule (or a
// valid, possibly empty, result), never a crash, in the oracle and in the direct
// implementation alike. These tests also run under ASan + UBSan (preset asan).
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "conformance/oracle/case_builders.h"
#include "gtest/gtest.h"
#include "oracle/direct/direct.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

using testing::BlockCase;
using testing::DepthCase;
using testing::IntegerBits;
using testing::PatchCase;

constexpr int64_t kMax = INT64_MAX;
constexpr int64_t k2to31 = int64_t{1} << 31;
constexpr int64_t k2to40 = int64_t{1} << 40;
constexpr int64_t k2to62 = int64_t{1} << 62;
constexpr int64_t kLimit = int64_t{1} << 24;  // evaluation limit used here (16 MiB)

// The data tensor: zero-filled when small enough; otherwise the shape with no bytes (only
// Validate may read it).
Tensor Data(const Shape& s, ElementType t = ElementType::kF32) {
  absl::StatusOr<Tensor> z = Tensor::Zeros(t, s, kLimit);
  if (z.ok()) return *z;
  Tensor x;
  x.type = t;
  x.shape = s;
  return x;
}

// What the oracle decides: "valid", or the id of the deciding rule / error; the message must
// start with that id.
struct Outcome {
  std::string id;
  std::string message;
  std::optional<Tensor> output;
};

std::string IdOf(absl::string_view message) {
  return std::string(message.substr(0, message.find(':')));
}

Outcome Oracle(const OpCase& c) {
  EvalOptions o;
  o.max_bytes = kLimit;
  absl::StatusOr<Expectation> e = Evaluate(c, o);
  if (!e.ok()) return {IdOf(e.status().message()), std::string(e.status().message()), {}};
  if (e->kind != ExpectationKind::kValid) {
    EXPECT_TRUE(absl::StartsWith(e->message, absl::StrCat(e->rule->id, ": "))) << e->message;
    return {std::string(e->rule->id), e->message, {}};
  }
  return {"valid", "", e->output};
}

Outcome Direct(const OpCase& c) {
  absl::StatusOr<Tensor> y = direct::DirectEvaluate(c, kLimit);
  if (!y.ok()) return {IdOf(y.status().message()), std::string(y.status().message()), {}};
  return {"valid", "", *y};
}

// Expects the oracle (Evaluate, and Validate when the data has no bytes) and the direct
// implementation to decide `id`.
void Expect(const OpCase& c, const std::string& id) {
  const Outcome o = Oracle(c);
  EXPECT_EQ(o.id, id) << testing::Describe(c) << ": " << o.message;
  const Outcome d = Direct(c);
  EXPECT_EQ(d.id, id) << "direct: " << testing::Describe(c) << ": " << d.message;
  if (id == "valid" && o.output && d.output) {
    EXPECT_TRUE(*o.output == *d.output);
  }
}

// A valid case whose output is empty, of the given shape.
void ExpectEmpty(const OpCase& c, const Shape& shape) {
  const Outcome o = Oracle(c);
  ASSERT_EQ(o.id, "valid") << testing::Describe(c) << ": " << o.message;
  EXPECT_EQ(o.output->shape, shape);
  EXPECT_EQ(o.output->NumElements(), 0);
  EXPECT_TRUE(o.output->bytes.empty());
  const Outcome d = Direct(c);
  ASSERT_EQ(d.id, "valid") << d.message;
  EXPECT_EQ(d.output->shape, shape);
}

OpCase S2B(const Shape& d, const std::vector<int64_t>& b, const std::vector<int64_t>& pb,
           const std::vector<int64_t>& pe) {
  return BlockCase(Op::kSpaceToBatch, Data(d), b, pb, pe);
}
OpCase B2S(const Shape& d, const std::vector<int64_t>& b, const std::vector<int64_t>& cb,
           const std::vector<int64_t>& ce) {
  return BlockCase(Op::kBatchToSpace, Data(d), b, cb, ce);
}
OpCase EIP(const Shape& d, std::vector<int64_t> sizes, std::vector<int64_t> strides,
           std::vector<int64_t> rates, const char* pad) {
  return PatchCase(Data(d), std::move(sizes), std::move(strides), std::move(rates), pad);
}

// ---- Shapes near 2^63 and overflowing products ----

TEST(BadInput, DataShapesWhoseElementCountOverflows) {
  Expect(S2B({kMax, 2}, {1, 1}, {0, 0}, {0, 0}), "case.tensor.size_representable");
  Expect(DepthCase(Op::kSpaceToDepth, Data({k2to62, 2, 2, 1}), 1, "blocks_first"),
         "case.tensor.size_representable");
  Expect(EIP({k2to31, k2to31, k2to31, 1}, {1, 1}, {1, 1}, {1, 1}, "valid"),
         "case.tensor.size_representable");
}

TEST(BadInput, HugeDimsWithAZeroDimAreValidAndEmpty) {
  ExpectEmpty(S2B({0, kMax, kMax}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0}), {0, kMax, kMax});
  ExpectEmpty(S2B({0, k2to62, 6}, {1, 2, 3}, {0, 0, 0}, {0, 0, 0}), {0, k2to62 / 2, 2});
  ExpectEmpty(B2S({0, k2to62, 3}, {1, 1, 3}, {0, 0, 0}, {0, 0, 0}), {0, k2to62, 9});
  ExpectEmpty(DepthCase(Op::kSpaceToDepth, Data({0, 3, k2to62, 2}), 2, "depth_first"),
              {0, 12, k2to62 / 2, 1});
  ExpectEmpty(DepthCase(Op::kDepthToSpace, Data({0, 4, k2to62 / 2, 1}), 2, "blocks_first"),
              {0, 1, k2to62, 2});
  ExpectEmpty(EIP({0, 1, kMax - 10, kMax - 10}, {3, 3}, {1, 1}, {1, 1}, "same_upper"),
              {0, 9, kMax - 10, kMax - 10});
  ExpectEmpty(EIP({0, 2, kMax - 10, 5}, {3, 3}, {kMax, 2}, {1, 1}, "same_lower"), {0, 18, 1, 3});
}

TEST(BadInput, PaddedDimsAndOutputsAboveInt64) {
  // D_1 + pads_end overflows.
  Expect(S2B({0, kMax, 2}, {1, 1, 1}, {0, 0, 0}, {0, 1, 0}), "s2b.output.representable");
  // Output batch 1 * 2^62 * 2^62 overflows.
  Expect(S2B({1, 4, 4}, {1, k2to62, k2to62}, {0, 0, 0}, {0, k2to62 - 4, k2to62 - 4}),
         "s2b.output.representable");
  // D_1 * B_1 overflows; prod(block_shape) overflows.
  Expect(B2S({0, k2to62, 1}, {1, 4, 1}, {0, 0, 0}, {0, 0, 0}), "b2s.output.representable");
  Expect(B2S({4, 1, 1}, {1, k2to62, 8}, {0, 0, 0}, {0, 0, 0}), "b2s.output.representable");
  // crops_begin + crops_end overflows: they cannot fit.
  Expect(B2S({1, 2, 1}, {1, 1, 1}, {0, kMax, 0}, {0, kMax, 0}), "b2s.crops.fit");
  // C * block_size^K overflows; D * block_size overflows.
  Expect(DepthCase(Op::kSpaceToDepth, Data({0, 4, k2to31, k2to31}), k2to31, "blocks_first"),
         "s2d.output.representable");
  Expect(DepthCase(Op::kDepthToSpace, Data({0, 4, k2to62, 1}), 2, "depth_first"),
         "d2s.output.representable");
  // EIP: effective patch size, and the output depth, above int64.
  Expect(EIP({1, 1, 5, 5}, {2, 2}, {1, 1}, {kMax, 1}, "valid"), "eip.output.representable");
  // sizes [2^63-1, 2]: the output depth 2^63-1 * 2 overflows. (sizes [2^63-1, 1] is valid:
  // depth 2^63-1 and an empty output, though in + eff overflows: ERRATA D4a.)
  Expect(EIP({1, 1, 5, 5}, {kMax, 2}, {1, 1}, {1, 1}, "valid"), "eip.output.representable");
  Expect(EIP({1, 1, 5, 5}, {kMax, 1}, {1, 1}, {1, 1}, "valid"), "valid");
  Expect(EIP({1, 3, 1, 1}, {int64_t{1} << 32, int64_t{1} << 32}, {1, 1}, {1, 1}, "valid"),
         "eip.output.representable");
}

// ---- block_size extremes ----

TEST(BadInput, BlockSizeExtremes) {
  // 2^31: b^2 = 2^62 does not divide 4; with C = 0 the case is valid and empty.
  Expect(DepthCase(Op::kDepthToSpace, Data({1, 4, 2, 2}), k2to31, "blocks_first"),
         "d2s.block_size.divides");
  ExpectEmpty(DepthCase(Op::kDepthToSpace, Data({1, 0, 2, 2}), k2to31, "blocks_first"),
              {1, 0, 2 * k2to31, 2 * k2to31});
  // b^3 = 2^93 is above int64: divides only C = 0.
  Expect(DepthCase(Op::kDepthToSpace, Data({1, 8, 1, 1, 1}), k2to31, "depth_first"),
         "d2s.block_size.divides");
  ExpectEmpty(DepthCase(Op::kDepthToSpace, Data({1, 0, 1, 1, 1}), k2to31, "depth_first"),
              {1, 0, k2to31, k2to31, k2to31});
  Expect(DepthCase(Op::kDepthToSpace, Data({1, 0, 2}), kMax, "depth_first"),
         "d2s.output.representable");
  Expect(DepthCase(Op::kSpaceToDepth, Data({1, 1, 4, 4}), k2to31, "blocks_first"),
         "s2d.block_size.divides");
  ExpectEmpty(DepthCase(Op::kSpaceToDepth, Data({0, 1, k2to31, k2to31}), k2to31, "blocks_first"),
              {0, k2to62, 1, 1});
  for (Op op : {Op::kSpaceToDepth, Op::kDepthToSpace}) {
    const std::string p(OpPrefix(op));
    Expect(DepthCase(op, Data({1, 4, 2, 2}), 0, "blocks_first"), p + ".block_size.positive");
    Expect(DepthCase(op, Data({1, 4, 2, 2}), INT64_MIN, "blocks_first"),
           p + ".block_size.positive");
  }
}

TEST(BadInput, BlockShapeOfTwoTo62) {
  // Valid: out [2^62, 1]; far above the evaluation limit, so nothing is allocated.
  Expect(S2B({1, 2}, {1, k2to62}, {0, 0}, {0, k2to62 - 2}), "case.output.too_large");
  Expect(S2B({1, 2}, {1, k2to62}, {0, 0}, {0, 0}), "s2b.block_shape.divides");
  ExpectEmpty(B2S({0, 1}, {1, k2to62}, {0, 0}, {0, 0}), {0, k2to62});
  Expect(B2S({3, 1}, {1, k2to62}, {0, 0}, {0, 0}), "b2s.batch.divisible");
}

// ---- Negative and out-of-range integers ----

TEST(BadInput, NegativeDims) {
  Expect(S2B({-1, 2}, {1, 1}, {0, 0}, {0, 0}), "case.tensor.dims_nonnegative");
  Expect(EIP({1, 1, INT64_MIN, 4}, {1, 1}, {1, 1}, {1, 1}, "valid"),
         "case.tensor.dims_nonnegative");
  OpCase c = S2B({1, 2}, {1, 1}, {0, 0}, {0, 0});
  c.int_inputs[1].shape = {-2};
  Expect(c, "case.tensor.dims_nonnegative");
}

TEST(BadInput, NegativeAndMinimalPadsAndCrops) {
  Expect(S2B({1, 4}, {1, 2}, {0, -2}, {0, 2}), "s2b.pads_begin.nonnegative");
  Expect(S2B({1, 4}, {1, 2}, {0, INT64_MIN}, {0, 0}), "s2b.pads_begin.nonnegative");
  Expect(S2B({1, 4}, {1, 2}, {0, 0}, {0, INT64_MIN}), "s2b.pads_end.nonnegative");
  Expect(S2B({1, 4}, {1, INT64_MIN}, {0, 0}, {0, 0}), "s2b.block_shape.positive");
  Expect(B2S({2, 4}, {1, 2}, {0, INT64_MIN}, {0, 0}), "b2s.crops_begin.nonnegative");
  Expect(B2S({2, 4}, {1, 2}, {0, 0}, {0, -1}), "b2s.crops_end.nonnegative");
  Expect(B2S({2, 4}, {1, 0}, {0, 0}, {0, 0}), "b2s.block_shape.positive");
  Expect(EIP({1, 1, 4, 4}, {1, 1}, {INT64_MIN, 1}, {1, 1}, "valid"), "eip.strides.positive");
  Expect(EIP({1, 1, 4, 4}, {1, -1}, {1, 1}, {1, 1}, "valid"), "eip.sizes.nonnegative");
}

TEST(BadInput, U64ValuesAboveInt64Max) {
  const uint64_t big = uint64_t{1} << 63, all = ~uint64_t{0};
  auto with_u64 = [](OpCase c, size_t k, std::vector<uint64_t> bits) {
    for (size_t j = 0; j < 3; ++j) {
      std::vector<uint64_t> v;
      for (int64_t i = 0; i < c.int_inputs[j].NumElements(); ++i)
        v.push_back(c.int_inputs[j].GetBits(i));
      c.int_inputs[j] = IntegerBits(ElementType::kU64, j == k ? bits : v);
    }
    return c;
  };
  Expect(with_u64(S2B({1, 4}, {1, 2}, {0, 0}, {0, 0}), 0, {1, big}), "s2b.output.representable");
  Expect(with_u64(S2B({1, 4}, {1, 2}, {0, 0}, {0, 0}), 1, {0, all}), "s2b.output.representable");
  Expect(with_u64(S2B({1, 4}, {1, 2}, {0, 0}, {0, 0}), 2, {all, 0}), "s2b.output.representable");
  Expect(with_u64(B2S({2, 4}, {1, 2}, {0, 0}, {0, 0}), 1, {0, big}), "b2s.output.representable");
  // The twin with in-range u64 values is valid.
  Expect(with_u64(S2B({1, 4}, {1, 2}, {0, 0}, {0, 0}), 0, {1, 2}), "valid");
}

TEST(BadInput, WrongLengths) {
  Expect(S2B({1, 4}, {1, 2, 1}, {0, 0}, {0, 0}), "s2b.inputs.shape");
  Expect(S2B({1, 4}, {1, 2}, {0, 0}, {}), "s2b.inputs.shape");
  Expect(B2S({2, 4}, {1}, {0, 0}, {0, 0}), "b2s.inputs.shape");
  OpCase two_d = S2B({1, 4}, {1, 2}, {0, 0}, {0, 0});
  two_d.int_inputs[0].shape = {1, 2};  // 2 elements, but 2-D
  Expect(two_d, "s2b.inputs.shape");
  Expect(EIP({1, 1, 4, 4}, {}, {1, 1}, {1, 1}, "valid"), "eip.sizes.length");
  Expect(EIP({1, 1, 4, 4}, {1, 1}, {1, 1, 1}, {1, 1}, "valid"), "eip.strides.length");
  Expect(EIP({1, 1, 4, 4}, {1, 1}, {1, 1}, {1}, "valid"), "eip.rates.length");
  Expect(EIP({1, 4, 4}, {1, 1}, {1, 1}, {1, 1}, "valid"), "eip.data.rank");
  Expect(EIP({1, 1, 1, 4, 4}, {1, 1}, {1, 1}, {1, 1}, "valid"), "eip.data.rank");
  Expect(DepthCase(Op::kDepthToSpace, Data({4}), 2, "blocks_first"), "d2s.data.rank");
  Expect(DepthCase(Op::kSpaceToDepth, Data({}), 2, "blocks_first"), "s2d.data.rank");
  OpCase rank0 = S2B({}, {}, {}, {});
  Expect(rank0, "s2b.data.rank");
  OpCase missing = S2B({1, 4}, {1, 2}, {0, 0}, {0, 0});
  missing.int_inputs.clear();
  Expect(missing, "case.inputs.count");
  OpCase extra = DepthCase(Op::kDepthToSpace, Data({1, 4, 2, 2}), 2, "blocks_first");
  extra.int_inputs.push_back(IntegerBits(ElementType::kI64, {1}));
  Expect(extra, "case.inputs.count");
}

TEST(BadInput, UnknownModesAndAutoPad) {
  for (const char* mode : {"", "blocks_first ", "BLOCKS_FIRST", "depth-first", "blocks"}) {
    Expect(DepthCase(Op::kDepthToSpace, Data({1, 4, 2, 2}), 2, mode), "d2s.mode.enum");
    Expect(DepthCase(Op::kSpaceToDepth, Data({1, 4, 2, 2}), 2, mode), "s2d.mode.enum");
  }
  for (const char* pad : {"", "VALID", "same", "explicit", "notset", "same_upper\n"}) {
    Expect(EIP({1, 1, 4, 4}, {1, 1}, {1, 1}, {1, 1}, pad), "eip.auto_pad.enum");
  }
  EXPECT_EQ(IdOf(ParseOp("DepthToSpace-2").status().message()), "case.op.known");
  EXPECT_EQ(IdOf(ParseElementType("F32").status().message()), "case.element_type.known");
}

// ---- Byte counts ----

TEST(BadInput, DataWithTheWrongByteCount) {
  for (ElementType t : AllElementTypes()) {
    OpCase c = DepthCase(Op::kDepthToSpace, Data({1, 4, 3, 3}, t), 2, "blocks_first");
    Expect(c, "valid");
    c.data.bytes.push_back(0);
    Expect(c, "case.tensor.byte_size");
    c.data.bytes.resize(c.data.bytes.size() - 2);
    Expect(c, "case.tensor.byte_size");
  }
  OpCase c = S2B({1, 4}, {1, 2}, {0, 0}, {0, 0});
  c.int_inputs[2].bytes.pop_back();
  Expect(c, "case.tensor.byte_size");
  // Shape only, no bytes at all.
  OpCase no_bytes = EIP({1, 1, 4, 4}, {1, 1}, {1, 1}, {1, 1}, "valid");
  no_bytes.data.bytes.clear();
  Expect(no_bytes, "case.tensor.byte_size");
}

// ---- Zero-sized tensors: valid empty results (shapes derived from the output formulas) ----

TEST(BadInput, ZeroSizedTensorsGiveEmptyResults) {
  ExpectEmpty(S2B({0, 4, 6}, {1, 2, 3}, {0, 0, 0}, {0, 0, 0}), {0, 2, 2});
  ExpectEmpty(S2B({2, 0, 6}, {1, 2, 3}, {0, 0, 0}, {0, 0, 0}), {12, 0, 2});
  ExpectEmpty(B2S({0, 2, 3}, {1, 2, 3}, {0, 0, 0}, {0, 0, 0}), {0, 4, 9});
  ExpectEmpty(B2S({6, 0, 3}, {1, 2, 3}, {0, 0, 0}, {0, 0, 0}), {1, 0, 9});
  ExpectEmpty(B2S({6, 2, 3}, {1, 2, 3}, {0, 2, 0}, {0, 2, 0}), {1, 0, 9});  // cropped away
  ExpectEmpty(DepthCase(Op::kSpaceToDepth, Data({1, 2, 0, 4}), 2, "blocks_first"), {1, 8, 0, 2});
  ExpectEmpty(DepthCase(Op::kSpaceToDepth, Data({1, 0, 2, 4}), 2, "depth_first"), {1, 0, 1, 2});
  ExpectEmpty(DepthCase(Op::kDepthToSpace, Data({0, 8, 2, 3}), 2, "blocks_first"), {0, 2, 4, 6});
  ExpectEmpty(DepthCase(Op::kDepthToSpace, Data({1, 0, 2, 3}), 2, "depth_first"), {1, 0, 4, 6});
  ExpectEmpty(EIP({1, 2, 0, 5}, {2, 2}, {1, 1}, {1, 1}, "valid"), {1, 8, 0, 4});
  ExpectEmpty(EIP({1, 2, 0, 5}, {2, 2}, {1, 1}, {1, 1}, "same_upper"), {1, 8, 0, 5});
  ExpectEmpty(EIP({1, 0, 5, 5}, {2, 2}, {1, 1}, {1, 1}, "same_lower"), {1, 0, 5, 5});
  ExpectEmpty(EIP({1, 1, 3, 3}, {4, 4}, {1, 1}, {1, 1}, "valid"), {1, 16, 0, 0});  // in < eff
}

// An empty input can give a non-empty, all-padding output; huge strides, rates and padding can
// give a small valid output. The oracle and the direct formulas must agree on the values.
TEST(BadInput, ExtremeButSmallValidCases) {
  OpCase pad_only = BlockCase(Op::kSpaceToBatch, Data({1, 0, 3}), {1, 2, 3}, {0, 1, 0}, {0, 1, 0});
  Expect(pad_only, "valid");
  const Outcome o = Oracle(pad_only);
  ASSERT_EQ(o.output->shape, (Shape{6, 1, 1}));
  for (uint8_t b : o.output->bytes) EXPECT_EQ(b, 0);
  const Tensor image = testing::Pattern(ElementType::kU4, {1, 2, 5, 5});
  for (const char* pad : {"valid", "same_upper", "same_lower"}) {
    Expect(PatchCase(image, {2, 2}, {kMax, kMax}, {1, 1}, pad), "valid");
    Expect(PatchCase(image, {2, 1}, {1, 1}, {int64_t{1} << 40, 1}, pad), "valid");
    Expect(PatchCase(image, {3, 3}, {kMax / 2, 2}, {2, int64_t{1} << 50}, pad), "valid");
  }
}

// ---- Giant valid outputs: refused by name, nothing allocated ----

TEST(BadInput, GiantValidOutputsAreRefusedNotAllocated) {
  // pads of 2^40: a valid [1, 2^40] output of 4 TiB.
  Expect(S2B({1, 2}, {1, 1}, {0, 0}, {0, k2to40 - 2}), "case.output.too_large");
  Expect(S2B({1, 2}, {1, 1}, {0, k2to40}, {0, k2to40}), "case.output.too_large");
  // A valid [2^31, 1] output.
  Expect(S2B({1, 1}, {1, k2to31}, {0, 0}, {0, k2to31 - 1}), "case.output.too_large");
  // ExtractImagePatches: sizes 2^20 x 2^20 with same padding on a 1x1 image: [1, 2^40, 1, 1].
  Expect(EIP({1, 1, 1, 1}, {1 << 20, 1 << 20}, {1, 1}, {1, 1}, "same_upper"),
         "case.output.too_large");
  // The same with valid padding has no patch at all: [1, 2^40, 0, 0], empty.
  ExpectEmpty(EIP({1, 1, 1, 1}, {1 << 20, 1 << 20}, {1, 1}, {1, 1}, "valid"),
              {1, int64_t{1} << 40, 0, 0});
  // Depth to space of a small input is never larger than it; a large block with C = b^K:
  Expect(DepthCase(Op::kDepthToSpace, Data({1, 1 << 20, 1, 1}), 1 << 10, "blocks_first"), "valid");
}

}  // namespace
}  // namespace dmconf
