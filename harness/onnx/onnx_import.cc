#include "harness/onnx/onnx_import.h"

#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "harness/io/case_json.h"
#include "harness/io/tensor_json.h"
#include "harness/io/vector_file.h"
#include "harness/onnx/case_model.h"
#include "harness/onnx/onnx_parse.h"
#include "harness/onnx/tensor_proto.h"

namespace dmconf::io {
namespace {

absl::Status Error(absl::string_view rule, absl::string_view file, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat(rule, ": ", file, ": ", what));
}

absl::StatusOr<Tensor> ReadTensorFile(const std::string& path) {
  absl::StatusOr<::onnx::TensorProto> p = onnx_io::ReadOnnxTensor(path);
  if (!p.ok()) return p.status();
  return onnx_io::TensorFromProto(*p, path);
}

// An ONNX node test of DepthToSpace / SpaceToDepth (the first kind in onnx_import.h).
absl::StatusOr<VectorCase> FromNodeTest(const ::onnx::ModelProto& m, const std::string& dir,
                                        const std::string& model_path) {
  const std::string name = std::filesystem::path(dir).filename().string();
  if (m.graph().node_size() != 1) {
    return Error("onnx.graph", model_path,
                 absl::StrCat("the graph has ", m.graph().node_size(), " nodes, not one"));
  }
  const ::onnx::NodeProto& node = m.graph().node(0);
  std::optional<int64_t> blocksize;
  std::optional<std::string> mode;
  for (const ::onnx::AttributeProto& a : node.attribute()) {
    if (a.name() == "blocksize" && a.has_i()) blocksize = a.i();
    if (a.name() == "mode" && a.has_s()) mode = a.s();
  }
  VectorCase v;
  std::string onnx_mode;
  if (node.op_type() == "DepthToSpace") {
    v.c.op = Op::kDepthToSpace;
    onnx_mode = mode.value_or("DCR");
    if (onnx_mode == "DCR") {
      v.c.mode = "blocks_first";
    } else if (onnx_mode == "CRD") {
      v.c.mode = "depth_first";
    } else {
      return Error("onnx.mode", model_path,
                   absl::StrCat("unknown DepthToSpace mode '", onnx_mode.substr(0, 40), "'"));
    }
  } else if (node.op_type() == "SpaceToDepth") {
    v.c.op = Op::kSpaceToDepth;
    v.c.mode = "blocks_first";
  } else {
    return Error("onnx.op", model_path,
                 absl::StrCat("op '", node.op_type().substr(0, 40),
                              "' is not DepthToSpace or SpaceToDepth"));
  }
  if (!blocksize) return Error("onnx.attribute", model_path, "no blocksize attribute");
  absl::StatusOr<Tensor> input = ReadTensorFile(dir + "/test_data_set_0/input_0.pb");
  if (!input.ok()) return input.status();
  absl::StatusOr<Tensor> output = ReadTensorFile(dir + "/test_data_set_0/output_0.pb");
  if (!output.ok()) return output.status();
  v.c.block_size = *blocksize;
  v.c.data = *std::move(input);
  v.c.id = absl::StrCat("onnx.", name);
  v.constant = DefaultConstantFlags(v.c);
  v.expected.kind = ExpectationKind::kValid;
  v.expected.output_shape = output->shape;
  v.expected.output = *std::move(output);
  v.provenance.kind = "external";
  v.provenance.generator = "dmconf vectors import-onnx";
  v.provenance.source =
      absl::StrCat("ONNX node test ", name, " (Debian package libonnx-testdata); ONNX ",
                   node.op_type(), onnx_mode.empty() ? "" : absl::StrCat(" mode ", onnx_mode),
                   " -> OpenVINO ", OpName(v.c.op), "-", OpVersion(v.c.op), " mode ", *v.c.mode);
  v.provenance.path = absl::StrCat("data/node/", name);
  std::vector<std::string> classes = DerivedClasses(v.c, v.expected);
  classes.push_back("external:onnx");
  std::sort(classes.begin(), classes.end());
  v.classes = std::move(classes);
  return v;
}

// Puts `t`'s data into the tensor object `slot` ({"type", "shape", ...}) after checking that
// its type and shape are the ones recorded there.
absl::Status FillData(const Tensor& t, nlohmann::json* slot, absl::string_view file,
                      absl::string_view what) {
  if (!slot->is_object()) return Error("onnx.metadata", file, absl::StrCat(what, ": no tensor"));
  nlohmann::json tj(TensorToJson(t));
  if ((*slot)["type"] != tj["type"] || (*slot)["shape"] != tj["shape"]) {
    return Error("onnx.metadata", file,
                 absl::StrCat(what, ": the ONNX tensor is ", ElementTypeName(t.type), " ",
                              ShapeToString(t.shape), ", the recorded vector says otherwise"));
  }
  (*slot)["data"] = std::move(tj["data"]);
  return absl::OkStatus();
}

// A folder written by `dmconf vectors export-onnx` (the second kind in onnx_import.h).
absl::StatusOr<VectorCase> FromExport(const ::onnx::ModelProto& m, const std::string& skeleton,
                                      const std::string& dir, const std::string& model_path) {
  absl::StatusOr<nlohmann::json> j = ParseJsonText(skeleton, model_path);
  if (!j.ok()) return j.status();
  if (!j->is_object() || !(*j)["inputs"].is_array() || (*j)["inputs"].empty()) {
    return Error("onnx.metadata", model_path, "the recorded vector has no inputs");
  }
  nlohmann::json& inputs = (*j)["inputs"];
  absl::StatusOr<Tensor> data = ReadTensorFile(dir + "/test_data_set_0/input_0.pb");
  if (!data.ok()) return data.status();
  absl::Status s = FillData(*data, &inputs[0], model_path, "input 0");
  for (size_t k = 1; s.ok() && k < inputs.size(); ++k) {
    const nlohmann::json& name = inputs[k]["name"];
    const ::onnx::TensorProto* init = nullptr;
    for (const ::onnx::TensorProto& t : m.graph().initializer()) {
      if (name.is_string() && t.name() == name.get<std::string>()) init = &t;
    }
    if (init == nullptr) {
      return Error("onnx.metadata", model_path,
                   absl::StrCat("no initializer for input ", k, " ", name.dump()));
    }
    absl::StatusOr<Tensor> t = onnx_io::TensorFromProto(*init, model_path);
    if (!t.ok()) return t.status();
    s = FillData(*t, &inputs[k], model_path, absl::StrCat("input ", k));
  }
  if (!s.ok()) return s;
  nlohmann::json& expectation = (*j)["expectation"];
  if (!expectation.is_object() || !expectation.contains("output")) {
    return Error("onnx.metadata", model_path, "the recorded vector has no expected output");
  }
  absl::StatusOr<Tensor> output = ReadTensorFile(dir + "/test_data_set_0/output_0.pb");
  if (!output.ok()) return output.status();
  s = FillData(*output, &expectation["output"], model_path, "output 0");
  if (!s.ok()) return s;
  absl::StatusOr<VectorCase> v = VectorCaseFromJson(*j, model_path);
  if (!v.ok()) return v.status();
  // The graph must compute this case as the export writes it.
  absl::StatusOr<::onnx::ModelProto> expected = onnx_io::CaseModel(v->c);
  if (!expected.ok() ||
      !google::protobuf::util::MessageDifferencer::Equals(expected->graph(), m.graph())) {
    return Error("onnx.graph", model_path,
                 "the graph is not the one `dmconf vectors export-onnx` writes for the recorded "
                 "case");
  }
  return v;
}

}  // namespace

std::vector<std::string> OnnxNodeTestNames() {
  return {"test_depthtospace_crd_mode", "test_depthtospace_crd_mode_example",
          "test_depthtospace_dcr_mode", "test_depthtospace_example",
          "test_spacetodepth",          "test_spacetodepth_example"};
}

absl::StatusOr<Tensor> ParseOnnxTensor(absl::string_view bytes, absl::string_view file) {
  absl::StatusOr<::onnx::TensorProto> p = onnx_io::ParseOnnxTensorProto(bytes, file);
  if (!p.ok()) return p.status();
  return onnx_io::TensorFromProto(*p, file);
}

absl::StatusOr<VectorCase> ImportOnnxNodeTest(const std::string& dir) {
  const std::string model_path = dir + "/model.onnx";
  absl::StatusOr<::onnx::ModelProto> m = onnx_io::ReadOnnxModel(model_path);
  if (!m.ok()) return m.status();
  for (const ::onnx::StringStringEntryProto& e : m->metadata_props()) {
    if (e.key() == kOnnxVectorMetadataKey) return FromExport(*m, e.value(), dir, model_path);
  }
  return FromNodeTest(*m, dir, model_path);
}

}  // namespace dmconf::io
