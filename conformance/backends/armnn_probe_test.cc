// Probes behind docs/findings.md for Arm NN 20.08 CpuRef. Every probe that may crash the
// library runs in a forked child (RunInChild), never in this test process. A probe failing means
// Arm NN's behaviour changed: update the finding, the adapter's guard and the expectations file.
#include <armnn/ArmNN.hpp>
#include <armnn/BackendHelper.hpp>

#include "conformance/backends/backend_test_util.h"
#include "gtest/gtest.h"
#include "harness/backends/armnn/armnn_backend.h"

namespace dmconf {
namespace {

using ::dmconf::testing::BatchToSpaceCase;
using ::dmconf::testing::DepthCase;
using ::dmconf::testing::RunInChild;
using ::dmconf::testing::SpaceToBatchCase;

Tensor Iota(ElementType t, Shape s) {
  return *MakeTensor(t, std::move(s), [](int64_t i) { return i; });
}

// Runs the adapter with its crash guard off in a child: "exit:0" output, "exit:1" rejected,
// "exit:2" unsupported, "signal:N" crashed.
std::string ProbeUnguarded(const OpCase& c) {
  return RunInChild([&c] {
    ArmnnBackend b(ArmnnBackend::Options{.guard_known_crashes = false});
    return static_cast<int>(b.Run(c).kind);
  });
}

constexpr const char* kSigfpe = "signal:8";
constexpr const char* kAbort = "signal:6";

// F1: SpaceToDepth / DepthToSpace with block_size 0 (must_reject) kill the process with SIGFPE.
TEST(ArmnnFindings, F1BlockSizeZeroCrashesWithSigfpe) {
  EXPECT_EQ(ProbeUnguarded(DepthCase(Op::kSpaceToDepth, Iota(ElementType::kF32, {1, 1, 2, 2}), 0,
                                     "blocks_first")),
            kSigfpe);
  EXPECT_EQ(ProbeUnguarded(DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 4, 1, 1}), 0,
                                     "blocks_first")),
            kSigfpe);
  EXPECT_NE(ArmnnBackend::KnownCrash(DepthCase(
                Op::kSpaceToDepth, Iota(ElementType::kF32, {1, 1, 2, 2}), 0, "blocks_first")),
            "");
}

// F2: BatchToSpace with batch not divisible by the block product (must_reject) aborts.
TEST(ArmnnFindings, F2BatchToSpaceIndivisibleBatchAborts) {
  OpCase c = BatchToSpaceCase(Iota(ElementType::kF32, {3, 1, 1, 1}), {1, 1, 2, 1}, {0, 0, 0, 0},
                              {0, 0, 0, 0});
  EXPECT_EQ(ProbeUnguarded(c), kAbort);
  EXPECT_NE(ArmnnBackend::KnownCrash(c), "");
}

// F3: BatchToSpace with crops larger than the block-expanded size (must_reject) aborts.
TEST(ArmnnFindings, F3BatchToSpaceOversizedCropsAbort) {
  OpCase c = BatchToSpaceCase(Iota(ElementType::kF32, {2, 1, 1, 1}), {1, 1, 2, 1}, {0, 0, 2, 0},
                              {0, 0, 1, 0});
  EXPECT_EQ(ProbeUnguarded(c), kAbort);
  EXPECT_NE(ArmnnBackend::KnownCrash(c), "");
}

// Controls for F1-F3: the same shapes with valid attributes run.
TEST(ArmnnFindings, F1F2F3ControlsRun) {
  EXPECT_EQ(ProbeUnguarded(DepthCase(Op::kSpaceToDepth, Iota(ElementType::kF32, {1, 1, 2, 2}), 2,
                                     "blocks_first")),
            "exit:0");
  EXPECT_EQ(ProbeUnguarded(BatchToSpaceCase(Iota(ElementType::kF32, {4, 1, 1, 1}), {1, 1, 2, 1},
                                            {0, 0, 1, 0}, {0, 0, 1, 0})),
            "exit:0");
}

