// The XNNPACK adapter: a hand-derived DepthToSpace example and a deterministic set of valid
// blocks_first cases against the oracle; what XNNPACK cannot express is `unsupported`.
#include "conformance/backends/backend_test_util.h"
#include "gtest/gtest.h"
#include "harness/backends/xnnpack/xnnpack_backend.h"

namespace dmconf {
namespace {

using ::dmconf::testing::CompareWithOracle;
using ::dmconf::testing::DepthCase;
using ::dmconf::testing::ValidCases;

Tensor Iota(ElementType t, Shape s) {
  return *MakeTensor(t, std::move(s), [](int64_t i) { return i; });
}

// [1,8,1,1] = 0..7, block 2, blocks_first: channel k = (bh*2 + bw)*2 + c, so output channel c
// at (bh, bw) holds k. Channel 0: 0 2 4 6; channel 1: 1 3 5 7.
TEST(XnnpackBackend, DepthToSpaceHandExample) {
  XnnpackBackend b;
  RunOutcome r =
      b.Run(DepthCase(Op::kDepthToSpace, Iota(ElementType::kI32, {1, 8, 1, 1}), 2, "blocks_first"));
  ASSERT_EQ(r.kind, RunOutcome::Kind::kOutput) << r.message;
  EXPECT_EQ(r.output->shape, (Shape{1, 2, 2, 2}));
  std::vector<int64_t> got;
  for (int64_t i = 0; i < 8; ++i) got.push_back(*r.output->GetInteger(i));
  EXPECT_EQ(got, (std::vector<int64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
}

TEST(XnnpackBackend, DeclaresWhatItCannotExpress) {
  XnnpackBackend b;
  EXPECT_FALSE(b.Supports(
      DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 8, 1, 1}), 2, "depth_first")));
  EXPECT_FALSE(b.Supports(
      DepthCase(Op::kDepthToSpace, Iota(ElementType::kF16, {1, 8, 1, 1}), 2, "blocks_first")));
  EXPECT_FALSE(b.Supports(
      DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 4, 1, 1}), 1, "blocks_first")));
  EXPECT_FALSE(b.Supports(
      DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 6, 1, 1}), 2, "blocks_first")));
  EXPECT_FALSE(b.Supports(
      DepthCase(Op::kSpaceToDepth, Iota(ElementType::kF32, {1, 1, 2, 2}), 2, "blocks_first")));
}

// block_size 0 is passed to XNNPACK, which refuses it.
TEST(XnnpackBackend, RejectsBlockSizeZero) {
  XnnpackBackend b;
  RunOutcome r =
      b.Run(DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 4, 1, 1}), 0, "blocks_first"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kRejected) << r.message;
}

// F13: XNNPACK refuses zero-sized channels, height or width (valid cases with empty outputs);
// a zero batch runs. The adapter passes them, so the refusal is the outcome.
TEST(XnnpackBackend, F13RefusesZeroSizedSpatialAndChannelDims) {
  XnnpackBackend b;
  const auto d2s = [](Shape s) {
    return DepthCase(Op::kDepthToSpace, *Tensor::Zeros(ElementType::kF32, std::move(s)), 2,
                     "blocks_first");
  };
  EXPECT_EQ(b.Run(d2s({1, 0, 2, 3})).kind, RunOutcome::Kind::kRejected);
  EXPECT_EQ(b.Run(d2s({1, 8, 0, 3})).kind, RunOutcome::Kind::kRejected);
  EXPECT_EQ(b.Run(d2s({1, 8, 2, 0})).kind, RunOutcome::Kind::kRejected);
  EXPECT_EQ(CompareWithOracle(b, d2s({0, 8, 2, 3})), "");
}

class XnnpackValidCases : public ::testing::TestWithParam<ElementType> {};

TEST_P(XnnpackValidCases, MatchOracle) {
  XnnpackBackend b;
  int ran = 0;
  for (const OpCase& c : ValidCases(Op::kDepthToSpace, GetParam(), 80, 7)) {
    if (c.block_size == 1) continue;  // outside XNNPACK's domain (checked above)
    EXPECT_EQ(CompareWithOracle(b, c), "") << c.id << " " << ShapeToString(c.data.shape);
    ++ran;
  }
  EXPECT_GT(ran, 30);
}

INSTANTIATE_TEST_SUITE_P(Types, XnnpackValidCases,
                         ::testing::Values(ElementType::kF32, ElementType::kI32, ElementType::kU32),
                         [](const auto& info) { return std::string(ElementTypeName(info.param)); });

}  // namespace
}  // namespace dmconf

namespace dmconf {
namespace {

TEST(XnnpackBackend, NanPayloadsMoveUnchanged) {
  XnnpackBackend b;
  OpCase c = DepthCase(Op::kDepthToSpace,
                       dmconf::testing::PositionTensor(ElementType::kF32, {2, 8, 3, 3}, true), 2,
                       "blocks_first");
  c.data.SetBits(0, 0x7F800001u);
  c.data.SetBits(1, 0xFFA00001u);
  EXPECT_EQ(CompareWithOracle(b, c), "");
}

}  // namespace
}  // namespace dmconf
