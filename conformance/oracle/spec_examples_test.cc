// Every example of the specifications (spec/*.md): the IR layer shapes of each op, and the five
// numeric ExtractImagePatches examples with their output values typed in from the document.
// Values are run in several element types; a value v is encoded as that type's bits of v.
// Small hand-derived numeric cases pin the element order of the other ops.
#include <cstring>
#include <vector>

#include "conformance/oracle/case_builders.h"
#include "gtest/gtest.h"
#include "oracle/direct/direct.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

using testing::BlockCase;
using testing::DepthCase;
using testing::PatchCase;

// The bits of the number v (0 <= v <= 127) in type t.
uint64_t Encode(ElementType t, int64_t v) {
  switch (t) {
    case ElementType::kF32: {
      const float f = static_cast<float>(v);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      return b;
    }
    case ElementType::kBf16: {  // the top half of the f32 bits (exact for small integers)
      const float f = static_cast<float>(v);
      uint32_t b;
      std::memcpy(&b, &f, 4);
      return b >> 16;
    }
    case ElementType::kF64: {
      const double d = static_cast<double>(v);
      uint64_t b;
      std::memcpy(&b, &d, 8);
      return b;
    }
    default:
      return static_cast<uint64_t>(v);  // integer types
  }
}

const ElementType kValueTypes[] = {ElementType::kI32, ElementType::kF32, ElementType::kU8,
                                   ElementType::kI8,  ElementType::kU16, ElementType::kBf16,
                                   ElementType::kI64, ElementType::kF64};

Tensor Values(ElementType t, const Shape& shape, const std::vector<int64_t>& v) {
  Tensor x = *Tensor::Zeros(t, shape);
  for (size_t i = 0; i < v.size(); ++i) x.SetBits(static_cast<int64_t>(i), Encode(t, v[i]));
  return x;
}

// Runs the case with data in type t and compares with the expected values, through the oracle
// and through the direct implementation.
void ExpectOutput(OpCase c, const Shape& want_shape, const std::vector<int64_t>& want) {
  const Tensor expected = Values(c.data.type, want_shape, want);
  absl::StatusOr<Expectation> e = Evaluate(c);
  ASSERT_TRUE(e.ok()) << e.status();
  ASSERT_EQ(e->kind, ExpectationKind::kValid) << e->message;
  EXPECT_EQ(e->output_shape, want_shape);
  EXPECT_TRUE(*e->output == expected) << testing::Describe(c);
  absl::StatusOr<Tensor> d = direct::DirectEvaluate(c);
  ASSERT_TRUE(d.ok()) << d.status();
  EXPECT_TRUE(*d == expected) << "direct: " << testing::Describe(c);
}

std::vector<int64_t> Iota(int64_t n, int64_t first) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < n; ++i) v.push_back(first + i);
  return v;
}

// ---- IR layer examples: shapes ----

Shape InferredShape(const OpCase& c) {
  absl::StatusOr<Validation> v = Validate(c);
  EXPECT_TRUE(v.ok()) << v.status();
  if (!v.ok()) return {};
  EXPECT_EQ(v->kind(), ExpectationKind::kValid);
  return v->output_shape;
}

TEST(SpecExamples, SpaceToBatchIrLayer) {
  OpCase c = BlockCase(Op::kSpaceToBatch, *Tensor::Zeros(ElementType::kF32, {2, 6, 10, 3, 3}),
                       {1, 2, 4, 3, 1}, {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0});
  EXPECT_EQ(InferredShape(c), (Shape{48, 3, 3, 1, 3}));
}

