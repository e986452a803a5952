// The Arm NN CpuRef adapter against the oracle: hand-derived examples and a deterministic set of
// valid cases per op and element type. Nothing here hands Arm NN a case known to crash it (the
// adapter's guard is on; crash probes live in armnn_probe_test.cc and run in a forked child).
#include "conformance/backends/backend_test_util.h"
#include "gtest/gtest.h"
#include "harness/backends/armnn/armnn_backend.h"

namespace dmconf {
namespace {

using ::dmconf::testing::BatchToSpaceCase;
using ::dmconf::testing::CompareWithOracle;
using ::dmconf::testing::DepthCase;
using ::dmconf::testing::SpaceToBatchCase;
using ::dmconf::testing::ValidCases;

Tensor Iota(ElementType t, Shape s) {
  return *MakeTensor(t, std::move(s), [](int64_t i) { return i; });
}

std::vector<int64_t> Values(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.NumElements(); ++i) v.push_back(static_cast<int64_t>(t.GetBits(i)));
  return v;
}

// SpaceToBatch of a [1,1,2,4] iota with block [1,1,2,2]: output batch b = bh*2 + bw takes rows
// bh and columns bw, bw+2 (hand-derived from the spec's reshape/transpose).
TEST(ArmnnBackend, SpaceToBatchHandExample) {
  ArmnnBackend b;
  RunOutcome r = b.Run(SpaceToBatchCase(Iota(ElementType::kU8, {1, 1, 2, 4}), {1, 1, 2, 2},
                                        {0, 0, 0, 0}, {0, 0, 0, 0}));
  ASSERT_EQ(r.kind, RunOutcome::Kind::kOutput) << r.message;
  EXPECT_EQ(r.output->shape, (Shape{4, 1, 1, 2}));
  EXPECT_EQ(Values(*r.output), (std::vector<int64_t>{0, 2, 1, 3, 4, 6, 5, 7}));
}

// Pads are zeros, whatever the element type: [1,1,1,1] holding 9, pads_begin H = 1 and block 2
// on H: batch 0 gets the pad row, batch 1 the data.
TEST(ArmnnBackend, SpaceToBatchPadsWithZero) {
  ArmnnBackend b;
  Tensor data = *MakeTensor(ElementType::kU8, {1, 1, 1, 1}, [](int64_t) { return 9; });
  RunOutcome r = b.Run(SpaceToBatchCase(data, {1, 1, 2, 1}, {0, 0, 1, 0}, {0, 0, 0, 0}));
  ASSERT_EQ(r.kind, RunOutcome::Kind::kOutput) << r.message;
  EXPECT_EQ(r.output->shape, (Shape{2, 1, 1, 1}));
  EXPECT_EQ(Values(*r.output), (std::vector<int64_t>{0, 9}));
}

// DepthToSpace blocks_first of [1,4,1,1] = [0,1,2,3], block 2: channel (bh*2+bw) goes to (bh,bw).
TEST(ArmnnBackend, DepthToSpaceBlocksFirstHandExample) {
  ArmnnBackend b;
  RunOutcome r =
      b.Run(DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 4, 1, 1}), 2, "blocks_first"));
  ASSERT_EQ(r.kind, RunOutcome::Kind::kOutput) << r.message;
  EXPECT_EQ(r.output->shape, (Shape{1, 1, 2, 2}));
  EXPECT_EQ(Values(*r.output), (std::vector<int64_t>{0, 1, 2, 3}));
}

TEST(ArmnnBackend, DeclaresWhatItCannotExpress) {
  ArmnnBackend b;
  // depth_first, rank 3, rank 5, i64, a block on the channel axis: all unsupported, not run.
  EXPECT_FALSE(b.Supports(
      DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 4, 1, 1}), 2, "depth_first")));
  EXPECT_FALSE(b.Supports(
      DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 4, 1}), 2, "blocks_first")));
  EXPECT_FALSE(b.Supports(
      DepthCase(Op::kSpaceToDepth, Iota(ElementType::kF32, {1, 1, 2, 2, 2}), 2, "blocks_first")));
  EXPECT_FALSE(b.Supports(
      DepthCase(Op::kSpaceToDepth, Iota(ElementType::kI64, {1, 1, 2, 2}), 2, "blocks_first")));
  OpCase channel_block = SpaceToBatchCase(Iota(ElementType::kF32, {1, 2, 1, 1}), {1, 2, 1, 1},
                                          {0, 0, 0, 0}, {0, 0, 0, 0});
  EXPECT_FALSE(b.Supports(channel_block));
  EXPECT_EQ(b.Run(channel_block).kind, RunOutcome::Kind::kUnsupported);
  EXPECT_TRUE(b.Supports(
      DepthCase(Op::kSpaceToDepth, Iota(ElementType::kF32, {1, 1, 2, 2}), 2, "blocks_first")));
}