// Block value 0 in SpaceToBatch / BatchToSpace (must_reject): does Arm NN crash?
TEST(ArmnnFindings, BlockShapeZero) {
  EXPECT_EQ(ProbeUnguarded(SpaceToBatchCase(Iota(ElementType::kF32, {1, 1, 2, 2}), {1, 1, 0, 1},
                                            {0, 0, 0, 0}, {0, 0, 0, 0})),
            kSigfpe);
  EXPECT_EQ(ProbeUnguarded(BatchToSpaceCase(Iota(ElementType::kF32, {2, 1, 1, 1}), {1, 1, 0, 1},
                                            {0, 0, 0, 0}, {0, 0, 0, 0})),
            kSigfpe);
}

// F12: DepthToSpace of a zero-sized input (valid; the output is zero-sized too) crashes Arm NN:
// batch 0 with SIGFPE, a zero C, H or W with an assert in its permute. SpaceToDepth,
// SpaceToBatch and BatchToSpace of zero-sized inputs run.
TEST(ArmnnFindings, F12ZeroSizedDepthToSpaceCrashes) {
  const auto d2s = [](Shape s) {
    return DepthCase(Op::kDepthToSpace, *Tensor::Zeros(ElementType::kF32, std::move(s)), 2,
                     "blocks_first");
  };
  EXPECT_EQ(ProbeUnguarded(d2s({0, 8, 2, 3})), kSigfpe);
  EXPECT_EQ(ProbeUnguarded(d2s({1, 0, 2, 3})), kAbort);
  EXPECT_EQ(ProbeUnguarded(d2s({1, 8, 0, 3})), kAbort);
  EXPECT_EQ(ProbeUnguarded(d2s({1, 8, 2, 0})), kAbort);
  EXPECT_NE(ArmnnBackend::KnownCrash(d2s({1, 8, 0, 3})), "");
  // Controls: the other ops with a zero-sized input run and match the oracle (exit 0 here).
  const auto matches = [](const OpCase& c) {
    return RunInChild([&c] {
      ArmnnBackend b(ArmnnBackend::Options{.guard_known_crashes = false});
      return dmconf::testing::CompareWithOracle(b, c).empty() ? 0 : 1;
    });
  };
  EXPECT_EQ(matches(DepthCase(Op::kSpaceToDepth, *Tensor::Zeros(ElementType::kF32, {1, 2, 0, 6}), 2,
                              "blocks_first")),
            "exit:0");
  EXPECT_EQ(matches(SpaceToBatchCase(*Tensor::Zeros(ElementType::kF32, {0, 1, 2, 2}), {1, 1, 2, 2},
                                     {0, 0, 0, 0}, {0, 0, 0, 0})),
            "exit:0");
  EXPECT_EQ(matches(BatchToSpaceCase(*Tensor::Zeros(ElementType::kF32, {4, 1, 0, 2}), {1, 1, 2, 2},
                                     {0, 0, 0, 0}, {0, 0, 0, 0})),
            "exit:0");
}

// Other must_reject cases Arm NN refuses cleanly (an armnn::Exception): no guard needed.
TEST(ArmnnFindings, CleanRejections) {
  // S2D with H not divisible by the block; D2S with C not divisible by block^2; S2B whose padded
  // W is not divisible by the block.
  EXPECT_EQ(ProbeUnguarded(DepthCase(Op::kSpaceToDepth, Iota(ElementType::kF32, {1, 1, 3, 2}), 2,
                                     "blocks_first")),
            "exit:1");
  EXPECT_EQ(ProbeUnguarded(DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 6, 1, 1}), 2,
                                     "blocks_first")),
            "exit:1");
  EXPECT_EQ(ProbeUnguarded(SpaceToBatchCase(Iota(ElementType::kF32, {1, 1, 2, 3}), {1, 1, 1, 2},
                                            {0, 0, 0, 0}, {0, 0, 0, 0})),
            "exit:1");
}