TEST(SpecExamples, SpaceToBatchIrLayerElements) {
  // Data element value = its flat index + 1 (i64). Derived by hand from the index form:
  // output [13, 1, 2, 0, 2]: n = 13 mod 2 = 1, f = 6 = flat(o_1..o_4) over radices (2, 4, 3, 1)
  // -> o = (0, 2, 0, 0); padded coords (1*2+0, 2*4+2, 0*3+0, 2*1+0) = (2, 10, 0, 2); minus
  // pads_begin (0, 1, 0, 0) -> data[1, 2, 9, 0, 2] = flat 1*540 + 2*90 + 9*9 + 0 + 2 = 803.
  // output [0, 0, 0, 0, 0]: o = 0, padded (0, 0, 0, 0) -> axis 2 at -1: padding.
  // output [47, 2, 2, 0, 2]: n = 1, f = 23 -> o = (1, 3, 2, 0); padded (5, 11, 2, 2) -> axis 2
  // at 10 = D_2: padding (pads_end).
  // output [46, 2, 1, 0, 0]: n = 0, f = 23 -> padded (5, 7, 2, 0) -> data[0, 5, 6, 2, 0] =
  // 5*90 + 6*9 + 2*3 + 0 = 510.
  OpCase c = BlockCase(Op::kSpaceToBatch, testing::Positions({2, 6, 10, 3, 3}), {1, 2, 4, 3, 1},
                       {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0});
  absl::StatusOr<Expectation> e = Evaluate(c);
  ASSERT_TRUE(e.ok() && e->output.has_value());
  const Shape s = {48, 3, 3, 1, 3};
  auto at = [&](std::vector<int64_t> i) {
    int64_t f = 0;
    for (size_t k = 0; k < 5; ++k) f = f * s[k] + i[k];
    return *e->output->GetInteger(f);
  };
  EXPECT_EQ(at({13, 1, 2, 0, 2}), 803 + 1);
  EXPECT_EQ(at({0, 0, 0, 0, 0}), 0);
  EXPECT_EQ(at({47, 2, 2, 0, 2}), 0);
  EXPECT_EQ(at({46, 2, 1, 0, 0}), 510 + 1);
}

TEST(SpecExamples, BatchToSpaceIrLayer) {
  // The upstream BatchToSpace-2 example is the inverse of the SpaceToBatch one:
  // [48, 3, 3, 1, 3], block [1, 2, 4, 3, 1], crops [0, 0, 1, 0, 0] / [0, 0, 1, 0, 0]
  // -> [48 / 24, 3 * 2, 3 * 4 - 2, 1 * 3, 3 * 1] = [2, 6, 10, 3, 3].
  OpCase c = BlockCase(Op::kBatchToSpace, *Tensor::Zeros(ElementType::kF32, {48, 3, 3, 1, 3}),
                       {1, 2, 4, 3, 1}, {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0});
  EXPECT_EQ(InferredShape(c), (Shape{2, 6, 10, 3, 3}));
}

TEST(SpecExamples, SpaceToDepthIrLayer) {
  for (const char* mode : {"blocks_first", "depth_first"}) {
    OpCase c =
        DepthCase(Op::kSpaceToDepth, *Tensor::Zeros(ElementType::kF32, {5, 7, 4, 6}), 2, mode);
    EXPECT_EQ(InferredShape(c), (Shape{5, 28, 2, 3})) << mode;
  }
}

TEST(SpecExamples, DepthToSpaceIrLayer) {
  for (const char* mode : {"blocks_first", "depth_first"}) {
    OpCase c =
        DepthCase(Op::kDepthToSpace, *Tensor::Zeros(ElementType::kF32, {5, 28, 2, 3}), 2, mode);
    EXPECT_EQ(InferredShape(c), (Shape{5, 7, 4, 6})) << mode;
  }
}

TEST(SpecExamples, ExtractImagePatchesIrLayer) {
  OpCase c = PatchCase(*Tensor::Zeros(ElementType::kF32, {64, 3, 10, 10}), {3, 3}, {5, 5}, {1, 1},
                       "valid");
  EXPECT_EQ(InferredShape(c), (Shape{64, 27, 2, 2}));
}

// ---- Hand-derived element orders of the depth ops ----

