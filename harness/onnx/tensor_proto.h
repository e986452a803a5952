// dmconf tensors <-> ONNX TensorProto (the generated class of onnx.proto).
//
// Written: dims, data_type (onnx_types.h), name, and the elements in raw_data (little-endian,
// one byte per boolean), as ONNX's own node tests store them. Read: raw_data for every type
// with an OpenVINO match, or float_data for FLOAT; at most 64 dims; the byte count must match.
//
// Example:
//   absl::StatusOr<onnx::TensorProto> p = TensorToProto(t, "data");
//   absl::StatusOr<Tensor> back = TensorFromProto(*p, "input_0.pb");   // back == t
#ifndef DMCONF_HARNESS_ONNX_TENSOR_PROTO_H_
#define DMCONF_HARNESS_ONNX_TENSOR_PROTO_H_

#include <string>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "onnx/onnx_pb.h"
#include "oracle/tensor.h"

namespace dmconf::onnx_io {

// Error "onnx.data_type: ..." when ONNX has no type for t.type.
absl::StatusOr<::onnx::TensorProto> TensorToProto(const Tensor& t, const std::string& name);

// Errors name `file` and a rule: onnx.data_type (no OpenVINO match), onnx.tensor.storage (data
// outside raw_data / float_data, external data), onnx.tensor.shape (negative dims, more than 64,
// too many elements), onnx.tensor.size (the data does not match the shape).
absl::StatusOr<Tensor> TensorFromProto(const ::onnx::TensorProto& p, absl::string_view file);

}  // namespace dmconf::onnx_io

#endif  // DMCONF_HARNESS_ONNX_TENSOR_PROTO_H_
