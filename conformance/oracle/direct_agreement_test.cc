// The literal oracle (reshape / transpose / pad / patch-gather primitives) and the direct
// index formulas (oracle/direct) agree on a deterministic grid of valid cases, for every op and
// element types of widths 1, 2, 3, 4, 6, 8, 16, 32 and 64 bits.
#include <vector>

#include "absl/strings/match.h"
#include "conformance/oracle/case_builders.h"
#include "conformance/oracle/case_grids.h"
#include "gtest/gtest.h"
#include "oracle/direct/direct.h"
#include "oracle/oracle.h"

namespace dmconf {
namespace {

using testing::Describe;
using testing::OnePerWidth;
using testing::Positions;
using testing::ValidGrid;

class DirectAgreement : public ::testing::TestWithParam<Op> {};

// The oracle, run on data holding its own positions (i + 1), shows which input element every
// output element copies; the direct source map must say the same, element by element.
TEST_P(DirectAgreement, SourceMapsAgree) {
  int checked = 0;
  for (OpCase c : ValidGrid(GetParam(), ElementType::kI64, 60)) {
    c.data = Positions(c.data.shape);
    absl::StatusOr<Expectation> e = Evaluate(c);
    ASSERT_TRUE(e.ok()) << Describe(c) << ": " << e.status();
    ASSERT_EQ(e->kind, ExpectationKind::kValid) << Describe(c) << ": " << e->message;
    absl::StatusOr<direct::SourceMap> m = direct::DirectSourceMap(c);
    ASSERT_TRUE(m.ok()) << Describe(c) << ": " << m.status();
    ASSERT_EQ(m->output_shape, e->output->shape) << Describe(c);
    for (size_t k = 0; k < m->source.size(); ++k) {
      const uint64_t want = static_cast<uint64_t>(m->source[k] + 1);  // kPadZero -> 0
      ASSERT_EQ(e->output->GetBits(static_cast<int64_t>(k)), want)
          << Describe(c) << ": output element " << k;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 60);
}

// Bit-exact agreement of whole tensors, sub-byte packing included.
TEST_P(DirectAgreement, OutputsAgreeForEveryWidth) {
  for (ElementType t : OnePerWidth()) {
    for (const OpCase& c : ValidGrid(GetParam(), t, 30)) {
      absl::StatusOr<Expectation> e = Evaluate(c);
      ASSERT_TRUE(e.ok()) << Describe(c) << ": " << e.status();
      ASSERT_EQ(e->kind, ExpectationKind::kValid) << Describe(c) << ": " << e->message;
      absl::StatusOr<Tensor> d = direct::DirectEvaluate(c);
      ASSERT_TRUE(d.ok()) << Describe(c) << ": " << d.status();
      ASSERT_TRUE(*e->output == *d) << Describe(c);
      // Both leave the padding bits of the last byte zero, so the bytes are identical too.
      ASSERT_EQ(e->output->bytes, d->bytes) << Describe(c);
    }
  }
}

// Every other element type, on a smaller grid.
TEST_P(DirectAgreement, OutputsAgreeForAllTypes) {
  for (ElementType t : AllElementTypes()) {
    for (const OpCase& c : ValidGrid(GetParam(), t, 8)) {
      absl::StatusOr<Expectation> e = Evaluate(c);
      ASSERT_TRUE(e.ok() && e->kind == ExpectationKind::kValid) << Describe(c);
      absl::StatusOr<Tensor> d = direct::DirectEvaluate(c);
      ASSERT_TRUE(d.ok()) << Describe(c) << ": " << d.status();
      ASSERT_TRUE(*e->output == *d) << Describe(c);
    }
  }
}

TEST_P(DirectAgreement, LargerCasesAgree) {
  for (ElementType t : OnePerWidth()) {
    for (const OpCase& c : testing::LargerCases(GetParam(), t)) {
      absl::StatusOr<Expectation> e = Evaluate(c);
      ASSERT_TRUE(e.ok() && e->kind == ExpectationKind::kValid) << Describe(c);
      absl::StatusOr<Tensor> d = direct::DirectEvaluate(c);
      ASSERT_TRUE(d.ok()) << Describe(c) << ": " << d.status();
      ASSERT_TRUE(*e->output == *d) << Describe(c);
    }
  }
}

// block_shape / pads / crops in every integer type, sub-byte ones included; SpaceToBatch's
// three inputs may differ in type (ERRATA E11).
TEST(DirectAgreementInputs, EveryIntegerTypeForBlockAndPads) {
  int checked = 0;
  for (ElementType it : AllElementTypes()) {
    if (!IsIntegerType(it)) continue;
    const bool wide = BitWidth(it) >= 2;  // u1 holds only 0 and 1
    const std::vector<int64_t> block =
        wide ? std::vector<int64_t>{1, 2, 3} : std::vector<int64_t>{1, 1, 1};
    for (Op op : {Op::kSpaceToBatch, Op::kBatchToSpace}) {
      const Shape d = op == Op::kSpaceToBatch ? Shape{2, 3, 5} : Shape{12, 2, 3};
      OpCase c = testing::BlockCase(op, testing::Pattern(ElementType::kU6, d), block, {0, 1, 1},
                                    {0, 0, 0}, it);
      if (op == Op::kSpaceToBatch) {
        // D + pads: 3 + 1 = 4 (block 2), 5 + 1 = 6 (block 3); mixed types are valid here.
        c.int_inputs[2] = *MakeIntegerTensor(ElementType::kI64, {0, 0, 0});
      }
      absl::StatusOr<Expectation> e = Evaluate(c);
      ASSERT_TRUE(e.ok()) << Describe(c) << ": " << e.status();
      ASSERT_EQ(e->kind, ExpectationKind::kValid) << Describe(c) << ": " << e->message;
      absl::StatusOr<Tensor> y = direct::DirectEvaluate(c);
      ASSERT_TRUE(y.ok()) << Describe(c) << ": " << y.status();
      EXPECT_TRUE(*y == *e->output) << Describe(c);
      ++checked;
    }
  }
  EXPECT_EQ(checked, 2 * 14);  // u1 u2 u3 u4 u6 i4 u8 i8 u16 i16 u32 i32 u64 i64
}

// The header's example and error contract.
TEST(DirectContract, HeaderExample) {
  OpCase c = testing::DepthCase(
      Op::kSpaceToDepth, *MakeTensor(ElementType::kU4, {5, 7, 4, 6}, [](int64_t i) { return i; }),
      2, "depth_first");
  absl::StatusOr<Tensor> y = direct::DirectEvaluate(c);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape, (Shape{5, 28, 2, 3}));
  // Output [0, 1, 0, 0] (flat 6): c = 0, offsets (0, 1): data[0, 0, 0, 1], flat index 1.
  EXPECT_EQ(y->GetBits(6), 1u);
  absl::StatusOr<direct::SourceMap> m = direct::DirectSourceMap(c);
  ASSERT_TRUE(m.ok()) << m.status();
  EXPECT_EQ(m->source[6], 1);
  // Output [0, 2, 0, 0] (flat 12): offsets (1, 0): data[0, 0, 1, 0], flat index 6.
  EXPECT_EQ(m->source[12], 6);
  // Output [0, 4, 0, 1] (flat 25): c = 1, offsets (0, 0), z = (0, 1): data[0, 1, 0, 2] = 26.
  EXPECT_EQ(m->source[25], 26);
}

TEST(DirectContract, InvalidCaseNamesTheDecidingRule) {
  OpCase c = testing::DepthCase(
      Op::kSpaceToDepth, testing::Pattern(ElementType::kF32, {1, 1, 3, 4}), 2, "blocks_first");
  absl::StatusOr<Tensor> y = direct::DirectEvaluate(c);
  ASSERT_FALSE(y.ok());
  EXPECT_EQ(y.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(absl::StartsWith(y.status().message(), "s2d.block_size.divides: ")) << y.status();
}

TEST(DirectContract, OutputAboveTheLimitIsRefusedByName) {
  OpCase c = testing::BlockCase(Op::kSpaceToBatch, testing::Pattern(ElementType::kU8, {1, 2}),
                                {1, 1}, {0, 1000}, {0, 1000});
  absl::StatusOr<Tensor> y = direct::DirectEvaluate(c, /*max_bytes=*/1000);
  ASSERT_FALSE(y.ok());
  EXPECT_TRUE(absl::StartsWith(y.status().message(), "case.output.too_large: ")) << y.status();
  EXPECT_TRUE(direct::DirectEvaluate(c, 2002).ok());
}

TEST(DirectContract, PerOpEntryPoints) {
  // Spec example 1 of ExtractImagePatches, first patch: 1 2 3 / 11 12 13 / 21 22 23.
  Tensor image = *MakeTensor(ElementType::kI32, {1, 1, 10, 10}, [](int64_t i) { return i + 1; });
  absl::StatusOr<Tensor> y =
      direct::DirectExtractImagePatches(image, {3, 3}, {5, 5}, {1, 1}, AutoPad::kValid);
  ASSERT_TRUE(y.ok()) << y.status();
  EXPECT_EQ(y->shape, (Shape{1, 9, 2, 2}));
  EXPECT_EQ(y->GetInteger(4 * 4), 12);  // channel 4 (kh 1, kw 1), patch (0, 0)
  absl::StatusOr<Tensor> s =
      direct::DirectSpaceToBatch(image, {1, 1, 2, 5}, {0, 0, 0, 0}, {0, 0, 0, 0});
  ASSERT_TRUE(s.ok()) << s.status();
  absl::StatusOr<Tensor> b =
      direct::DirectBatchToSpace(*s, {1, 1, 2, 5}, {0, 0, 0, 0}, {0, 0, 0, 0});
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_TRUE(*b == image);
  absl::StatusOr<Tensor> d = direct::DirectSpaceToDepth(image, 2, DepthMode::kDepthFirst);
  ASSERT_TRUE(d.ok()) << d.status();
  absl::StatusOr<Tensor> back = direct::DirectDepthToSpace(*d, 2, DepthMode::kDepthFirst);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_TRUE(*back == image);
  EXPECT_FALSE(direct::DirectSpaceToBatch(image, {1, 1, 3, 5}, {0, 0, 0, 0}, {0, 0, 0, 0}).ok());
}

INSTANTIATE_TEST_SUITE_P(AllOps, DirectAgreement, ::testing::ValuesIn(AllOps()),
                         [](const ::testing::TestParamInfo<Op>& i) {
                           return std::string(OpName(i.param));
                         });

}  // namespace
}  // namespace dmconf