armnn::IRuntimePtr MakeRuntime() {
  return armnn::IRuntime::Create(armnn::IRuntime::CreationOptions());
}

// F4: CpuRef's support query says yes to rank 3 and rank 5, which Arm NN cannot build.
TEST(ArmnnFindings, F4SupportQueryAcceptsRanksItCannotRun) {
  armnn::IRuntimePtr runtime = MakeRuntime();  // the CpuRef layer support exists only after this
  std::shared_ptr<armnn::ILayerSupport> support =
      armnn::GetILayerSupportByBackendId(armnn::Compute::CpuRef);
  ASSERT_NE(support, nullptr);
  const armnn::SpaceToDepthDescriptor d(2, armnn::DataLayout::NCHW);
  const armnn::TensorInfo in3({1, 4, 4}, armnn::DataType::Float32);
  const armnn::TensorInfo out3({4, 2, 2}, armnn::DataType::Float32);
  const armnn::TensorInfo in5({1, 1, 4, 4, 4}, armnn::DataType::Float32);
  const armnn::TensorInfo out5({1, 4, 2, 2, 4}, armnn::DataType::Float32);
  EXPECT_TRUE(support->IsSpaceToDepthSupported(in3, out3, d));
  EXPECT_TRUE(support->IsSpaceToDepthSupported(in5, out5, d));
  EXPECT_TRUE(support->IsDepthToSpaceSupported(out3, in3, d));

  // Building and loading such a network fails for both ranks (never runs).
  for (const armnn::TensorInfo& info : {in3, in5}) {
    const std::string r = RunInChild([&info, &out3, &out5] {
      try {
        armnn::IRuntimePtr rt = MakeRuntime();
        armnn::INetworkPtr net = armnn::INetwork::Create();
        armnn::IConnectableLayer* in = net->AddInputLayer(0);
        armnn::IConnectableLayer* s2d =
            net->AddSpaceToDepthLayer(armnn::SpaceToDepthDescriptor(2, armnn::DataLayout::NCHW));
        armnn::IConnectableLayer* out = net->AddOutputLayer(0);
        in->GetOutputSlot(0).Connect(s2d->GetInputSlot(0));
        s2d->GetOutputSlot(0).Connect(out->GetInputSlot(0));
        in->GetOutputSlot(0).SetTensorInfo(info);
        s2d->GetOutputSlot(0).SetTensorInfo(info.GetNumDimensions() == 3 ? out3 : out5);
        armnn::IOptimizedNetworkPtr opt =
            armnn::Optimize(*net, {armnn::Compute::CpuRef}, rt->GetDeviceSpec());
        if (!opt) return 3;
        armnn::NetworkId id;
        return rt->LoadNetwork(id, std::move(opt)) == armnn::Status::Success ? 0 : 4;
      } catch (const armnn::Exception&) {
        return 1;
      }
    });
    // Rank 3: an armnn::Exception while building; rank 5: LoadNetwork fails.
    EXPECT_TRUE(r == "exit:1" || r == "exit:4") << info.GetNumDimensions() << "-D: " << r;
  }
}

