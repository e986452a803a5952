// The fitted diagnosis of SpaceToBatch / BatchToSpace (harness/compare/block_fit.h) on
// hand-computed wrong outputs: it recovers the pads (crops), batch order and pad value a
// backend used, names the term that differs from the spec's, and says so when no member of the
// family explains the output.
#include "harness/compare/block_fit.h"

#include <cstdint>
#include <vector>

#include "absl/strings/match.h"
#include "gtest/gtest.h"
#include "oracle/case_factory.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

Tensor I32(Shape shape, const std::vector<int64_t>& values) {
  return *MakeTensor(ElementType::kI32, std::move(shape), [&](int64_t i) {
    return static_cast<uint64_t>(values[static_cast<size_t>(i)]);
  });
}

Tensor Positional(Shape shape) {
  return *MakeTensor(ElementType::kI32, std::move(shape), [](int64_t i) { return i + 1; });
}

// SpaceToBatch of [1, 4] holding 1..4, block [1, 2], pads_begin [0, 1], pads_end [0, 3]:
// the padded row is 0 1 2 3 4 0 0 0; batch 0 takes the even positions, batch 1 the odd ones.
OpCase PaddedRow() {
  return BlockOpCase(Op::kSpaceToBatch, Positional({1, 4}), {1, 2}, {0, 1}, {0, 3});
}

TEST(BlockFit, NamesSwappedPads) {
  const OpCase c = PaddedRow();
  const Tensor expected = *Evaluate(c)->output;
  ASSERT_EQ(expected, I32({2, 4}, {0, 2, 4, 0, 1, 3, 0, 0})) << "hand-derived spec output";
  // pads_begin 3, pads_end 1: the padded row is 0 0 0 1 2 3 4 0.
  const Tensor actual = I32({2, 4}, {0, 0, 2, 4, 0, 1, 3, 0});
  std::optional<LayoutFit> fit = FitBlockLayout(c, expected, actual);
  ASSERT_TRUE(fit.has_value());
  EXPECT_TRUE(fit->explained);
  EXPECT_EQ(fit->terms, std::vector<std::string>{"s2b.fit.pads"});
  EXPECT_EQ(fit->summary,
            "the fitted map explains every output element and differs from the spec's in: "
            "pads_begin [0, 3] (pads_end [0, 1]) where the spec says pads_begin [0, 1] "
            "(pads_end [0, 3]): pads_begin and pads_end swapped");
}

TEST(BlockFit, NamesPaddingAtTheEndAndAPadValue) {
  const OpCase c = PaddedRow();
  const Tensor expected = *Evaluate(c)->output;
  // pads_begin 0, pads_end 4 (padded row 1 2 3 4 0 0 0 0), the padding holding 7777.
  const Tensor at_end = I32({2, 4}, {1, 3, 7777, 7777, 2, 4, 7777, 7777});
  std::optional<LayoutFit> fit = FitBlockLayout(c, expected, at_end);
  ASSERT_TRUE(fit.has_value());
  EXPECT_EQ(fit->terms, (std::vector<std::string>{"s2b.fit.pads", "s2b.fit.pad_value"}));
  EXPECT_TRUE(absl::StrContains(fit->summary, "all padding applied at the end")) << fit->summary;
  EXPECT_TRUE(absl::StrContains(fit->summary,
                                "the padding holds 0x00001e61 where the spec says "
                                "zero"))
      << fit->summary;
}

// BatchToSpace of [4, 1] holding 1..4 (batch b holds b + 1), block [1, 2]: output [2, 2];
// the spec reads batch o * 2 + n for output (n, j = o): rows [1, 3] and [2, 4].
TEST(BlockFit, NamesBatchMajorOrder) {
  const OpCase c = BlockOpCase(Op::kBatchToSpace, Positional({4, 1}), {1, 2}, {0, 0}, {0, 0});
  const Tensor expected = *Evaluate(c)->output;
  ASSERT_EQ(expected, I32({2, 2}, {1, 3, 2, 4})) << "hand-derived spec output";
  // Batch-major: batch n * 2 + o.
  std::optional<LayoutFit> fit = FitBlockLayout(c, expected, I32({2, 2}, {1, 2, 3, 4}));
  ASSERT_TRUE(fit.has_value());
  EXPECT_TRUE(fit->explained);
  EXPECT_EQ(fit->terms, std::vector<std::string>{"b2s.fit.batch_order"});
  EXPECT_TRUE(absl::StrContains(fit->summary, "the input batch is read batch-major"))
      << fit->summary;
}