TEST(SpecExamples, DepthToSpaceModesOnEightChannels) {
  // [1, 8, 1, 1], block 2, K = 2 -> [1, 2, 2, 2]; data[c] = c.
  // blocks_first: in_c = (o_1 * 2 + o_2) * 2 + c'  -> c' = 0: 0 2 4 6; c' = 1: 1 3 5 7.
  // depth_first:  in_c = c' * 4 + (o_1 * 2 + o_2)   -> 0 1 2 3 4 5 6 7.
  for (ElementType t : kValueTypes) {
    ExpectOutput(
        DepthCase(Op::kDepthToSpace, Values(t, {1, 8, 1, 1}, Iota(8, 0)), 2, "blocks_first"),
        {1, 2, 2, 2}, {0, 2, 4, 6, 1, 3, 5, 7});
    ExpectOutput(
        DepthCase(Op::kDepthToSpace, Values(t, {1, 8, 1, 1}, Iota(8, 0)), 2, "depth_first"),
        {1, 2, 2, 2}, Iota(8, 0));
  }
}

TEST(SpecExamples, DepthToSpaceInterleavesARow) {
  // [1, 4, 1, 2], block 2 -> [1, 1, 2, 4]; data[0, c, 0, w] = 2c + w; both modes agree when
  // C_out = 1: out[0, 0, y1, y2] = data[0, 2 (y1 mod 2) + (y2 mod 2), 0, y2 div 2].
  for (ElementType t : kValueTypes) {
    for (const char* mode : {"blocks_first", "depth_first"}) {
      ExpectOutput(DepthCase(Op::kDepthToSpace, Values(t, {1, 4, 1, 2}, Iota(8, 0)), 2, mode),
                   {1, 1, 2, 4}, {0, 2, 1, 3, 4, 6, 5, 7});
    }
  }
}

TEST(SpecExamples, SpaceToDepthModesOnTwoChannels) {
  // [1, 2, 2, 2], block 2 -> [1, 8, 1, 1]; data[0, c, y1, y2] = 4c + 2 y1 + y2.
  // blocks_first: out_c = (2 y1 + y2) * 2 + c -> 0 4 1 5 2 6 3 7; depth_first: out_c = 4c + ...
  for (ElementType t : kValueTypes) {
    ExpectOutput(
        DepthCase(Op::kSpaceToDepth, Values(t, {1, 2, 2, 2}, Iota(8, 0)), 2, "blocks_first"),
        {1, 8, 1, 1}, {0, 4, 1, 5, 2, 6, 3, 7});
    ExpectOutput(
        DepthCase(Op::kSpaceToDepth, Values(t, {1, 2, 2, 2}, Iota(8, 0)), 2, "depth_first"),
        {1, 8, 1, 1}, Iota(8, 0));
  }
}

TEST(SpecExamples, SpaceToBatchAndBackOnAFourByFour) {
  // [1, 4, 4] (value 4r + c), block [1, 2, 2]: out batch f = 2 o_1 + o_2;
  // out[f, i, j] = data[2i + o_1, 2j + o_2].
  const std::vector<int64_t> want = {0, 2, 8, 10, 1, 3, 9, 11, 4, 6, 12, 14, 5, 7, 13, 15};
  for (ElementType t : kValueTypes) {
    ExpectOutput(BlockCase(Op::kSpaceToBatch, Values(t, {1, 4, 4}, Iota(16, 0)), {1, 2, 2},
                           {0, 0, 0}, {0, 0, 0}),
                 {4, 2, 2}, want);
    ExpectOutput(
        BlockCase(Op::kBatchToSpace, Values(t, {4, 2, 2}, want), {1, 2, 2}, {0, 0, 0}, {0, 0, 0}),
        {1, 4, 4}, Iota(16, 0));
  }
  // [1, 2, 3] holding 1..6, block [1, 1, 2], one zero column padded at the start: padded rows
  // [0 1 2 3] and [0 4 5 6]; out[f, i, j] = padded[i, 2j + f] -> f = 0: 0 2 0 5; f = 1: 1 3 4 6.
  for (ElementType t : kValueTypes) {
    ExpectOutput(BlockCase(Op::kSpaceToBatch, Values(t, {1, 2, 3}, {1, 2, 3, 4, 5, 6}), {1, 1, 2},
                           {0, 0, 1}, {0, 0, 0}),
                 {2, 2, 2}, {0, 2, 0, 5, 1, 3, 4, 6});
  }
}

