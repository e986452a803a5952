#include "harness/backends/opencv/opencv_backend.h"

#include <cstring>
#include <exception>
#include <limits>
#include <opencv2/core/utils/logger.hpp>
#include <opencv2/dnn.hpp>

#include "absl/strings/str_cat.h"
#include "harness/onnx/model_builder.h"

namespace dmconf {

Capabilities OpencvBackend::GetCapabilities() const {
  Capabilities caps;
  caps.ops.push_back({Op::kDepthToSpace,
                      {ElementType::kF32},
                      4,
                      4,
                      {"blocks_first", "depth_first"},
                      "ONNX DepthToSpace DCR / CRD; NCHW"});
  caps.ops.push_back({Op::kSpaceToDepth,
                      {ElementType::kF32},
                      4,
                      4,
                      {"blocks_first"},
                      "ONNX SpaceToDepth (blocks_first only); NCHW"});
  return caps;
}

RunOutcome OpencvBackend::Run(const OpCase& c) {
  if (!Supports(c))
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported, "outside the capability table");
  if (!c.mode.has_value()) {
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported,
                          "no mode: ONNX would apply its default (DCR), OpenVINO requires a mode");
  }
  if (!c.data.Validate("data").ok())
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported, "malformed data");
  for (int64_t d : c.data.shape) {
    if (d > std::numeric_limits<int>::max()) {
      return RunOutcome::Of(RunOutcome::Kind::kUnsupported, "a dim does not fit OpenCV's int");
    }
  }
  const int64_t b = c.block_size.value_or(1);
  if (b < std::numeric_limits<int>::min() || b > std::numeric_limits<int>::max()) {
    return RunOutcome::Of(RunOutcome::Kind::kUnsupported, "block_size does not fit an int");
  }
  const Shape& s = c.data.shape;
  const bool d2s = c.op == Op::kDepthToSpace;
  // The declared output shape; the importer builds its reshapes from it and the input shape.
  Shape out = d2s ? Shape{s[0], b > 0 ? s[1] / (b * b) : s[1], s[2] * b, s[3] * b}
                  : Shape{s[0], s[1] * b * b, b > 0 ? s[2] / b : s[2], b > 0 ? s[3] / b : s[3]};
  std::vector<std::pair<std::string, std::string>> str_attrs;
  if (d2s) {
    // An unknown OpenVINO mode is passed by name for OpenCV to refuse.
    str_attrs.push_back({"mode", *c.mode == "blocks_first"  ? std::string("DCR")
                                 : *c.mode == "depth_first" ? std::string("CRD")
                                                            : *c.mode});
  }
  const std::string model =
      onnx_io::SingleNodeModel(d2s ? "DepthToSpace" : "SpaceToDepth", {{"blocksize", b}}, str_attrs,
                               ::onnx::TensorProto::FLOAT, s, out, 13)
          .SerializeAsString();
  try {
    cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
    cv::dnn::Net net = cv::dnn::readNetFromONNX(model.data(), model.size());
    const std::vector<int> dims(s.begin(), s.end());
    cv::Mat input(static_cast<int>(dims.size()), dims.data(), CV_32F);
    if (!c.data.bytes.empty()) std::memcpy(input.data, c.data.bytes.data(), c.data.bytes.size());
    net.setInput(input);
    cv::Mat y = net.forward();
    if (y.type() != CV_32F) return RunOutcome::Of(RunOutcome::Kind::kRejected, "non-f32 output");
    Shape shape;
    for (int i = 0; i < y.dims; ++i) shape.push_back(y.size[i]);
    absl::StatusOr<Tensor> t = Tensor::Zeros(ElementType::kF32, shape);
    if (!t.ok())
      return RunOutcome::Of(RunOutcome::Kind::kRejected, std::string(t.status().message()));
    if (!y.isContinuous() || y.total() * y.elemSize() != t->bytes.size()) {
      return RunOutcome::Of(RunOutcome::Kind::kRejected, "unexpected output layout");
    }
    if (!t->bytes.empty()) std::memcpy(t->bytes.data(), y.data, t->bytes.size());
    RunOutcome r;
    r.output = std::move(*t);
    return r;
  } catch (const std::exception& e) {
    return RunOutcome::Of(RunOutcome::Kind::kRejected, absl::StrCat("opencv: ", e.what()));
  }
}

std::unique_ptr<Backend> MakeOpencvBackend() { return std::make_unique<OpencvBackend>(); }

}  // namespace dmconf
