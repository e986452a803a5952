// A reference evaluator, for tests only, of the ONNX operators that exported models use:
// Cast (integer to int64), Concat, Pad (constant 0), Reshape, Transpose, Slice (positive
// steps), Sub (int64), DepthToSpace (DCR, CRD) and SpaceToDepth, each written from the ONNX
// operator documentation (opset 13/14), not from the oracle. It runs a model's nodes in order
// on the given input, so a test can check that an exported graph computes the expected output.
//
// Example:
//   absl::StatusOr<Tensor> y = RunOnnxModel(model, x);   // x feeds the graph's first input
#ifndef DMCONF_CONFORMANCE_VECTORS_ONNX_REFERENCE_H_
#define DMCONF_CONFORMANCE_VECTORS_ONNX_REFERENCE_H_

#include "absl/status/statusor.h"
#include "onnx/onnx_pb.h"
#include "oracle/tensor.h"

namespace dmconf::testing {

absl::StatusOr<Tensor> RunOnnxModel(const ::onnx::ModelProto& model, const Tensor& input);

}  // namespace dmconf::testing

#endif  // DMCONF_CONFORMANCE_VECTORS_ONNX_REFERENCE_H_
