#include "harness/backends/opencv/onnx_model.h"

namespace dmconf::onnx {

namespace {

void Varint(std::string* out, uint64_t v) {
  do {
    uint8_t b = v & 0x7F;
    v >>= 7;
    if (v != 0) b |= 0x80;
    out->push_back(static_cast<char>(b));
  } while (v != 0);
}

void Key(std::string* out, int field, int wire) {
  Varint(out, (static_cast<uint64_t>(field) << 3) | wire);
}

void IntField(std::string* out, int field, int64_t v) {
  Key(out, field, 0);
  Varint(out, static_cast<uint64_t>(v));
}

void BytesField(std::string* out, int field, const std::string& payload) {
  Key(out, field, 2);
  Varint(out, payload.size());
  out->append(payload);
}

// ValueInfoProto{name, type: TypeProto{tensor_type: {elem_type, shape: {dim: {dim_value}}}}}.
std::string ValueInfo(const std::string& name, int elem_type, const std::vector<int64_t>& shape) {
  std::string dims;
  for (int64_t d : shape) {
    std::string dim;
    IntField(&dim, 1, d);
    BytesField(&dims, 1, dim);
  }
  std::string tensor_type;
  IntField(&tensor_type, 1, elem_type);
  BytesField(&tensor_type, 2, dims);
  std::string type;
  BytesField(&type, 1, tensor_type);
  std::string vi;
  BytesField(&vi, 1, name);
  BytesField(&vi, 2, type);
  return vi;
}

}  // namespace

std::string SingleNodeOnnxModel(const std::string& op_type,
                                const std::vector<std::pair<std::string, int64_t>>& int_attrs,
                                const std::vector<std::pair<std::string, std::string>>& str_attrs,
                                int elem_type, const std::vector<int64_t>& in_shape,
                                const std::vector<int64_t>& out_shape, int opset) {
  std::string node;
  BytesField(&node, 1, "x");
  BytesField(&node, 2, "y");
  BytesField(&node, 4, op_type);
  for (const auto& [name, v] : int_attrs) {
    std::string a;
    BytesField(&a, 1, name);
    IntField(&a, 3, v);
    IntField(&a, 20, 2);  // AttributeType INT
    BytesField(&node, 5, a);
  }
  for (const auto& [name, v] : str_attrs) {
    std::string a;
    BytesField(&a, 1, name);
    BytesField(&a, 4, v);
    IntField(&a, 20, 3);  // AttributeType STRING
    BytesField(&node, 5, a);
  }
  std::string graph;
  BytesField(&graph, 1, node);
  BytesField(&graph, 2, "dmconf");
  BytesField(&graph, 11, ValueInfo("x", elem_type, in_shape));
  BytesField(&graph, 12, ValueInfo("y", elem_type, out_shape));
  std::string opset_id;
  BytesField(&opset_id, 1, "");
  IntField(&opset_id, 2, opset);
  std::string model;
  IntField(&model, 1, 8);  // ir_version
  BytesField(&model, 8, opset_id);
  BytesField(&model, 7, graph);
  return model;
}

}  // namespace dmconf::onnx