// ---- ExtractImagePatches worked examples 1-5 (values typed in from the specification) ----

// The 1 x 1 x 10 x 10 image holding 10 r + c + 1.
Tensor Image(ElementType t) { return Values(t, {1, 1, 10, 10}, Iota(100, 1)); }

TEST(SpecExamples, ExtractImagePatchesExample1) {
  const std::vector<int64_t> want = {1,  6,  51, 56, 2,  7,  52, 57, 3,  8,  53, 58,
                                     11, 16, 61, 66, 12, 17, 62, 67, 13, 18, 63, 68,
                                     21, 26, 71, 76, 22, 27, 72, 77, 23, 28, 73, 78};
  for (ElementType t : kValueTypes) {
    ExpectOutput(PatchCase(Image(t), {3, 3}, {5, 5}, {1, 1}, "valid"), {1, 9, 2, 2}, want);
  }
}

TEST(SpecExamples, ExtractImagePatchesExample2) {
  const std::vector<int64_t> want = {1, 2, 3, 4, 11, 12, 13, 14, 21, 22, 23, 24, 31, 32, 33, 34};
  for (ElementType t : kValueTypes) {
    ExpectOutput(PatchCase(Image(t), {4, 4}, {8, 8}, {1, 1}, "valid"), {1, 16, 1, 1}, want);
  }
}

TEST(SpecExamples, ExtractImagePatchesExample3) {
  const std::vector<int64_t> want = {0, 0,  0, 89, 0,  0,  81, 90,  0,  0, 82, 0, 0,  0, 83, 0,  //
                                     0, 9,  0, 99, 1,  10, 91, 100, 2,  0, 92, 0, 3,  0, 93, 0,  //
                                     0, 19, 0, 0,  11, 20, 0,  0,   12, 0, 0,  0, 13, 0, 0,  0,  //
                                     0, 29, 0, 0,  21, 30, 0,  0,   22, 0, 0,  0, 23, 0, 0,  0};
  for (ElementType t : kValueTypes) {
    ExpectOutput(PatchCase(Image(t), {4, 4}, {9, 9}, {1, 1}, "same_upper"), {1, 16, 2, 2}, want);
  }
}

TEST(SpecExamples, ExtractImagePatchesExample4) {
  const std::vector<int64_t> want = {1,  6,  51, 56, 3,  8,  53, 58, 5,  10, 55, 60,
                                     21, 26, 71, 76, 23, 28, 73, 78, 25, 30, 75, 80,
                                     41, 46, 91, 96, 43, 48, 93, 98, 45, 50, 95, 100};
  for (ElementType t : kValueTypes) {
    ExpectOutput(PatchCase(Image(t), {3, 3}, {5, 5}, {2, 2}, "valid"), {1, 9, 2, 2}, want);
  }
}

TEST(SpecExamples, ExtractImagePatchesExample5) {
  const std::vector<int64_t> want = {1, 4, 16, 19, 26, 29, 41, 44, 2, 5,  17, 20, 27, 30, 42, 45,
                                     6, 9, 21, 24, 31, 34, 46, 49, 7, 10, 22, 25, 32, 35, 47, 50};
  for (ElementType t : kValueTypes) {
    ExpectOutput(PatchCase(Values(t, {1, 2, 5, 5}, Iota(50, 1)), {2, 2}, {3, 3}, {1, 1}, "valid"),
                 {1, 8, 2, 2}, want);
  }
}

}  // namespace
}  // namespace dmconf