// SpaceToBatch of [1, 2, 2, 2] holding 1..8, block [1, 1, 2, 1], no pads, read as NHWC: the
// kernel reads logical (0, d1, d2, d3) from ((d2 * 2) + d3) * 2 + d1. Output [2, 2, 1, 2]:
// batch o = d2, element (o, d1, 0, d3) = data[((o * 2) + d3) * 2 + d1].
TEST(BlockFit, NamesNhwcReading) {
  const OpCase c = BlockOpCase(Op::kSpaceToBatch, Positional({1, 2, 2, 2}), {1, 1, 2, 1},
                               {0, 0, 0, 0}, {0, 0, 0, 0});
  const Tensor expected = *Evaluate(c)->output;
  ASSERT_EQ(expected, I32({2, 2, 1, 2}, {1, 2, 5, 6, 3, 4, 7, 8})) << "hand-derived spec output";
  // (o, d1, d3) -> ((o * 2) + d3) * 2 + d1 + 1: o = 0: d1 = 0: 1, 3; d1 = 1: 2, 4; o = 1: ...
  const Tensor actual = I32({2, 2, 1, 2}, {1, 3, 2, 4, 5, 7, 6, 8});
  std::optional<LayoutFit> fit = FitBlockLayout(c, expected, actual);
  ASSERT_TRUE(fit.has_value());
  EXPECT_TRUE(fit->explained);
  EXPECT_EQ(fit->terms, std::vector<std::string>{"s2b.fit.input_layout"});
  EXPECT_TRUE(absl::StrContains(fit->summary, "(elements read as NHWC)")) << fit->summary;
}

TEST(BlockFit, SaysSoWhenNothingInTheFamilyFits) {
  const OpCase c = PaddedRow();
  const Tensor expected = *Evaluate(c)->output;
  // Two data elements exchanged (2 and 4): every element is an input element or zero, but no
  // member of the family moves exactly these two.
  std::optional<LayoutFit> fit = FitBlockLayout(c, expected, I32({2, 4}, {0, 4, 2, 0, 1, 3, 0, 0}));
  ASSERT_TRUE(fit.has_value());
  EXPECT_FALSE(fit->explained);
  EXPECT_TRUE(fit->terms.empty());
  EXPECT_TRUE(absl::StartsWith(fit->summary, "no member of the family")) << fit->summary;
  // Padding holding two different values: no single pad value explains it.
  fit = FitBlockLayout(c, expected, I32({2, 4}, {9, 2, 4, 0, 1, 3, 0, 0}));
  ASSERT_TRUE(fit.has_value());
  EXPECT_FALSE(fit->explained);
  EXPECT_TRUE(absl::StartsWith(fit->summary, "no member of the family")) << fit->summary;
  // No input element at all.
  fit = FitBlockLayout(c, expected, I32({2, 4}, {0, 0, 0, 0, 0, 0, 0, 0}));
  ASSERT_TRUE(fit.has_value());
  EXPECT_FALSE(fit->explained);
}

TEST(BlockFit, DoesNotApply) {
  const OpCase c = PaddedRow();
  const Tensor expected = *Evaluate(c)->output;
  const Tensor actual = I32({2, 4}, {0, 0, 2, 4, 0, 1, 3, 0});
  // Data that does not encode positions.
  const OpCase zeros = BlockOpCase(Op::kSpaceToBatch, *Tensor::Zeros(ElementType::kI32, {1, 4}),
                                   {1, 2}, {0, 1}, {0, 3});
  EXPECT_FALSE(FitBlockLayout(zeros, expected, actual).has_value());
  // An output of another shape or type.
  EXPECT_FALSE(FitBlockLayout(c, expected, I32({1, 8}, {0, 0, 2, 4, 0, 1, 3, 0})).has_value());
  EXPECT_FALSE(FitBlockLayout(c, expected, *Tensor::Zeros(ElementType::kI64, {2, 4})).has_value());
  // Another op.
  EXPECT_FALSE(
      FitBlockLayout(DepthOpCase(Op::kDepthToSpace, Positional({1, 4, 1, 1}), 2, "blocks_first"),
                     expected, actual)
          .has_value());
}

// The fit's work is bounded: an output above 2^22 elements is not fitted (no claim, no table
// of its size). [1, 2^21 + 1] holding 1.., block [1, 2], pads [0, 1] and [0, 2^21 + 2]: output
// [2, 2^21 + 2], 2^22 + 4 elements.
TEST(BlockFit, DoesNotFitAboveTheBound) {
  const int64_t d = (int64_t{1} << 21) + 1;
  const OpCase c = BlockOpCase(Op::kSpaceToBatch, Positional({1, d}), {1, 2}, {0, 1}, {0, d + 1});
  const Tensor expected = *Evaluate(c)->output;
  ASSERT_EQ(expected.shape, (Shape{2, d + 1}));
  Tensor actual = expected;
  actual.SetBits(0, 5);  // wrong, and inside the family's reach were it small
  EXPECT_FALSE(FitBlockLayout(c, expected, actual).has_value());
}

}  // namespace
}  // namespace dmconf
