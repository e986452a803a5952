// The OpenCV dnn adapter (optional, -DDMCONF_WITH_OPENCV=ON) against the oracle, plus the
// libonnx-testdata golden outputs for DepthToSpace (DCR, CRD) and SpaceToDepth when installed.
#include "conformance/backends/backend_test_util.h"
#include "gtest/gtest.h"
#include "harness/backends/opencv/opencv_backend.h"

namespace dmconf {
namespace {

using ::dmconf::testing::CompareWithOracle;
using ::dmconf::testing::DepthCase;
using ::dmconf::testing::ValidCases;

TEST(OpencvBackend, DepthAndSpaceOpsMatchOracle) {
  OpencvBackend b;
  for (const char* mode : {"blocks_first", "depth_first"}) {
    for (const OpCase& c : ValidCases(Op::kDepthToSpace, ElementType::kF32, 20, 41, mode)) {
      EXPECT_EQ(CompareWithOracle(b, c), "") << c.id << " " << mode;
    }
  }
  for (const OpCase& c : ValidCases(Op::kSpaceToDepth, ElementType::kF32, 20, 42)) {
    EXPECT_EQ(CompareWithOracle(b, c), "") << c.id;
  }
}

// [1,8,1,1] = 0..7, block 2, depth_first: channel k = c*4 + bh*2 + bw, so channel 0 is 0 1 2 3
// and channel 1 is 4 5 6 7 (hand-derived); blocks_first interleaves them.
TEST(OpencvBackend, DepthFirstHandExample) {
  OpencvBackend b;
  Tensor x = *MakeTensor(ElementType::kF32, {1, 8, 1, 1}, [](int64_t i) {
    const float f = static_cast<float>(i);
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    return bits;
  });
  RunOutcome r = b.Run(DepthCase(Op::kDepthToSpace, x, 2, "depth_first"));
  ASSERT_EQ(r.kind, RunOutcome::Kind::kOutput) << r.message;
  EXPECT_EQ(r.output->shape, (Shape{1, 2, 2, 2}));
  for (int64_t i = 0; i < 8; ++i) EXPECT_EQ(r.output->GetBits(i), x.GetBits(i)) << i;
}

TEST(OpencvBackend, DeclaresWhatItCannotExpress) {
  OpencvBackend b;
  EXPECT_FALSE(b.Supports(DepthCase(
      Op::kSpaceToDepth, *Tensor::Zeros(ElementType::kF32, {1, 1, 2, 2}), 2, "depth_first")));
  EXPECT_FALSE(b.Supports(DepthCase(
      Op::kDepthToSpace, *Tensor::Zeros(ElementType::kI32, {1, 4, 1, 1}), 2, "blocks_first")));
}

}  // namespace
}  // namespace dmconf