TEST(ArmnnBackend, GuardKeepsKnownCrashesOutOfProcess) {
  ArmnnBackend b;
  RunOutcome r =
      b.Run(DepthCase(Op::kSpaceToDepth, Iota(ElementType::kF32, {1, 1, 2, 2}), 0, "blocks_first"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kUnsupported);
  r = b.Run(BatchToSpaceCase(Iota(ElementType::kF32, {3, 1, 1, 1}), {1, 1, 2, 1}, {0, 0, 0, 0},
                             {0, 0, 0, 0}));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kUnsupported);
}

// Invalid but non-crashing: SpaceToDepth with H not divisible by the block is refused.
TEST(ArmnnBackend, RejectsIndivisibleSpaceToDepth) {
  ArmnnBackend b;
  RunOutcome r =
      b.Run(DepthCase(Op::kSpaceToDepth, Iota(ElementType::kF32, {1, 1, 3, 2}), 2, "blocks_first"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kRejected) << r.message;
}

class ArmnnValidCases : public ::testing::TestWithParam<std::tuple<Op, ElementType>> {};

TEST_P(ArmnnValidCases, MatchOracle) {
  const auto [op, type] = GetParam();
  ArmnnBackend b;
  for (const OpCase& c : ValidCases(op, type, 40, 1234)) {
    EXPECT_EQ(CompareWithOracle(b, c), "") << c.id << " " << AttributesToString(c);
  }
}

INSTANTIATE_TEST_SUITE_P(
    AllTypes, ArmnnValidCases,
    ::testing::Combine(::testing::Values(Op::kSpaceToBatch, Op::kBatchToSpace, Op::kSpaceToDepth,
                                         Op::kDepthToSpace),
                       ::testing::Values(ElementType::kF32, ElementType::kI32, ElementType::kF16,
                                         ElementType::kBf16, ElementType::kU8, ElementType::kI8,
                                         ElementType::kI16, ElementType::kU16,
                                         ElementType::kBoolean, ElementType::kF8e4m3)),
    [](const auto& info) {
      return absl::StrCat(OpPrefix(std::get<0>(info.param)), "_",
                          ElementTypeName(std::get<1>(info.param)));
    });

}  // namespace
}  // namespace dmconf

namespace dmconf {
namespace {

// NaN encodings (signalling and quiet, with payloads) and every other bit pattern move unchanged
// through Arm NN for the float carriers.
TEST(ArmnnBackend, FloatBitsIncludingNanPayloadsMoveUnchanged) {
  ArmnnBackend b;
  for (ElementType t : {ElementType::kF32, ElementType::kF16, ElementType::kBf16}) {
    OpCase c = DepthCase(Op::kDepthToSpace, dmconf::testing::PositionTensor(t, {1, 4, 8, 8}, true),
                         2, "blocks_first");
    // Plant NaNs of every kind at the start.
    const int w = BitWidth(t);
    const uint64_t exp = t == ElementType::kF32   ? 0x7F800000u
                         : t == ElementType::kF16 ? 0x7C00u
                                                  : 0x7F80u;
    const uint64_t quiet = t == ElementType::kF32   ? 0x00400000u
                           : t == ElementType::kF16 ? 0x0200u
                                                    : 0x0040u;
    const uint64_t sign = uint64_t{1} << (w - 1);
    const uint64_t nans[] = {exp | 1, exp | quiet | 1, sign | exp | 1, exp | (quiet - 1)};
    for (int i = 0; i < 4; ++i) c.data.SetBits(i, nans[i]);
    EXPECT_EQ(CompareWithOracle(b, c), "") << ElementTypeName(t);
  }
}

}  // namespace
}  // namespace dmconf