// F5: QAsymmU8 SpaceToBatchNd pads with the quantisation zero point (the real value 0), where
// OpenVINO, which has no quantisation parameters, pads with raw 0. [1,1,1,1] = 9, block 2 on H,
// pads_begin H = 1: output [pad, 9].
std::vector<uint8_t> QuantizedSpaceToBatch(int32_t zero_point) {
  armnn::IRuntimePtr rt = MakeRuntime();
  armnn::INetworkPtr net = armnn::INetwork::Create();
  armnn::IConnectableLayer* in = net->AddInputLayer(0);
  armnn::SpaceToBatchNdDescriptor d({2, 1}, {{1, 0}, {0, 0}});
  d.m_DataLayout = armnn::DataLayout::NCHW;
  armnn::IConnectableLayer* s2b = net->AddSpaceToBatchNdLayer(d);
  armnn::IConnectableLayer* out = net->AddOutputLayer(0);
  in->GetOutputSlot(0).Connect(s2b->GetInputSlot(0));
  s2b->GetOutputSlot(0).Connect(out->GetInputSlot(0));
  const armnn::TensorInfo in_info({1, 1, 1, 1}, armnn::DataType::QAsymmU8, 1.0f, zero_point);
  const armnn::TensorInfo out_info({2, 1, 1, 1}, armnn::DataType::QAsymmU8, 1.0f, zero_point);
  in->GetOutputSlot(0).SetTensorInfo(in_info);
  s2b->GetOutputSlot(0).SetTensorInfo(out_info);
  armnn::NetworkId id;
  if (rt->LoadNetwork(id, armnn::Optimize(*net, {armnn::Compute::CpuRef}, rt->GetDeviceSpec())) !=
      armnn::Status::Success) {
    return {};
  }
  std::vector<uint8_t> input = {9}, output = {0xAA, 0xAA};
  armnn::InputTensors ins{{0, armnn::ConstTensor(rt->GetInputTensorInfo(id, 0), input.data())}};
  armnn::OutputTensors outs{{0, armnn::Tensor(rt->GetOutputTensorInfo(id, 0), output.data())}};
  if (rt->EnqueueWorkload(id, ins, outs) != armnn::Status::Success) return {};
  return output;
}

TEST(ArmnnFindings, F5QuantizedSpaceToBatchPadsWithZeroPoint) {
  EXPECT_EQ(QuantizedSpaceToBatch(5), (std::vector<uint8_t>{5, 9}));
  // Control: with zero point 0 (what the adapter uses) the pad is raw 0, as in OpenVINO.
  EXPECT_EQ(QuantizedSpaceToBatch(0), (std::vector<uint8_t>{0, 9}));
}

}  // namespace
}  // namespace dmconf

namespace dmconf {
namespace {

// F14: bf16 NaNs through SpaceToDepth, SpaceToBatchNd and BatchToSpaceNd come out as the default
// NaN 0x7FC0 (signalling and quiet alike); DepthToSpace keeps the bits. f16 and f32 keep them in
// all four ops (FloatBitsIncludingNanPayloadsMoveUnchanged in armnn_test.cc covers DepthToSpace).
TEST(ArmnnFindings, F14Bf16NansBecomeDefaultNan) {
  ArmnnBackend b;
  const auto first_two = [&b](OpCase c) {
    c.data.SetBits(0, 0x7F81);  // signalling
    c.data.SetBits(1, 0x7FC1);  // quiet, payload 1
    RunOutcome r = b.Run(c);
    std::vector<uint64_t> bits;
    if (r.kind != RunOutcome::Kind::kOutput) return bits;
    for (int64_t i = 0; i < r.output->NumElements(); ++i) {
      const uint64_t v = r.output->GetBits(i);
      if ((v & 0x7F80) == 0x7F80 && (v & 0x7F) != 0) bits.push_back(v);  // the NaNs
    }
    return bits;
  };
  const Tensor x = dmconf::testing::PositionTensor(ElementType::kBf16, {1, 1, 2, 2});
  const Tensor y = dmconf::testing::PositionTensor(ElementType::kBf16, {4, 1, 1, 1});
  const std::vector<uint64_t> replaced = {0x7FC0, 0x7FC0};
  EXPECT_EQ(first_two(DepthCase(Op::kSpaceToDepth, x, 2, "blocks_first")), replaced);
  EXPECT_EQ(first_two(SpaceToBatchCase(x, {1, 1, 2, 2}, {0, 0, 0, 0}, {0, 0, 0, 0})), replaced);
  EXPECT_EQ(first_two(BatchToSpaceCase(y, {1, 1, 2, 2}, {0, 0, 0, 0}, {0, 0, 0, 0})), replaced);
  const Tensor z = dmconf::testing::PositionTensor(ElementType::kBf16, {1, 4, 1, 1});
  EXPECT_EQ(first_two(DepthCase(Op::kDepthToSpace, z, 2, "blocks_first")),
            (std::vector<uint64_t>{0x7F81, 0x7FC1}));
  // Control: f16 NaN bits survive SpaceToDepth.
  OpCase f16 =
      DepthCase(Op::kSpaceToDepth, dmconf::testing::PositionTensor(ElementType::kF16, {1, 1, 2, 2}),
                2, "blocks_first");
  f16.data.SetBits(0, 0x7C01);
  EXPECT_EQ(dmconf::testing::CompareWithOracle(b, f16), "");
}

}  // namespace
}  // namespace dmconf

