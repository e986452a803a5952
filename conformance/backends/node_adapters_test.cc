// The Node subprocess adapters (ONNX Runtime, TensorFlow.js) against the oracle, and the probes
// behind their findings. Skipped when node or the npm packages are missing
// (scripts/install-optional-backends.sh node installs them).
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "conformance/backends/backend_test_util.h"
#include "conformance/vectors/scratch_dir.h"
#include "gtest/gtest.h"
#include "harness/backends/subprocess/subprocess_backend.h"
#include "harness/onnx/model_check.h"
#include "harness/onnx/onnx_export.h"
#include "harness/onnx/onnx_parse.h"
#include "harness/suites/vector_sets.h"

namespace dmconf {
namespace {

using ::dmconf::testing::BatchToSpaceCase;
using ::dmconf::testing::CompareWithOracle;
using ::dmconf::testing::DepthCase;
using ::dmconf::testing::SpaceToBatchCase;
using ::dmconf::testing::ValidCases;

const std::string kNodeDir = std::string(DMCONF_SOURCE_DIR) + "/harness/backends/subprocess/node";

bool NodeAdaptersInstalled() {
  struct stat st;
  return std::system("node --version > /dev/null 2>&1") == 0 &&
         stat((kNodeDir + "/node_modules/onnxruntime-node").c_str(), &st) == 0 &&
         stat((kNodeDir + "/node_modules/@tensorflow/tfjs-core").c_str(), &st) == 0 &&
         stat((kNodeDir + "/node_modules/onnx-proto").c_str(), &st) == 0;
}

#define SKIP_WITHOUT_NODE()                                                                    \
  if (!NodeAdaptersInstalled()) {                                                              \
    GTEST_SKIP() << "node adapters not installed (scripts/install-optional-backends.sh node)"; \
  }

std::unique_ptr<SubprocessBackend> Node(const std::string& which) {
  return std::make_unique<SubprocessBackend>(
      which, std::vector<std::string>{"node", kNodeDir + "/adapter.js", which});
}

Tensor Bits(ElementType t, Shape s, std::vector<uint64_t> bits) {
  return *MakeTensor(t, std::move(s), [&bits](int64_t i) { return bits[static_cast<size_t>(i)]; });
}

std::string FreshDir(const std::string& name) { return testing::ScratchDir("node_" + name); }

// The models the adapter writes (onnx_model.js, with onnx-proto) pass onnx::checker and strict
// shape inference.
TEST(OnnxRuntimeAdapter, ItsModelsPassTheOnnxChecker) {
  SKIP_WITHOUT_NODE();
  const std::string dir = FreshDir("models");
  ASSERT_EQ(std::system(("node " + kNodeDir + "/onnx_model.js write " + dir).c_str()), 0);
  int n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    absl::StatusOr<::onnx::ModelProto> m = onnx_io::ReadOnnxModel(e.path().string());
    ASSERT_TRUE(m.ok()) << m.status();
    EXPECT_TRUE(onnx_io::CheckOnnxModel(*m).ok())
        << e.path() << ": " << onnx_io::CheckOnnxModel(*m);
    ++n;
  }
  EXPECT_EQ(n, 3);
}

// ONNX Runtime runs every folder `dmconf vectors export-onnx` writes for the golden set and
// agrees with every expected output, bit for bit, apart from F8 (f16 NaN bits) and the types and
// kernels it lacks (run_onnx_tests.js).
TEST(OnnxRuntimeAdapter, RunsEveryExportedGoldenFolder) {
  SKIP_WITHOUT_NODE();
  const std::string dir = FreshDir("export");
  absl::StatusOr<std::vector<io::VectorCase>> golden = io::BuildProfile("golden", io::kDefaultSeed);
  ASSERT_TRUE(golden.ok()) << golden.status();
  absl::StatusOr<io::OnnxExport> e = io::ExportOnnx(*golden, dir);
  ASSERT_TRUE(e.ok()) << e.status();
  const std::string cmd = "node " + kNodeDir + "/run_onnx_tests.js " + dir + " 2>&1";
  std::FILE* p = popen(cmd.c_str(), "r");
  ASSERT_NE(p, nullptr);
  std::string out;
  char buf[4096];
  for (size_t got; (got = std::fread(buf, 1, sizeof(buf), p)) > 0;) out.append(buf, got);
  const int status = pclose(p);
  EXPECT_EQ(status, 0) << out;
  const size_t at = out.find("run_onnx_tests: ");
  ASSERT_NE(at, std::string::npos) << out;
  int passed = -1, failed = -1, unsupported = -1, known = -1;
  ASSERT_EQ(std::sscanf(out.c_str() + at,
                        "run_onnx_tests: %d passed, %d failed, %d unsupported, %d known", &passed,
                        &failed, &unsupported, &known),
            4)
      << out;
  EXPECT_EQ(failed, 0) << out;
  EXPECT_EQ(static_cast<size_t>(passed + failed + unsupported + known), e->exported.size());
  // Most of the export runs: every op in f32 at least (measured: 245 of 302).
  EXPECT_GT(passed, static_cast<int>(e->exported.size()) / 2) << out;
}

TEST(OnnxRuntimeAdapter, DepthAndSpaceOpsMatchOracle) {
  SKIP_WITHOUT_NODE();
  auto b = Node("onnxruntime");
  int n = 0;
  for (ElementType t : {ElementType::kF32, ElementType::kF16, ElementType::kU8, ElementType::kI8,
                        ElementType::kF64}) {
    for (const char* mode : {"blocks_first", "depth_first"}) {
      for (const OpCase& c : ValidCases(Op::kDepthToSpace, t, 6, 21, mode)) {
        EXPECT_EQ(CompareWithOracle(*b, c), "") << c.id << " " << mode;
        ++n;
      }
    }
    for (const OpCase& c : ValidCases(Op::kSpaceToDepth, t, 6, 22)) {
      EXPECT_EQ(CompareWithOracle(*b, c), "") << c.id;
      ++n;
    }
  }
  EXPECT_EQ(n, 90);
}

TEST(OnnxRuntimeAdapter, DeclaresWhatItCannotExpress) {
  SKIP_WITHOUT_NODE();
  auto b = Node("onnxruntime");
  const Tensor x = *Tensor::Zeros(ElementType::kF32, {1, 1, 2, 2});
  EXPECT_FALSE(b->Supports(DepthCase(Op::kSpaceToDepth, x, 2, "depth_first")));
  EXPECT_FALSE(b->Supports(DepthCase(
      Op::kSpaceToDepth, *Tensor::Zeros(ElementType::kI32, {1, 1, 2, 2}), 2, "blocks_first")));
  OpCase no_mode = DepthCase(Op::kSpaceToDepth, x, 2, "");
  no_mode.mode.reset();
  EXPECT_EQ(b->Run(no_mode).kind, RunOutcome::Kind::kUnsupported);
}

TEST(OnnxRuntimeAdapter, RejectsInvalidCases) {
  SKIP_WITHOUT_NODE();
  auto b = Node("onnxruntime");
  const Tensor x = *Tensor::Zeros(ElementType::kF32, {1, 1, 3, 2});
  EXPECT_EQ(b->Run(DepthCase(Op::kSpaceToDepth, x, 2, "blocks_first")).kind,
            RunOutcome::Kind::kRejected);
  EXPECT_EQ(b->Run(DepthCase(Op::kDepthToSpace, x, 0, "blocks_first")).kind,
            RunOutcome::Kind::kRejected);
}

// F8: ORT never returns an f16 signalling NaN unchanged from DepthToSpace. Which NaN comes out
// depends on the shape (measured): for [1,4,1,6] with block 2 the quiet bit is set and the payload
// kept (0x7C01 -> 0x7E01, 0x7D55 -> 0x7F55, quiet NaNs unchanged); for [1,4,1,1] with block 2,
// and for block 1, every NaN (quiet ones too) becomes the canonical 0x7E00. Infinities, -0 and
// denormals always pass unchanged.
std::vector<uint64_t> OrtF16Through(SubprocessBackend& b, int64_t block, int64_t width,
                                    uint64_t bits) {
  const int64_t c = block * block;
  RunOutcome r = b.Run(DepthCase(Op::kDepthToSpace,
                                 Bits(ElementType::kF16, {1, c, 1, width},
                                      std::vector<uint64_t>(static_cast<size_t>(c * width), bits)),
                                 block, "blocks_first"));
  std::vector<uint64_t> got;
  if (r.kind != RunOutcome::Kind::kOutput) return got;
  for (int64_t i = 0; i < r.output->NumElements(); ++i) got.push_back(r.output->GetBits(i));
  return got;
}

TEST(OnnxRuntimeAdapter, F8ChangesF16NanBits) {
  SKIP_WITHOUT_NODE();
  auto b = Node("onnxruntime");
  struct Probe {
    int64_t block, width;
    uint64_t in, out;
  };
  const std::vector<Probe> probes = {
      {2, 6, 0x7C01, 0x7E01}, {2, 6, 0x7D55, 0x7F55}, {2, 6, 0xFC01, 0xFE01},
      {2, 6, 0x7E01, 0x7E01}, {2, 6, 0x7C00, 0x7C00}, {2, 6, 0x8000, 0x8000},
      {2, 6, 0x0001, 0x0001}, {2, 1, 0x7C01, 0x7E00}, {2, 1, 0x7E01, 0x7E00},
      {2, 1, 0x7C00, 0x7C00}, {1, 1, 0x7C01, 0x7E00}, {1, 1, 0x7D55, 0x7E00},
      {1, 1, 0x7E01, 0x7E00}, {1, 1, 0x0001, 0x0001}};
  for (const Probe& p : probes) {
    EXPECT_EQ(OrtF16Through(*b, p.block, p.width, p.in),
              std::vector<uint64_t>(static_cast<size_t>(p.block * p.block * p.width), p.out))
        << "block " << p.block << " width " << p.width << " input 0x" << std::hex << p.in;
  }
}

// F10: tfjs's spaceToBatchND quiets f32 signalling NaNs (0x7F800001 -> 0x7FC00001,
// 0xFFA00000 -> 0xFFE00000); quiet NaNs and infinities pass unchanged.
TEST(TfjsAdapter, F10QuietsF32SignallingNans) {
  SKIP_WITHOUT_NODE();
  auto b = Node("tfjs");
  OpCase c = SpaceToBatchCase(
      Bits(ElementType::kF32, {1, 1, 1, 4}, {0x7F800001, 0x7FC00001, 0xFFA00000, 0x7F800000}),
      {1, 1, 1, 1}, {0, 0, 0, 0}, {0, 0, 0, 0});
  c.id = "f32_nan_payloads";
  RunOutcome r = b->Run(c);
  ASSERT_EQ(r.kind, RunOutcome::Kind::kOutput) << r.message;
  std::vector<uint64_t> got;
  for (int64_t i = 0; i < 4; ++i) got.push_back(r.output->GetBits(i));
  EXPECT_EQ(got, (std::vector<uint64_t>{0x7FC00001, 0x7FC00001, 0xFFE00000, 0x7F800000}));
}

TEST(TfjsAdapter, SpaceBatchAndDepthOpsMatchOracle) {
  SKIP_WITHOUT_NODE();
  auto b = Node("tfjs");
  for (ElementType t : {ElementType::kF32, ElementType::kI32, ElementType::kBoolean}) {
    for (Op op : {Op::kSpaceToBatch, Op::kBatchToSpace}) {
      for (const OpCase& c : ValidCases(op, t, 8, 31)) {
        EXPECT_EQ(CompareWithOracle(*b, c), "") << c.id << " " << AttributesToString(c);
      }
    }
  }
  for (const OpCase& c : ValidCases(Op::kDepthToSpace, ElementType::kF32, 8, 32)) {
    if (c.block_size == 1) continue;  // tfjs requires block > 1 (a finding, probed below)
    EXPECT_EQ(CompareWithOracle(*b, c), "") << c.id;
  }
}

// tfjs applies directly to NCHW, so blocks and pads on the channel axis and ranks other than 4
// run: the 5-D example of the SpaceToBatch-2 specification ([2,6,10,3,3], block [1,2,4,3,1],
// pads [0,0,1,0,0] both ends -> [48,3,3,1,3]) and a 3-D case blocking the channel axis.
TEST(TfjsAdapter, SpecExampleAndChannelBlocks) {
  SKIP_WITHOUT_NODE();
  auto b = Node("tfjs");
  OpCase spec =
      SpaceToBatchCase(dmconf::testing::PositionTensor(ElementType::kF32, {2, 6, 10, 3, 3}),
                       {1, 2, 4, 3, 1}, {0, 0, 1, 0, 0}, {0, 0, 1, 0, 0});
  EXPECT_EQ(CompareWithOracle(*b, spec), "");
  OpCase channel = SpaceToBatchCase(dmconf::testing::PositionTensor(ElementType::kI32, {1, 3, 2}),
                                    {1, 2, 1}, {0, 1, 0}, {0, 0, 0});
  EXPECT_EQ(CompareWithOracle(*b, channel), "");
  OpCase back = BatchToSpaceCase(dmconf::testing::PositionTensor(ElementType::kI32, {4, 2, 3}),
                                 {1, 2, 2}, {0, 1, 0}, {0, 0, 1});
  EXPECT_EQ(CompareWithOracle(*b, back), "");
}

// F9: tf.depthToSpace refuses block_size 1, which DepthToSpace-1 allows (the identity).
TEST(TfjsAdapter, F9DepthToSpaceRefusesBlockSizeOne) {
  SKIP_WITHOUT_NODE();
  auto b = Node("tfjs");
  RunOutcome r = b->Run(DepthCase(
      Op::kDepthToSpace, *Tensor::Zeros(ElementType::kF32, {1, 1, 2, 2}), 1, "blocks_first"));
  EXPECT_EQ(r.kind, RunOutcome::Kind::kRejected) << r.message;
}

}  // namespace
}  // namespace dmconf
