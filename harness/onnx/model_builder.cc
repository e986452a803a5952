#include "harness/onnx/model_builder.h"

namespace dmconf::onnx_io {
namespace {

void SetValueInfo(::onnx::ValueInfoProto* vi, const std::string& name, int32_t data_type,
                  const std::vector<int64_t>& shape) {
  vi->set_name(name);
  ::onnx::TypeProto_Tensor* t = vi->mutable_type()->mutable_tensor_type();
  t->set_elem_type(data_type);
  ::onnx::TensorShapeProto* s = t->mutable_shape();
  for (int64_t d : shape) s->add_dim()->set_dim_value(d);
}

}  // namespace

::onnx::ModelProto NewModel(const std::string& graph_name, int64_t opset) {
  ::onnx::ModelProto m;
  m.set_ir_version(kOnnxIrVersion);
  m.set_producer_name("dmconf");
  ::onnx::OperatorSetIdProto* o = m.add_opset_import();
  o->set_domain("");
  o->set_version(opset);
  m.mutable_graph()->set_name(graph_name);
  return m;
}

void AddInput(::onnx::GraphProto* g, const std::string& name, int32_t data_type,
              const std::vector<int64_t>& shape) {
  SetValueInfo(g->add_input(), name, data_type, shape);
}

void AddOutput(::onnx::GraphProto* g, const std::string& name, int32_t data_type,
               const std::vector<int64_t>& shape) {
  SetValueInfo(g->add_output(), name, data_type, shape);
}

::onnx::NodeProto* AddNode(::onnx::GraphProto* g, const std::string& op_type,
                           const std::vector<std::string>& inputs,
                           const std::vector<std::string>& outputs) {
  ::onnx::NodeProto* n = g->add_node();
  n->set_op_type(op_type);
  for (const std::string& i : inputs) n->add_input(i);
  for (const std::string& o : outputs) n->add_output(o);
  return n;
}

void SetAttribute(::onnx::NodeProto* n, const std::string& name, int64_t value) {
  ::onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INT);
  a->set_i(value);
}

void SetAttribute(::onnx::NodeProto* n, const std::string& name, const std::string& value) {
  ::onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::STRING);
  a->set_s(value);
}

void SetAttribute(::onnx::NodeProto* n, const std::string& name,
                  const std::vector<int64_t>& values) {
  ::onnx::AttributeProto* a = n->add_attribute();
  a->set_name(name);
  a->set_type(::onnx::AttributeProto::INTS);
  for (int64_t v : values) a->add_ints(v);
}

void AddInt64Initializer(::onnx::GraphProto* g, const std::string& name,
                         const std::vector<int64_t>& values) {
  ::onnx::TensorProto* t = g->add_initializer();
  t->set_name(name);
  t->set_data_type(::onnx::TensorProto::INT64);
  t->add_dims(static_cast<int64_t>(values.size()));
  // raw_data, little-endian, as every tensor dmconf writes (tensor_proto.h).
  std::string raw;
  for (int64_t v : values) {
    for (int k = 0; k < 8; ++k)
      raw += static_cast<char>((static_cast<uint64_t>(v) >> (8 * k)) & 0xFF);
  }
  t->set_raw_data(raw);
}

::onnx::ModelProto SingleNodeModel(
    const std::string& op_type, const std::vector<std::pair<std::string, int64_t>>& int_attrs,
    const std::vector<std::pair<std::string, std::string>>& str_attrs, int32_t data_type,
    const std::vector<int64_t>& in_shape, const std::vector<int64_t>& out_shape, int64_t opset) {
  ::onnx::ModelProto m = NewModel("dmconf", opset);
  ::onnx::GraphProto* g = m.mutable_graph();
  ::onnx::NodeProto* n = AddNode(g, op_type, {"x"}, {"y"});
  for (const auto& [name, v] : int_attrs) SetAttribute(n, name, v);
  for (const auto& [name, v] : str_attrs) SetAttribute(n, name, v);
  AddInput(g, "x", data_type, in_shape);
  AddOutput(g, "y", data_type, out_shape);
  return m;
}

}  // namespace dmconf::onnx_io
