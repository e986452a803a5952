// The minimal repro vectors of docs/findings.md (the Arm NN and XNNPACK ones as `dmconf shrink`
// reduced them: docs/shrinking.md), pinned: each one is built here from the case
// the finding describes, with the oracle's expectation, and must equal its checked-in file in
// vectors/regressions/ byte for byte. Regenerate after a deliberate change with
//   DMCONF_REGENERATE_FINDINGS=1 ctest --preset dev -R FindingsVectors
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "conformance/backends/backend_test_util.h"
#include "gtest/gtest.h"
#include "harness/io/vector_case.h"
#include "harness/io/vector_file.h"

namespace dmconf {
namespace {

using ::dmconf::testing::BatchToSpaceCase;
using ::dmconf::testing::DepthCase;
using ::dmconf::testing::PatchesCase;
using ::dmconf::testing::SpaceToBatchCase;

Tensor Iota(ElementType t, Shape s) {
  return *MakeTensor(t, std::move(s), [](int64_t i) { return i + 1; });
}

Tensor Filled(ElementType t, Shape s, uint64_t bits) {
  return *MakeTensor(t, std::move(s), [bits](int64_t) { return bits; });
}

struct Finding {
  std::string id;
  std::string backend;
  std::string note;
  OpCase c;
};

std::vector<Finding> Findings() {
  std::vector<Finding> f;
  f.push_back(
      {"armnn-s2d-block-size-zero", "armnn",
       "F1: SpaceToDepth block_size 0 kills Arm NN 20.08 with SIGFPE",
       DepthCase(Op::kSpaceToDepth, Iota(ElementType::kU8, {0, 0, 0, 0}), 0, "blocks_first")});
  f.push_back(
      {"armnn-d2s-block-size-zero", "armnn",
       "F1: DepthToSpace block_size 0 kills Arm NN 20.08 with SIGFPE",
       DepthCase(Op::kDepthToSpace, Iota(ElementType::kU8, {0, 0, 0, 0}), 0, "blocks_first")});
  f.push_back({"armnn-s2b-block-shape-zero", "armnn",
               "F1b: a SpaceToBatch block_shape value 0 kills Arm NN 20.08 with SIGFPE",
               SpaceToBatchCase(Iota(ElementType::kU8, {0, 0, 0, 0}), {1, 1, 0, 1}, {0, 0, 0, 0},
                                {0, 0, 0, 0})});
  f.push_back({"armnn-b2s-block-shape-zero", "armnn",
               "F1b: a BatchToSpace block_shape value 0 kills Arm NN 20.08 with SIGFPE",
               BatchToSpaceCase(Iota(ElementType::kU8, {0, 0, 0, 0}), {1, 1, 0, 1}, {0, 0, 0, 0},
                                {0, 0, 0, 0})});
  f.push_back({"armnn-b2s-batch-indivisible", "armnn",
               "F2: BatchToSpace with batch 1 and block product 2 aborts Arm NN 20.08 (assert)",
               BatchToSpaceCase(Iota(ElementType::kU8, {1, 0, 0, 0}), {1, 1, 2, 1}, {0, 0, 0, 0},
                                {0, 0, 0, 0})});
  f.push_back({"armnn-b2s-crops-too-large", "armnn",
               "F3: BatchToSpace crops 0 + 1 > 0 * 1 abort Arm NN 20.08 (assert)",
               BatchToSpaceCase(Iota(ElementType::kU8, {0, 0, 0, 0}), {1, 1, 1, 1}, {0, 0, 0, 0},
                                {0, 0, 1, 0})});
  f.push_back(
      {"armnn-s2d-rank3", "armnn",
       "F4: Arm NN's support query accepts rank 3, which it cannot build; valid in "
       "OpenVINO",
       DepthCase(Op::kSpaceToDepth, Iota(ElementType::kF32, {1, 4, 4}), 2, "blocks_first")});
  f.push_back({"armnn-s2b-u8-pad", "armnn",
               "F5: Arm NN pads QAsymmU8 SpaceToBatch with the zero point; OpenVINO pads raw 0",
               SpaceToBatchCase(Filled(ElementType::kU8, {1, 1, 1, 1}, 9), {1, 1, 2, 1},
                                {0, 0, 1, 0}, {0, 0, 0, 0})});
  f.push_back(
      {"eigen-eip-valid-kernel-exceeds-input", "eigen",
       "F6: Eigen 3.4 asserts (or divides by zero) instead of an empty output",
       PatchesCase(Iota(ElementType::kF32, {1, 1, 2, 2}), {3, 3}, {1, 1}, {1, 1}, "valid")});
  f.push_back(
      {"xnnpack-d2s-block-size-one", "xnnpack",
       "F7: XNNPACK refuses DepthToSpace block_size 1 (the identity)",
       DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 4, 1, 1}), 1, "blocks_first")});
  f.push_back({"ort-d2s-f16-signalling-nan", "onnxruntime",
               "F8: ONNX Runtime sets the quiet bit of f16 signalling NaNs (0x7C01 -> 0x7E01)",
               DepthCase(Op::kDepthToSpace, Filled(ElementType::kF16, {1, 4, 1, 6}, 0x7C01), 2,
                         "blocks_first")});
  f.push_back({"ort-d2s-f16-nan-block-one", "onnxruntime",
               "F8: ONNX Runtime turns every f16 NaN into 0x7E00 here (block_size 1)",
               DepthCase(Op::kDepthToSpace, Filled(ElementType::kF16, {1, 1, 1, 1}, 0x7E01), 1,
                         "blocks_first")});
  f.push_back(
      {"tfjs-d2s-block-size-one", "tfjs", "F9: tf.depthToSpace refuses block_size 1 (the identity)",
       DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 1, 1, 1}), 1, "blocks_first")});
  f.push_back({"tfjs-s2b-f32-signalling-nan", "tfjs",
               "F10: tf.spaceToBatchND quiets f32 signalling NaNs (0x7F800001 -> 0x7FC00001)",
               SpaceToBatchCase(Filled(ElementType::kF32, {1, 1, 1, 2}, 0x7F800001), {1, 1, 1, 1},
                                {0, 0, 0, 0}, {0, 0, 0, 0})});
  f.push_back({"armnn-d2s-zero-batch", "armnn",
               "F12: DepthToSpace of a [0,0,0,0] input, block 1 (valid, empty output) kills Arm "
               "NN 20.08 with SIGFPE",
               DepthCase(Op::kDepthToSpace, *Tensor::Zeros(ElementType::kU8, {0, 0, 0, 0}), 1,
                         "blocks_first")});
  f.push_back({"xnnpack-d2s-zero-height", "xnnpack",
               "F13: XNNPACK refuses DepthToSpace of a zero-sized input (valid, empty output)",
               DepthCase(Op::kDepthToSpace, *Tensor::Zeros(ElementType::kI32, {0, 0, 0, 0}), 2,
                         "blocks_first")});
  f.push_back({"armnn-s2d-bf16-nan", "armnn",
               "F14: Arm NN 20.08 SpaceToDepth turns bf16 NaNs (0x7F81) into 0x7FC0",
               DepthCase(Op::kSpaceToDepth, Filled(ElementType::kBf16, {1, 1, 1, 1}, 0x7F81), 1,
                         "blocks_first")});
  for (Finding& x : f) x.c.id = x.id;
  return f;
}

TEST(FindingsVectors, CheckedInFilesMatch) {
  const bool regenerate = std::getenv("DMCONF_REGENERATE_FINDINGS") != nullptr;
  for (const Finding& f : Findings()) {
    io::Provenance p;
    p.kind = "regression";
    p.found_by = "backend:" + f.backend;
    p.note = f.note + " (docs/findings.md)";
    absl::StatusOr<io::VectorCase> v = io::VectorCaseFromOracle(f.c, p, {"finding"});
    ASSERT_TRUE(v.ok()) << f.id << ": " << v.status();
    const std::string path =
        std::string(DMCONF_SOURCE_DIR) + "/vectors/regressions/" + f.id + ".json";
    if (regenerate) {
      ASSERT_TRUE(io::WriteVectorFile(path, *v).ok()) << path;
    }
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str(), io::SerializeVector(*v)) << path << " is missing or stale";
  }
}

}  // namespace
}  // namespace dmconf
