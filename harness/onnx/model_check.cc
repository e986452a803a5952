#include "harness/onnx/model_check.h"

#include <exception>

#include "absl/strings/str_cat.h"
#include "onnx/checker.h"
#include "onnx/shape_inference/implementation.h"

namespace dmconf::onnx_io {

absl::Status CheckOnnxModel(const ::onnx::ModelProto& m) {
  try {
    ::onnx::checker::check_model(m);
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("onnx.checker: ", e.what()));
  }
  try {
    ::onnx::ModelProto inferred = m;
    const ::onnx::ShapeInferenceOptions strict(/*check_type_val=*/true, /*strict_mode_val=*/1,
                                               /*data_prop_val=*/true);
    ::onnx::shape_inference::InferShapes(inferred, ::onnx::OpSchemaRegistry::Instance(), strict);
  } catch (const std::exception& e) {
    return absl::InvalidArgumentError(absl::StrCat("onnx.shape_inference: ", e.what()));
  }
  return absl::OkStatus();
}

}  // namespace dmconf::onnx_io
