// The libtorch adapter (optional, -DDMCONF_WITH_TORCH=ON) against the oracle: depth_first
// DepthToSpace / SpaceToDepth over several dtypes, and ExtractImagePatches for every auto_pad.
#include "conformance/backends/backend_test_util.h"
#include "gtest/gtest.h"
#include "harness/backends/torch/torch_backend.h"

namespace dmconf {
namespace {

using ::dmconf::testing::CompareWithOracle;
using ::dmconf::testing::DepthCase;
using ::dmconf::testing::PatchesCase;
using ::dmconf::testing::ValidCases;

TEST(TorchBackend, PixelOpsMatchOracleDepthFirst) {
  TorchBackend b;
  for (ElementType t : {ElementType::kF32, ElementType::kF16, ElementType::kBf16, ElementType::kU8,
                        ElementType::kI64, ElementType::kBoolean, ElementType::kU16}) {
    for (Op op : {Op::kDepthToSpace, Op::kSpaceToDepth}) {
      for (const OpCase& c : ValidCases(op, t, 15, 51, "depth_first")) {
        EXPECT_EQ(CompareWithOracle(b, c), "") << c.id;
      }
    }
  }
}

TEST(TorchBackend, PatchesMatchOracle) {
  TorchBackend b;
  for (ElementType t : {ElementType::kF32, ElementType::kF64, ElementType::kF16}) {
    for (const OpCase& c : ValidCases(Op::kExtractImagePatches, t, 45, 52)) {
      EXPECT_EQ(CompareWithOracle(b, c), "") << c.id << " " << AttributesToString(c);
    }
  }
}

// F11: `valid` with a kernel larger than the input has an empty output (ERRATA E8); im2col
// refuses it with an error instead.
TEST(TorchBackend, F11ValidKernelLargerThanInputIsRefused) {
  TorchBackend b;
  RunOutcome r = b.Run(PatchesCase(*Tensor::Zeros(ElementType::kF32, {1, 1, 2, 2}), {3, 3}, {1, 1},
                                   {1, 1}, "valid"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kRejected) << r.message;
  EXPECT_NE(r.message.find("must be at least one"), std::string::npos) << r.message;
}

TEST(TorchBackend, DeclaresWhatItCannotExpress) {
  TorchBackend b;
  EXPECT_FALSE(b.Supports(DepthCase(
      Op::kDepthToSpace, *Tensor::Zeros(ElementType::kF32, {1, 4, 1, 1}), 2, "blocks_first")));
  EXPECT_FALSE(b.Supports(DepthCase(Op::kDepthToSpace, *Tensor::Zeros(ElementType::kF32, {1, 4, 1}),
                                    2, "depth_first")));
  EXPECT_FALSE(b.Supports(PatchesCase(*Tensor::Zeros(ElementType::kI32, {1, 1, 3, 3}), {2, 2},
                                      {1, 1}, {1, 1}, "valid")));
}

}  // namespace
}  // namespace dmconf
