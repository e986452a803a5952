// Building ONNX models with the generated classes of onnx.proto: the model header, typed and
// shaped graph inputs and outputs, nodes with attributes, int64 initializers, and the
// single-node model the OpenCV adapter loads.
//
// Example:
//   onnx::ModelProto m = SingleNodeModel("DepthToSpace", {{"blocksize", 2}}, {{"mode", "DCR"}},
//                                        onnx::TensorProto::FLOAT, {1, 8, 2, 3}, {1, 2, 4, 6}, 13);
//   std::string bytes = m.SerializeAsString();
#ifndef DMCONF_HARNESS_ONNX_MODEL_BUILDER_H_
#define DMCONF_HARNESS_ONNX_MODEL_BUILDER_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "onnx/onnx_pb.h"

namespace dmconf::onnx_io {

// IR version 8 (ONNX 1.10-1.12) and default-domain opset 14 (Reshape-14 for allowzero; the
// other ops used keep their opset-13 definitions there).
inline constexpr int64_t kOnnxIrVersion = 8;
inline constexpr int64_t kOnnxOpset = 14;

// A model (producer "dmconf") with an empty graph, importing the default domain at `opset`.
::onnx::ModelProto NewModel(const std::string& graph_name, int64_t opset);

// Appends a graph input or output of the given data type and static shape.
void AddInput(::onnx::GraphProto* g, const std::string& name, int32_t data_type,
              const std::vector<int64_t>& shape);
void AddOutput(::onnx::GraphProto* g, const std::string& name, int32_t data_type,
               const std::vector<int64_t>& shape);

// Appends a node of the default domain.
::onnx::NodeProto* AddNode(::onnx::GraphProto* g, const std::string& op_type,
                           const std::vector<std::string>& inputs,
                           const std::vector<std::string>& outputs);
void SetAttribute(::onnx::NodeProto* n, const std::string& name, int64_t value);
void SetAttribute(::onnx::NodeProto* n, const std::string& name, const std::string& value);
void SetAttribute(::onnx::NodeProto* n, const std::string& name,
                  const std::vector<int64_t>& values);

// Appends a 1-D int64 initializer (raw_data, little-endian).
void AddInt64Initializer(::onnx::GraphProto* g, const std::string& name,
                         const std::vector<int64_t>& values);

// One node `op_type` from input "x" to output "y" of type `data_type`, with integer and string
// attributes; graph "dmconf".
::onnx::ModelProto SingleNodeModel(
    const std::string& op_type, const std::vector<std::pair<std::string, int64_t>>& int_attrs,
    const std::vector<std::pair<std::string, std::string>>& str_attrs, int32_t data_type,
    const std::vector<int64_t>& in_shape, const std::vector<int64_t>& out_shape, int64_t opset);

}  // namespace dmconf::onnx_io

#endif  // DMCONF_HARNESS_ONNX_MODEL_BUILDER_H_
