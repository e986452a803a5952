#include "harness/io/onnx_import.h"

#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "harness/io/atomic_file.h"

namespace dmconf::io {
namespace {

// One protobuf field: number, wire type, and its value (varint / fixed bits, or bytes).
struct Field {
  uint32_t number = 0;
  int wire = 0;
  uint64_t value = 0;
  absl::string_view bytes;
};

class WireReader {
 public:
  explicit WireReader(absl::string_view data) : data_(data) {}
  bool done() const { return pos_ >= data_.size(); }

  // False at a malformed field (the caller reports it).
  bool Next(Field* f) {
    uint64_t key;
    if (!Varint(&key) || (key >> 3) == 0 || (key >> 3) > 0x1FFFFFFF) return false;
    f->number = static_cast<uint32_t>(key >> 3);
    f->wire = static_cast<int>(key & 7);
    switch (f->wire) {
      case 0:
        return Varint(&f->value);
      case 1:
        return Fixed(8, &f->value);
      case 5:
        return Fixed(4, &f->value);
      case 2: {
        uint64_t len;
        if (!Varint(&len) || len > data_.size() - pos_) return false;
        f->bytes = data_.substr(pos_, static_cast<size_t>(len));
        pos_ += static_cast<size_t>(len);
        return true;
      }
      default:
        return false;
    }
  }

  bool Varint(uint64_t* v) {
    *v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos_ >= data_.size()) return false;
      const uint8_t b = static_cast<uint8_t>(data_[pos_++]);
      *v |= uint64_t{b & 0x7Fu} << shift;
      if ((b & 0x80) == 0) return true;
    }
    return false;
  }

 private:
  bool Fixed(int n, uint64_t* v) {
    if (data_.size() - pos_ < static_cast<size_t>(n)) return false;
    *v = 0;
    for (int i = 0; i < n; ++i) {
      *v |= uint64_t{static_cast<uint8_t>(data_[pos_ + static_cast<size_t>(i)])} << (8 * i);
    }
    pos_ += static_cast<size_t>(n);
    return true;
  }

  absl::string_view data_;
  size_t pos_ = 0;
};

absl::Status Malformed(absl::string_view file, absl::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("onnx.protobuf: ", file, ": ", what));
}

struct OnnxNode {
  std::string op_type;
  std::optional<int64_t> blocksize;
  std::optional<std::string> mode;
};

absl::StatusOr<OnnxNode> ParseNode(absl::string_view node_bytes, absl::string_view file) {
  OnnxNode node;
  WireReader r(node_bytes);
  Field f;
  while (!r.done()) {
    if (!r.Next(&f)) return Malformed(file, "bad field in NodeProto");
    if (f.number == 4 && f.wire == 2) node.op_type = std::string(f.bytes);
    if (f.number != 5 || f.wire != 2) continue;
    std::string name, s;
    std::optional<int64_t> i;
    WireReader a(f.bytes);
    Field af;
    while (!a.done()) {
      if (!a.Next(&af)) return Malformed(file, "bad field in AttributeProto");
      if (af.number == 1 && af.wire == 2) name = std::string(af.bytes);
      if (af.number == 3 && af.wire == 0) i = static_cast<int64_t>(af.value);
      if (af.number == 4 && af.wire == 2) s = std::string(af.bytes);
    }
    if (name == "blocksize") node.blocksize = i;
    if (name == "mode") node.mode = s;
  }
  return node;
}

absl::StatusOr<OnnxNode> ParseModel(absl::string_view model, absl::string_view file) {
  WireReader r(model);
  Field f;
  std::optional<OnnxNode> found;
  while (!r.done()) {
    if (!r.Next(&f)) return Malformed(file, "bad field in ModelProto");
    if (f.number != 7 || f.wire != 2) continue;
    WireReader g(f.bytes);
    Field gf;
    while (!g.done()) {
      if (!g.Next(&gf)) return Malformed(file, "bad field in GraphProto");
      if (gf.number != 1 || gf.wire != 2) continue;
      if (found) return Malformed(file, "the graph has more than one node");
      absl::StatusOr<OnnxNode> node = ParseNode(gf.bytes, file);
      if (!node.ok()) return node.status();
      found = *std::move(node);
    }
  }
  if (!found) return Malformed(file, "no graph node");
  return *found;
}

}  // namespace

std::vector<std::string> OnnxNodeTestNames() {
  return {"test_depthtospace_crd_mode", "test_depthtospace_crd_mode_example",
          "test_depthtospace_dcr_mode", "test_depthtospace_example",
          "test_spacetodepth",          "test_spacetodepth_example"};
}

