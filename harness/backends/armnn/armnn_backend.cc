#include "harness/backends/armnn/armnn_backend.h"

#include <armnn/ArmNN.hpp>
#include <cstring>
#include <exception>
#include <limits>
#include <vector>

#include "absl/strings/str_cat.h"

namespace dmconf {

namespace {

constexpr int64_t kMaxDim = std::numeric_limits<int32_t>::max();

// The Arm NN type that carries an element type's bits unchanged (see the header).
std::optional<armnn::DataType> CarrierType(ElementType t) {
  switch (t) {
    case ElementType::kF32:
    case ElementType::kI32:
    case ElementType::kU32:
      return armnn::DataType::Float32;
    case ElementType::kF16:
      return armnn::DataType::Float16;
    case ElementType::kBf16:
      return armnn::DataType::BFloat16;
    case ElementType::kU8:
    case ElementType::kBoolean:
    case ElementType::kF8e4m3:
    case ElementType::kF8e5m2:
    case ElementType::kF8e8m0:
      return armnn::DataType::QAsymmU8;
    case ElementType::kI8:
      return armnn::DataType::QAsymmS8;
    case ElementType::kI16:
    case ElementType::kU16:
      return armnn::DataType::QSymmS16;
    default:
      return std::nullopt;
  }
}

bool IsQuantized(armnn::DataType t) {
  return t == armnn::DataType::QAsymmU8 || t == armnn::DataType::QAsymmS8 ||
         t == armnn::DataType::QSymmS16;
}

// Values of the three integer inputs of SpaceToBatch / BatchToSpace; empty on any problem
// (wrong count, unreadable value), which the caller reports as unsupported.
std::optional<std::vector<std::vector<int64_t>>> IntInputs(const OpCase& c) {
  if (c.int_inputs.size() != 3) return std::nullopt;
  std::vector<std::vector<int64_t>> out;
  for (const Tensor& t : c.int_inputs) {
    if (!IsIntegerType(t.type) || t.shape.size() != 1 || !t.Validate("input").ok()) {
      return std::nullopt;
    }
    std::vector<int64_t> v;
    for (int64_t i = 0; i < t.NumElements(); ++i) {
      std::optional<int64_t> x = t.GetInteger(i);
      if (!x.has_value()) return std::nullopt;
      v.push_back(*x);
    }
    out.push_back(std::move(v));
  }
  return out;
}

armnn::TensorInfo Info(const Shape& shape, armnn::DataType type) {
  std::vector<unsigned int> dims(shape.begin(), shape.end());
  const bool q = IsQuantized(type);
  return armnn::TensorInfo(static_cast<unsigned int>(dims.size()), dims.data(), type,
                           q ? 1.0f : 0.0f, 0);
}

// The Arm NN layer of a case (SpaceToDepth / DepthToSpace / SpaceToBatchNd / BatchToSpaceNd,
// NCHW), added to `net`; the case must be one Unsupported() accepts.
armnn::IConnectableLayer* AddLayer(armnn::INetwork& net, const OpCase& c) {
  if (c.op == Op::kSpaceToDepth || c.op == Op::kDepthToSpace) {
    armnn::SpaceToDepthDescriptor d(static_cast<unsigned int>(c.block_size.value_or(1)),
                                    armnn::DataLayout::NCHW);
    return c.op == Op::kSpaceToDepth ? net.AddSpaceToDepthLayer(d) : net.AddDepthToSpaceLayer(d);
  }
  const std::vector<std::vector<int64_t>> in = *IntInputs(c);
  std::vector<unsigned int> block = {static_cast<unsigned int>(in[0][2]),
                                     static_cast<unsigned int>(in[0][3])};
  std::vector<std::pair<unsigned int, unsigned int>> pads;
  for (int i = 2; i < 4; ++i) {
    pads.emplace_back(static_cast<unsigned int>(in[1][i]), static_cast<unsigned int>(in[2][i]));
  }
  if (c.op == Op::kSpaceToBatch) {
    armnn::SpaceToBatchNdDescriptor d(block, pads);
    d.m_DataLayout = armnn::DataLayout::NCHW;
    return net.AddSpaceToBatchNdLayer(d);
  }
  armnn::BatchToSpaceNdDescriptor d(block, pads);
  d.m_DataLayout = armnn::DataLayout::NCHW;
  return net.AddBatchToSpaceNdLayer(d);
}

// The one-layer network of a case: input, the op's layer, output. The output shape is left to
// Arm NN's own shape inference: rank 4, dims not specified.
armnn::INetworkPtr BuildNetwork(const OpCase& c, armnn::DataType type) {
  armnn::BackendOptions infer("ShapeInferenceMethod", {{"InferAndValidate", true}});
  armnn::INetworkPtr net = armnn::INetwork::Create({infer});
  armnn::IConnectableLayer* input = net->AddInputLayer(0);
  armnn::IConnectableLayer* layer = AddLayer(*net, c);
  armnn::IConnectableLayer* output = net->AddOutputLayer(0);
  input->GetOutputSlot(0).Connect(layer->GetInputSlot(0));
  layer->GetOutputSlot(0).Connect(output->GetInputSlot(0));
  input->GetOutputSlot(0).SetTensorInfo(Info(c.data.shape, type));
  const bool dims_unknown[4] = {false, false, false, false};
  const unsigned int zeros[4] = {0, 0, 0, 0};
  layer->GetOutputSlot(0).SetTensorInfo(armnn::TensorInfo(
      armnn::TensorShape(4, zeros, dims_unknown), type, IsQuantized(type) ? 1.0f : 0.0f, 0));
  return net;
}

// Runs a loaded network on the case's data; unloads it.
RunOutcome RunLoaded(armnn::IRuntime& runtime, armnn::NetworkId id, const OpCase& c) {
  const armnn::TensorInfo out_info = runtime.GetOutputTensorInfo(id, 0);
  Shape out_shape;
  for (unsigned int i = 0; i < out_info.GetNumDimensions(); ++i) {
    out_shape.push_back(out_info.GetShape()[i]);
  }
  // Arm NN writes into this buffer itself: a pattern, not zeros, so unwritten padding shows.
  absl::StatusOr<Tensor> out = PatternFilledOutput(c.data.type, out_shape);
  if (!out.ok()) {
    runtime.UnloadNetwork(id);
    return RunOutcome::Of(
        RunOutcome::Kind::kRejected,
        absl::StrCat("Arm NN inferred an unusable output shape: ", out.status().message()));
  }
  if (static_cast<size_t>(out_info.GetNumBytes()) != out->bytes.size()) {
    runtime.UnloadNetwork(id);
    return RunOutcome::Of(RunOutcome::Kind::kRejected,
                          "Arm NN output byte size differs from its shape");
  }
  armnn::InputTensors inputs{
      {0, armnn::ConstTensor(runtime.GetInputTensorInfo(id, 0), c.data.bytes.data())}};
  armnn::OutputTensors outputs{{0, armnn::Tensor(out_info, out->bytes.data())}};
  const armnn::Status st = runtime.EnqueueWorkload(id, inputs, outputs);
  runtime.UnloadNetwork(id);
  if (st != armnn::Status::Success) {
    return RunOutcome::Of(RunOutcome::Kind::kRejected, "EnqueueWorkload failed");
  }
  RunOutcome r;
  r.kind = RunOutcome::Kind::kOutput;
  r.output = std::move(*out);
  return r;
}

}  // namespace

struct ArmnnBackend::Runtime {
  armnn::IRuntimePtr runtime{nullptr, &armnn::IRuntime::Destroy};
};

ArmnnBackend::ArmnnBackend() : ArmnnBackend(Options{}) {}
ArmnnBackend::ArmnnBackend(Options options) : options_(options) {}
ArmnnBackend::~ArmnnBackend() = default;

Capabilities ArmnnBackend::GetCapabilities() const {
  const std::set<ElementType> types = {
      ElementType::kF32,    ElementType::kI32,    ElementType::kU32,     ElementType::kF16,
      ElementType::kBf16,   ElementType::kU8,     ElementType::kBoolean, ElementType::kF8e4m3,
      ElementType::kF8e5m2, ElementType::kF8e8m0, ElementType::kI8,      ElementType::kI16,
      ElementType::kU16};
  Capabilities caps;
  caps.infer_static = true;  // the layers' InferOutputShapes
  caps.ops.push_back({Op::kSpaceToBatch,
                      types,
                      4,
                      4,
                      {},
                      "NCHW; block_shape, pads on H and W only (block_shape[0..1] = 1, "
                      "pads[0..1] = 0)"});
  caps.ops.push_back(
      {Op::kBatchToSpace, types, 4, 4, {}, "NCHW; block_shape, crops on H and W only"});
  caps.ops.push_back({Op::kSpaceToDepth, types, 4, 4, {"blocks_first"}, "NCHW"});
  caps.ops.push_back({Op::kDepthToSpace, types, 4, 4, {"blocks_first"}, "NCHW"});
  return caps;
}

std::string ArmnnBackend::Unsupported(const OpCase& c, const Capabilities& declared,
                                      bool with_data) const {
  if (!CapabilitiesSupport(declared, c)) {
    return "outside the capability table (op, element type, rank 4, mode)";
  }
  if (with_data && !c.data.Validate("data").ok()) return "malformed data tensor";
  for (int64_t d : c.data.shape) {
    if (d > kMaxDim) return "a dim does not fit Arm NN's unsigned int dims";
  }
  if (c.op == Op::kSpaceToDepth || c.op == Op::kDepthToSpace) {
    if (!c.mode.has_value())
      return "Arm NN has no mode attribute, so a missing mode cannot be passed";
    const int64_t b = c.block_size.value_or(1);
    if (b < 0 || b > kMaxDim) return "block_size does not fit Arm NN's unsigned int";
    return "";
  }
  std::optional<std::vector<std::vector<int64_t>>> in = IntInputs(c);
  if (!in.has_value())
    return "block_shape / pads / crops are not three readable 1-D integer tensors";
  for (size_t k = 0; k < in->size(); ++k) {
    const std::vector<int64_t>& v = (*in)[k];
    if (v.size() != 4) return "block_shape / pads / crops do not have 4 values";
    const int64_t neutral = k == 0 ? 1 : 0;  // block 1, pad / crop 0
    if (v[0] != neutral || v[1] != neutral) {
      return "Arm NN blocks, pads and crops H and W only (batch and channel entries must be "
             "1 for blocks, 0 for pads and crops)";
    }
    for (int64_t x : v) {
      if (x < 0 || x > kMaxDim)
        return "a negative or huge value Arm NN's unsigned ints cannot hold";
    }
  }
  return "";
}

bool ArmnnBackend::Supports(const OpCase& c, const Capabilities& declared) const {
  return Unsupported(c, declared).empty();
}

std::string ArmnnBackend::KnownCrash(const OpCase& c) {
  if (c.op == Op::kSpaceToDepth || c.op == Op::kDepthToSpace) {
    if (c.block_size.value_or(1) == 0) {
      return "block_size 0 divides by zero in Arm NN's shape inference (SIGFPE)";
    }
    if (c.op == Op::kDepthToSpace) {
      for (int64_t d : c.data.shape) {
        if (d == 0) {
          return "a zero-sized DepthToSpace input divides by zero (batch 0: SIGFPE) or trips an "
                 "assert in Arm NN's permute (abort)";
        }
      }
    }
    return "";
  }
  std::optional<std::vector<std::vector<int64_t>>> in = IntInputs(c);
  if (!in.has_value() || c.data.shape.size() != 4) return "";
  const std::vector<int64_t>& block = (*in)[0];
  if (block.size() != 4) return "";
  for (int64_t b : block) {
    if (b == 0) return "a block_shape value 0 divides by zero in Arm NN";
  }
  if (c.op == Op::kBatchToSpace) {
    const int64_t prod = block[2] * block[3];
    if (c.data.shape[0] % prod != 0) {
      return "batch not divisible by the block product trips an assert in Arm NN (abort)";
    }
    for (int i = 2; i < 4; ++i) {
      if ((*in)[1][i] + (*in)[2][i] > block[i] * c.data.shape[i]) {
        return "crops larger than the block-expanded size trip an assert in Arm NN (abort)";
      }
    }
  }
  return "";
}

RunOutcome ArmnnBackend::Run(const OpCase& c) {
  if (std::string why = Unsupported(c, GetCapabilities()); !why.empty()) {
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported, why);
  }
  if (options_.guard_known_crashes) {
    if (std::string why = KnownCrash(c); !why.empty()) {
      return RunOutcome::Of(RunOutcome::Kind::kUnsupported,
                            absl::StrCat("not run in-process, Arm NN is known to crash: ", why));
    }
  }
  const armnn::DataType type = *CarrierType(c.data.type);
  try {
    if (runtime_ == nullptr) {
      runtime_ = std::make_unique<Runtime>();
      runtime_->runtime = armnn::IRuntime::Create(armnn::IRuntime::CreationOptions());
    }
    armnn::INetworkPtr net = BuildNetwork(c, type);

    armnn::OptimizerOptions opts;
    opts.m_shapeInferenceMethod = armnn::ShapeInferenceMethod::InferAndValidate;
    std::vector<std::string> messages;
    armnn::IOptimizedNetworkPtr opt =
        armnn::Optimize(*net, {armnn::Compute::CpuRef}, runtime_->runtime->GetDeviceSpec(), opts,
                        armnn::Optional<std::vector<std::string>&>(messages));
    if (!opt) {
      std::string m = "Optimize failed";
      for (const std::string& s : messages) absl::StrAppend(&m, ": ", s);
      return RunOutcome::Of(RunOutcome::Kind::kRejected, m);
    }
    armnn::NetworkId id = 0;
    std::string load_error;
    armnn::INetworkProperties props;
    if (runtime_->runtime->LoadNetwork(id, std::move(opt), load_error, props) !=
        armnn::Status::Success) {
      return RunOutcome::Of(RunOutcome::Kind::kRejected,
                            absl::StrCat("LoadNetwork failed: ", load_error));
    }
    return RunLoaded(*runtime_->runtime, id, c);
  } catch (const std::exception& e) {
    return RunOutcome::Of(RunOutcome::Kind::kRejected, absl::StrCat("armnn: ", e.what()));
  }
}

