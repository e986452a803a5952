// A minimal ONNX ModelProto encoder: one node with integer and string attributes, a typed and
// shaped input "x" and output "y". Field numbers are those of onnx.proto; no protobuf library.
//
// Example:
//   std::string bytes = SingleNodeOnnxModel("DepthToSpace", {{"blocksize", 2}}, {{"mode", "DCR"}},
//                                           /*elem_type=*/1, {1, 8, 2, 3}, {1, 2, 4, 6}, 13);
#ifndef DMCONF_HARNESS_BACKENDS_OPENCV_ONNX_MODEL_H_
#define DMCONF_HARNESS_BACKENDS_OPENCV_ONNX_MODEL_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace dmconf::onnx {

std::string SingleNodeOnnxModel(const std::string& op_type,
                                const std::vector<std::pair<std::string, int64_t>>& int_attrs,
                                const std::vector<std::pair<std::string, std::string>>& str_attrs,
                                int elem_type, const std::vector<int64_t>& in_shape,
                                const std::vector<int64_t>& out_shape, int opset);

}  // namespace dmconf::onnx

#endif  // DMCONF_HARNESS_BACKENDS_OPENCV_ONNX_MODEL_H_