namespace dmconf {
namespace {

// Arm NN's layer shape inference alone (ArmnnBackend::InferStatic ->
// IConnectableLayer::InferOutputShapes), unguarded: the answer "[d0,d1,...]" or the refusal.
std::string InferUnguarded(const OpCase& c) {
  ArmnnBackend b(ArmnnBackend::Options{.guard_known_crashes = false});
  const ShapeOutcome s = b.InferStatic(PartialCase::FromStatic(c));
  if (s.kind != ShapeOutcome::Kind::kOutput) return "refused: " + s.message;
  return s.shape.ToString();
}

// F19: the layers' InferOutputShapes computes output shapes without the divisibility checks
// (those live in the workloads' validation), truncating 5 / 2 to 2; the spec makes all three
// cases must_reject. Answers derived by hand from Arm NN's formulas with truncating division:
//   SpaceToBatch [1,1,4,5], block [1,1,2,2]: [1*2*2, 1, 4/2, 5/2] = [4,1,2,2]
//   SpaceToDepth [1,1,4,5], block 2:         [1, 1*2*2, 4/2, 5/2] = [1,4,2,2]
//   DepthToSpace [1,6,4,5], block 2:         [1, 6/(2*2), 4*2, 5*2] = [1,1,8,10]
// BatchToSpace with a batch (3) not divisible by prod(block_shape) (4) trips an assert (abort),
// so it is probed in a child.
TEST(ArmnnFindings, F19LayerShapeInferenceSkipsDivisibility) {
  const Tensor x = Iota(ElementType::kF32, {1, 1, 4, 5});
  EXPECT_EQ(InferUnguarded(SpaceToBatchCase(x, {1, 1, 2, 2}, {0, 0, 0, 0}, {0, 0, 0, 0})),
            "[4,1,2,2]");
  EXPECT_EQ(InferUnguarded(DepthCase(Op::kSpaceToDepth, x, 2, "blocks_first")), "[1,4,2,2]");
  EXPECT_EQ(InferUnguarded(DepthCase(Op::kDepthToSpace, Iota(ElementType::kF32, {1, 6, 4, 5}), 2,
                                     "blocks_first")),
            "[1,1,8,10]");
  const OpCase b2s = BatchToSpaceCase(Iota(ElementType::kF32, {3, 1, 4, 5}), {1, 1, 2, 2},
                                      {0, 0, 0, 0}, {0, 0, 0, 0});
  EXPECT_EQ(RunInChild([&b2s] {
              ArmnnBackend b(ArmnnBackend::Options{.guard_known_crashes = false});
              return static_cast<int>(b.InferStatic(PartialCase::FromStatic(b2s)).kind);
            }),
            kAbort);
  // Control: a divisible case gets the spec's shape (6 / 2 = 3).
  EXPECT_EQ(InferUnguarded(SpaceToBatchCase(Iota(ElementType::kF32, {1, 1, 4, 6}), {1, 1, 2, 2},
                                            {0, 0, 0, 0}, {0, 0, 0, 0})),
            "[4,1,2,3]");
}

}  // namespace
}  // namespace dmconf
