// Checks a model with the ONNX library: onnx::checker::check_model, then strict shape
// inference (onnx::shape_inference::InferShapes with type checks and error mode 1), which fails
// when a node's inferred output contradicts a declared type or shape, the graph output's among
// them.
//
// Example:
//   absl::Status s = CheckOnnxModel(model);   // "onnx.checker: ..." on failure
#ifndef DMCONF_HARNESS_ONNX_MODEL_CHECK_H_
#define DMCONF_HARNESS_ONNX_MODEL_CHECK_H_

#include "absl/status/status.h"
#include "onnx/onnx_pb.h"

namespace dmconf::onnx_io {

// Errors: "onnx.checker: <the checker's message>", "onnx.shape_inference: <message>".
absl::Status CheckOnnxModel(const ::onnx::ModelProto& m);

}  // namespace dmconf::onnx_io

#endif  // DMCONF_HARNESS_ONNX_MODEL_CHECK_H_