absl::StatusOr<Tensor> ParseOnnxTensor(absl::string_view bytes, absl::string_view file) {
  WireReader r(bytes);
  Field f;
  Shape dims;
  int64_t data_type = 0;
  std::string raw;
  std::vector<uint32_t> float_data;
  while (!r.done()) {
    if (!r.Next(&f)) return Malformed(file, "bad field in TensorProto");
    if (f.number == 1 && f.wire == 0) {
      dims.push_back(static_cast<int64_t>(f.value));
    } else if (f.number == 1 && f.wire == 2) {  // packed dims
      WireReader p(f.bytes);
      while (!p.done()) {
        uint64_t d;
        if (!p.Varint(&d)) return Malformed(file, "bad packed dims");
        dims.push_back(static_cast<int64_t>(d));
      }
    } else if (f.number == 2 && f.wire == 0) {
      data_type = static_cast<int64_t>(f.value);
    } else if (f.number == 4 && f.wire == 2) {  // packed float_data
      if (f.bytes.size() % 4 != 0) return Malformed(file, "float_data length not a multiple of 4");
      for (size_t i = 0; i < f.bytes.size(); i += 4) {
        uint32_t b;
        std::memcpy(&b, f.bytes.data() + i, 4);  // protobuf fixed32 is little-endian
        float_data.push_back(b);
      }
    } else if (f.number == 4 && f.wire == 5) {
      float_data.push_back(static_cast<uint32_t>(f.value));
    } else if (f.number == 9 && f.wire == 2) {
      raw = std::string(f.bytes);
    }
    if (dims.size() > 64) return Malformed(file, "more than 64 dims");
  }
  if (data_type != 1) {
    return absl::InvalidArgumentError(
        absl::StrCat("onnx.data_type: ", file, ": data_type ", data_type, " is not 1 (float)"));
  }
  absl::StatusOr<int64_t> n = NumElements(dims);
  if (!n.ok()) return Malformed(file, n.status().message());
  const size_t have = raw.empty() ? float_data.size() : raw.size() / 4;
  if ((!raw.empty() && raw.size() % 4 != 0) || static_cast<uint64_t>(*n) != have) {
    return Malformed(file, absl::StrCat("shape ", ShapeToString(dims), " has ", *n,
                                        " elements, the data holds ", have));
  }
  absl::StatusOr<Tensor> t = Tensor::Zeros(ElementType::kF32, dims, *n * 4 + 4);
  if (!t.ok()) return t.status();
  for (int64_t i = 0; i < *n; ++i) {
    uint32_t b;
    if (raw.empty()) {
      b = float_data[static_cast<size_t>(i)];
    } else {
      b = 0;
      for (int k = 0; k < 4; ++k) {
        b |= uint32_t{static_cast<uint8_t>(raw[static_cast<size_t>(i * 4 + k)])} << (8 * k);
      }
    }
    t->SetBits(i, b);
  }
  return t;
}

absl::StatusOr<VectorCase> ImportOnnxNodeTest(const std::string& dir) {
  const std::string name = std::filesystem::path(dir).filename().string();
  const std::string model_path = dir + "/model.onnx";
  const std::string in_path = dir + "/test_data_set_0/input_0.pb";
  const std::string out_path = dir + "/test_data_set_0/output_0.pb";
  absl::StatusOr<std::string> model = ReadFileToString(model_path, 1 << 20);
  if (!model.ok()) return model.status();
  absl::StatusOr<OnnxNode> node = ParseModel(*model, model_path);
  if (!node.ok()) return node.status();
  absl::StatusOr<std::string> in_bytes = ReadFileToString(in_path, 64 << 20);
  if (!in_bytes.ok()) return in_bytes.status();
  absl::StatusOr<std::string> out_bytes = ReadFileToString(out_path, 64 << 20);
  if (!out_bytes.ok()) return out_bytes.status();
  absl::StatusOr<Tensor> input = ParseOnnxTensor(*in_bytes, in_path);
  if (!input.ok()) return input.status();
  absl::StatusOr<Tensor> output = ParseOnnxTensor(*out_bytes, out_path);
  if (!output.ok()) return output.status();

  VectorCase v;
  std::string onnx_mode;
  if (node->op_type == "DepthToSpace") {
    v.c.op = Op::kDepthToSpace;
    onnx_mode = node->mode.value_or("DCR");
    if (onnx_mode == "DCR") {
      v.c.mode = "blocks_first";
    } else if (onnx_mode == "CRD") {
      v.c.mode = "depth_first";
    } else {
      return absl::InvalidArgumentError(
          absl::StrCat("onnx.mode: ", model_path, ": unknown DepthToSpace mode '", onnx_mode, "'"));
    }
  } else if (node->op_type == "SpaceToDepth") {
    v.c.op = Op::kSpaceToDepth;
    v.c.mode = "blocks_first";
  } else {
    return absl::InvalidArgumentError(absl::StrCat("onnx.op: ", model_path, ": op '",
                                                   node->op_type.substr(0, 40),
                                                   "' is not DepthToSpace or SpaceToDepth"));
  }
  if (!node->blocksize) {
    return absl::InvalidArgumentError(
        absl::StrCat("onnx.attribute: ", model_path, ": no blocksize attribute"));
  }
  v.c.block_size = *node->blocksize;
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
                   node->op_type, onnx_mode.empty() ? "" : absl::StrCat(" mode ", onnx_mode),
                   " -> OpenVINO ", OpName(v.c.op), "-", OpVersion(v.c.op), " mode ", *v.c.mode);
  v.provenance.path = absl::StrCat("data/node/", name);
  std::vector<std::string> classes = DerivedClasses(v.c, v.expected);
  classes.push_back("external:onnx");
  std::sort(classes.begin(), classes.end());
  v.classes = std::move(classes);
  return v;
}

}  // namespace dmconf::io