ShapeOutcome ArmnnBackend::InferStatic(const PartialCase& p) {
  ShapeOutcome out;
  auto refuse = [&out](ShapeOutcome::Kind kind, std::string why) {
    out.kind = kind;
    out.message = std::move(why);
    return out;
  };
  absl::StatusOr<OpCase> shape_only = p.ToShapeOnlyCase();
  if (!shape_only.ok()) return refuse(ShapeOutcome::Kind::kUnsupported, "not a static case");
  const OpCase& c = *shape_only;
  if (std::string why = Unsupported(c, GetCapabilities(), /*with_data=*/false); !why.empty()) {
    return refuse(ShapeOutcome::Kind::kUnsupported, why);
  }
  // Arm NN counts elements in an unsigned int (TensorShape::GetNumElements).
  uint64_t elements = 1;
  for (int64_t d : c.data.shape) {
    elements *= static_cast<uint64_t>(d);  // each d <= 2^31 - 1: no wrap before the check
    if (elements > std::numeric_limits<unsigned int>::max()) {
      return refuse(ShapeOutcome::Kind::kUnsupported,
                    "more elements than Arm NN's unsigned int element count holds");
    }
  }
  if (options_.guard_known_crashes) {
    if (std::string why = KnownCrash(c); !why.empty()) {
      return refuse(ShapeOutcome::Kind::kUnsupported,
                    absl::StrCat("not asked in-process, Arm NN is known to crash: ", why));
    }
  }
  try {
    armnn::INetworkPtr net = armnn::INetwork::Create();
    armnn::IConnectableLayer* layer = AddLayer(*net, c);
    std::vector<unsigned int> dims(c.data.shape.begin(), c.data.shape.end());
    const std::vector<armnn::TensorShape> shapes = layer->InferOutputShapes(
        {armnn::TensorShape(static_cast<unsigned int>(dims.size()), dims.data())});
    if (shapes.size() != 1) {
      return refuse(ShapeOutcome::Kind::kRejected,
                    absl::StrCat("Arm NN inferred ", shapes.size(), " output shapes"));
    }
    std::vector<Dim> result;
    for (unsigned int i = 0; i < shapes[0].GetNumDimensions(); ++i) {
      result.push_back(Dim::Exact(shapes[0][i]));
    }
    out.kind = ShapeOutcome::Kind::kOutput;
    out.shape = PartialShape::Of(std::move(result));
    out.type = c.data.type;  // bits carried unchanged (see the header)
    return out;
  } catch (const std::exception& e) {
    return refuse(ShapeOutcome::Kind::kRejected, absl::StrCat("armnn: ", e.what()));
  }
}

std::unique_ptr<Backend> MakeArmnnBackend() { return std::make_unique<ArmnnBackend>(); }

std::unique_ptr<Backend> MakeArmnnBackendUnguarded() {
  return std::make_unique<ArmnnBackend>(ArmnnBackend::Options{.guard_known_crashes = false});
}

}  // namespace dmconf
